"""Pulse weeks: Monday to Sunday on the Sydney calendar, named by their Monday (`2025-11-17`).

A response is filed under the week it arrived in, so a week's numbers never change after it
ends, and retention can drop whole weeks by comparing names (ISO dates sort as text).
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

SYDNEY = ZoneInfo("Australia/Sydney")

#: About six months: this week and the 25 before it.
KEEP_WEEKS = 26


def aware(moment: dt.datetime) -> dt.datetime:
    """A naive time from the database or a test clock is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def monday_of(moment: dt.datetime) -> dt.date:
    local = aware(moment).astimezone(SYDNEY).date()
    return local - dt.timedelta(days=local.weekday())


def week_of(moment: dt.datetime) -> str:
    """The name of the Sydney week `moment` falls in."""
    return monday_of(moment).isoformat()


def oldest_kept(moment: dt.datetime) -> str:
    """The oldest week still kept at `moment`; anything named before it goes."""
    return (monday_of(moment) - dt.timedelta(weeks=KEEP_WEEKS - 1)).isoformat()


def label(week: str) -> str:
    """`Week of 17 Nov 2025`."""
    day = dt.date.fromisoformat(week)
    return f"Week of {day.day} {day:%b %Y}"


def request_time() -> dt.datetime:
    """The time of the request being served, from the app's clock (tests fake it).

    Views get no `Call`, so the clock comes from the running app; outside a request (a
    script) it is the wall clock."""
    from quart import current_app, has_app_context

    if has_app_context():
        clock = current_app.config.get("GROUPKIT_CLOCK")
        if callable(clock):
            return aware(clock())
    return dt.datetime.now(dt.UTC)
