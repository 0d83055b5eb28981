"""`.ics` calendar entries (RFC 5545) for tools whose records have a date, built with the
maintained `icalendar` library rather than by string pasting."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from urllib.parse import quote

from groupkit.core._declared import CalendarEvent
from groupkit.core._tool import Reply

PRODUCT_ID = "-//groupkit//groupkit//EN"


def calendar_text(events: Iterable[CalendarEvent], stamp: dt.datetime) -> bytes:
    import icalendar  # here: a sixth of a second of every server process's start-up

    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    for item in events:
        event = icalendar.Event()
        event.add("uid", item.uid)
        event.add("dtstamp", stamp.astimezone(dt.UTC))
        event.add("summary", item.summary)
        event.add("dtstart", item.start)
        end = item.end
        if end is None:
            end = (item.start + dt.timedelta(hours=1) if isinstance(item.start, dt.datetime)
                   else item.start + dt.timedelta(days=1))
        event.add("dtend", end)
        if item.description:
            event.add("description", item.description)
        if item.location:
            event.add("location", item.location)
        if item.url:
            event.add("url", item.url)
        calendar.add_component(event)
    data: bytes = calendar.to_ical()
    return data


def calendar_reply(events: Iterable[CalendarEvent], filename: str,
                   stamp: dt.datetime) -> Reply:
    """An operation's reply that a phone opens straight into its calendar app."""
    stem = filename[:-4] if filename.lower().endswith(".ics") else filename
    ascii_stem = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-"
                         for c in stem).strip("-") or "event"
    disposition = (f'attachment; filename="{ascii_stem}.ics"; '
                   f"filename*=UTF-8''{quote(stem or 'event', safe='')}.ics")
    return Reply(calendar_text(events, stamp), content_type="text/calendar; charset=utf-8",
                 headers={"Content-Disposition": disposition, "Cache-Control": "no-store"})
