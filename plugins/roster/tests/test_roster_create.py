"""POST /api/roster: every field rule and every create message, in the spec's check order."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit_testing import create

NO_SHIFTS = "Add at least one shift."
TOO_MANY = "Twenty shifts is the limit — split the day if you need more."
NO_LABEL = "Every shift needs a label — a job and a time."
BAD_CAPACITY = "Spots per shift must be a whole number from 1 to 30."

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


def shifts(*labels: str, capacity: Any = 2) -> list[dict[str, Any]]:
    return [{"label": label, "capacity": capacity} for label in labels]


async def refused(client: Any, body: Any) -> str:
    response = await client.post("/api/roster", json=body)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert response.content_type == "application/json"
    assert set(payload) == {"error"}
    return str(payload["error"])


async def roster_of(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    made = await create(client, "roster", body)
    response = await client.get(f"/api/roster/{made['slug']}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def test_create_returns_slug_and_edit_token(client: Any) -> None:
    response = await client.post("/api/roster", json={"title": "Working bee",
                                                      "shifts": shifts("Setup")})
    assert response.status_code == 201
    made = await response.get_json()
    assert set(made) == {"slug", "editToken"}
    assert re.fullmatch(rf"working-bee-[{ALPHABET}]{{14}}", made["slug"])
    assert re.fullmatch(rf"[{ALPHABET}]{{26}}", made["editToken"])


# --- shifts: count ------------------------------------------------------------------------

@pytest.mark.parametrize("value", [None, [], "Setup", {"label": "Setup", "capacity": 2}, 5,
                                   True, ""])
async def test_no_shifts_or_non_array(client: Any, value: Any) -> None:
    assert await refused(client, {"title": "x", "shifts": value}) == NO_SHIFTS


async def test_shifts_missing(client: Any) -> None:
    assert await refused(client, {"title": "Bee"}) == NO_SHIFTS


@pytest.mark.parametrize("body", [b"{not json", b"", b"[1, 2]", b'"shifts"', b"null"])
async def test_body_that_is_not_a_json_object_reads_as_empty(client: Any, body: bytes) -> None:
    response = await client.post("/api/roster", data=body,
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert await response.get_json() == {"error": NO_SHIFTS}


async def test_twenty_shifts_is_fine(client: Any) -> None:
    labels = [f"Shift {n}" for n in range(20)]
    roster = await roster_of(client, {"shifts": shifts(*labels)})
    assert [shift["label"] for shift in roster["shifts"]] == labels


async def test_twenty_one_shifts_is_an_error_not_trimmed(client: Any) -> None:
    assert await refused(client, {"shifts": shifts(*[f"S{n}" for n in range(21)])}) == TOO_MANY


async def test_count_is_checked_before_entries(client: Any) -> None:
    entries = [{"label": "", "capacity": 0}] * 21
    assert await refused(client, {"shifts": entries}) == TOO_MANY


async def test_non_object_entries_count_and_have_no_label(client: Any) -> None:
    assert await refused(client, {"shifts": ["Setup", 3]}) == NO_LABEL
    assert await refused(client, {"shifts": [None] * 21}) == TOO_MANY


# --- shifts: label and capacity -----------------------------------------------------------

@pytest.mark.parametrize("label", ["", "   ", "\n\t", None, 5, ["Setup"], {"x": 1}])
async def test_every_shift_needs_a_label(client: Any, label: Any) -> None:
    entries = [{"label": "Setup", "capacity": 2}, {"label": label, "capacity": 2}]
    assert await refused(client, {"shifts": entries}) == NO_LABEL


async def test_missing_label_key(client: Any) -> None:
    assert await refused(client, {"shifts": [{"capacity": 2}]}) == NO_LABEL


async def test_label_checked_before_capacity(client: Any) -> None:
    assert await refused(client, {"shifts": [{"label": "", "capacity": 0}]}) == NO_LABEL
    assert await refused(client, {"shifts": [{"capacity": "lots"}]}) == NO_LABEL


async def test_entries_checked_in_their_order(client: Any) -> None:
    entries = [{"label": "Setup", "capacity": 0}, {"label": "", "capacity": 2}]
    assert await refused(client, {"shifts": entries}) == BAD_CAPACITY
    entries = [{"label": "", "capacity": 2}, {"label": "Setup", "capacity": 0}]
    assert await refused(client, {"shifts": entries}) == NO_LABEL


@pytest.mark.parametrize("capacity", [0, 31, -1, 2.5, "2.5", "", " ", None, "two", True, False,
                                      [2], {"n": 2}, 1e100, "1e100", "31"])
async def test_bad_capacity(client: Any, capacity: Any) -> None:
    assert await refused(client, {"shifts": shifts("Setup", capacity=capacity)}) == BAD_CAPACITY


async def test_capacity_has_no_default(client: Any) -> None:
    assert await refused(client, {"shifts": [{"label": "Setup"}]}) == BAD_CAPACITY


@pytest.mark.parametrize("capacity,stored", [(1, 1), (30, 30), ("7", 7), (" 12 ", 12),
                                             (4.0, 4), ("4.0", 4), ("+3", 3), ("1e1", 10)])
async def test_good_capacity(client: Any, capacity: Any, stored: int) -> None:
    roster = await roster_of(client, {"shifts": shifts("Setup", capacity=capacity)})
    assert roster["shifts"][0]["capacity"] == stored
    assert len(roster["shifts"][0]["spots"]) == stored


async def test_labels_need_not_be_unique(client: Any) -> None:
    roster = await roster_of(client, {"shifts": shifts("Bar", "bar", "Bar", "BAR ")})
    assert [shift["label"] for shift in roster["shifts"]] == ["Bar", "bar", "Bar", "BAR"]
    assert [shift["shiftId"] for shift in roster["shifts"]] == ["s0", "s1", "s2", "s3"]


async def test_label_cleaned_and_cut_to_50(client: Any) -> None:
    roster = await roster_of(client, {"shifts": [
        {"label": "  Setup \n\n  7-9am  ", "capacity": 1},
        {"label": "L" * 500, "capacity": 1},
        {"label": " " + "a " * 30, "capacity": 1}]})
    assert [shift["label"] for shift in roster["shifts"]] == [
        "Setup 7-9am", "L" * 50, "a " * 25]  # trim, then cut: no second trim


async def test_extra_keys_are_dropped(client: Any) -> None:
    made = await create(client, "roster", {"shifts": [
        {"label": "Setup", "capacity": 1, "colour": "red", "secret": "x"}], "extra": 1})
    export = await (await client.post(f"/api/roster/{made['editToken']}/export")).get_json()
    assert set(export["data"]["shifts"][0]) >= {"label", "capacity", "spots"}
    assert "colour" not in str(export)


# --- title, eventDate, note ---------------------------------------------------------------

async def test_optional_fields_cleaned(client: Any) -> None:
    roster = await roster_of(client, {
        "title": "  School \n working   bee ", "eventDate": " Saturday\t14 March ",
        "note": "  Line one\n\n  Line   two  ", "shifts": shifts("Setup")})
    assert roster["title"] == "School working bee"
    assert roster["heading"] == "School working bee"
    assert roster["eventDate"] == "Saturday 14 March"
    assert roster["note"] == "Line one\n\n  Line   two"


async def test_long_fields_truncated_silently(client: Any) -> None:
    roster = await roster_of(client, {"title": "t" * 5000, "eventDate": "d" * 5000,
                                      "note": "n" * 5000, "shifts": shifts("Setup")})
    assert roster["title"] == "t" * 80
    assert roster["eventDate"] == "d" * 60
    assert roster["note"] == "n" * 300


async def test_optional_fields_absent_or_not_strings(client: Any) -> None:
    roster = await roster_of(client, {"title": None, "eventDate": 5, "note": ["x"],
                                      "shifts": shifts("Setup")})
    assert (roster["title"], roster["eventDate"], roster["note"]) == ("", "", "")
    assert roster["heading"] == "Volunteer roster"


async def test_empty_title_gets_default_heading_and_slug_words(client: Any) -> None:
    made = await create(client, "roster", {"shifts": shifts("Setup")})
    assert re.fullmatch(rf"roster-[{ALPHABET}]{{14}}", made["slug"])


# --- slot ids -----------------------------------------------------------------------------

async def test_slot_ids_follow_shift_position_from_zero(client: Any) -> None:
    roster = await roster_of(client, {"shifts": [
        {"label": "Setup", "capacity": 3}, {"label": "Food", "capacity": "1"},
        {"label": "Setup", "capacity": 2}]})
    assert [[spot["slotId"] for spot in shift["spots"]] for shift in roster["shifts"]] == [
        ["s0-1", "s0-2", "s0-3"], ["s1-1"], ["s2-1", "s2-2"]]
    for shift in roster["shifts"]:
        assert shift["taken"] == 0
        for spot in shift["spots"]:
            assert spot == {"slotId": spot["slotId"], "taken": False, "name": None}


async def test_twenty_shifts_of_thirty_spots(client: Any) -> None:
    roster = await roster_of(client, {"shifts": shifts(*[f"S{n}" for n in range(20)],
                                                       capacity=30)})
    ids = [spot["slotId"] for shift in roster["shifts"] for spot in shift["spots"]]
    assert len(ids) == len(set(ids)) == 600
    assert (ids[0], ids[-1]) == ("s0-1", "s19-30")
