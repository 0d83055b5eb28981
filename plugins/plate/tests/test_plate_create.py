"""POST /api/plate: every field rule and every create message, in the spec's check order."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit_testing import create

NO_CATEGORIES = "Add at least one category."
TOO_MANY = "Twelve categories is the limit — combine a couple."
NO_NAME = "Every category needs a name."
BAD_CAPACITY = "Spots per category must be a whole number from 1 to 20."
DUPLICATE = "Two categories share a name — make each one different."

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


def cats(*names: str, capacity: Any = 2) -> list[dict[str, Any]]:
    return [{"name": name, "capacity": capacity} for name in names]


async def refused(client: Any, body: Any) -> str:
    response = await client.post("/api/plate", json=body)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert response.content_type == "application/json"
    assert set(payload) == {"error"}
    return str(payload["error"])


async def board_of(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    made = await create(client, "plate", body)
    response = await client.get(f"/api/plate/{made['slug']}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def test_create_returns_slug_and_edit_token(client: Any) -> None:
    response = await client.post("/api/plate", json={"title": "Xmas lunch",
                                                     "categories": cats("Mains")})
    assert response.status_code == 201
    made = await response.get_json()
    assert set(made) == {"slug", "editToken"}
    assert re.fullmatch(rf"xmas-lunch-[{ALPHABET}]{{14}}", made["slug"])
    assert re.fullmatch(rf"[{ALPHABET}]{{26}}", made["editToken"])


# --- categories: count --------------------------------------------------------------------

@pytest.mark.parametrize("categories", [None, [], "Mains", {"name": "Mains", "capacity": 2},
                                        5, True, ""])
async def test_no_categories_or_non_array(client: Any, categories: Any) -> None:
    assert await refused(client, {"title": "x", "categories": categories}) == NO_CATEGORIES


async def test_categories_missing(client: Any) -> None:
    assert await refused(client, {"title": "Lunch"}) == NO_CATEGORIES


@pytest.mark.parametrize("body", [b"{not json", b"", b"[1, 2]", b'"categories"', b"null"])
async def test_body_that_is_not_a_json_object_reads_as_empty(client: Any, body: bytes) -> None:
    response = await client.post("/api/plate", data=body,
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert await response.get_json() == {"error": NO_CATEGORIES}


async def test_twelve_categories_is_fine(client: Any) -> None:
    names = [f"Category {n}" for n in range(12)]
    board = await board_of(client, {"categories": cats(*names)})
    assert [category["name"] for category in board["categories"]] == names


async def test_thirteen_categories_is_an_error_not_trimmed(client: Any) -> None:
    names = [f"Category {n}" for n in range(13)]
    assert await refused(client, {"categories": cats(*names)}) == TOO_MANY


async def test_count_is_checked_before_entries_and_duplicates(client: Any) -> None:
    thirteen = [{"name": "", "capacity": 0}, *cats(*["Same"] * 12)]
    assert await refused(client, {"categories": thirteen}) == TOO_MANY


async def test_thirteen_entries_count_even_when_some_are_blank(client: Any) -> None:
    # The count is on the entries as sent: blank entries are errors, never silently dropped.
    entries = [*cats(*[f"C{n}" for n in range(12)]), {}]
    assert await refused(client, {"categories": entries}) == TOO_MANY


# --- categories[].name --------------------------------------------------------------------

@pytest.mark.parametrize("name", ["", "   ", "\n\t ", None, 5, ["Mains"], {"x": 1}])
async def test_every_category_needs_a_name(client: Any, name: Any) -> None:
    body = {"categories": [*cats("Mains"), {"name": name, "capacity": 2}]}
    assert await refused(client, body) == NO_NAME


async def test_missing_name_and_non_object_entries(client: Any) -> None:
    assert await refused(client, {"categories": [{"capacity": 3}]}) == NO_NAME
    assert await refused(client, {"categories": ["Mains"]}) == NO_NAME
    assert await refused(client, {"categories": [None]}) == NO_NAME


async def test_name_is_checked_before_capacity(client: Any) -> None:
    assert await refused(client, {"categories": [{"name": " ", "capacity": 0}]}) == NO_NAME
    assert await refused(client, {"categories": [{}]}) == NO_NAME


async def test_entries_are_checked_in_list_order(client: Any) -> None:
    bad_capacity_first = [{"name": "Mains", "capacity": 0}, {"name": "", "capacity": 2}]
    assert await refused(client, {"categories": bad_capacity_first}) == BAD_CAPACITY
    bad_name_first = [{"name": "", "capacity": 2}, {"name": "Mains", "capacity": 0}]
    assert await refused(client, {"categories": bad_name_first}) == NO_NAME


async def test_name_is_cleaned_and_cut_to_40(client: Any) -> None:
    long_name = "Salads " + "x" * 60
    board = await board_of(client, {"categories": [
        {"name": "  Salads \n and\t sides  ", "capacity": 1},
        {"name": long_name, "capacity": 1}]})
    assert board["categories"][0]["name"] == "Salads and sides"
    assert board["categories"][1]["name"] == long_name[:40]


# --- categories[].capacity ----------------------------------------------------------------

@pytest.mark.parametrize(("capacity", "spots"), [
    (1, 1), (20, 20), (7, 7), ("4", 4), (" 5 ", 5), ("20", 20), (3.0, 3), ("6.0", 6),
    ("+2", 2)])
async def test_capacity_accepted(client: Any, capacity: Any, spots: int) -> None:
    board = await board_of(client, {"categories": cats("Mains", capacity=capacity)})
    category = board["categories"][0]
    assert category["capacity"] == spots
    assert len(category["spots"]) == spots


@pytest.mark.parametrize("capacity", [
    0, 21, -1, 100, 2.5, "2.5", "0", "21", "", "  ", "four", "4 spots", None, True, False,
    [], [4], {"n": 4}, "1e400", 1e300])
async def test_capacity_rejected(client: Any, capacity: Any) -> None:
    assert await refused(client, {"categories": cats("Mains", capacity=capacity)}) \
        == BAD_CAPACITY


async def test_capacity_missing(client: Any) -> None:
    assert await refused(client, {"categories": [{"name": "Mains"}]}) == BAD_CAPACITY


# --- distinct names -----------------------------------------------------------------------

@pytest.mark.parametrize("names", [("Mains", "mains"), ("Mains", "MAINS"),
                                   ("Salads and sides", " salads  and   SIDES "),
                                   ("Drinks", "Mains", "drinks")])
async def test_names_distinct_ignoring_case(client: Any, names: tuple[str, ...]) -> None:
    assert await refused(client, {"categories": cats(*names)}) == DUPLICATE


async def test_names_compared_after_cutting_to_40(client: Any) -> None:
    base = "y" * 40
    assert await refused(client, {"categories": cats(base + "a", base + "b")}) == DUPLICATE


async def test_duplicates_are_checked_after_every_entry(client: Any) -> None:
    entries = [*cats("Mains", "mains"), {"name": "Desserts", "capacity": 0}]
    assert await refused(client, {"categories": entries}) == BAD_CAPACITY
    entries = [*cats("Mains", "mains"), {"name": "", "capacity": 2}]
    assert await refused(client, {"categories": entries}) == NO_NAME


async def test_similar_but_different_names_are_fine(client: Any) -> None:
    board = await board_of(client, {"categories": cats("Main", "Mains", "Mains 2")})
    assert [c["name"] for c in board["categories"]] == ["Main", "Mains", "Mains 2"]


# --- title, eventDate, note ---------------------------------------------------------------

async def test_optional_fields_cleaned(client: Any) -> None:
    board = await board_of(client, {
        "title": "  End  of\n year   lunch ", "eventDate": " Friday\t12 Dec ",
        "note": "  Line one\n\n  Line   two  ", "categories": cats("Mains")})
    assert board["title"] == "End of year lunch"
    assert board["heading"] == "End of year lunch"
    assert board["eventDate"] == "Friday 12 Dec"
    assert board["note"] == "Line one\n\n  Line   two"


async def test_long_fields_truncated_silently(client: Any) -> None:
    board = await board_of(client, {"title": "t" * 5000, "eventDate": "d" * 5000,
                                    "note": "n" * 5000, "categories": cats("Mains")})
    assert board["title"] == "t" * 80
    assert board["eventDate"] == "d" * 60
    assert board["note"] == "n" * 300


async def test_optional_fields_absent_or_not_strings(client: Any) -> None:
    board = await board_of(client, {"title": None, "eventDate": 5, "note": ["x"],
                                    "categories": cats("Mains")})
    assert (board["title"], board["eventDate"], board["note"]) == ("", "", "")
    assert board["heading"] == "Bring a plate"


async def test_empty_title_gets_default_heading_and_slug_words(client: Any) -> None:
    made = await create(client, "plate", {"categories": cats("Mains")})
    assert re.fullmatch(rf"plate-[{ALPHABET}]{{14}}", made["slug"])
    board = await board_of(client, {"title": "   ", "categories": cats("Mains")})
    assert board["title"] == ""
    assert board["heading"] == "Bring a plate"


# --- slot ids -----------------------------------------------------------------------------

async def test_slot_ids_follow_category_position_and_capacity(client: Any) -> None:
    board = await board_of(client, {"categories": [
        {"name": "Mains", "capacity": 3}, {"name": "Sides", "capacity": "1"},
        {"name": "Desserts", "capacity": 2, "colour": "red"}]})
    assert [[spot["slotId"] for spot in category["spots"]]
            for category in board["categories"]] == [
        ["c0-1", "c0-2", "c0-3"], ["c1-1"], ["c2-1", "c2-2"]]
    for category in board["categories"]:
        assert set(category) == {"name", "capacity", "taken", "spots"}
        assert category["taken"] == 0
        for spot in category["spots"]:
            assert spot == {"slotId": spot["slotId"], "taken": False, "name": None,
                            "dish": None}


async def test_twelve_categories_of_twenty_spots(client: Any) -> None:
    board = await board_of(client, {"categories": cats(*[f"C{n}" for n in range(12)],
                                                       capacity=20)})
    ids = [spot["slotId"] for category in board["categories"] for spot in category["spots"]]
    assert len(ids) == 240
    assert ids[0] == "c0-1"
    assert ids[-1] == "c11-20"
    assert len(set(ids)) == 240
