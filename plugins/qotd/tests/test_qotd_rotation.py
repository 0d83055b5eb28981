"""The question bank and the daily rotation: a new question at midnight in Sydney, daylight
saving included, computed from the calendar (tested with the app's fake clock)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from groupkit_qotd import rotation
from groupkit_qotd.bank import BANK_FILE
from groupkit_qotd.bank import CUSTOM_BASE
from groupkit_qotd.bank import bank
from groupkit_qotd.bank import parse

# --- the bank -----------------------------------------------------------------------------


def test_bank_has_a_year_of_questions() -> None:
    questions = bank()
    assert len(questions) >= 365
    assert [question.qi for question in questions] == list(range(len(questions)))
    assert len(questions) < CUSTOM_BASE


def test_every_question_is_well_formed_and_different() -> None:
    seen: set[str] = set()
    for question in bank():
        assert question.question and question.a and question.b, question
        assert len(question.question) <= 140, question
        assert len(question.a) <= 40 and len(question.b) <= 40, question
        assert question.a.casefold() != question.b.casefold(), question
        assert question.question.endswith("?"), question
        assert " ".join(question.question.split()) == question.question, question
        assert question.question.casefold() not in seen, question
        seen.add(question.question.casefold())


def test_bank_file_format() -> None:
    text = BANK_FILE.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert all(line.count("|") == 2 for line in lines)
    assert len(lines) == len(bank())
    parsed = parse("# a comment\n\nOne or two? | One | Two\nRed or blue? | Red | Blue\n")
    assert [(q.qi, q.question, q.a, q.b) for q in parsed] == [
        (0, "One or two?", "One", "Two"), (1, "Red or blue?", "Red", "Blue")]


# --- Sydney days --------------------------------------------------------------------------

@pytest.mark.parametrize(("moment", "day"), [
    ("2025-06-10T13:59:59.999999+00:00", "2025-06-10"),  # 23:59:59 AEST
    ("2025-06-10T14:00:00+00:00", "2025-06-11"),         # midnight AEST (UTC+10)
    ("2025-12-31T12:59:59+00:00", "2025-12-31"),
    ("2025-12-31T13:00:00+00:00", "2026-01-01"),         # midnight AEDT (UTC+11)
    ("2025-10-04T13:59:59+00:00", "2025-10-04"),
    ("2025-10-04T14:00:00+00:00", "2025-10-05"),         # DST starts at 02:00 that day
    ("2025-10-05T12:59:59+00:00", "2025-10-05"),
    ("2025-10-05T13:00:00+00:00", "2025-10-06"),
    ("2025-04-05T12:59:59+00:00", "2025-04-05"),
    ("2025-04-05T13:00:00+00:00", "2025-04-06"),         # DST ends at 03:00 that day
    ("2025-04-06T13:59:59+00:00", "2025-04-06"),
    ("2025-04-06T14:00:00+00:00", "2025-04-07"),
])
def test_sydney_day(moment: str, day: str) -> None:
    assert rotation.sydney_day(dt.datetime.fromisoformat(moment)).isoformat() == day


def test_naive_times_are_utc() -> None:
    assert rotation.sydney_day(dt.datetime(2025, 6, 10, 14, 0)).isoformat() == "2025-06-11"


@pytest.mark.parametrize(("day", "midnight"), [
    ("2025-06-10", "2025-06-10T14:00:00+00:00"),
    ("2025-10-04", "2025-10-04T14:00:00+00:00"),  # the night before DST starts: AEST
    ("2025-10-05", "2025-10-05T13:00:00+00:00"),  # a 23-hour day; ends in AEDT
    ("2025-04-05", "2025-04-05T13:00:00+00:00"),
    ("2025-04-06", "2025-04-06T14:00:00+00:00"),  # a 25-hour day; ends in AEST
])
def test_midnight_after(day: str, midnight: str) -> None:
    assert rotation.midnight_after(dt.date.fromisoformat(day)).isoformat() == midnight


# --- rotation through the API with the fake clock -----------------------------------------

async def today(api: Any, slug: str) -> tuple[str, int]:
    tally = await api.tally(slug)
    return tally["day"], tally["qi"]


async def test_a_new_board_rotates_through_the_whole_bank(api: Any, board: dict[str, str],
                                                          clock: Any) -> None:
    ring = (await api.export(board["editToken"]))["rotation"]
    assert sorted(ring) == list(range(len(bank())))
    seen = []
    clock.set("2025-06-10T02:00:00Z")
    for _ in range(len(ring) + 1):
        seen.append((await today(api, board["slug"]))[1])
        clock.advance(days=1)
    start = ring.index(seen[0])
    assert seen == [ring[(start + n) % len(ring)] for n in range(len(ring) + 1)]
    assert seen[-1] == seen[0]  # a full cycle later it comes round again


async def test_two_boards_get_their_own_orders(api: Any) -> None:
    first, second = await api.make(), await api.make()
    rings = [(await api.export(made["editToken"]))["rotation"] for made in (first, second)]
    assert rings[0] != rings[1]


async def rollover(api: Any, clock: Any, slug: str, before: str, after: str) -> None:
    """The question is the same up to `before` and different from `after` (one microsecond
    later), where the Sydney date turns over; the tally said when that would be."""
    clock.set(before)
    old = await today(api, slug)
    assert (await api.tally(slug))["changesAt"] == after.replace("Z", "+00:00")
    clock.advance(microseconds=1)
    assert clock.now.isoformat() == after.replace("Z", "+00:00")
    new = await today(api, slug)
    assert old != new
    assert dt.date.fromisoformat(new[0]) - dt.date.fromisoformat(old[0]) == dt.timedelta(1)


async def test_rollover_at_midnight_in_winter_and_summer(api: Any, board: dict[str, str],
                                                         clock: Any) -> None:
    await rollover(api, clock, board["slug"], "2025-06-10T13:59:59.999999Z",
                   "2025-06-10T14:00:00Z")
    await rollover(api, clock, board["slug"], "2025-12-31T12:59:59.999999Z",
                   "2025-12-31T13:00:00Z")


async def question_through(api: Any, clock: Any, slug: str, start: str, end: str) -> int:
    """The question asked all the way from `start` to just before `end` (hour by hour)."""
    clock.set(start)
    finish = dt.datetime.fromisoformat(end.replace("Z", "+00:00"))
    day, qi = await today(api, slug)
    while clock.now < finish:
        assert await today(api, slug) == (day, qi), clock.now
        clock.advance(minutes=30)
    clock.set(finish - dt.timedelta(microseconds=1))
    assert await today(api, slug) == (day, qi)
    return qi


@pytest.mark.parametrize(("day", "start", "end", "hours"), [
    # Daylight saving starts: 02:00 AEST becomes 03:00 AEDT; the day has 23 hours.
    ("2025-10-05", "2025-10-04T14:00:00Z", "2025-10-05T13:00:00Z", 23),
    # Daylight saving ends: 03:00 AEDT becomes 02:00 AEST; the day has 25 hours.
    ("2025-04-06", "2025-04-05T13:00:00Z", "2025-04-06T14:00:00Z", 25),
    ("2026-04-05", "2026-04-04T13:00:00Z", "2026-04-05T14:00:00Z", 25),
    ("2026-10-04", "2026-10-03T14:00:00Z", "2026-10-04T13:00:00Z", 23),
])
async def test_rollover_on_daylight_saving_days(api: Any, board: dict[str, str], clock: Any,
                                                day: str, start: str, end: str,
                                                hours: int) -> None:
    slug = board["slug"]
    ring = (await api.export(board["editToken"]))["rotation"]
    begin = dt.datetime.fromisoformat(start.replace("Z", "+00:00"))
    finish = dt.datetime.fromisoformat(end.replace("Z", "+00:00"))
    assert finish - begin == dt.timedelta(hours=hours)
    # The day before ends exactly where this one begins.
    clock.set(begin - dt.timedelta(microseconds=1))
    yesterday = await today(api, slug)
    qi = await question_through(api, clock, slug, start, end)
    tally = await api.tally(slug)
    assert tally["day"] == day and tally["changesAt"] == finish.isoformat()
    assert ring.index(qi) == (ring.index(yesterday[1]) + 1) % len(ring)
    # ...and the next begins exactly at the next midnight.
    clock.set(finish)
    tomorrow = await today(api, slug)
    assert tomorrow[0] == (dt.date.fromisoformat(day) + dt.timedelta(days=1)).isoformat()
    assert ring.index(tomorrow[1]) == (ring.index(qi) + 1) % len(ring)


async def test_the_share_link_shows_each_days_question(api: Any, board: dict[str, str],
                                                       clock: Any) -> None:
    pages = []
    for moment in ("2025-10-05T12:30:00Z", "2025-10-05T13:30:00Z"):
        clock.set(moment)
        tally = await api.tally(board["slug"])
        page = await api.page(f"/s/{board['slug']}")
        assert f'data-day="{tally["day"]}" data-qi="{tally["qi"]}"' in page
        assert (await api.read(board["slug"]))["today"]["qi"] == tally["qi"]
        pages.append(tally["question"])
    assert pages[0] != pages[1]
