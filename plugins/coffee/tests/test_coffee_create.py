"""POST /api/coffee: every field rule and create message, in the spec's check order."""

from __future__ import annotations

from typing import Any

import pytest

from groupkit_testing import create

FEW = "Add at least three names — with two there's only ever one pairing."
MANY = "That's more than 200 names — split the team into two roulettes."


def duplicate(name: str) -> str:
    return f'"{name}" is on the list twice — add a surname initial to tell them apart.'


async def refused(client: Any, body: Any) -> str:
    response = await client.post("/api/coffee", json=body)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert response.content_type == "application/json"
    assert set(payload) == {"error"}
    return str(payload["error"])


async def exported(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    made = await create(client, "coffee", body)
    response = await client.post(f"/api/coffee/{made['editToken']}/export")
    assert response.status_code == 200
    return dict((await response.get_json())["data"])


def names_of(export: dict[str, Any]) -> list[str]:
    return [person["name"] for person in export["people"]]


def people(n: int) -> list[str]:
    return [f"Person {i}" for i in range(n)]


@pytest.mark.parametrize("names", [
    None, "Ann, Bo, Cy", {"0": "Ann"}, 3, [], ["Ann"], ["Ann", "Bo"],
    ["Ann", "Bo", "", "   "], [None, 1, ["Cy"], "Ann", "Bo"]])
async def test_fewer_than_three_names(client: Any, names: Any) -> None:
    assert await refused(client, {"names": names}) == FEW


async def test_missing_names_or_unreadable_body(client: Any) -> None:
    assert await refused(client, {}) == FEW
    assert await refused(client, [["Ann", "Bo", "Cy"]]) == FEW
    response = await client.post("/api/coffee", data="names=Ann",
                                 headers={"Content-Type": "application/json"})
    assert await response.get_json() == {"error": FEW}


async def test_more_than_200_names(client: Any) -> None:
    assert await refused(client, {"names": people(201)}) == MANY


async def test_three_and_two_hundred_are_accepted(client: Any) -> None:
    assert names_of(await exported(client, {"names": people(3)})) == people(3)
    assert names_of(await exported(client, {"names": people(200)})) == people(200)


async def test_empties_dropped_before_counting(client: Any) -> None:
    export = await exported(client, {"names": ["", *people(200), " ", "\n"]})
    assert len(export["people"]) == 200


async def test_names_are_cleaned(client: Any) -> None:
    export = await exported(client, {"names": ["  Ann\n Archer ", "Bo\t\tB", "c" * 60, 7]})
    assert names_of(export) == ["Ann Archer", "Bo B", "c" * 40]


@pytest.mark.parametrize(("names", "quoted"), [
    (["Ann", "Bo", "ANN"], "ANN"),
    (["Ann Lee", "Bo", "Cy", "ann   lee"], "ann lee"),
    (["Zoë", "Bo", "ZOË"], "ZOË"),
    (["x" * 40 + "a", "Bo", "x" * 40 + "b"], "x" * 40),
])
async def test_duplicates_ignoring_case_are_refused(client: Any, names: list[str],
                                                    quoted: str) -> None:
    assert await refused(client, {"names": names}) == duplicate(quoted)


@pytest.mark.parametrize(("names", "quoted"), [
    (["Ann", "Bo", "\uff21nn"], "\uff21nn"),          # fullwidth
    (["Ann", "Bo", "Cy", "\u0410NN"], "\u0410NN"),    # Cyrillic capital A
    (["Tom", "Bo", "\u03a4\u03bfm"], "\u03a4\u03bfm"),  # Greek tau and omicron
])
async def test_look_alike_names_are_refused(client: Any, names: list[str],
                                            quoted: str) -> None:
    """Two names that look the same would have the wrong one claimed."""
    assert await refused(client, {"names": names}) == duplicate(quoted)


async def test_names_are_kept_as_typed(client: Any) -> None:
    names = ["\uff21nn", "Amie", "Arnie", "Zo\u00eb", "Zoe"]
    assert names_of(await exported(client, {"names": names})) == names


async def test_count_is_checked_before_duplicates(client: Any) -> None:
    assert await refused(client, {"names": ["Ann", "ann"]}) == FEW
    assert await refused(client, {"names": [*people(201), "PERSON 1"]}) == MANY


async def test_title_defaults_to_coffee_roulette(client: Any) -> None:
    for title in (None, "", "   ", 12):
        export = await exported(client, {"title": title, "names": people(3)})
        assert (export["title"], export["heading"]) == ("Coffee roulette", "Coffee roulette")
    made = await create(client, "coffee", {"names": people(3)})
    assert made["slug"].startswith("coffee-roulette-")


async def test_optional_fields_trimmed_and_cut(client: Any) -> None:
    export = await exported(client, {
        "title": "  Team  brew\n" + "t" * 90, "names": people(3),
        "cadence": "  Fortnightly,\n Mondays " + "c" * 50,
        "note": "\n Line one\n\n line two " + "n" * 400})
    assert export["title"] == ("Team  brew\n" + "t" * 90)[:80]
    assert export["cadence"] == ("Fortnightly,\n Mondays " + "c" * 50)[:40]
    assert export["note"] == ("Line one\n\n line two " + "n" * 400)[:300]


async def test_optional_fields_wrong_type_are_empty(client: Any) -> None:
    export = await exported(client, {"names": people(3), "cadence": ["weekly"],
                                     "note": {"a": 1}, "unknown": True})
    assert (export["cadence"], export["note"]) == ("", "")


async def test_a_new_roulette_has_no_round(client: Any) -> None:
    export = await exported(client, {"names": people(4)})
    assert (export["round"], export["drawnAt"], export["claimedCount"]) == (0, None, 0)


async def test_truncation_is_never_an_error(client: Any) -> None:
    export = await exported(client, {
        "title": "t" * 9000, "names": ["a" * 9000, "b" * 9000, "c" * 9000],
        "cadence": "c" * 9000, "note": "n" * 9000})
    assert (export["title"], export["cadence"], export["note"]) == (
        "t" * 80, "c" * 40, "n" * 300)
    assert names_of(export) == ["a" * 40, "b" * 40, "c" * 40]
