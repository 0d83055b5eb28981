"""The organiser's edit: every detail, the running order and the lists change, with the
create rules and messages; no claim is ever lost (409 instead)."""

from __future__ import annotations

from collections.abc import Awaitable
from collections.abc import Callable
from typing import Any

import pytest

from groupkit import Instance
from groupkit_testing import edit

WHERE = "Bellbird Cottage, 7 Wattle Lane"

CAPACITY = "Spots per list must be a whole number from 1 to 20."
HELD = "Someone has a spot in {name} — remove them from it first, then the list can go."
SHRUNK = "{name} has {taken} spots taken — remove someone first, or keep at least {taken} spots."


async def read(client: Any, planner: dict[str, str]) -> dict[str, Any]:
    return dict(await (await client.get(f"/api/hens/{planner['slug']}")).get_json())


async def claim(client: Any, planner: dict[str, str], slot_id: str, name: str) -> str:
    response = await client.post("/api/hens/claim", json={
        "slug": planner["slug"], "slotId": slot_id, "name": name, "message": "on it"})
    assert response.status_code == 201
    return str((await response.get_json())["secret"])


@pytest.mark.parametrize(("field", "sent", "stored"), [
    ("title", "  Mia's   last fling ", "Mia's last fling"),
    ("forWhom", "Mia B.", "Mia B."),
    ("when", "Sunday 15 March, 1pm", "Sunday 15 March, 1pm"),
    ("where", "The Pier, 3 Bay St", "The Pier, 3 Bay St"),
    ("note", " Wear pink.\nBring sunscreen. ", "Wear pink.\nBring sunscreen."),
    ("kitty", "$70 each", "$70 each"),
    ("activities", ["Brunch", " ", "Cruise"], ["Brunch", "Cruise"]),
    ("forWhom", "", ""),
])
async def test_each_field_changes_alone(client: Any, planner: dict[str, str], field: str,
                                        sent: Any, stored: Any,
                                        planner_body: dict[str, Any]) -> None:
    changed = await edit(client, "hens", planner["editToken"], {field: sent})
    assert changed == (200, {"ok": True, "changed": [field]})
    view = await read(client, planner)
    assert view[field] == stored
    untouched = {key for key in ("title", "forWhom", "when", "where", "note", "kitty")
                 if key != field}
    assert all(view[key] == planner_body[key] for key in untouched)


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"title": "  "}, "title", "Give the event a name — whose hens or shower is it?"),
    ({"categories": []}, "categories", "Add at least one thing to bring or sort."),
    ({"categories": [{"name": str(n), "capacity": 1} for n in range(13)]}, "categories",
     "Twelve lists is the limit — combine a couple."),
    ({"categories": [{"name": "", "capacity": 1}]}, "categories.0.name",
     "Every list needs a name."),
    ({"categories": [{"name": "Games", "capacity": 0}]}, "categories.0.capacity", CAPACITY),
    ({"categories": [{"name": "A", "capacity": 1}, {"name": "A", "capacity": 1}]},
     "categories", "Two lists share a name — make each one different."),
    # Check order is the create schema's: the title before the lists.
    ({"categories": [], "title": ""}, "title",
     "Give the event a name — whose hens or shower is it?"),
])
async def test_the_create_rules_apply(client: Any, planner: dict[str, str], body: Any,
                                      field: str, message: str,
                                      planner_body: dict[str, Any]) -> None:
    assert await edit(client, "hens", planner["editToken"], {**body, "when": "later"}) == (
        400, {"error": message, "field": field})
    assert (await read(client, planner))["when"] == planner_body["when"]


async def test_lists_are_renamed_resized_and_added_keeping_claims(
        client: Any, planner: dict[str, str]) -> None:
    await claim(client, planner, "c1-2", "Ava")
    status, _ = await edit(client, "hens", planner["editToken"], {"categories": [
        {"name": "Decorations", "capacity": 3, "was": 0},
        {"name": "Games and prizes", "capacity": 4, "was": 1},
        {"name": "Music", "capacity": 1, "was": None}]})
    assert status == 200
    lists = (await read(client, planner))["categories"]
    assert [(c["name"], c["capacity"], c["taken"]) for c in lists] == [
        ("Decorations", 3, 0), ("Games and prizes", 4, 1), ("Music", 1, 0)]
    assert lists[1]["spots"][1]["name"] == "Ava"


async def test_a_held_list_stays_until_its_spots_are_freed(client: Any,
                                                           planner: dict[str, str]) -> None:
    await claim(client, planner, "c1-1", "Ava")
    body = {"categories": [{"name": "Decorations", "capacity": 3, "was": 0}]}
    assert await edit(client, "hens", planner["editToken"], body) == (
        409, {"error": HELD.format(name="Games"), "field": "categories", "confirm": True})
    assert len((await read(client, planner))["categories"]) == 2
    freed = await client.post(f"/api/hens/{planner['editToken']}/remove",
                              json={"slotId": "c1-1"})
    assert freed.status_code == 200
    assert (await edit(client, "hens", planner["editToken"], body))[0] == 200


def version(planner: dict[str, str]) -> int:
    return int(Instance.get(Instance.slug == planner["slug"]).version)


async def party_in_feed(client: Any, planner: dict[str, str], slot_id: str,
                        secret: str) -> Callable[[], Awaitable[int]]:
    """Subscribe to a spot's calendar feed; returns how to count the events in it now."""
    response = await client.post("/api/hens/feed", json={
        "slug": planner["slug"], "slotId": slot_id, "secret": secret})
    assert response.status_code == 201
    path = "/" + (await response.get_json())["feedUrl"].split("/", 3)[3]

    async def count() -> int:
        return (await (await client.get(path)).get_data(as_text=True)).count("BEGIN:VEVENT")
    return count


async def test_a_held_list_goes_once_confirmed_and_its_feeds_empty(
        client: Any, planner: dict[str, str]) -> None:
    await edit(client, "hens", planner["editToken"], {"when": "13 March 2027, 2pm"})
    ava = await party_in_feed(client, planner, "c0-1", await claim(client, planner, "c0-1", "Ava"))
    bea = await party_in_feed(client, planner, "c1-1", await claim(client, planner, "c1-1", "Bea"))
    cat = await claim(client, planner, "c1-2", "Cat")
    body = {"categories": [{"name": "Decorations", "capacity": 3, "was": 0}]}
    before, unchanged = version(planner), await read(client, planner)
    assert (await edit(client, "hens", planner["editToken"], body))[1]["confirm"] is True
    assert (await read(client, planner), version(planner), await bea()) == (unchanged, before, 1)
    assert await edit(client, "hens", planner["editToken"], {**body, "confirm": True}) == (
        200, {"ok": True, "changed": ["categories"]})
    [decorations] = (await read(client, planner))["categories"]
    assert (decorations["taken"], decorations["spots"][0]["slotId"],
            decorations["spots"][0]["name"]) == (1, "c0-1", "Ava")
    assert (version(planner), await ava(), await bea()) == (before + 1, 1, 0)
    assert (await client.post("/api/hens/unclaim", json={
        "slug": planner["slug"], "slotId": "c1-2", "secret": cat})).status_code == 404
    # A list added later takes the number Games had; Bea's feed never shows its claims.
    assert (await edit(client, "hens", planner["editToken"], {"categories": [
        {"name": "Decorations", "capacity": 3}, {"name": "Music", "capacity": 1}]}))[0] == 200
    await claim(client, planner, "c1-1", "Dee")
    assert await bea() == 0


async def test_a_list_cannot_shrink_below_its_claims(client: Any,
                                                     planner: dict[str, str]) -> None:
    await claim(client, planner, "c0-1", "Ava")
    await claim(client, planner, "c0-3", "Bea")
    assert await edit(client, "hens", planner["editToken"], {"categories": [
        {"name": "Decorations", "capacity": 1}, {"name": "Games", "capacity": 2}]}) == (
        409, {"error": SHRUNK.format(name="Decorations", taken=2), "field": "categories",
              "confirm": True})
    assert (await edit(client, "hens", planner["editToken"], {"categories": [
        {"name": "Decorations", "capacity": 2}, {"name": "Games", "capacity": 2}]}))[0] == 200
    spots = (await read(client, planner))["categories"][0]["spots"]
    assert sorted(spot["name"] for spot in spots) == ["Ava", "Bea"]


async def test_the_form_is_prefilled_and_where_stays_out_of_previews(
        client: Any, planner: dict[str, str]) -> None:
    await edit(client, "hens", planner["editToken"], {"where": "Secret Cove, 1 Hidden Rd"})
    html = await (await client.get(f"/e/{planner['editToken']}")).get_data(as_text=True)
    assert 'id="edit-where" name="where" maxlength="120"' in html
    assert 'value="Secret Cove, 1 Hidden Rd"' in html
    assert "Long lunch\nHarbour cruise\nKaraoke</textarea>" in html
    public = await (await client.get(f"/s/{planner['slug']}")).get_data(as_text=True)
    head = public.split("</head>")[0]
    assert "Secret Cove" not in head and WHERE not in public


async def test_a_claim_keeps_its_slot_id_and_release_button_when_lists_move(
        client: Any, planner: dict[str, str]) -> None:
    """The claimer's browser finds its "Give my spot back" button by slot id: moving the list
    (here: the one before it goes, a new one comes first) leaves the id as it was."""
    response = await client.post("/api/hens/claim", json={
        "slug": planner["slug"], "slotId": "c1-2", "name": "Ava", "message": "on it"})
    secret = (await response.get_json())["secret"]
    status, _ = await edit(client, "hens", planner["editToken"], {"categories": [
        {"name": "Playlist", "capacity": 1, "was": None},
        {"name": "Party games", "capacity": 2, "was": 1}]})
    assert status == 200
    lists = (await read(client, planner))["categories"]
    assert [[spot["slotId"] for spot in c["spots"]] for c in lists] == [["c2-1"],
                                                                        ["c1-1", "c1-2"]]
    assert lists[1]["spots"][1]["name"] == "Ava"
    page = await (await client.get(f"/s/{planner['slug']}")).get_data(as_text=True)
    assert f'data-secret-key="groupkit:hens:{planner["slug"]}:c1-2"' in page
    released = await client.post("/api/hens/unclaim", json={
        "slug": planner["slug"], "slotId": "c1-2", "secret": secret})
    assert released.status_code == 200
