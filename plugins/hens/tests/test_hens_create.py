"""POST /api/hens: every field rule and message, in the spec's check order: title, then the
categories (present, count, each entry's name and capacity, duplicates); activities never
an error."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit_testing import create

NO_TITLE = "Give the event a name — whose hens or shower is it?"
NO_CATEGORIES = "Add at least one thing to bring or sort."
TOO_MANY = "Twelve lists is the limit — combine a couple."
NO_NAME = "Every list needs a name."
BAD_CAPACITY = "Spots per list must be a whole number from 1 to 20."
DUPLICATE = "Two lists share a name — make each one different."
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


def lists(*names: str, capacity: Any = 2) -> list[dict[str, Any]]:
    return [{"name": name, "capacity": capacity} for name in names]


def body(**fields: Any) -> dict[str, Any]:
    return {"title": "Hens", "categories": lists("Food"), **fields}


async def refused(client: Any, sent: Any) -> str:
    response = await client.post("/api/hens", json=sent)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert response.content_type == "application/json"
    assert set(payload) == {"error"}
    return str(payload["error"])


async def board_of(client: Any, sent: dict[str, Any]) -> dict[str, Any]:
    made = await create(client, "hens", sent)
    response = await client.get(f"/api/hens/{made['slug']}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def test_create_returns_slug_and_edit_token(client: Any) -> None:
    response = await client.post("/api/hens", json=body(title="Mia's hens"))
    assert response.status_code == 201
    made = await response.get_json()
    assert set(made) == {"slug", "editToken"}
    assert re.fullmatch(rf"mia-s-hens-[{ALPHABET}]{{14}}", made["slug"])
    assert re.fullmatch(rf"[{ALPHABET}]{{26}}", made["editToken"])


# --- title first ----------------------------------------------------------------------------

@pytest.mark.parametrize("title", [None, "", "   ", "\n\t", 5, True, ["Hens"], {"t": 1}])
async def test_title_required(client: Any, title: Any) -> None:
    assert await refused(client, body(title=title)) == NO_TITLE


async def test_title_is_checked_before_categories(client: Any) -> None:
    assert await refused(client, {"categories": []}) == NO_TITLE
    assert await refused(client, {}) == NO_TITLE
    assert await refused(client, {"title": " ", "categories": lists(*"abcdefghijklm")}) \
        == NO_TITLE
    for raw in (b"{oops", b"", b"[1]", b"null"):
        response = await client.post("/api/hens", data=raw,
                                     headers={"Content-Type": "application/json"})
        assert await response.get_json() == {"error": NO_TITLE}


async def test_title_cleaned_and_cut_to_80(client: Any) -> None:
    board = await board_of(client, body(title="  Mia's \n  hens  "))
    assert board["title"] == "Mia's hens"
    board = await board_of(client, body(title="h" * 500))
    assert board["title"] == "h" * 80


# --- categories: present, count -------------------------------------------------------------

@pytest.mark.parametrize("categories", [None, [], "Food", 3, True, {"name": "Food", "capacity": 2}])
async def test_no_categories(client: Any, categories: Any) -> None:
    assert await refused(client, body(categories=categories)) == NO_CATEGORIES


async def test_categories_missing(client: Any) -> None:
    assert await refused(client, {"title": "Hens"}) == NO_CATEGORIES


async def test_twelve_lists_fine_thirteen_an_error(client: Any) -> None:
    board = await board_of(client, body(categories=lists(*[f"L{n}" for n in range(12)])))
    assert len(board["categories"]) == 12
    assert await refused(client, body(categories=lists(*[f"L{n}" for n in range(13)]))) \
        == TOO_MANY


async def test_count_is_checked_before_entries(client: Any) -> None:
    thirteen = [{"name": "", "capacity": None}, *lists(*["Same"] * 12)]
    assert await refused(client, body(categories=thirteen)) == TOO_MANY


# --- each entry: name, then capacity --------------------------------------------------------

@pytest.mark.parametrize("name", ["", "   ", None, 5, ["Food"], {"n": 1}])
async def test_every_list_needs_a_name(client: Any, name: Any) -> None:
    categories = [*lists("Food"), {"name": name, "capacity": 2}]
    assert await refused(client, body(categories=categories)) == NO_NAME


async def test_non_object_entries_have_no_name(client: Any) -> None:
    for entry in ("Food", None, 3, ["Food", 2]):
        assert await refused(client, body(categories=[entry])) == NO_NAME


async def test_name_is_checked_before_capacity(client: Any) -> None:
    assert await refused(client, body(categories=[{"name": "", "capacity": 0}])) == NO_NAME
    assert await refused(client, body(categories=[{}])) == NO_NAME


async def test_entries_are_checked_in_order(client: Any) -> None:
    categories = [{"name": "Food", "capacity": 0}, {"name": "", "capacity": 2}]
    assert await refused(client, body(categories=categories)) == BAD_CAPACITY
    categories = [{"name": "", "capacity": 2}, {"name": "Food", "capacity": 0}]
    assert await refused(client, body(categories=categories)) == NO_NAME


@pytest.mark.parametrize(("capacity", "spots"), [
    (1, 1), (20, 20), ("4", 4), (" 5 ", 5), (3.0, 3), ("6.0", 6), ("+2", 2), (True, 1),
    ("1e1", 10)])
async def test_capacity_after_numeric_conversion(client: Any, capacity: Any, spots: int) -> None:
    board = await board_of(client, body(categories=lists("Food", capacity=capacity)))
    assert board["categories"][0]["capacity"] == spots
    assert len(board["categories"][0]["spots"]) == spots


@pytest.mark.parametrize("capacity", [
    None, "", "  ", 0, 21, -1, 2.5, "2.5", "four", False, [], {"n": 2}, "21", "1e400"])
async def test_capacity_rejected(client: Any, capacity: Any) -> None:
    assert await refused(client, body(categories=lists("Food", capacity=capacity))) \
        == BAD_CAPACITY


async def test_capacity_missing(client: Any) -> None:
    assert await refused(client, body(categories=[{"name": "Food"}])) == BAD_CAPACITY


# --- duplicates last ------------------------------------------------------------------------

@pytest.mark.parametrize("names", [("Food", "food"), ("Games", "Food", "GAMES"),
                                   ("Food and drinks", "  food   and DRINKS ")])
async def test_names_distinct_ignoring_case(client: Any, names: tuple[str, ...]) -> None:
    assert await refused(client, body(categories=lists(*names))) == DUPLICATE


async def test_duplicates_are_checked_after_every_entry(client: Any) -> None:
    categories = [*lists("Food", "food"), {"name": "Games", "capacity": 0}]
    assert await refused(client, body(categories=categories)) == BAD_CAPACITY
    categories = [*lists("Food", "food"), {"name": " ", "capacity": 2}]
    assert await refused(client, body(categories=categories)) == NO_NAME


async def test_names_compared_after_cutting_to_40(client: Any) -> None:
    base = "z" * 40
    assert await refused(client, body(categories=lists(base + "1", base + "2"))) == DUPLICATE


async def test_list_names_cleaned_extra_keys_dropped_and_slot_ids(client: Any) -> None:
    board = await board_of(client, body(categories=[
        {"name": "  Food \n and  drinks ", "capacity": 2, "colour": "pink"},
        {"name": "g" * 60, "capacity": "1"}]))
    assert [c["name"] for c in board["categories"]] == ["Food and drinks", "g" * 40]
    assert set(board["categories"][0]) == {"name", "capacity", "taken", "spots"}
    assert [[s["slotId"] for s in c["spots"]] for c in board["categories"]] == [
        ["c0-1", "c0-2"], ["c1-1"]]
    assert board["categories"][0]["spots"][0] == {"slotId": "c0-1", "taken": False,
                                                  "name": None, "message": None}


# --- details --------------------------------------------------------------------------------

async def test_details_cleaned_and_truncated(client: Any) -> None:
    board = await board_of(client, body(
        forWhom="  Mia \n Rossi ", when=" Sat\t14 March ", where="  The  Boathouse ",
        note="  Line one\r\n\r\n  Line   two  ", kitty="  $60\n each  "))
    assert board["forWhom"] == "Mia Rossi"
    assert board["when"] == "Sat 14 March"
    assert board["where"] == "The Boathouse"
    assert board["note"] == "Line one\r\n\r\n  Line   two"  # CRLF kept as sent
    assert board["kitty"] == "$60\n each"
    board = await board_of(client, body(forWhom="f" * 500, when="w" * 500, where="p" * 500,
                                        note="n" * 5000, kitty="k" * 5000))
    assert (len(board["forWhom"]), len(board["when"]), len(board["where"])) == (80, 80, 120)
    assert (board["note"], board["kitty"]) == ("n" * 400, "k" * 200)


async def test_details_absent_or_not_strings(client: Any) -> None:
    board = await board_of(client, body(forWhom=None, when=5, where=["x"], note={"a": 1}))
    assert (board["forWhom"], board["when"], board["where"], board["note"], board["kitty"]) \
        == ("", "", "", "", "")


# --- activities: never an error -------------------------------------------------------------

@pytest.mark.parametrize("activities", [None, "Lunch", 5, {"a": "Lunch"}, [], [None, 5, ""]])
async def test_activities_non_array_or_unusable_means_none(client: Any, activities: Any) -> None:
    assert (await board_of(client, body(activities=activities)))["activities"] == []


async def test_activities_cleaned_blanks_dropped_first_twenty_kept(client: Any) -> None:
    sent = ["  Long \n lunch ", "", "   ", "a" * 150,
            *[f"Activity {n}" for n in range(3, 40)]]
    board = await board_of(client, body(activities=sent))
    assert len(board["activities"]) == 20
    assert board["activities"][:3] == ["Long lunch", "a" * 100, "Activity 3"]
    assert board["activities"][-1] == "Activity 20"
