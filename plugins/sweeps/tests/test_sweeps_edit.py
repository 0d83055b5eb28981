"""The organiser's edit: title and flavour change in place; new names or outcomes redraw,
only once the organiser confirms; the create rules and messages apply."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import edit

REDRAW = ("Changing the names or outcomes draws the sweep again — everyone may end up with "
          "a different one. Go ahead?")
BODY = {"title": "Grand final", "outcomes": ["Lions", "Swans", "Cats"], "names": ["Ann", "Bo"]}


@pytest.fixture
def client(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["sweeps"]).test_client()


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
