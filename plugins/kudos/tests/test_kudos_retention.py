"""Retention: about three months of weeks (this week and the 12 before it) are kept; older
weeks go whole, with their notes' tokens, through the kernel's prune hook: `prune_now` (what
`groupkit prune` runs), the command itself, and the server's own task, on a fake clock."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path
from typing import Any

from groupkit_kudos.models import KudosNote
from groupkit_testing import prune_now
from groupkit_testing import run_command

#: The first second of the week of Monday 16 November 2026 in Sydney (AEDT), and the last
#: second of the week before.
FIRST_SECOND = dt.datetime(2026, 11, 15, 13, 0, 0, tzinfo=dt.UTC)
LAST_SECOND_BEFORE = FIRST_SECOND - dt.timedelta(seconds=1)
#: Twelve weeks on, the week of the 16th is the oldest kept: to the last second of Sunday
#: 14 February 2027, then it goes.
LAST_MOMENT_KEPT = dt.datetime(2027, 2, 14, 12, 59, 59, tzinfo=dt.UTC)
FIRST_MOMENT_GONE = dt.datetime(2027, 2, 14, 13, 0, 0, tzinfo=dt.UTC)


def prune(app: Any, now: dt.datetime) -> int:
    removed = prune_now(app, now)
    return int(removed["kudos"])


async def boundary_notes(api: Any, slug: str, clock: Any) -> dict[str, dict[str, Any]]:
    """Two notes at the last second of the week of the 9th, two at the first second of the
    week of the 16th."""
    notes = {}
    for moment, week in ((LAST_SECOND_BEFORE, "9th"), (FIRST_SECOND, "16th")):
        clock.set(moment)
        for n in (1, 2):
            notes[f"{week} #{n}"] = await api.posted(slug, recipient=f"{week} #{n}")
    return notes


async def test_weeks_go_whole_after_about_three_months(app: Any, api: Any,
                                                       wall: dict[str, str],
                                                       clock: Any) -> None:
    notes = await boundary_notes(api, wall["slug"], clock)
    assert prune(app, FIRST_SECOND) == 0
    # Two notes and their two tokens go: the whole week of the 9th.
    assert prune(app, LAST_MOMENT_KEPT) == 4
    assert sorted(note.recipient for note in KudosNote.select()) == ["16th #1", "16th #2"]
    for name in ("9th #1", "9th #2"):
        assert (await api.remove_own(notes[name]["token"])).status_code == 404
    assert prune(app, LAST_MOMENT_KEPT) == 0
    clock.set(LAST_MOMENT_KEPT)
    older = (await api.export(wall["editToken"]))["older"]
    assert [week["week"] for week in older] == ["2026-11-16"]
    # One second on, the week of the 16th goes, its first second and all.
    assert prune(app, FIRST_MOMENT_GONE) == 4
    assert KudosNote.select().count() == 0


async def test_prune_spans_every_wall(app: Any, api: Any, clock: Any) -> None:
    slugs = [(await api.create({"team": f"Team {n}"}))["slug"] for n in range(3)]
    wednesday = dt.datetime(2026, 11, 18, 2, 0, tzinfo=dt.UTC)
    for week in range(16):
        clock.set(wednesday + dt.timedelta(weeks=week))
        for slug in slugs:
            await api.posted(slug, recipient=f"week {week}")
    # 16 weeks posted, 13 kept: three weeks of one note (and one token) on each wall go.
    assert prune(app, clock()) == 3 * 2 * 3
    assert KudosNote.select().count() == 13 * 3
    assert min(note.week for note in KudosNote.select()) == "2026-12-07"


async def test_the_server_prunes_on_its_own(app: Any, api: Any, wall: dict[str, str],
                                            clock: Any) -> None:
    await boundary_notes(api, wall["slug"], clock)
    clock.set(FIRST_MOMENT_GONE)
    async with app.test_app():  # serving starts the kernel's retention task
        storage = app.config["GROUPKIT_STORAGE"]
        left = -1
        for _ in range(200):
            left = await storage.read(lambda: KudosNote.select().count())
            if left == 0:
                break
            await asyncio.sleep(0.02)
        assert left == 0


async def test_the_prune_command_drops_old_weeks(app: Any, api: Any, wall: dict[str, str],
                                                 clock: Any, database_url: str,
                                                 tmp_path: Path, capsys: Any) -> None:
    clock.set(dt.datetime(2020, 3, 4, 1, 0, tzinfo=dt.UTC))
    old = await api.posted(wall["slug"], recipient="Long ago")
    clock.set(dt.datetime.now(dt.UTC))
    await api.posted(wall["slug"], recipient="Today")
    config = tmp_path / "prune.toml"
    config.write_text(f'[database]\nurl = "{database_url}"\n[tools]\nenabled = ["kudos"]\n',
                      encoding="utf-8")
    try:
        assert run_command(["prune", "--config", str(config)]) == 0
    finally:
        app.config["GROUPKIT_STORAGE"].bind()  # the command bound its own database
    assert capsys.readouterr().out.splitlines() == ["pruned kudos: 2 row(s)"]
    assert [note.recipient for note in KudosNote.select()] == ["Today"]
    assert (await api.remove_own(old["token"])).status_code == 404
