"""Create, resolution, operations, delete and export through the demo tool."""

from __future__ import annotations

from typing import Any

import peewee as pw
import pytest
from quart import request
from quart.wrappers.request import Body
from werkzeug.exceptions import RequestTimeout

from demo_plugin import Note
from groupkit.blocks._slots import SlotClaim
from groupkit.core import _api as api
from groupkit.core import _credentials as credentials
from groupkit.core._storage import Credential
from groupkit.core._storage import Instance
from groupkit.web._forms import is_form_post
from groupkit_testing import create

NOT_FOUND = {"error": "Nothing here — check the link you were given."}


async def make(client: Any) -> dict[str, str]:
    return await create(client, "demo", {"title": "Team lunch", "names": ["Ann", "Bo"]})


async def test_create_returns_credentials_and_stores_digests_only(client: Any) -> None:
    made = await make(client)
    assert made["slug"].startswith("team-lunch-")
    assert len(made["editToken"]) == 26
    instance = Instance.get(Instance.slug == made["slug"])
    assert instance.edit_digest == credentials.digest(made["editToken"])
    assert made["editToken"] not in str(instance.__data__)


async def test_invalid_json_and_non_objects_read_as_empty(client: Any) -> None:
    for body in (b"{not json", b"[1,2]", b"\"text\"", b"", b"\xff\xfe"):
        response = await client.post("/api/demo", data=body,
                                     headers={"Content-Type": "application/json"})
        assert response.status_code == 400
        assert await response.get_json() == {"error": "Name it."}


async def test_first_failing_check_wins_in_declaration_order(client: Any) -> None:
    response = await client.post("/api/demo", json={"names": ["a", "A"]})
    assert (await response.get_json()) == {"error": "Name it."}
    response = await client.post("/api/demo", json={"title": "x", "names": ["a", "A"]})
    assert (await response.get_json()) == {"error": '"A" twice.'}


async def test_public_read_matches_public_view(client: Any) -> None:
    made = await make(client)
    response = await client.get(f"/api/demo/{made['slug']}")
    assert response.status_code == 200
    assert await response.get_json() == {"title": "Team lunch", "notes": [], "slots": {}}


async def test_operations_of_every_kind(client: Any) -> None:
    made = await make(client)
    slug, edit = made["slug"], made["editToken"]
    response = await client.post("/api/demo/note", json={"slug": slug, "text": "hi"})
    assert response.status_code == 201
    response = await client.get(f"/api/demo/{slug}/count")
    assert await response.get_json() == {"notes": 1}
    joined = await (await client.post("/api/demo/join", json={"slug": slug, "text": "Ann"})
                    ).get_json()
    response = await client.post(f"/api/demo/p/{joined['token']}/whoami")
    assert await response.get_json() == {"name": "Ann"}
    rotated = await (await client.post(f"/api/demo/{edit}/rotate", json={"text": "Ann"})
                     ).get_json()
    old = await client.post(f"/api/demo/p/{joined['token']}/whoami")
    assert old.status_code == 404 and await old.get_json() == NOT_FOUND
    assert (await client.post(f"/api/demo/p/{rotated['token']}/whoami")).status_code == 200


async def test_operation_body_validation_after_resolution(client: Any) -> None:
    unknown = await client.post("/api/demo/note", json={"slug": "nope-" + "a" * 14})
    assert unknown.status_code == 404
    made = await make(client)
    bad = await client.post("/api/demo/note", json={"slug": made["slug"]})
    assert bad.status_code == 400 and await bad.get_json() == {"error": "Say something."}


async def test_capacity_is_enforced(client: Any) -> None:
    made = await make(client)
    statuses = [(await client.post("/api/demo/note", json={"slug": made["slug"], "text": "x"})
                 ).status_code for _ in range(5)]
    assert statuses == [201, 201, 201, 409, 409]


async def test_slot_claims_release_and_remove(client: Any) -> None:
    made = await make(client)
    slug = made["slug"]
    first = await client.post("/api/demo/claim",
                              json={"slug": slug, "slotId": "a-1", "name": "Ann"})
    secret = (await first.get_json())["secret"]
    assert first.status_code == 201 and len(secret) == 16
    second = await client.post("/api/demo/claim",
                               json={"slug": slug, "slotId": "a-1", "name": "Bo"})
    assert second.status_code == 409 and await second.get_json() == {"error": "Taken."}
    wrong = await client.post("/api/demo/unclaim",
                              json={"slug": slug, "slotId": "a-1", "secret": "x" * 16})
    assert wrong.status_code == 404
    right = await client.post("/api/demo/unclaim",
                              json={"slug": slug, "slotId": "a-1", "secret": secret})
    assert right.status_code == 200
    again = await client.post("/api/demo/claim", json={"slug": slug, "slotId": "a-1", "name": "Bo"})
    assert again.status_code == 201
    removed = await client.post(f"/api/demo/{made['editToken']}/remove",
                                json={"slotId": "a-1", "name": "x"})
    assert await removed.get_json() == {"removed": True}
    assert SlotClaim.select().count() == 0


async def test_csv_is_formula_safe_and_not_cached(client: Any) -> None:
    made = await make(client)
    await client.post("/api/demo/claim", json={"slug": made["slug"], "slotId": "b-1",
                                                "name": "=HYPERLINK(\"x\")"})
    response = await client.get(f"/api/demo/{made['editToken']}/csv")
    assert response.headers["Cache-Control"] == "no-store"
    assert "noindex" in response.headers["X-Robots-Tag"]
    text = await response.get_data(as_text=True)
    assert text.startswith("\ufeff")  # so spreadsheets read it as UTF-8
    assert text[1:].splitlines() == ["slot,name", "b-1,\"'=HYPERLINK(\"\"x\"\")\""]


async def test_same_404_for_unknown_wrong_tool_and_deleted(make_app: Any) -> None:
    import demo_plugin

    app = make_app(tools=["demo", "sweeps"], extra_plugins=[demo_plugin])
    client = app.test_client()
    demo = await make(client)
    sweep = await create(client, "sweeps", {"outcomes": ["a", "b"], "names": ["x", "y"]})
    await client.post(f"/api/demo/{demo['editToken']}/delete")
    probes = [
        client.get(f"/api/demo/{demo['slug']}"),                      # deleted
        client.get(f"/api/demo/{sweep['slug']}"),                     # wrong tool
        client.get("/api/demo/nothing-" + "a" * 14),                  # unknown
        client.post(f"/api/demo/{demo['editToken']}/export"),         # deleted
        client.post(f"/api/demo/{sweep['editToken']}/export"),        # wrong tool
        client.post(f"/api/demo/{'a' * 26}/export"),                  # unknown
        client.post("/api/demo/note", json={"slug": sweep["slug"], "text": "x"}),
        client.post("/api/demo/note", json={"text": "x"}),            # missing
        client.post(f"/api/sweeps/{demo['editToken']}/redraw"),
    ]
    for probe in probes:
        response = await probe
        assert response.status_code == 404
        assert await response.get_json() == NOT_FOUND


async def test_delete_cascades_to_every_row(client: Any) -> None:
    made = await make(client)
    slug, edit = made["slug"], made["editToken"]
    await client.post("/api/demo/note", json={"slug": slug, "text": "x"})
    joined = await (await client.post("/api/demo/join", json={"slug": slug, "text": "Ann"})
                    ).get_json()
    await client.post("/api/demo/claim", json={"slug": slug, "slotId": "a-1", "name": "Ann"})
    assert Note.select().count() == Credential.select().count() == SlotClaim.select().count() == 1
    response = await client.post(f"/api/demo/{edit}/delete")
    assert await response.get_json() == {"ok": True, "deleted": True}
    assert Instance.select().count() == Note.select().count() == 0
    assert Credential.select().count() == SlotClaim.select().count() == 0
    for path in (f"/s/{slug}", f"/e/{edit}", f"/p/{joined['token']}"):
        page = await client.get(path)
        assert page.status_code == 404
        assert "Nothing here" in await page.get_data(as_text=True)
    assert (await client.post(f"/api/demo/{edit}/delete")).status_code == 404


async def test_export_has_the_organiser_view(client: Any) -> None:
    made = await make(client)
    response = await client.post(f"/api/demo/{made['editToken']}/export")
    body = await response.get_json()
    assert body["tool"] == "demo" and body["slug"] == made["slug"]
    assert body["data"]["names"] == ["Ann", "Bo"]


async def test_unexpected_failure_is_a_json_500_without_traceback(client: Any) -> None:
    made = await make(client)
    response = await client.post("/api/demo/boom", json={"slug": made["slug"]})
    assert response.status_code == 500
    body = await response.get_json()
    assert set(body) == {"error"} and "Traceback" not in body["error"]
    assert "secret" not in body["error"]


async def test_http_errors_under_api_are_json(client: Any, demo_app: Any) -> None:
    response = await client.get("/api/demo/x/y/z")
    assert response.status_code == 404 and "error" in await response.get_json()
    # An operation's path is never read as a slug: GET on it is the wrong method.
    response = await client.get("/api/demo/note")
    assert response.status_code == 405 and "GET" not in response.headers["Allow"]
    assert "POST" in response.headers["Allow"]
    response = await client.put("/api/demo")
    assert response.status_code == 405 and "error" in await response.get_json()
    demo_app.config["MAX_CONTENT_LENGTH"] = 100
    response = await client.post("/api/demo", data=b"{" + b" " * 200 + b"}")
    assert response.status_code == 413
    assert await response.get_json() == {"error": "That request is too large."}


def test_models_cascade_on_delete() -> None:
    for model in (Note, Credential, SlotClaim):
        field = model._meta.fields["instance"]
        assert isinstance(field, pw.ForeignKeyField) and field.on_delete == "CASCADE"


def test_body_parsing_is_strict_and_never_raises() -> None:
    from groupkit.core._api import parse_body

    assert parse_body(b'{"a": 1}') == {"a": 1}
    for raw in (b"NaN", b'{"a": Infinity}', b"[" * 100_000 + b"]" * 100_000, b"\x00", b"{"):
        assert parse_body(raw) == {}
    # Strictly UTF-8, a byte-order mark read past; an encoded surrogate or a stray byte is
    # unreadable, escaped or not.
    assert parse_body(b'\xef\xbb\xbf{"a": "\xc3\xa9"}') == {"a": "\u00e9"}
    for raw in (b'{"a": "\xed\xa0\x80"}', b'{"a": "\xff"}', b'{"a": "\\ud800\xff"}'):
        assert parse_body(raw) == {}
    # Bytes JSON reads as UTF-16 are read only where they are UTF-8 as well.
    assert parse_body('{"a": 1}'.encode("utf-16-le")) == {"a": 1}
    assert parse_body('{"a": "\u00e9"}'.encode("utf-16-le")) == {}


async def test_spot_board_lists_every_spot_with_its_claim(client: Any, demo_app: Any) -> None:
    from groupkit import Instance
    from groupkit.signups import slot_ids
    from groupkit.signups import spot_board

    made = await make(client)
    await client.post("/api/demo/claim", json={"slug": made["slug"], "slotId": "g1-2",
                                                "name": "Ann"})
    groups = [{"name": "Mains", "capacity": 1}, {"name": "Sweets", "capacity": 2}]
    assert slot_ids(groups, "g") == ["g0-1", "g1-1", "g1-2"]

    def build() -> list[dict[str, Any]]:
        instance = Instance.get(Instance.slug == made["slug"])
        return spot_board(instance, groups, "g", organiser=True,
                          extra=lambda claim: {"late": bool(claim and claim.name == "Ann")})

    board = await demo_app.config["GROUPKIT_STORAGE"].read(build)
    assert [(g["name"], g["taken"]) for g in board] == [("Mains", 0), ("Sweets", 1)]
    free, taken = board[1]["spots"]
    assert free == {"slotId": "g1-1", "taken": False, "name": None, "late": False,
                    "claimedAt": None}
    assert (taken["name"], taken["late"], taken["claimedAt"][:4]) == ("Ann", True, "2026")


def test_lone_surrogates_become_replacement_characters() -> None:
    from groupkit.core._api import parse_body

    assert parse_body(b'{"name": "a\\ud800b", "list": ["\\udfff"], "\\ud801": 1}') == {
        "name": "a\ufffdb", "list": ["\ufffd"], "\ufffd": 1}
    assert parse_body(b'{"emoji": "\\ud83d\\ude00"}') == {"emoji": "\U0001f600"}
    assert parse_body(b'{"name": "Ann\\u0000Bo", "l": ["\\u0000"]}') == {"name": "AnnBo", "l": [""]}
    # JSON's hex digits may be capitals, alone or mixed.
    assert parse_body(b'{"a": "x\\uD800", "b": "\\uDfFf"}') == {"a": "x\ufffd", "b": "\ufffd"}
    assert parse_body('{"a": "\\uDBFFy"}') == {"a": "\ufffdy"}
    assert parse_body(b'{"a": "\xed\xa0\x80"}') == {}  # an encoded surrogate: not UTF-8


async def test_a_write_names_the_link_it_resolves_by(demo_app: Any, monkeypatch: Any) -> None:
    """Each write tells the storage which link it goes through (the body's slug, the edit
    token, the participant token), so writes to one instance wait their turn in the event
    loop on PostgreSQL; a read, and a public write without a slug, name none."""
    client = demo_app.test_client()
    made = await make(client)
    slug, edit = made["slug"], made["editToken"]
    storage = demo_app.config["GROUPKIT_STORAGE"]
    keys: list[Any] = []
    write = storage.write

    async def noting(fn: Any, *args: Any, key: Any = None, **kwargs: Any) -> Any:
        keys.append(key)
        return await write(fn, *args, key=key, **kwargs)

    monkeypatch.setattr(storage, "write", noting)
    joined = await (await client.post("/api/demo/join", json={"slug": slug, "text": "Ann"})
                    ).get_json()
    await client.post(f"/api/demo/p/{joined['token']}/whoami")
    await client.post(f"/api/demo/{edit}/rotate", json={"text": "Ann"})
    await client.get(f"/api/demo/{slug}/count")
    await client.post("/api/demo/note", json={"text": "no slug"})
    assert keys == [slug, joined["token"], edit, None]


async def test_a_body_is_read_under_the_requests_body_timeout(make_app: Any) -> None:
    """The JSON body is read as `request.get_data` reads it: a complete one at once, one that
    never completes ends in werkzeug's 408 when the request's `body_timeout` runs out."""
    app = make_app(tools=["demo"])
    async with app.test_request_context("/api/demo", method="POST"):
        request.body.set_result(b'{"title": "Lunch"}')
        assert await api.json_body() == {"title": "Lunch"}
    async with app.test_request_context("/api/demo", method="POST"):
        request.body = Body(expected_content_length=None, max_content_length=None)
        request.body_timeout = 0.05
        with pytest.raises(RequestTimeout):
            await api.json_body()


async def test_a_form_post_is_known_by_its_content_type_alone(make_app: Any) -> None:
    app = make_app(tools=["demo"])
    for method, kind, expected in (
            ("POST", "application/x-www-form-urlencoded", True),
            ("POST", "Application/X-WWW-Form-URLencoded ; charset=UTF-8", True),
            ("POST", "application/json", False),
            ("POST", "", False),
            ("POST", "multipart/form-data; boundary=x", False),
            ("GET", "application/x-www-form-urlencoded", False)):
        headers = {"Content-Type": kind} if kind else {}
        async with app.test_request_context("/api/demo", method=method, headers=headers):
            assert is_form_post() is expected, (method, kind)
