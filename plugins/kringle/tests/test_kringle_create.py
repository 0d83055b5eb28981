"""POST /api/kringle: every field rule and create message, in the spec's check order."""

from __future__ import annotations

from typing import Any

import pytest

from groupkit_testing import create

FEW = "Add at least three names — with two it's not a secret, it's a swap."
MANY = "That's more than 100 people — split it into two draws."


def duplicate(name: str) -> str:
    return f'"{name}" is in the list twice — add a surname initial so the right one gets claimed.'


async def refused(client: Any, body: Any) -> str:
    response = await client.post("/api/kringle", json=body)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert response.content_type == "application/json"
    assert set(payload) == {"error"}
    return str(payload["error"])


async def exported(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    made = await create(client, "kringle", body)
    response = await client.post(f"/api/kringle/{made['editToken']}/export")
    assert response.status_code == 200
    return dict((await response.get_json())["data"])


def names_of(export: dict[str, Any]) -> list[str]:
    return [person["name"] for person in export["people"]]


def people(n: int) -> list[str]:
    return [f"Person {i}" for i in range(n)]


# --- names: count ------------------------------------------------------------------------

@pytest.mark.parametrize("names", [
    None, "Ann, Bo, Cy", {"0": "Ann"}, 3, True, [], ["Ann"], ["Ann", "Bo"],
    ["Ann", "Bo", "", "  ", "\n\t"], [None, 7, {"a": 1}, ["Cy"], "Ann", "Bo"]])
async def test_fewer_than_three_names(client: Any, names: Any) -> None:
    assert await refused(client, {"names": names}) == FEW


async def test_names_missing_or_body_unreadable(client: Any) -> None:
    assert await refused(client, {}) == FEW
    assert await refused(client, ["Ann", "Bo", "Cy"]) == FEW
    response = await client.post("/api/kringle", data="{not json",
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert await response.get_json() == {"error": FEW}


async def test_more_than_100_names(client: Any) -> None:
    assert await refused(client, {"names": people(101)}) == MANY
    assert await refused(client, {"names": people(250)}) == MANY


async def test_three_and_one_hundred_are_accepted(client: Any) -> None:
    assert names_of(await exported(client, {"names": people(3)})) == people(3)
    assert names_of(await exported(client, {"names": people(100)})) == people(100)


async def test_empties_are_dropped_before_counting(client: Any) -> None:
    names = ["", *people(50), " ", "\t", *[f"Other {i}" for i in range(50)], ""]
    export = await exported(client, {"names": names})
    assert len(export["people"]) == 100


async def test_non_strings_count_as_empty(client: Any) -> None:
    export = await exported(client, {"names": [1, None, False, {"x": 1}, "Ann", "Bo", "Cy"]})
    assert names_of(export) == ["Ann", "Bo", "Cy"]


# --- names: cleaning and distinctness ------------------------------------------------------

async def test_names_are_cleaned(client: Any) -> None:
    export = await exported(client, {"names": ["  Ann \n  Archer ", "Bo\tB", "c" * 55]})
    assert names_of(export) == ["Ann Archer", "Bo B", "c" * 40]


@pytest.mark.parametrize(("names", "quoted"), [
    (["Ann", "Bo", "ann"], "ann"),
    (["Ann", "Bo", "Cy", "BO"], "BO"),
    (["Ann  Lee", "Bo", "ann\nlee"], "ann lee"),
    (["  Émile ", "Bo", "ÉMILE"], "ÉMILE"),
    (["Bo", "Ann", "Cy", "Ann", "Bo"], "Ann"),
])
async def test_duplicates_ignoring_case_quote_the_cleaned_repeat(
        client: Any, names: list[str], quoted: str) -> None:
    assert await refused(client, {"names": names}) == duplicate(quoted)


@pytest.mark.parametrize(("names", "quoted"), [
    (["Ann", "Bo", "\uff21nn"], "\uff21nn"),                    # fullwidth A
    (["Ann", "Bo", "\u0410nn"], "\u0410nn"),                    # Cyrillic A
    (["Oscar", "Bo", "\u039fsc\u03b1r"], "\u039fsc\u03b1r"),   # Greek omicron and alpha
    (["Tom", "Bo", "A\u200bnn", "\u0422om"], "\u0422om"),      # Cyrillic capital te
])
async def test_look_alike_names_are_repeats(client: Any, names: list[str], quoted: str) -> None:
    """Two names that look the same on the claim page would have the wrong one claimed."""
    assert await refused(client, {"names": names}) == duplicate(quoted)


async def test_names_are_stored_as_typed(client: Any) -> None:
    names = ["\uff21nn", "Amie", "Arnie", "Zo\u00eb", "Zoe"]
    assert names_of(await exported(client, {"names": names})) == names


async def test_names_compared_after_cutting_to_40(client: Any) -> None:
    base = "x" * 40
    assert await refused(client, {"names": [base + "1", "Bo", base + "2"]}) == duplicate(base)


async def test_count_is_checked_before_duplicates(client: Any) -> None:
    assert await refused(client, {"names": ["Ann", "ann"]}) == FEW
    assert await refused(client, {"names": [*people(101), "person 0"]}) == MANY


# --- the other fields ----------------------------------------------------------------------

async def test_optional_fields_are_trimmed_and_cut(client: Any) -> None:
    export = await exported(client, {
        "title": "  Big   draw\n" + "t" * 100, "names": people(3),
        "budget": " $30\n or so " + "b" * 50, "exchangeDate": "\tFri  19 Dec " + "d" * 80,
        "note": "  Line one\n\n  line two " + "n" * 400})
    assert export["title"] == ("Big   draw\n" + "t" * 100)[:80]
    assert export["budget"] == ("$30\n or so " + "b" * 50)[:40]
    assert export["exchangeDate"] == ("Fri  19 Dec " + "d" * 80)[:60]
    assert export["note"] == ("Line one\n\n  line two " + "n" * 400)[:300]


async def test_optional_fields_absent_or_wrong_type_are_empty(client: Any) -> None:
    export = await exported(client, {"names": people(3), "title": 5, "budget": None,
                                      "exchangeDate": ["x"], "note": {"a": 1}, "extra": 1})
    assert (export["title"], export["budget"], export["exchangeDate"], export["note"]) == (
        "", "", "", "")
    assert export["heading"] == "Kris Kringle"


async def test_truncation_is_never_an_error(client: Any) -> None:
    export = await exported(client, {
        "title": "t" * 5000, "names": ["n" * 5000, "m" * 5000, "o" * 5000],
        "budget": "b" * 5000, "exchangeDate": "d" * 5000, "note": "x" * 5000})
    assert (export["title"], export["budget"], export["exchangeDate"], export["note"]) == (
        "t" * 80, "b" * 40, "d" * 60, "x" * 300)
    assert [len(name) for name in names_of(export)] == [40] * 3


async def test_create_answers_slug_and_edit_token_only(client: Any) -> None:
    response = await client.post("/api/kringle", json={"title": "Xmas 2025",
                                                       "names": people(4)})
    payload = await response.get_json()
    assert response.status_code == 201
    assert set(payload) == {"slug", "editToken"}
    assert payload["slug"].startswith("xmas-2025-")
    assert len(payload["editToken"]) == 26


async def test_title_sets_the_heading(client: Any) -> None:
    export = await exported(client, {"title": "Team elves", "names": people(3)})
    assert (export["title"], export["heading"]) == ("Team elves", "Team elves")
