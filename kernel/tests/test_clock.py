"""Local days and weeks across daylight-saving changes, and the request's clock."""

from __future__ import annotations

import datetime as dt
from typing import Any

from groupkit import local_date
from groupkit import request_time
from groupkit import week_start

SYDNEY = "Australia/Sydney"


def test_sydney_days_follow_daylight_saving() -> None:
    # 2026-04-05 03:00 AEDT -> 02:00 AEST: midnight is 13:00 UTC before, 14:00 UTC after.
    assert local_date(dt.datetime(2026, 4, 4, 12, 59, tzinfo=dt.UTC), SYDNEY) == \
        dt.date(2026, 4, 4)
    assert local_date(dt.datetime(2026, 4, 4, 13, 0, tzinfo=dt.UTC), SYDNEY) == \
        dt.date(2026, 4, 5)
    assert local_date(dt.datetime(2026, 4, 5, 13, 59, tzinfo=dt.UTC), SYDNEY) == \
        dt.date(2026, 4, 5)
    assert local_date(dt.datetime(2026, 4, 5, 14, 0, tzinfo=dt.UTC), SYDNEY) == \
        dt.date(2026, 4, 6)
    # 2026-10-04 02:00 AEST -> 03:00 AEDT: back to 13:00 UTC.
    assert local_date(dt.datetime(2026, 10, 4, 13, 0, tzinfo=dt.UTC), SYDNEY) == \
        dt.date(2026, 10, 5)
    naive = dt.datetime(2026, 10, 4, 13, 0)
    assert local_date(naive, SYDNEY) == dt.date(2026, 10, 5)


def test_weeks_run_monday_to_sunday_locally() -> None:
    sunday_night = dt.datetime(2026, 11, 22, 12, 59, tzinfo=dt.UTC)  # 23:59 Sunday AEDT
    monday = dt.datetime(2026, 11, 22, 13, 0, tzinfo=dt.UTC)  # 00:00 Monday AEDT
    assert week_start(sunday_night, SYDNEY) == dt.date(2026, 11, 16)
    assert week_start(monday, SYDNEY) == dt.date(2026, 11, 23)
    assert week_start(monday, "UTC") == dt.date(2026, 11, 16)


async def test_request_time_is_the_apps_clock(demo_app: Any, clock: Any) -> None:
    async with demo_app.app_context():
        assert request_time() == clock()
    assert abs(request_time() - dt.datetime.now(dt.UTC)) < dt.timedelta(seconds=5)
