"""The organiser's edit: title and flavour change in place; new names or outcomes redraw,
only once the organiser confirms; the create rules and messages apply. Every redraw (the
edit's or the redraw operation's) is shown to the group, with when the last was."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import FakeClock
from groupkit_testing import create
from groupkit_testing import edit

REDRAW = ("Changing the names or outcomes draws the sweep again — everyone may end up with "
          "a different one. Go ahead?")
BODY = {"title": "Grand final", "outcomes": ["Lions", "Swans", "Cats"], "names": ["Ann", "Bo"]}
START = dt.datetime(2026, 9, 25, 23, 5, tzinfo=dt.UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def client(make_app: Callable[..., Any], clock: FakeClock) -> Any:
    return make_app(tools=["sweeps"], clock=clock).test_client()


async def organiser(client: Any, token: str) -> dict[str, Any]:
    return dict((await (await client.post(f"/api/sweeps/{token}/export")).get_json())["data"])


@pytest.mark.parametrize(("field", "sent", "stored"), [
    ("title", " Cup  day ", "Cup  day"), ("kind", "cup", "cup"), ("kind", "other", "final")])
async def test_title_and_flavour_keep_the_draw(client: Any, field: str, sent: str,
                                               stored: str) -> None:
    made = await create(client, "sweeps", BODY)
    before = await organiser(client, made["editToken"])
    assert await edit(client, "sweeps", made["editToken"], {field: sent}) == (
        200, {"ok": True, "changed": [field]})
    after = await organiser(client, made["editToken"])
    assert after["draw"] == before["draw"]
    assert (after["title"] if field == "title" else after[field]) == stored


@pytest.mark.parametrize("field", ["names", "outcomes"])
async def test_new_lists_redraw_only_when_confirmed(client: Any, field: str) -> None:
    made = await create(client, "sweeps", BODY)
    before = await organiser(client, made["editToken"])
    changed = {"names": ["Ann", "Bo", "Cy"], "outcomes": ["Lions", "Swans", "Cats", "Dees"]}
    body = {field: changed[field], "title": "New"}
    assert await edit(client, "sweeps", made["editToken"], body) == (
        409, {"error": REDRAW, "field": field, "confirm": True})
    assert await organiser(client, made["editToken"]) == before
    assert (await edit(client, "sweeps", made["editToken"], {**body, "confirm": True}))[0] == 200
    after = await organiser(client, made["editToken"])
    assert after[field] == changed[field] and after["title"] == "New"
    # The draw is of the new lists.
    assert {pair["outcome"] for pair in after["draw"]} <= set(after["outcomes"])
    assert {pair["name"] for pair in after["draw"]} == set(after["names"])


async def test_the_same_lists_need_no_confirmation(client: Any) -> None:
    made = await create(client, "sweeps", BODY)
    before = await organiser(client, made["editToken"])
    assert (await edit(client, "sweeps", made["editToken"], {
        "names": [" Ann ", "Bo"], "outcomes": BODY["outcomes"]}))[0] == 200
    assert (await organiser(client, made["editToken"]))["draw"] == before["draw"]


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"outcomes": ["Lions"]}, "outcomes", "Add at least two outcomes."),
    ({"outcomes": ["Lions", "Lions"]}, "outcomes",
     "Outcomes contain a duplicate — each one must be different."),
    ({"names": ["Ann", " "]}, "names", "Add at least two names."),
])
async def test_the_create_rules_apply(client: Any, body: dict[str, Any], field: str,
                                      message: str) -> None:
    made = await create(client, "sweeps", BODY)
    assert await edit(client, "sweeps", made["editToken"], {**body, "confirm": True}) == (
        400, {"error": message, "field": field})


async def test_the_form_is_prefilled(client: Any) -> None:
    made = await create(client, "sweeps", {**BODY, "kind": "cup"})
    html = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert ">Lions\nSwans\nCats</textarea>" in html and ">Ann\nBo</textarea>" in html
    assert 'value="cup" checked' in html


async def pages(client: Any, made: dict[str, str]) -> list[str]:
    return [await (await client.get(path)).get_data(as_text=True)
            for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}")]


async def test_every_redraw_is_shown_to_the_group(client: Any, clock: FakeClock) -> None:
    made = await create(client, "sweeps", BODY)
    public, organiser_page = await pages(client, made)
    # The organiser can redraw, so the page never calls the draw fixed.
    assert "was made when this sweep was set up. Only the organiser can redraw it, and this " \
        "page would say so." in public and "fixed" not in public
    assert "data-sweeps-redrawn" not in public + organiser_page
    assert (await client.post(f"/api/sweeps/{made['editToken']}/redraw")).status_code == 200
    view = await (await client.get(f"/api/sweeps/{made['slug']}")).get_json()
    assert view["redrawn"] == {"count": 1, "at": "2026-09-25T23:05:00+00:00"}
    for html in await pages(client, made):
        assert ('The organiser redrew the sweep on <time datetime="2026-09-25T23:05:00+00:00" '
                'data-local>25 Sep 2026, 23:05 UTC</time>.') in html
    public = (await pages(client, made))[0]
    assert "was made when this sweep was set up.</p>" in public and "fixed" not in public
    # A confirmed edit of the lists redraws too, and is counted alike.
    clock.advance(days=2)
    assert (await edit(client, "sweeps", made["editToken"], {
        "names": ["Ann", "Bo", "Cy"], "confirm": True}))[0] == 200
    exported = await organiser(client, made["editToken"])
    assert exported["redrawn"] == {"count": 2, "at": "2026-09-27T23:05:00+00:00"}
    for html in await pages(client, made):
        assert ("The organiser has redrawn the sweep 2 times, most recently on "
                '<time datetime="2026-09-27T23:05:00+00:00" data-local>27 Sep 2026, '
                "23:05 UTC</time>.") in html


async def test_only_a_redraw_is_counted(client: Any) -> None:
    made = await create(client, "sweeps", BODY)
    for body in ({"title": "Cup day", "kind": "cup"}, {"names": [" Ann", "Bo"]},
                 {"names": ["Ann", "Bo", "Cy"]}):
        await edit(client, "sweeps", made["editToken"], body)
    assert "redrawn" not in await organiser(client, made["editToken"])
    assert "data-sweeps-redrawn" not in "".join(await pages(client, made))
