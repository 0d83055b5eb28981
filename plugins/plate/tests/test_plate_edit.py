"""The organiser's edit: details and categories change, every claim survives or the edit is
refused with the spec's tone; create's own rules and messages apply to each field."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest

from groupkit import Instance


async def claimed(client: Any, slug: str, slot_id: str, name: str, dish: str) -> str:
    response = await client.post("/api/plate/claim", json={
        "slug": slug, "slotId": slot_id, "name": name, "dish": dish})
    assert response.status_code == 201
    return str((await response.get_json())["secret"])


async def read(client: Any, slug: str) -> dict[str, Any]:
    return dict(await (await client.get(f"/api/plate/{slug}")).get_json())

CAPACITY = "Spots per category must be a whole number from 1 to 20."
HELD = "Someone has a spot in {name} — remove them from it first, then the category can go."
SHRUNK = "{name} has {taken} spots taken — remove someone first, or keep at least {taken} spots."


async def edit(client: Any, board: dict[str, str], **body: Any) -> Any:
    return await client.post(f"/api/plate/{board['editToken']}/edit", json=body)


async def refused(response: Any, status: int) -> dict[str, Any]:
    payload = await response.get_json()
    assert response.status_code == status, payload
    return dict(payload)


def names(view: dict[str, Any]) -> list[tuple[str, int, int]]:
    return [(c["name"], c["capacity"], c["taken"]) for c in view["categories"]]


async def test_details_change_alone_and_the_rest_stays(client: Any, board: dict[str, str]) -> None:
    response = await edit(client, board, eventDate="  Sun 7 Dec,   4pm ", note="Bring a rug.")
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "changed": ["eventDate", "note"]}
    view = await read(client, board["slug"])
    assert (view["title"], view["eventDate"], view["note"]) == (
        "Street party", "Sun 7 Dec, 4pm", "Bring a rug.")
    assert names(view) == [("Mains", 4, 0), ("Desserts", 2, 0)]


async def test_title_changes_but_the_links_do_not(client: Any, board: dict[str, str]) -> None:
    assert (await edit(client, board, title="Lane party")).status_code == 200
    view = await read(client, board["slug"])
    assert view["title"] == view["heading"] == "Lane party"
    page = await client.get(f"/e/{board['editToken']}")
    assert "Lane party" in await page.get_data(as_text=True)


async def test_an_empty_title_falls_back_like_create(client: Any, board: dict[str, str]) -> None:
    assert (await edit(client, board, title="   ")).status_code == 200
    assert (await read(client, board["slug"]))["heading"] == "Bring a plate"


async def test_version_bumps_so_open_pages_refresh(client: Any, board: dict[str, str]) -> None:
    before = Instance.get(Instance.slug == board["slug"]).version
    await edit(client, board, note="x")
    assert Instance.get(Instance.slug == board["slug"]).version == before + 1


@pytest.mark.parametrize(("categories", "message", "field"), [
    ([], "Add at least one category.", "categories"),
    ([{"name": str(n), "capacity": 1} for n in range(13)],
     "Twelve categories is the limit — combine a couple.", "categories"),
    ([{"name": "Mains", "capacity": 2}, {"name": " ", "capacity": 1}],
     "Every category needs a name.", "categories.1.name"),
    ([{"name": "Mains", "capacity": 21}], CAPACITY, "categories.0.capacity"),
    ([{"name": "Mains", "capacity": 1.5}], CAPACITY, "categories.0.capacity"),
    ([{"name": "Mains", "capacity": 2}, {"name": "Mains", "capacity": 2}],
     "Two categories share a name — make each one different.", "categories"),
])
async def test_categories_keep_the_create_rules(client: Any, board: dict[str, str],
                                                categories: Any, message: str,
                                                field: str) -> None:
    """A group's own error names its row and key, as the form names that input."""
    payload = await refused(await edit(client, board, categories=categories, note="x"), 400)
    assert payload == {"error": message, "field": field}
    assert (await read(client, board["slug"]))["note"] == "Bring a chair."


async def test_rename_resize_and_add_keep_every_claim(client: Any, board: dict[str, str]) -> None:
    secret = await claimed(client, board["slug"], "c1-2", "Bo", "Pavlova")
    response = await edit(client, board, categories=[
        {"name": "Mains", "capacity": 4, "was": 0}, {"name": "Sweets", "capacity": 3, "was": 1},
        {"name": "Drinks", "capacity": 2, "was": None}])
    assert response.status_code == 200
    view = await read(client, board["slug"])
    assert names(view) == [("Mains", 4, 0), ("Sweets", 3, 1), ("Drinks", 2, 0)]
    assert view["categories"][1]["spots"][1]["name"] == "Bo"
    # The claimer's secret still releases the same spot.
    released = await client.post("/api/plate/unclaim", json={
        "slug": board["slug"], "slotId": "c1-2", "secret": secret})
    assert released.status_code == 200


async def test_without_was_categories_follow_their_position(client: Any,
                                                            board: dict[str, str]) -> None:
    await claimed(client, board["slug"], "c0-1", "Ann", "Lasagne")
    response = await edit(client, board, categories=[{"name": "Mains and salads", "capacity": 5},
                                                      {"name": "Desserts", "capacity": 2}])
    assert response.status_code == 200
    assert names(await read(client, board["slug"])) == [("Mains and salads", 5, 1),
                                                         ("Desserts", 2, 0)]


async def test_removing_a_free_category_keeps_the_slot_ids_of_the_rest(
        client: Any, board: dict[str, str]) -> None:
    await claimed(client, board["slug"], "c1-1", "Bo", "Pavlova")
    response = await edit(client, board, categories=[{"name": "Desserts", "capacity": 2, "was": 1}])
    assert response.status_code == 200
    view = await read(client, board["slug"])
    assert names(view) == [("Desserts", 2, 1)]
    assert view["categories"][0]["spots"][0] == {"slotId": "c1-1", "taken": True, "name": "Bo",
                                                 "dish": "Pavlova"}


async def test_the_claimer_keeps_their_release_button_when_categories_move(
        client: Any, board: dict[str, str]) -> None:
    """The browser remembers a claim's secret under `groupkit:plate:<slug>:<slotId>` and
    shows "Give my spot back" on the spot with that id: a rename, a move and a removal of
    another category leave the id, and so the button, where the claim is."""
    secret = await claimed(client, board["slug"], "c1-2", "Bo", "Pavlova")
    key = f'data-secret-key="groupkit:plate:{board["slug"]}:c1-2"'
    response = await edit(client, board, categories=[
        {"name": "Drinks", "capacity": 2, "was": None},
        {"name": "Sweets", "capacity": 3, "was": 1}])
    assert response.status_code == 200
    view = await read(client, board["slug"])
    assert names(view) == [("Drinks", 2, 0), ("Sweets", 3, 1)]
    assert [spot["slotId"] for spot in view["categories"][0]["spots"]] == ["c2-1", "c2-2"]
    assert view["categories"][1]["spots"][1] == {"slotId": "c1-2", "taken": True,
                                                 "name": "Bo", "dish": "Pavlova"}
    page = await (await client.get(f"/s/{board['slug']}")).get_data(as_text=True)
    assert page.count(key) == 1
    assert page.index("Pavlova") < page.index(key) < page.index("c1-3")
    # A later edit that adds at the end never hands out a number a category had.
    response = await edit(client, board, categories=[
        {"name": "Drinks", "capacity": 2, "was": 0}, {"name": "Sweets", "capacity": 3, "was": 1},
        {"name": "Nibbles", "capacity": 1, "was": None}])
    assert response.status_code == 200
    spots = [spot["slotId"] for c in (await read(client, board["slug"]))["categories"]
             for spot in c["spots"]]
    assert spots == ["c2-1", "c2-2", "c1-1", "c1-2", "c1-3", "c3-1"]
    released = await client.post("/api/plate/unclaim", json={
        "slug": board["slug"], "slotId": "c1-2", "secret": secret})
    assert released.status_code == 200
    assert (await client.post("/api/plate/claim", json={
        "slug": board["slug"], "slotId": "c3-1", "name": "Cy", "dish": "Chips"})).status_code == 201
    assert (await client.post("/api/plate/claim", json={
        "slug": board["slug"], "slotId": "c0-1", "name": "Cy", "dish": "Chips"})).status_code == 400


def version(board: dict[str, str]) -> int:
    return int(Instance.get(Instance.slug == board["slug"]).version)


async def test_a_held_category_goes_only_once_confirmed(client: Any,
                                                        board: dict[str, str]) -> None:
    """Asked first, nothing changed; sent again with `confirm`, the category goes with its
    claims (the secret releases nothing any more) and every other claim stays put."""
    await claimed(client, board["slug"], "c0-2", "Ann", "Lasagne")
    secret = await claimed(client, board["slug"], "c1-1", "Bo", "Pavlova")
    body = {"title": "New", "categories": [{"name": "Mains", "capacity": 4, "was": 0}]}
    before, unchanged = version(board), await read(client, board["slug"])
    payload = await refused(await edit(client, board, **body), 409)
    assert payload == {"error": HELD.format(name="Desserts"), "field": "categories",
                       "confirm": True}
    assert (await read(client, board["slug"]), version(board)) == (unchanged, before)
    response = await edit(client, board, **body, confirm=True)
    assert await response.get_json() == {"ok": True, "changed": ["categories", "title"]}
    view = await read(client, board["slug"])
    assert (view["title"], names(view), version(board)) == ("New", [("Mains", 4, 1)], before + 1)
    assert view["categories"][0]["spots"][1] == {"slotId": "c0-2", "taken": True, "name": "Ann",
                                                 "dish": "Lasagne"}
    released = await client.post("/api/plate/unclaim", json={
        "slug": board["slug"], "slotId": "c1-1", "secret": secret})
    assert released.status_code == 404


async def test_a_category_cannot_shrink_below_its_claims_unasked(client: Any,
                                                                 board: dict[str, str]) -> None:
    for slot in ("c0-1", "c0-3", "c0-4"):
        await claimed(client, board["slug"], slot, "Ann", "Dish")
    payload = await refused(await edit(client, board, categories=[
        {"name": "Mains", "capacity": 2}, {"name": "Desserts", "capacity": 2}]), 409)
    assert payload == {"error": SHRUNK.format(name="Mains", taken=3), "field": "categories",
                       "confirm": True}
    # Down to exactly what is taken: the claims beyond the new size move into free spots.
    assert (await edit(client, board, categories=[
        {"name": "Mains", "capacity": 3}, {"name": "Desserts", "capacity": 2}])).status_code == 200
    spots = (await read(client, board["slug"]))["categories"][0]["spots"]
    assert [spot["taken"] for spot in spots] == [True, True, True]


async def test_a_confirmed_cut_lets_the_latest_claims_go(client: Any,
                                                         board: dict[str, str]) -> None:
    """First come, first served: Cy claimed last, so Cy goes, though on the first spot;
    Bo moves into it, Ann and the desserts keep their spots."""
    for slot, name in (("c0-2", "Ann"), ("c0-4", "Bo"), ("c0-1", "Cy"), ("c1-2", "Di")):
        await claimed(client, board["slug"], slot, name, f"{name}'s dish")
    body = {"categories": [{"name": "Mains", "capacity": 2}, {"name": "Desserts", "capacity": 2}]}
    before, unchanged = version(board), await read(client, board["slug"])
    assert (await refused(await edit(client, board, **body), 409))["confirm"] is True
    assert (await read(client, board["slug"]), version(board)) == (unchanged, before)
    assert (await edit(client, board, **body, confirm=True)).status_code == 200
    view = await read(client, board["slug"])
    assert [[(spot["slotId"], spot["name"]) for spot in c["spots"]]
            for c in view["categories"]] == [[("c0-1", "Bo"), ("c0-2", "Ann")],
                                             [("c1-1", None), ("c1-2", "Di")]]
    assert view["categories"][0]["spots"][0]["dish"] == "Bo's dish"
    assert version(board) == before + 1


async def test_the_organiser_form_asks_and_goes_ahead_without_a_script(
        client: Any, board: dict[str, str]) -> None:
    """The edit form sent with the desserts row emptied, as a browser without a script
    sends it: the page asks with a box to tick; sent again ticked, the category goes."""
    await claimed(client, board["slug"], "c1-1", "Bo", "Pavlova")
    page, form = f"/e/{board['editToken']}", f"/api/plate/{board['editToken']}/edit"
    fields = [("title", "Street party"), ("eventDate", "Sat 6 Dec, 4pm"),
              ("note", "Bring a chair."), ("categories.0.name", "Mains"),
              ("categories.0.capacity:number", "4"), ("categories.0.was:number", "0"),
              ("categories.1.name", ""), ("categories.1.capacity:number", ""),
              ("categories.1.was:number", "1"), ("groupkit-spare", "categories")]
    headers = {"Content-Type": "application/x-www-form-urlencoded",
               "Sec-Fetch-Site": "same-origin", "Referer": f"http://localhost{page}"}
    await client.post(form, data=urlencode(fields), headers=headers)
    html = await (await client.get(page)).get_data(as_text=True)
    assert HELD.format(name="Desserts") in html
    assert '<input type="checkbox" name="confirm:bool" value="true"> Yes, go ahead' in html
    assert len((await read(client, board["slug"]))["categories"]) == 2
    await client.post(form, data=urlencode([*fields, ("confirm:bool", "true")]),
                      headers=headers)
    assert names(await read(client, board["slug"])) == [("Mains", 4, 0)]


async def test_remove_then_shrink_is_the_explicit_way(client: Any, board: dict[str, str]) -> None:
    await claimed(client, board["slug"], "c1-1", "Bo", "Pavlova")
    removed = await client.post(f"/api/plate/{board['editToken']}/remove", json={"slotId": "c1-1"})
    assert removed.status_code == 200
    response = await edit(client, board, categories=[{"name": "Mains", "capacity": 4}])
    assert response.status_code == 200
    assert names(await read(client, board["slug"])) == [("Mains", 4, 0)]


async def test_unknown_fields_are_ignored_and_nothing_sent_changes_nothing(
        client: Any, board: dict[str, str]) -> None:
    response = await edit(client, board, slug="other", categoriesx=[])
    assert await response.get_json() == {"ok": True, "changed": []}
    assert (await client.post("/api/plate/not-a-token/edit", json={})).status_code == 404


async def test_the_edit_form_is_prefilled_on_the_organiser_page(client: Any,
                                                                board: dict[str, str]) -> None:
    await claimed(client, board["slug"], "c0-1", "Ann", "Lasagne")
    html = await (await client.get(f"/e/{board['editToken']}")).get_data(as_text=True)
    assert 'data-api="/api/plate/' + board["editToken"] + '/edit"' in html
    assert 'id="edit-eventDate" name="eventDate" maxlength="60"' in html
    assert 'value="Sat 6 Dec, 4pm"' in html and ">Bring a chair.</textarea>" in html
    assert 'value="Desserts"' in html
    assert 'data-key="was" name="categories.1.was:number" data-type="number" value="1"' in html
    create = await (await client.get("/new/plate")).get_data(as_text=True)
    assert 'id="eventDate" name="eventDate"' in create and 'data-key="was"' not in create
