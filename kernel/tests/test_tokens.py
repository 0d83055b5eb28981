"""Participant tokens: digests at rest, found only within their instance and kind."""

from __future__ import annotations

from typing import Any

from groupkit import find_token
from groupkit import issue_token
from groupkit import revoke_tokens
from groupkit import rotate_token
from groupkit.core._credentials import digest
from groupkit.core._storage import Credential
from groupkit.core._storage import Instance
from groupkit.core._tokens import lookup_token


def instances(demo_app: Any) -> tuple[Instance, Instance]:
    storage = demo_app.config["GROUPKIT_STORAGE"]

    def make() -> tuple[Instance, Instance]:
        return tuple(Instance.create(tool="demo", slug=f"s-{n}-aaaaaaaaaaaaaa",  # type: ignore
                                     edit_digest=digest(str(n))) for n in (1, 2))
    return storage.run_sync(make)


def test_tokens_are_stored_as_digests_unless_asked(demo_app: Any) -> None:
    first, _ = instances(demo_app)
    storage = demo_app.config["GROUPKIT_STORAGE"]
    hidden = storage.run_sync(issue_token, first, "player", "ann")
    shown = storage.run_sync(lambda: issue_token(first, "recipe", "7", keep_plain=True))
    rows = storage.run_sync(lambda: list(Credential.select().order_by(Credential.id)))
    assert rows[0].digest == digest(hidden) and rows[0].plain is None
    assert rows[1].plain == shown and len(shown) == 22


def test_find_token_is_scoped_to_instance_and_kind(demo_app: Any) -> None:
    first, second = instances(demo_app)
    storage = demo_app.config["GROUPKIT_STORAGE"]
    token = storage.run_sync(issue_token, first, "player", "ann")

    def found(instance: Instance, kinds: Any, value: Any) -> Any:
        return storage.run_sync(find_token, instance, kinds, value)

    assert found(first, "player", token).ref == "ann"
    assert found(first, ("other", "player"), token).ref == "ann"
    assert found(second, "player", token) is None
    assert found(first, "other", token) is None
    assert found(first, "player", token.upper()) is None
    assert found(first, "player", None) is None
    assert storage.run_sync(lookup_token, token).instance.id == first.id


def test_rotate_and_revoke(demo_app: Any) -> None:
    first, _ = instances(demo_app)
    storage = demo_app.config["GROUPKIT_STORAGE"]
    old = storage.run_sync(issue_token, first, "player", "ann")
    other = storage.run_sync(issue_token, first, "player", "bo")
    new = storage.run_sync(rotate_token, first, "player", "ann")
    assert storage.run_sync(lookup_token, old) is None
    assert storage.run_sync(lookup_token, new).ref == "ann"
    assert storage.run_sync(revoke_tokens, first, "player") == 2
    assert storage.run_sync(lookup_token, other) is None
