"""Personal links: one readable link per listed person, claims by name refused, the
organiser's list and the email invitations built from the same links."""

from __future__ import annotations

from typing import Any

import pytest
from test_storage import _with_tables

from groupkit import ApiError
from groupkit import Credential
from groupkit import Instance
from groupkit import find_token
from groupkit.core._storage import Storage
from groupkit.entries import CLAIM_BY_LINK
from groupkit.entries import PersonalLinks

LINKS = PersonalLinks("member")
PEOPLE = [(7, "Ann"), (8, "Bo"), (9, "Cy")]


@pytest.fixture
def storage(database_url: str) -> Any:
    opened = _with_tables(database_url)
    yield opened
    opened.close()


def _instance(slug: str, **data: Any) -> Instance:
    return Instance.create(tool="demo", slug=slug, edit_digest=slug, data=data)


def _refusal(instance: Instance, links: PersonalLinks = LINKS) -> tuple[int, str] | None:
    try:
        links.refuse_claim(instance)
    except ApiError as error:
        return error.status, error.message
    return None


def test_off_unless_sent_on_and_then_nothing_is_issued(storage: Storage) -> None:
    def work() -> dict[str, Any]:
        plain = _instance("links-off", note="x")
        kept = LINKS.keep_option(plain, {"personalLinks": False})
        return {"kept": kept, "data": plain.data, "issued": LINKS.issue(plain, 7),
                "links": LINKS.links(plain), "listed": LINKS.listed(plain, PEOPLE),
                "refusal": _refusal(plain),
                "invite": LINKS.invitations(lambda _: PEOPLE).links(plain),
                "credentials": Credential.select().where(Credential.instance == plain).count()}

    found = storage.run_sync(work)
    assert found["kept"] is False and found["data"] == {"note": "x"}
    assert found["issued"] is None and found["links"] == {} and found["listed"] == []
    assert found["refusal"] is None and found["invite"] == {}
    assert found["credentials"] == 0


def test_each_person_gets_one_readable_link(storage: Storage) -> None:
    def work() -> dict[str, Any]:
        draw = _instance("links-on", note="x")
        other = _instance("links-other")
        assert LINKS.keep_option(draw, {"personalLinks": True})
        tokens = {ref: LINKS.issue(draw, ref) for ref, _ in PEOPLE[:2]}
        LINKS.keep_option(other, {"personalLinks": True})
        LINKS.issue(other, 9)  # another instance's person: never listed here
        first = tokens[7]
        tokens[7] = LINKS.issue(draw, 7)  # a fresh link: the old one dies
        return {"data": draw.data, "tokens": tokens, "links": LINKS.links(draw),
                "listed": LINKS.listed(draw, list(reversed(PEOPLE))),
                "invite": LINKS.invitations(lambda _: PEOPLE).links(draw),
                "old": find_token(draw, "member", first),
                "new": find_token(draw, "member", tokens[7]).ref,
                "refusal": _refusal(draw),
                "worded": _refusal(draw, PersonalLinks("member", "This draw uses links."))}

    found = storage.run_sync(work)
    ann, bo = found["tokens"][7], found["tokens"][8]
    assert found["data"] == {"note": "x", "personalLinks": True}
    assert found["links"] == {"7": f"/p/{ann}", "8": f"/p/{bo}"}
    # The organiser's order, people without a link left out.
    assert found["listed"] == [{"name": "Bo", "link": f"/p/{bo}"},
                               {"name": "Ann", "link": f"/p/{ann}"}]
    assert found["invite"] == {"Ann": f"/p/{ann}", "Bo": f"/p/{bo}"}
    assert found["old"] is None and found["new"] == "7"
    assert found["refusal"] == (409, CLAIM_BY_LINK)
    assert found["worded"] == (409, "This draw uses links.")


def test_a_retired_link_is_no_longer_listed(storage: Storage) -> None:
    """A link turned into another kind (a reset page) has lost its readable token."""

    def work() -> dict[str, str]:
        draw = _instance("links-retired", personalLinks=True)
        LINKS.issue(draw, 7)
        Credential.update(kind="member-reset", plain=None).where(
            Credential.instance == draw).execute()
        return LINKS.links(draw)

    assert storage.run_sync(work) == {}
