"""Moments on pages for people, not servers: a template writes `{{ at|local_time }}` and the
page carries `<time datetime="…+00:00" data-local>` reading "23 Nov 2026, 06:43 UTC" (so a page
read without JavaScript says which zone); the kernel's pages.js rewrites it in the viewer's
own zone. `next_midnight(zone)` is the next start of a day in a named zone, for sentences
such as "a new question at midnight Sydney time" that the page puts in the viewer's time."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from markupsafe import Markup
from markupsafe import escape

from groupkit.core._clock import request_time
from groupkit.core._i18n import N_
from groupkit.core._i18n import gettext

#: The months' short names, in the reader's language where the moment is written.
MONTHS = (N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"), N_("Jul"),
          N_("Aug"), N_("Sep"), N_("Oct"), N_("Nov"), N_("Dec"))


def parse_moment(value: str | dt.datetime) -> dt.datetime | None:
    """An ISO 8601 moment (a naive one is UTC) as an aware UTC datetime; None if unreadable."""
    if isinstance(value, dt.datetime):
        moment = value
    else:
        try:
            moment = dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC)


def local_time(value: str | dt.datetime | None) -> Markup:
    """`<time datetime data-local>` for a moment, written in UTC until the script runs."""
    if not value:
        return Markup("")
    moment = parse_moment(value)
    if moment is None:
        return escape(str(value))
    iso = moment.isoformat()
    month = gettext(MONTHS[moment.month - 1])
    text = f"{moment.day} {month} {moment.year}, {moment:%H:%M} UTC"
    return Markup('<time datetime="{}" data-local>{}</time>').format(iso, text)


def next_midnight(zone: str) -> str:
    """The next midnight in `zone` after the request's time, as an ISO 8601 UTC moment."""
    tz = ZoneInfo(zone)
    local = request_time().astimezone(tz)
    tomorrow = (local + dt.timedelta(days=1)).date()
    midnight = dt.datetime(tomorrow.year, tomorrow.month, tomorrow.day, tzinfo=tz)
    return midnight.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
