"""Retention: about six months of weeks (this week and the 25 before it) are kept, and older
weeks go whole, through the kernel's prune hook: `prune_now` (what `groupkit prune` runs),
the command itself, and the server's own task at start-up, all on the app's fake clock."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path
from typing import Any

from groupkit_pulse.models import PulseComments
from groupkit_pulse.models import PulseHeld
from groupkit_pulse.models import PulseHeldWords
from groupkit_pulse.models import PulseTally
from groupkit_testing import prune_now
from groupkit_testing import run_command

#: The first and last second of the week of Monday 16 November 2026 in Sydney (AEDT).
FIRST_SECOND = dt.datetime(2026, 11, 15, 13, 0, 0, tzinfo=dt.UTC)
LAST_SECOND_BEFORE = FIRST_SECOND - dt.timedelta(seconds=1)
#: 25 weeks after the 16th: the 16th is then the oldest week kept.
LAST_WEEK_KEPT = dt.datetime(2027, 5, 16, 13, 59, 59, tzinfo=dt.UTC)  # Sun 11:59:59 pm AEST
FIRST_WEEK_DROPPED = dt.datetime(2027, 5, 16, 14, 0, 0, tzinfo=dt.UTC)  # Mon 00:00 AEST


def prune(app: Any, now: dt.datetime) -> int:
    removed = prune_now(app, now)
    return int(removed["pulse"])


def stored_weeks() -> list[str]:
    weeks = {row.week for table in (PulseTally, PulseComments, PulseHeld, PulseHeldWords)
             for row in table.select(table.week)}
    return sorted(weeks)


async def fill_boundary_weeks(api: Any, slug: str, clock: Any) -> None:
    """Four answers at the last second of the week of the 9th, four at the first second
    of the week of the 16th, each with words."""
    for moment, week in ((LAST_SECOND_BEFORE, "2026-11-09"), (FIRST_SECOND, "2026-11-16")):
        clock.set(moment)
        for score in (1, 2, 3, 4):
            assert (await api.responded(slug, score, f"{week} #{score}"))["week"] == week


async def test_weeks_go_whole_once_past_six_months(app: Any, api: Any, pulse: dict[str, str],
                                                   clock: Any) -> None:
    await fill_boundary_weeks(api, pulse["slug"], clock)
    assert prune(app, FIRST_SECOND) == 0

    # In the week of 10 May 2027 the 16th is the oldest kept week: the 9th goes, all of it.
    assert prune(app, LAST_WEEK_KEPT) == 5  # four score counters and one list of words
    assert stored_weeks() == ["2026-11-16"]
    clock.set(LAST_WEEK_KEPT)
    kept = await api.week(pulse["slug"], "2026-11-16")
    assert (kept["responses"], len(kept["comments"])) == (4, 4)
    assert prune(app, LAST_WEEK_KEPT) == 0  # nothing more until the week turns

    # One second later a new week starts and the 16th goes too, first second and all.
    assert prune(app, FIRST_WEEK_DROPPED) == 5
    assert stored_weeks() == []


async def test_pages_never_show_a_week_past_retention(app: Any, api: Any,
                                                      pulse: dict[str, str],
                                                      clock: Any) -> None:
    await fill_boundary_weeks(api, pulse["slug"], clock)
    clock.set(LAST_WEEK_KEPT)  # before any prune has run
    view = await api.read(pulse["slug"])
    assert [entry["week"] for entry in view["weeks"]] == ["2027-05-10", "2026-11-16"]
    assert view["keptWeeks"] == 26
    assert "2026-11-09 #1" not in await api.text(f"/s/{pulse['slug']}")


async def test_prune_spans_every_pulse_and_keeps_recent_weeks(app: Any, api: Any,
                                                              clock: Any) -> None:
    slugs = [(await api.create({"team": f"Team {n}"}))["slug"] for n in range(3)]
    wednesday = dt.datetime(2026, 11, 18, 2, 0, tzinfo=dt.UTC)  # 1 pm in Sydney
    for week in range(30):
        clock.set(wednesday + dt.timedelta(weeks=week))
        for slug in slugs:
            await api.responded(slug, week % 5 + 1, f"week {week}")
    # 30 weeks stored, 26 kept: the first four go for each of the three pulses. A lone
    # response is held, never in the results: its count and score go with its week, its
    # words (kept apart) with the week's end, as with every ended week.
    assert prune(app, clock()) == 4 * 3 + 29 * 3
    weeks = stored_weeks()
    assert len(weeks) == 26
    assert (weeks[0], weeks[-1]) == ("2026-12-14", "2027-06-07")


async def test_the_server_prunes_on_its_own(app: Any, api: Any, pulse: dict[str, str],
                                            clock: Any) -> None:
    await fill_boundary_weeks(api, pulse["slug"], clock)
    clock.set(FIRST_WEEK_DROPPED)
    async with app.test_app():  # serving starts the kernel's retention task
        storage = app.config["GROUPKIT_STORAGE"]
        left = -1
        for _ in range(200):
            left = await storage.read(lambda: PulseTally.select().count())
            if left == 0:
                break
            await asyncio.sleep(0.02)
        assert left == 0
        assert await storage.read(lambda: PulseComments.select().count()) == 0


async def test_the_prune_command_drops_old_weeks(app: Any, api: Any, pulse: dict[str, str],
                                                 clock: Any, database_url: str,
                                                 tmp_path: Path, capsys: Any) -> None:
    # Answers from 2020, long past retention by the wall clock the command uses, and one
    # from today, which stays.
    clock.set(dt.datetime(2020, 3, 4, 1, 0, tzinfo=dt.UTC))
    for score in (1, 2, 3, 4):
        await api.responded(pulse["slug"], score, "ancient")
    clock.set(dt.datetime.now(dt.UTC))
    await api.responded(pulse["slug"], 5, "today")
    config = tmp_path / "prune.toml"
    config.write_text(f'[database]\nurl = "{database_url}"\n[tools]\nenabled = ["pulse"]\n',
                      encoding="utf-8")
    try:
        assert run_command(["prune", "--config", str(config)]) == 0
    finally:
        app.config["GROUPKIT_STORAGE"].bind()  # the command bound its own database
    assert capsys.readouterr().out.splitlines() == ["pruned pulse: 5 row(s)"]
    assert PulseTally.select().count() == PulseComments.select().count() == 0
    # This week's lone response, waiting for its batch.
    assert [(row.responses, row.scores) for row in PulseHeld.select()] == [(1, [5])]
    assert [row.texts for row in PulseHeldWords.select()] == [["today"]]


async def test_prune_forgets_what_an_ended_week_held_back(app: Any, api: Any,
                                                          pulse: dict[str, str],
                                                          clock: Any) -> None:
    """The responses a week ends with never show: once it is over, the retention task keeps
    how many they were and drops their scores and words (the view stays the same)."""
    for score in (1, 2, 3, 4, 5, 1):
        await api.responded(pulse["slug"], score, f"said {score}")
    clock.advance(days=7)
    await api.responded(pulse["slug"], 3, "this week")
    before = await api.read(pulse["slug"])
    assert prune(app, clock()) == 1  # the ended week's held words
    held = {row.week: (row.responses, row.scores) for row in PulseHeld.select()}
    assert held == {"2026-11-16": (2, []), "2026-11-23": (1, [3])}
    assert [(row.week, row.texts) for row in PulseHeldWords.select()] == [
        ("2026-11-23", ["this week"])]
    assert await api.read(pulse["slug"]) == before
    assert before["weeks"][1]["responses"] == 6
