"""Answering today's question, changing an answer and reading the tally: every message, the
check order, and answers to anything but today's current question refused."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit import Instance
from groupkit_qotd.models import QotdVote

BAD_CHOICE = "Pick one of the two answers."
NO_QUESTION = "Say which question you're answering — send the day and qi from the tally."
NO_NAME = "Add your name so the team knows who picked what."
STALE = "That's not today's question any more — refresh to see the current one."
OLD_ANSWER = "That answer was for an earlier question — answer today's one instead."
DAY_FULL = "That's 1000 answers to today's question — the limit for one day."
TOKEN = re.compile(r"[23456789abcdefghjkmnpqrstuvwxyz]{22}")


async def test_vote_reply(api: Any, board: dict[str, str]) -> None:
    today = await api.tally(board["slug"])
    response = await api.vote(board["slug"], "b", "Ann", today)
    assert response.status_code == 201
    reply = await response.get_json()
    assert set(reply) == {"token", "day", "qi", "choice", "tally"}
    assert TOKEN.fullmatch(reply["token"])
    assert (reply["day"], reply["qi"], reply["choice"]) == (today["day"], today["qi"], "b")
    assert reply["tally"] == {"a": 0, "b": 1, "total": 1}


async def test_tally(api: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    empty = await api.tally(slug)
    assert set(empty) == {"day", "dayLabel", "qi", "question", "options", "changesAt",
                          "tally", "names"}
    assert empty["tally"] == {"a": 0, "b": 0, "total": 0}
    assert empty["names"] == {"a": [], "b": []}
    assert empty["day"] == "2025-06-10" and empty["dayLabel"] == "Tuesday 10 June"
    assert empty["changesAt"] == "2025-06-10T14:00:00+00:00"
    read = (await api.read(slug))["today"]
    assert {key: empty[key] for key in read} == read
    for name, choice in (("Ann", "a"), ("Bo", "b"), ("Cy", "a")):
        await api.voted(slug, choice, name)
    tally = await api.tally(slug)
    assert tally["tally"] == {"a": 2, "b": 1, "total": 3}
    assert tally["names"] == {"a": ["Ann", "Cy"], "b": ["Bo"]}


async def test_tally_of_an_unknown_board_is_404(api: Any) -> None:
    response = await api.client.get("/api/qotd/question-of-the-day-23456789abcdef/tally")
    assert response.status_code == 404
    assert await response.get_json() == api.NOT_FOUND


@pytest.mark.parametrize("choice", ["A", "c", "", " a", "ab", None, 1, True, ["a"], {"a": 1}])
async def test_choice_must_be_a_or_b(api: Any, board: dict[str, str], choice: Any) -> None:
    response = await api.vote(board["slug"], choice)
    assert await api.error_of(response, 400) == BAD_CHOICE


@pytest.mark.parametrize("field", ["day", "qi"])
@pytest.mark.parametrize("value", [None, "", "   ", [], {}, "MISSING"])
async def test_day_and_qi_are_required(api: Any, board: dict[str, str], field: str,
                                       value: Any) -> None:
    today = await api.tally(board["slug"])
    body = {"slug": board["slug"], "choice": "a", "day": today["day"], "qi": today["qi"],
            "voterName": "Ann", field: value}
    if value == "MISSING":
        del body[field]
    response = await api.client.post("/api/qotd/vote", json=body)
    assert await api.error_of(response, 400) == NO_QUESTION


@pytest.mark.parametrize("qi", ["one", 1.5, True])
async def test_qi_must_be_a_whole_number(api: Any, board: dict[str, str], qi: Any) -> None:
    today = await api.tally(board["slug"])
    response = await api.vote(board["slug"], today={**today, "qi": qi})
    assert await api.error_of(response, 400) == NO_QUESTION


async def test_qi_as_a_numeric_string(api: Any, board: dict[str, str]) -> None:
    today = await api.tally(board["slug"])
    response = await api.vote(board["slug"], today={**today, "qi": f" {today['qi']} "})
    assert response.status_code == 201
    # Counted on today's question, as a number would be.
    after = await api.tally(board["slug"])
    assert (after["qi"], after["tally"], after["names"]) == (
        today["qi"], {"a": 1, "b": 0, "total": 1}, {"a": ["Ann"], "b": []})


@pytest.mark.parametrize("name", ["", "   ", None, 5, ["Ann"]])
async def test_name_is_required(api: Any, board: dict[str, str], name: Any) -> None:
    assert await api.error_of(await api.vote(board["slug"], "a", name), 400) == NO_NAME


async def test_missing_name(api: Any, board: dict[str, str]) -> None:
    today = await api.tally(board["slug"])
    response = await api.client.post("/api/qotd/vote", json={
        "slug": board["slug"], "choice": "a", "day": today["day"], "qi": today["qi"]})
    assert await api.error_of(response, 400) == NO_NAME


async def test_name_is_cleaned(api: Any, board: dict[str, str]) -> None:
    await api.voted(board["slug"], "a", "  Ann \n Lee ")
    await api.voted(board["slug"], "b", "n" * 99)
    assert (await api.tally(board["slug"]))["names"] == {"a": ["Ann Lee"], "b": ["n" * 40]}


async def test_check_order(api: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    today = await api.tally(slug)
    stale = {**today, "day": "2025-06-09"}
    assert await api.error_of(await api.vote(slug, "x", "", stale), 400) == BAD_CHOICE
    no_day = {**today, "day": None}
    assert await api.error_of(await api.vote(slug, "a", "", no_day), 400) == NO_QUESTION
    assert await api.error_of(await api.vote(slug, "a", "", stale), 400) == NO_NAME
    assert await api.error_of(await api.vote(slug, "a", "Ann", stale), 409) == STALE


@pytest.mark.parametrize(("day", "qi_shift"), [("2025-06-09", 0), ("2025-06-11", 0),
                                               ("10/06/2025", 0), (None, 1), (None, -1)])
async def test_anything_but_todays_question_is_refused(api: Any, board: dict[str, str],
                                                       day: Any, qi_shift: int) -> None:
    today = await api.tally(board["slug"])
    named = {**today, "day": day or today["day"], "qi": today["qi"] + qi_shift}
    assert await api.error_of(await api.vote(board["slug"], today=named), 409) == STALE
    assert (await api.tally(board["slug"]))["tally"]["total"] == 0


async def test_yesterdays_question_after_midnight(api: Any, board: dict[str, str],
                                                  clock: Any) -> None:
    clock.set("2025-06-10T13:59:00Z")
    before = await api.tally(board["slug"])
    clock.set("2025-06-10T14:00:00Z")
    assert await api.error_of(await api.vote(board["slug"], today=before), 409) == STALE
    assert (await api.vote(board["slug"])).status_code == 201


@pytest.mark.parametrize("slug", [None, "", "nope", "question-of-the-day-23456789abcdef", 7])
async def test_unknown_slug_is_404(api: Any, board: dict[str, str], slug: Any) -> None:
    today = await api.tally(board["slug"])
    response = await api.client.post("/api/qotd/vote", json={
        "slug": slug, "choice": "a", "day": today["day"], "qi": today["qi"],
        "voterName": "Ann"})
    assert response.status_code == 404
    assert await response.get_json() == api.NOT_FOUND


async def test_one_thousand_answers_a_day(api: Any, board: dict[str, str], db: Any) -> None:
    today = await api.tally(board["slug"])

    def fill() -> None:
        instance = Instance.get(Instance.slug == board["slug"])
        QotdVote.insert_many([{"instance": instance.id, "day": today["day"],
                               "qi": today["qi"], "choice": "ab"[n % 2],
                               "voter_name": f"P{n}"} for n in range(999)]).execute()
    db(fill)
    assert (await api.voted(board["slug"], "a"))["tally"]["total"] == 1000
    assert await api.error_of(await api.vote(board["slug"], "b"), 409) == DAY_FULL


# --- changing an answer -------------------------------------------------------------------

async def test_change_an_answer(api: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    mine = await api.voted(slug, "a", "Ann")
    await api.voted(slug, "a", "Bo")
    body = {"choice": "b", "day": mine["day"], "qi": mine["qi"]}
    response = await api.change(mine["token"], body)
    assert response.status_code == 200
    reply = await response.get_json()
    assert reply == {"token": mine["token"], "day": mine["day"], "qi": mine["qi"],
                     "choice": "b", "tally": {"a": 1, "b": 1, "total": 2}}
    assert (await api.tally(slug))["names"] == {"a": ["Bo"], "b": ["Ann"]}
    assert (await api.change(mine["token"], {**body, "choice": "b"})).status_code == 200


async def test_change_checks(api: Any, board: dict[str, str]) -> None:
    mine = await api.voted(board["slug"], "a")
    body = {"choice": "b", "day": mine["day"], "qi": mine["qi"]}
    assert await api.error_of(await api.change(mine["token"], {**body, "choice": "B"}),
                              400) == BAD_CHOICE
    assert await api.error_of(await api.change(mine["token"], {**body, "qi": None}),
                              400) == NO_QUESTION
    assert await api.error_of(await api.change(mine["token"], {**body, "day": "2025-06-09"}),
                              409) == STALE
    assert (await api.tally(board["slug"]))["tally"] == {"a": 1, "b": 0, "total": 1}


async def test_an_answer_cannot_be_changed_once_its_day_is_over(
        api: Any, board: dict[str, str], clock: Any) -> None:
    mine = await api.voted(board["slug"], "a")
    clock.advance(days=1)
    stale = {"choice": "b", "day": mine["day"], "qi": mine["qi"]}
    assert await api.error_of(await api.change(mine["token"], stale), 409) == STALE
    today = await api.tally(board["slug"])
    current = {"choice": "b", "day": today["day"], "qi": today["qi"]}
    assert await api.error_of(await api.change(mine["token"], current), 409) == OLD_ANSWER
    assert today["tally"]["total"] == 0


@pytest.mark.parametrize("token", ["2" * 22, "short", "2" * 26])
async def test_change_with_an_unknown_token_is_404(api: Any, board: dict[str, str],
                                                   token: str) -> None:
    today = await api.tally(board["slug"])
    response = await api.change(token, {"choice": "a", "day": today["day"], "qi": today["qi"]})
    assert response.status_code == 404
    assert await response.get_json() == api.NOT_FOUND


async def test_tokens_change_only_their_own_board(api: Any, board: dict[str, str]) -> None:
    other = await api.make()
    mine = await api.voted(board["slug"], "a")
    theirs = await api.tally(other["slug"])
    while theirs["qi"] == mine["qi"]:
        await api.organiser(other["editToken"], "skip")
        theirs = await api.tally(other["slug"])
    response = await api.change(mine["token"], {"choice": "b", "day": theirs["day"],
                                                "qi": theirs["qi"]})
    assert await api.error_of(response, 409) == STALE
    assert (await api.tally(other["slug"]))["tally"]["total"] == 0
    assert (await api.tally(board["slug"]))["tally"] == {"a": 1, "b": 0, "total": 1}


async def test_no_private_page_for_an_answer(api: Any, board: dict[str, str]) -> None:
    mine = await api.voted(board["slug"], "a")
    await api.page(f"/p/{mine['token']}", 404)
