"""Wall weeks: Monday to Sunday on the Sydney calendar, named by their Monday (`2025-11-17`).

A note belongs to the week it was posted in. The wall shows this week on top and the six
before it in the archive; about three months of weeks are kept, and older weeks are dropped
whole (week names are ISO dates, so they compare as text).
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

SYDNEY = ZoneInfo("Australia/Sydney")

#: Weeks folded into the archive under this week.
ARCHIVE_WEEKS = 6
#: About three months: this week and the 12 before it.
KEEP_WEEKS = 13


def aware(moment: dt.datetime) -> dt.datetime:
    """A naive time from the database or a test clock is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def local(moment: dt.datetime) -> dt.datetime:
    return aware(moment).astimezone(SYDNEY)


def week_of(moment: dt.datetime) -> str:
    """The name of the Sydney week `moment` falls in: its Monday."""
    day = local(moment).date()
    return (day - dt.timedelta(days=day.weekday())).isoformat()


def weeks_before(week: str, count: int) -> str:
    """The name of the week `count` weeks before `week`."""
    return (dt.date.fromisoformat(week) - dt.timedelta(weeks=count)).isoformat()


def oldest_kept(moment: dt.datetime) -> str:
    return weeks_before(week_of(moment), KEEP_WEEKS - 1)


def oldest_archived(moment: dt.datetime) -> str:
    return weeks_before(week_of(moment), ARCHIVE_WEEKS)


def label(week: str) -> str:
    """`Week of 17 Nov 2025`."""
    day = dt.date.fromisoformat(week)
    return f"Week of {day.day} {day:%b %Y}"


def day_label(moment: dt.datetime) -> str:
    """`Tue 18 Nov`, in Sydney."""
    when = local(moment)
    return f"{when:%a} {when.day} {when:%b}"


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
