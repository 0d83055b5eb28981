"""Time as tools see it: the request's time from the app's clock (tests fake it), and local
calendar days and weeks in a named time zone (several tools count Sydney days or weeks)."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator
from contextvars import ContextVar
from typing import overload
from zoneinfo import ZoneInfo

#: Set while a view is computed for the render cache: a view that reads the clock is noted,
#: so the cache never keeps it beyond what its tool declares (`Tool.view_time`).
_clock_reads: ContextVar[list[bool] | None] = ContextVar("groupkit_clock_reads", default=None)


@contextlib.contextmanager
def watching_clock() -> Iterator[list[bool]]:
    """Within the block, `request_time()` appends to the list it yields."""
    seen: list[bool] = []
    token = _clock_reads.set(seen)
    try:
        yield seen
    finally:
        _clock_reads.reset(token)


def aware(moment: dt.datetime) -> dt.datetime:
    """A naive time (from the database or a test clock) is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


@overload
def utc_iso(moment: dt.datetime) -> str: ...
@overload
def utc_iso(moment: dt.datetime | None) -> str | None: ...


def utc_iso(moment: dt.datetime | None) -> str | None:
    """A moment as the API writes it, ISO 8601 in UTC with its offset
    (`2026-11-23T06:43:00+00:00`, microseconds only when it has them); None stays None, so
    an optional time (`claimedAt`) needs no test. A naive moment is UTC."""
    return None if moment is None else aware(moment).astimezone(dt.UTC).isoformat()


def request_time() -> dt.datetime:
    """The time of the request being served, from the app's clock, for code that gets no
    `Call` (views, page renderers). Outside a request (a script) it is the wall clock."""
    from quart import current_app
    from quart import has_app_context

    seen = _clock_reads.get()
    if seen is not None:
        seen.append(True)
    if has_app_context():
        clock = current_app.config.get("GROUPKIT_CLOCK")
        if callable(clock):
            return aware(clock())
    return dt.datetime.now(dt.UTC)


def local_date(moment: dt.datetime, zone: str) -> dt.date:
    """The calendar day `moment` falls on in `zone` (an IANA name such as
    "Australia/Sydney"), daylight saving included."""
    return aware(moment).astimezone(ZoneInfo(zone)).date()


def week_start(moment: dt.datetime, zone: str) -> dt.date:
    """The Monday of the week (Monday to Sunday, in `zone`) that `moment` falls in."""
    day = local_date(moment, zone)
    return day - dt.timedelta(days=day.weekday())
