"""Wall weeks: Monday to Sunday on the Sydney calendar, named by their Monday (`2025-11-17`).

A note belongs to the week it was posted in. The wall shows this week on top and the six
before it in the archive; about three months of weeks are kept, and older weeks are dropped
whole (week names are ISO dates, so they compare as text).
"""

from __future__ import annotations

import datetime as dt

from groupkit import format_date
from groupkit import gettext
from groupkit import local_date
from groupkit import week_start

SYDNEY = "Australia/Sydney"

#: Weeks folded into the archive under this week.
ARCHIVE_WEEKS = 6
#: About three months: this week and the 12 before it.
KEEP_WEEKS = 13


def week_of(moment: dt.datetime) -> str:
    """The name of the Sydney week `moment` falls in: its Monday."""
    return week_start(moment, SYDNEY).isoformat()


def weeks_before(week: str, count: int) -> str:
    """The name of the week `count` weeks before `week`."""
    return (dt.date.fromisoformat(week) - dt.timedelta(weeks=count)).isoformat()


def oldest_kept(moment: dt.datetime) -> str:
    return weeks_before(week_of(moment), KEEP_WEEKS - 1)


def oldest_archived(moment: dt.datetime) -> str:
    return weeks_before(week_of(moment), ARCHIVE_WEEKS)


def label(week: str) -> str:
    """`Week of 17 Nov 2025`, in the language being spoken (the API's is English); the date
    pattern is a translator's, as each language writes its short dates its own way."""
    day = format_date(dt.date.fromisoformat(week), gettext("d MMM y"))
    return gettext("Week of {day}").format(day=day)


def day_label(moment: dt.datetime) -> str:
    """`Tue 18 Nov`, in Sydney, in the language being spoken."""
    return format_date(local_date(moment, SYDNEY), gettext("EEE d MMM"))

