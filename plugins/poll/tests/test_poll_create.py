"""Creating a poll: every field rule of the spec, its messages to the character, and the
check order (question, options, maxPicks)."""

from __future__ import annotations

import re
from typing import Any

import pytest

NO_QUESTION = "Add a question — what's the group deciding?"
TOO_FEW = "Give people at least two options to choose between."
TOO_MANY = "Thirty options is the limit — trim the list a bit."
BAD_MAX_PICKS = "Set how many each person can pick to a number from 2 to 30."
ID = re.compile(r"[23456789abcdefghjkmnpqrstuvwxyz]{6}")


async def refused(api: Any, body: Any) -> str:
    response = await api.client.post("/api/poll", json=body)
    return await api.error_of(response, 400)


async def made(api: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = await api.client.post("/api/poll", json=body)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    assert set(payload) == {"slug", "editToken"}
    return dict(await api.read(payload["slug"]))


def texts(view: dict[str, Any]) -> list[str]:
    return [option["text"] for option in view["tally"]]


# --- question -----------------------------------------------------------------------------

@pytest.mark.parametrize("question", [None, "", "   ", "\n\t", 5, True, ["Lunch?"], {"q": 1}])
async def test_question_required(api: Any, question: Any) -> None:
    assert await refused(api, {"question": question, "options": ["a", "b"]}) == NO_QUESTION


async def test_missing_question_and_unreadable_bodies(api: Any) -> None:
    assert await refused(api, {"options": ["a", "b"]}) == NO_QUESTION
    assert await refused(api, []) == NO_QUESTION
    assert await refused(api, "Lunch?") == NO_QUESTION
    response = await api.client.post("/api/poll", data=b"{not json",
                                     headers={"Content-Type": "application/json"})
    assert await api.error_of(response, 400) == NO_QUESTION


async def test_question_is_cleaned_and_cut_to_140(api: Any) -> None:
    view = await made(api, {"question": "  Where \n\n for   lunch?  ", "options": ["a", "b"]})
    assert view["question"] == "Where for lunch?"
    view = await made(api, {"question": "q" * 5000, "options": ["a", "b"]})
    assert view["question"] == "q" * 140


async def test_slug_words_come_from_the_question(api: Any) -> None:
    response = await api.client.post("/api/poll", json={
        "question": "Where for lunch, team?", "options": ["a", "b"]})
    slug = (await response.get_json())["slug"]
    assert re.fullmatch(r"where-for-lunch-team-[23456789abcdefghjkmnpqrstuvwxyz]{14}", slug)


# --- options ------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [None, "a, b", 5, {"a": "b"}, [], ["only"],
                                     ["one", "", "  ", None, 3, {}, {"text": 7}, ["x"]],
                                     ["same", "SAME", " same "], [{"text": "a"}, {"txt": "b"}]])
async def test_fewer_than_two_options(api: Any, options: Any) -> None:
    assert await refused(api, {"question": "Q", "options": options}) == TOO_FEW


async def test_missing_options(api: Any) -> None:
    assert await refused(api, {"question": "Q"}) == TOO_FEW


async def test_strings_and_text_objects_mix(api: Any) -> None:
    view = await made(api, {"question": "Q", "options": [
        "Thai", {"text": "  Pub \n bistro "}, {"text": "Picnic", "colour": "green"},
        {"text": None}, {"label": "ignored"}, 42, None, ""]})
    assert texts(view) == ["Thai", "Pub bistro", "Picnic"]


async def test_each_option_cleaned_and_cut_to_80(api: Any) -> None:
    view = await made(api, {"question": "Q", "options": ["  a \t b ", "x" * 500]})
    assert texts(view) == ["a b", "x" * 80]


async def test_case_insensitive_duplicates_dropped_first_wins(api: Any) -> None:
    view = await made(api, {"question": "Q", "options": [
        "Thai", "pub", "THAI", {"text": "Pub"}, " thai ", "Picnic", "PUB  "]})
    assert texts(view) == ["Thai", "pub", "Picnic"]


async def test_duplicates_compared_after_cutting_to_80(api: Any) -> None:
    base = "y" * 80
    assert await refused(api, {"question": "Q", "options": [base + "a", base + "b"]}) == TOO_FEW


async def test_thirty_options_fine_thirty_one_refused(api: Any) -> None:
    view = await made(api, {"question": "Q", "options": [f"o{n}" for n in range(30)]})
    assert len(view["tally"]) == 30
    assert await refused(api, {"question": "Q",
                               "options": [f"o{n}" for n in range(31)]}) == TOO_MANY


async def test_duplicates_do_not_count_towards_thirty(api: Any) -> None:
    options = [f"o{n}" for n in range(30)] + [f"O{n}" for n in range(30)]
    view = await made(api, {"question": "Q", "options": options})
    assert texts(view) == [f"o{n}" for n in range(30)]


async def test_only_the_first_200_entries_are_read(api: Any) -> None:
    padding = [""] * 198
    view = await made(api, {"question": "Q", "options": [*padding, "a", "b", "c", "d"]})
    assert texts(view) == ["a", "b"]
    assert await refused(api, {"question": "Q",
                               "options": [*padding, " ", "a", "b"]}) == TOO_FEW
    # A 31st distinct option past the first 200 entries is never read.
    many = [f"o{n}" for n in range(30)] * 6 + [""] * 20 + ["late"]
    view = await made(api, {"question": "Q", "options": many})
    assert len(view["tally"]) == 30 and "late" not in texts(view)
    # Within the first 200 it counts.
    assert await refused(api, {"question": "Q",
                               "options": [*([""] * 169), *(f"o{n}" for n in range(31))]}
                         ) == TOO_MANY


async def test_options_get_fresh_six_character_ids(api: Any) -> None:
    body = {"question": "Q", "options": [f"o{n}" for n in range(30)]}
    first, second = await made(api, body), await made(api, body)
    first_ids = [option["id"] for option in first["tally"]]
    assert all(ID.fullmatch(option_id) for option_id in first_ids)
    assert len(set(first_ids)) == 30
    assert not set(first_ids) & {option["id"] for option in second["tally"]}
    assert all(option["count"] == 0 for option in first["tally"])
    assert set(first["tally"][0]) == {"id", "text", "count"}


# --- mode and maxPicks --------------------------------------------------------------------

@pytest.mark.parametrize(("mode", "expected"), [
    ("multi", "multi"), ("single", "single"), ("MULTI", "single"), (" multi", "single"),
    (None, "single"), (1, "single"), (["multi"], "single"), ("", "single")])
async def test_mode(api: Any, mode: Any, expected: str) -> None:
    view = await made(api, {"question": "Q", "options": ["a", "b"], "mode": mode})
    assert view["mode"] == expected


async def test_mode_absent_is_single(api: Any) -> None:
    assert (await made(api, {"question": "Q", "options": ["a", "b"]}))["mode"] == "single"


@pytest.mark.parametrize(("sent", "stored"), [
    (None, None), ("", None), (2, 2), (30, 30), ("7", 7), (5.0, 5), (" 4 ", 4)])
async def test_max_picks_accepted_in_multi(api: Any, sent: Any, stored: Any) -> None:
    view = await made(api, {"question": "Q", "options": ["a", "b", "c"], "mode": "multi",
                            "maxPicks": sent})
    assert view["maxPicks"] == stored


async def test_max_picks_absent_means_no_cap(api: Any) -> None:
    view = await made(api, {"question": "Q", "options": ["a", "b"], "mode": "multi"})
    assert view["maxPicks"] is None


async def test_cap_at_or_above_the_option_count_is_accepted(api: Any) -> None:
    for cap in (2, 3, 30):
        view = await made(api, {"question": "Q", "options": ["a", "b"], "mode": "multi",
                                "maxPicks": cap})
        assert view["maxPicks"] == cap


@pytest.mark.parametrize("cap", [1, 0, -2, 31, 100, 2.5, "2.5", "abc", " ", True, False,
                                 [3], {"n": 3}, "3 picks"])
async def test_bad_max_picks_in_multi(api: Any, cap: Any) -> None:
    body = {"question": "Q", "options": ["a", "b", "c"], "mode": "multi", "maxPicks": cap}
    assert await refused(api, body) == BAD_MAX_PICKS


@pytest.mark.parametrize("cap", [1, 99, "abc", True, 3])
async def test_max_picks_ignored_in_single_mode(api: Any, cap: Any) -> None:
    view = await made(api, {"question": "Q", "options": ["a", "b"], "maxPicks": cap})
    assert (view["mode"], view["maxPicks"]) == ("single", None)


async def test_check_order(api: Any) -> None:
    bad = {"question": "", "options": ["a"], "mode": "multi", "maxPicks": 1}
    assert await refused(api, bad) == NO_QUESTION
    assert await refused(api, {**bad, "question": "Q"}) == TOO_FEW
    assert await refused(api, {**bad, "question": "Q",
                               "options": [f"o{n}" for n in range(31)]}) == TOO_MANY
    assert await refused(api, {**bad, "question": "Q", "options": ["a", "b"]}) == BAD_MAX_PICKS


# --- flags --------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "expected"), [
    (True, True), (1, True), ("yes", True), ("false", True), ([], True), ({}, True),
    (False, False), (0, False), ("", False), (None, False)])
async def test_flags_use_truthiness(api: Any, value: Any, expected: bool) -> None:
    view = await made(api, {"question": "Q", "options": ["a", "b"],
                            "allowSuggestions": value, "secret": value})
    assert (view["allowSuggestions"], view["secret"]) == (expected, expected)


async def test_defaults(api: Any) -> None:
    view = await made(api, {"question": "Lunch?", "options": ["a", "b"], "extra": "ignored"})
    assert view == {"question": "Lunch?", "mode": "single", "maxPicks": None,
                    "allowSuggestions": False, "secret": False, "closed": False,
                    "ballots": 0, "voteLimit": 2000, "tally": view["tally"]}
