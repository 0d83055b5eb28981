"""Pulse weeks: Monday to Sunday on the Sydney calendar, named by their Monday (`2025-11-17`).

A response is filed under the week it arrived in, so a week's numbers never change after it
ends, and retention can drop whole weeks by comparing names (ISO dates sort as text).
"""

from __future__ import annotations

import datetime as dt

from groupkit import format_date
from groupkit import gettext
from groupkit import week_start

SYDNEY = "Australia/Sydney"

#: About six months: this week and the 25 before it.
KEEP_WEEKS = 26


def week_of(moment: dt.datetime) -> str:
    """The name of the Sydney week `moment` falls in."""
    return week_start(moment, SYDNEY).isoformat()


def oldest_kept(moment: dt.datetime) -> str:
    """The oldest week still kept at `moment`; anything named before it goes."""
    return (week_start(moment, SYDNEY) - dt.timedelta(weeks=KEEP_WEEKS - 1)).isoformat()


def label(week: str) -> str:
    """`Week of 17 Nov 2025` in the language being spoken (the API's and the chat's is
    English), its date pattern the translator's."""
    monday = dt.date.fromisoformat(week)
    return gettext("Week of {day}").format(day=format_date(monday, gettext("d MMM y")))

