"""The wall by week, in Sydney time: this week's notes on top, the six weeks before folded
into the archive, older kept weeks for the organiser only, nothing past about three months."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

#: Weeks before the fake clock's week (of Monday 16 November 2026) that get a note.
WEEKS_AGO = [0, 1, 6, 7, 12, 13]


async def post_over_weeks(api: Any, slug: str, clock: Any) -> None:
    start = clock()
    for weeks in WEEKS_AGO:
        clock.set(start - dt.timedelta(weeks=weeks))
        await api.posted(slug, recipient=f"{weeks} weeks ago")
    clock.set(start)


def recipients(weeks: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    return [(week["week"], [note["recipient"] for note in week["notes"]]) for week in weeks]


async def test_this_week_on_top_six_weeks_in_the_archive(api: Any, wall: dict[str, str],
                                                         clock: Any) -> None:
    await post_over_weeks(api, wall["slug"], clock)
    view = await api.read(wall["slug"])
    assert [note["recipient"] for note in view["notes"]] == ["0 weeks ago"]
    assert recipients(view["archive"]) == [("2026-11-09", ["1 weeks ago"]),
                                           ("2026-10-05", ["6 weeks ago"])]
    assert view["archive"][1]["label"] == "Week of 5 Oct 2026"
    assert "older" not in view
    page = await api.text(f"/s/{wall['slug']}")
    for hidden in ("7 weeks ago", "12 weeks ago", "13 weeks ago"):
        assert hidden not in page


async def test_the_organiser_also_sees_older_kept_weeks(api: Any, wall: dict[str, str],
                                                        clock: Any) -> None:
    await post_over_weeks(api, wall["slug"], clock)
    exported = await api.export(wall["editToken"])
    assert recipients(exported["older"]) == [("2026-09-28", ["7 weeks ago"]),
                                             ("2026-08-24", ["12 weeks ago"])]
    page = await api.text(f"/e/{wall['editToken']}")
    assert "7 weeks ago" in page and "12 weeks ago" in page
    # Past retention but not yet pruned: shown to nobody.
    assert "13 weeks ago" not in page and "13 weeks ago" not in str(exported)


async def test_an_empty_week_is_left_out_of_the_archive(api: Any, wall: dict[str, str],
                                                        clock: Any) -> None:
    await api.posted(wall["slug"], recipient="Early")
    clock.advance(weeks=3)
    view = await api.read(wall["slug"])
    assert view["notes"] == []
    assert recipients(view["archive"]) == [("2026-11-16", ["Early"])]
    assert "No notes yet this week." in await api.text(f"/s/{wall['slug']}")


async def test_the_week_turns_at_midnight_monday_in_sydney(api: Any, wall: dict[str, str],
                                                           clock: Any) -> None:
    clock.set(dt.datetime(2026, 11, 22, 12, 59, 59, tzinfo=dt.UTC))  # Sun 11:59:59 pm AEDT
    await api.posted(wall["slug"], recipient="Sunday night")
    assert (await api.read(wall["slug"]))["thisWeek"] == "2026-11-16"
    clock.set(dt.datetime(2026, 11, 22, 13, 0, 0, tzinfo=dt.UTC))  # Mon 00:00 AEDT
    await api.posted(wall["slug"], recipient="Monday morning")
    view = await api.read(wall["slug"])
    assert view["thisWeek"] == "2026-11-23"
    assert [note["recipient"] for note in view["notes"]] == ["Monday morning"]
    assert recipients(view["archive"]) == [("2026-11-16", ["Sunday night"])]
    assert view["notes"][0]["day"] == "Mon 23 Nov"
    assert view["archive"][0]["notes"][0]["day"] == "Sun 22 Nov"


@pytest.mark.parametrize(("last_second", "monday"), [
    (dt.datetime(2026, 10, 4, 12, 59, 59), "2026-10-05"),  # daylight saving starts
    (dt.datetime(2027, 4, 4, 13, 59, 59), "2027-04-05")])  # daylight saving ends
async def test_the_week_turns_on_daylight_saving_weekends(api: Any, wall: dict[str, str],
                                                          clock: Any,
                                                          last_second: dt.datetime,
                                                          monday: str) -> None:
    clock.set(last_second.replace(tzinfo=dt.UTC))
    await api.posted(wall["slug"], recipient="Before")
    clock.advance(seconds=1)
    await api.posted(wall["slug"], recipient="After")
    view = await api.read(wall["slug"])
    assert view["thisWeek"] == monday
    assert [note["recipient"] for note in view["notes"]] == ["After"]
    assert [note["recipient"] for note in view["archive"][0]["notes"]] == ["Before"]
