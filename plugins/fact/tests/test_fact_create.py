"""Creating a board: every field rule and message of the spec."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

FEW = "Add at least three names — a guessing game needs a few people."
MANY = "Sixty names is the limit — split a big group into two rounds."


def twice(name: str) -> str:
    return f'"{name}" is on the list twice — add a surname initial so the right person claims it.'


async def test_a_new_board(new_board: Callable[..., Any]) -> None:
    board = await new_board({"title": "Offsite", "names": ["Ann", "Bo", "Cy"]})
    assert await board.public() == {
        "title": "Offsite", "heading": "Offsite", "prompt": "Share a fun fact about yourself",
        "note": "", "revealed": False, "names": ["Ann", "Bo", "Cy"], "taken": [], "facts": [],
        "factsIn": 0, "total": 3, "notices": []}
    people = (await board.export())["people"]
    assert people == [{"name": "Ann", "claimed": False}, {"name": "Bo", "claimed": False},
                      {"name": "Cy", "claimed": False}]


@pytest.mark.parametrize("names", [
    [], ["Ann"], ["Ann", "Bo"], ["Ann", "Bo", "", "  ", "\n"], "Ann\nBo\nCy", None,
    {"a": "Ann", "b": "Bo", "c": "Cy"}, 3])
async def test_fewer_than_three_names(refused: Callable[..., Any], names: Any) -> None:
    assert await refused({"names": names}) == FEW


async def test_missing_names_and_bodies_that_are_not_json(refused: Callable[..., Any],
                                                          client: Any) -> None:
    assert await refused({"title": "x"}) == FEW
    for raw in (b"", b"{names: [1, 2, 3]}", b"null", b"[]"):
        response = await client.post("/api/fact", data=raw,
                                     headers={"Content-Type": "application/json"})
        assert response.status_code == 400
        assert await response.get_json() == {"error": FEW}


@pytest.mark.parametrize("count", [61, 62, 200])
async def test_more_than_sixty_names(refused: Callable[..., Any], count: int) -> None:
    assert await refused({"names": [f"Person {n}" for n in range(count)]}) == MANY


async def test_sixty_names_and_blanks_that_do_not_count(new_board: Callable[..., Any]) -> None:
    names = [f"Person {n}" for n in range(60)]
    board = await new_board({"names": [*names, "", " ", "\t"]})
    assert (await board.public())["names"] == names


@pytest.mark.parametrize(("names", "repeated"), [
    (["Ann", "Bo", "ann"], "ann"), (["Ann", "Bo", "Cy", "  BO  "], "BO"),
    (["Ann", "Bo", "Cy", "Di", "A n n", "Bo"], "Bo"), (["Ann Lee", "Bo", "ann   lee"], "ann lee"),
    ([None, "Bo", "null"], "null"), ([5, "Bo", "5"], "5")])
async def test_a_repeated_name_is_quoted_as_cleaned(refused: Callable[..., Any], names: list[Any],
                                                    repeated: str) -> None:
    assert await refused({"names": names}) == twice(repeated)


@pytest.mark.parametrize(("names", "repeated"), [
    (["Ann", "Bo", "\uff21nn"], "\uff21nn"),                  # fullwidth
    (["Ann", "Bo", "Cy", "\u0430nn"], "\u0430nn"),            # Cyrillic small a
    (["Oscar", "Bo", "\u039fscar"], "\u039fscar"),            # Greek capital omicron
])
async def test_a_look_alike_name_is_a_repeat(refused: Callable[..., Any], names: list[str],
                                             repeated: str) -> None:
    """Two names that look the same would have the wrong person claim one."""
    assert await refused({"names": names}) == twice(repeated)


async def test_names_are_stored_as_typed(new_board: Callable[..., Any]) -> None:
    names = ["\uff21nn", "Amie", "Arnie", "\ufdfa" * 40]
    board = await new_board({"names": names})
    assert (await board.public())["names"] == names
    # A name whose key unfolds far past the name (each of these is 18 letters) still
    # claims its own place.
    token = await board.token("\ufdfa" * 40)
    assert "Hi " + "\ufdfa" * 40 in await board.page(f"/p/{token}")


async def test_count_is_checked_before_repeats(refused: Callable[..., Any]) -> None:
    assert await refused({"names": ["Ann", "ann"]}) == FEW
    assert await refused({"names": ["Ann"] * 61}) == MANY


async def test_non_strings_become_text(new_board: Callable[..., Any]) -> None:
    board = await new_board({"names": [None, 5, True, False, 0, 1.5, ["a", "b"], {"x": 1}]})
    assert (await board.public())["names"] == [
        "null", "5", "true", "false", "0", "1.5", "a,b", "[object Object]"]


async def test_names_are_cleaned(new_board: Callable[..., Any]) -> None:
    board = await new_board({"names": ["  Ann \n Lee ", "Bo\t\tKing", "x" * 100]})
    assert (await board.public())["names"] == ["Ann Lee", "Bo King", "x" * 40]


async def test_title_prompt_and_note(new_board: Callable[..., Any]) -> None:
    board = await new_board({"title": "  Team \n  offsite ", "prompt": "  Your   weirdest \n job ",
                             "note": "  Line one\n\n  two  ", "names": ["A", "B", "C"]})
    view = await board.public()
    assert (view["title"], view["heading"]) == ("Team offsite", "Team offsite")
    assert view["prompt"] == "Your weirdest job"
    assert view["note"] == "Line one\n\n  two"
    board = await new_board({"title": "t" * 5000, "prompt": "p" * 5000, "note": "n" * 5000,
                             "names": ["A", "B", "C"]})
    view = await board.public()
    assert (view["title"], view["prompt"], view["note"]) == ("t" * 80, "p" * 140, "n" * 300)


@pytest.mark.parametrize("value", [None, "", "   ", 5, ["x"]])
async def test_defaults_for_empty_title_and_prompt(new_board: Callable[..., Any],
                                                   value: Any) -> None:
    board = await new_board({"title": value, "prompt": value, "note": value,
                             "names": ["A", "B", "C"]})
    view = await board.public()
    assert (view["title"], view["heading"]) == ("", "Fact Matcher")
    assert view["prompt"] == "Share a fun fact about yourself"
    assert view["note"] == ""
