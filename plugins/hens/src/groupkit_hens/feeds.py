"""Hens & Shower Planner calendar subscriptions: whoever holds a spot can subscribe to the
party itself (read from the free-text "when"), with the running order and what they are
down for, kept current when the organiser changes the details. Empty when "when" names no
day, or once they let the spot go. Never the kitty (it may carry payment details) or
anyone's message."""

from __future__ import annotations

import datetime as dt

from groupkit import Instance
from groupkit import read_day
from groupkit import read_hours
from groupkit.integrations import CalendarEvent
from groupkit.signups import SlotClaim
from groupkit.signups import slot_group


def claim_events(instance: Instance, claim: SlotClaim, base_url: str) -> list[CalendarEvent]:
    data = instance.data
    category = slot_group(data["categories"], claim.slot_id, "c")
    if category is None:
        return []
    day = read_day(data["when"], instance.created.date())
    if day is None:
        return []
    start: dt.date | dt.datetime = day
    end: dt.date | dt.datetime | None = None
    hours = read_hours(data["when"])
    if hours is not None:
        midnight = dt.datetime.combine(day, dt.time())
        start = midnight + dt.timedelta(minutes=hours[0])
        end = midnight + dt.timedelta(minutes=hours[1])
    page = f"{base_url}/s/{instance.slug}" if base_url else ""  # no base_url: no link
    running = "\n".join(f"{number}. {activity}"
                        for number, activity in enumerate(data["activities"], start=1))
    lines = [f"You're down for: {data['categories'][category]['name']}.",
             f"Running order:\n{running}" if running else "", data["note"], page]
    return [CalendarEvent(
        uid=f"hens-{instance.slug}@groupkit", summary=instance.title or "Hens & Shower",
        start=start, end=end, location=data["where"],
        description="\n\n".join(line for line in lines if line), url=page)]
