"""The organiser's skip, add and remove, and what each does to today's question; the
organiser page's view of the days ahead and the last week; export."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from groupkit import Instance

STALE = "That's not today's question any more — refresh to see the current one."
OLD_ANSWER = "That answer was for an earlier question — answer today's one instead."
NO_TEXT = "Add the question — what should people choose between?"
NO_ANSWERS = "Give both answers — it's an either-or."
SAME_ANSWERS = "The two answers need to be different."
ALREADY = "That question's already in the rotation."
CUSTOM_FULL = "That's 200 questions of your own — remove one before adding another."
BAD_QI = "That question isn't in this rotation."
LAST = "Keep at least one question in the rotation."


async def ring_of(api: Any, edit: str) -> list[int]:
    return list((await api.export(edit))["rotation"])


async def qi_today(api: Any, slug: str) -> int:
    return int((await api.tally(slug))["qi"])


async def days_ahead(api: Any, slug: str, clock: Any, days: int) -> list[int]:
    """The questions of today and the next days (moving the clock, then back)."""
    start, found = clock.now, []
    for n in range(days):
        clock.set(start + dt.timedelta(days=n))
        found.append(await qi_today(api, slug))
    clock.set(start)
    return found


# --- skip ---------------------------------------------------------------------------------

async def test_skip_moves_today_on_and_later_days_follow(api: Any, board: dict[str, str],
                                                         clock: Any) -> None:
    slug, edit = board["slug"], board["editToken"]
    ring = await ring_of(api, edit)
    before = await days_ahead(api, slug, clock, 3)
    response = await api.organiser(edit, "skip")
    assert response.status_code == 200
    reply = await response.get_json()
    assert reply["ok"] is True
    after = await days_ahead(api, slug, clock, 3)
    assert after == [before[1], before[2], ring[(ring.index(before[2]) + 1) % len(ring)]]
    assert reply["today"]["qi"] == after[0]
    assert reply["today"]["day"] == (await api.tally(slug))["day"]
    assert await ring_of(api, edit) == ring  # nothing removed


async def test_answers_to_a_skipped_question(api: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    before = await api.tally(slug)
    mine = await api.voted(slug, "a", "Ann")
    await api.organiser(board["editToken"], "skip")
    now = await api.tally(slug)
    assert now["tally"]["total"] == 0 and now["qi"] != before["qi"]
    assert await api.error_of(await api.vote(slug, today=before), 409) == STALE
    old = {"choice": "b", "day": before["day"], "qi": before["qi"]}
    assert await api.error_of(await api.change(mine["token"], old), 409) == STALE
    new = {"choice": "b", "day": now["day"], "qi": now["qi"]}
    assert await api.error_of(await api.change(mine["token"], new), 409) == OLD_ANSWER
    answers = (await api.export(board["editToken"]))["answers"]
    assert [(a["qi"], a["choice"], a["voterName"]) for a in answers] == [
        (before["qi"], "a", "Ann")]


async def test_skip_sticks_after_midnight(api: Any, board: dict[str, str], clock: Any) -> None:
    slug = board["slug"]
    ahead = await days_ahead(api, slug, clock, 4)
    await api.organiser(board["editToken"], "skip")
    await api.organiser(board["editToken"], "skip")
    clock.advance(days=1)
    assert await qi_today(api, slug) == ahead[3]


# --- add ----------------------------------------------------------------------------------

async def test_added_questions_queue_from_tomorrow(api: Any, board: dict[str, str],
                                                   clock: Any) -> None:
    slug, edit = board["slug"], board["editToken"]
    ahead = await days_ahead(api, slug, clock, 3)
    response = await api.organiser(edit, "add", {"question": "  Office dog or \n office cat? ",
                                                 "a": " Dog ", "b": "Cat"})
    assert response.status_code == 200
    reply = await response.get_json()
    added = reply["added"]
    assert added["qi"] == 10_000
    assert (added["question"], added["options"]) == ("Office dog or office cat?",
                                                    {"a": "Dog", "b": "Cat"})
    tomorrow = (dt.date.fromisoformat(reply["today"]["day"]) + dt.timedelta(1)).isoformat()
    assert added["day"] == tomorrow
    assert reply["today"]["qi"] == ahead[0]  # today is unchanged
    second = await (await api.organiser(edit, "add", {"question": "Tabs or spaces?",
                                                      "a": "Tabs", "b": "Spaces"})).get_json()
    assert second["added"]["qi"] == 10_001
    assert await days_ahead(api, slug, clock, 5) == [ahead[0], 10_000, 10_001, ahead[1],
                                                     ahead[2]]
    clock.advance(days=1)
    tally = await api.tally(slug)
    assert (tally["qi"], tally["question"], tally["options"]) == (
        10_000, "Office dog or office cat?", {"a": "Dog", "b": "Cat"})
    assert (await api.vote(slug, "b")).status_code == 201


async def test_add_then_skip_asks_it_now(api: Any, board: dict[str, str]) -> None:
    await api.organiser(board["editToken"], "add", {"question": "Q?", "a": "Y", "b": "N"})
    await api.organiser(board["editToken"], "skip")
    assert (await api.tally(board["slug"]))["question"] == "Q?"


@pytest.mark.parametrize(("body", "message"), [
    ({}, NO_TEXT), ({"question": " ", "a": "x", "b": "y"}, NO_TEXT),
    ({"question": 5, "a": "x", "b": "y"}, NO_TEXT),
    ({"question": "Q?", "b": "y"}, NO_ANSWERS), ({"question": "Q?", "a": "x"}, NO_ANSWERS),
    ({"question": "Q?", "a": "x", "b": " "}, NO_ANSWERS),
    ({"question": "Q?", "a": "Same", "b": " same "}, SAME_ANSWERS)])
async def test_add_checks(api: Any, board: dict[str, str], body: Any, message: str) -> None:
    ring = await ring_of(api, board["editToken"])
    assert await api.error_of(await api.organiser(board["editToken"], "add", body),
                              400) == message
    assert await ring_of(api, board["editToken"]) == ring
    assert (await api.export(board["editToken"]))["custom"] == []


async def test_add_refuses_a_question_already_in_the_rotation(api: Any,
                                                              board: dict[str, str]) -> None:
    edit = board["editToken"]
    today = await api.tally(board["slug"])
    body = {"question": today["question"].upper(), "a": "x", "b": "y"}
    assert await api.error_of(await api.organiser(edit, "add", body), 400) == ALREADY
    await api.organiser(edit, "add", {"question": "Mine?", "a": "x", "b": "y"})
    body = {"question": " MINE? ", "a": "p", "b": "q"}
    assert await api.error_of(await api.organiser(edit, "add", body), 400) == ALREADY


async def test_add_cuts_long_text(api: Any, board: dict[str, str]) -> None:
    reply = await (await api.organiser(board["editToken"], "add", {
        "question": "q" * 500, "a": "a" * 99, "b": "b" * 99})).get_json()
    assert reply["added"]["question"] == "q" * 140
    assert reply["added"]["options"] == {"a": "a" * 40, "b": "b" * 40}


async def test_two_hundred_added_questions(api: Any, board: dict[str, str]) -> None:
    edit = board["editToken"]
    for n in range(200):
        response = await api.organiser(edit, "add", {"question": f"Q{n}?", "a": "x", "b": "y"})
        assert response.status_code == 200
    response = await api.organiser(edit, "add", {"question": "One more?", "a": "x", "b": "y"})
    assert await api.error_of(response, 409) == CUSTOM_FULL


# --- remove -------------------------------------------------------------------------------

async def test_remove_a_later_question(api: Any, board: dict[str, str], clock: Any) -> None:
    slug, edit = board["slug"], board["editToken"]
    ahead = await days_ahead(api, slug, clock, 4)
    response = await api.organiser(edit, "remove", {"qi": ahead[1]})
    assert response.status_code == 200
    assert (await response.get_json())["today"]["qi"] == ahead[0]
    assert await days_ahead(api, slug, clock, 3) == [ahead[0], ahead[2], ahead[3]]
    assert ahead[1] not in await ring_of(api, edit)


async def test_remove_an_earlier_question_keeps_today(api: Any, board: dict[str, str],
                                                      clock: Any) -> None:
    slug, edit = board["slug"], board["editToken"]
    ring = await ring_of(api, edit)
    ahead = await days_ahead(api, slug, clock, 2)
    earlier = ring[ring.index(ahead[0]) - 1]
    await api.organiser(edit, "remove", {"qi": str(earlier)})
    assert await days_ahead(api, slug, clock, 2) == ahead


async def test_remove_todays_question_moves_today_on(api: Any, board: dict[str, str],
                                                     clock: Any) -> None:
    slug, edit = board["slug"], board["editToken"]
    ahead = await days_ahead(api, slug, clock, 3)
    mine = await api.voted(slug, "a")
    reply = await (await api.organiser(edit, "remove", {"qi": ahead[0]})).get_json()
    assert reply["today"]["qi"] == ahead[1]
    assert await days_ahead(api, slug, clock, 2) == [ahead[1], ahead[2]]
    now = await api.tally(slug)
    body = {"choice": "b", "day": now["day"], "qi": now["qi"]}
    assert await api.error_of(await api.change(mine["token"], body), 409) == OLD_ANSWER


async def test_remove_an_added_question(api: Any, board: dict[str, str], clock: Any) -> None:
    slug, edit = board["slug"], board["editToken"]
    ahead = await days_ahead(api, slug, clock, 2)
    await api.organiser(edit, "add", {"question": "Q?", "a": "Y", "b": "N"})
    await api.organiser(edit, "remove", {"qi": 10_000})
    assert await days_ahead(api, slug, clock, 2) == ahead
    export = await api.export(edit)
    assert export["custom"] == [{"qi": 10_000, "question": "Q?",
                                 "options": {"a": "Y", "b": "N"}, "inRotation": False}]
    assert await api.error_of(await api.organiser(edit, "remove", {"qi": 10_000}),
                              400) == BAD_QI


async def test_removing_the_last_question_of_the_ring(api: Any, board: dict[str, str],
                                                      clock: Any) -> None:
    """Today's question at the very end of the ring: removing it wraps round to the start."""
    slug, edit = board["slug"], board["editToken"]
    ring = await ring_of(api, edit)
    while await qi_today(api, slug) != ring[-1]:
        clock.advance(days=1)
    await api.organiser(edit, "remove", {"qi": ring[-1]})
    assert await qi_today(api, slug) == ring[0]


@pytest.mark.parametrize("qi", [None, "", "abc", 1.5, [], -1, 99_999, 10_000])
async def test_remove_unknown(api: Any, board: dict[str, str], qi: Any) -> None:
    response = await api.organiser(board["editToken"], "remove", {"qi": qi})
    assert await api.error_of(response, 400) == BAD_QI


async def test_the_last_question_stays(api: Any, board: dict[str, str], db: Any) -> None:
    def shrink() -> None:
        instance = Instance.get(Instance.slug == board["slug"])
        instance.data = {**instance.data, "ring": instance.data["ring"][:2]}
        instance.save()
    db(shrink)
    ring = await ring_of(api, board["editToken"])
    assert (await api.organiser(board["editToken"], "remove", {"qi": ring[0]})).status_code \
        == 200
    response = await api.organiser(board["editToken"], "remove", {"qi": ring[1]})
    assert await api.error_of(response, 409) == LAST
    assert await qi_today(api, board["slug"]) == ring[1]


# --- organiser view and export ------------------------------------------------------------

async def test_export(api: Any, board: dict[str, str], clock: Any) -> None:
    slug, edit = board["slug"], board["editToken"]
    clock.set("2025-06-09T03:00:00Z")
    yesterday = await api.tally(slug)
    await api.voted(slug, "a", "Ann")
    await api.voted(slug, "b", "Bo")
    clock.set("2025-06-10T03:00:00Z")
    await api.voted(slug, "b", "Cy")
    export = await api.export(edit)
    assert export["teamName"] == "Owls" and export["heading"] == "Owls: question of the day"
    assert [day["day"] for day in export["upcoming"]] == [
        f"2025-06-{n}" for n in range(10, 17)]
    assert export["upcoming"][0]["qi"] == export["today"]["qi"]
    assert export["rotationSize"] == len(export["rotation"])
    (history,) = export["history"]
    assert (history["day"], history["qi"], history["question"]) == (
        "2025-06-09", yesterday["qi"], yesterday["question"])
    assert history["tally"] == {"a": 1, "b": 1, "total": 2}
    assert history["names"] == {"a": ["Ann"], "b": ["Bo"]}
    assert [(a["day"], a["choice"], a["voterName"]) for a in export["answers"]] == [
        ("2025-06-09", "a", "Ann"), ("2025-06-09", "b", "Bo"), ("2025-06-10", "b", "Cy")]
    # Only the last week is history.
    clock.set("2025-06-17T03:00:00Z")
    assert [day["day"] for day in (await api.export(edit))["history"]] == ["2025-06-10"]
    clock.set("2025-06-18T03:00:00Z")
    assert (await api.export(edit))["history"] == []


@pytest.mark.parametrize("action", ["skip", "add", "remove", "export", "delete"])
async def test_bad_organiser_codes_are_404(api: Any, board: dict[str, str],
                                           action: str) -> None:
    edit = board["editToken"]
    altered = edit[:-1] + ("x" if edit[-1] != "x" else "y")
    for code in ("2" * 26, board["slug"], altered, edit.upper()):
        response = await api.organiser(code, action, {"question": "Q?", "a": "x", "b": "y",
                                                      "qi": 1})
        assert response.status_code == 404
        assert await response.get_json() == api.NOT_FOUND
