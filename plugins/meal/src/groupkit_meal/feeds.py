"""Meal Train calendar subscriptions: a cook's feed holds the day they claimed (moved when the
coordinator moves it, empty once they give it up). Never the drop-off details: a feed is a
URL a calendar app fetches and may share, so it carries only what the .ics download does."""

from __future__ import annotations

from groupkit import Instance
from groupkit.integrations import CalendarEvent
from groupkit.signups import SlotClaim

from .api import cook_event
from .api import known_slots


def claim_events(instance: Instance, claim: SlotClaim, base_url: str) -> list[CalendarEvent]:
    if known_slots(instance).get(claim.slot_id) != "day":
        return []  # a job's spot has no day
    return [cook_event(instance, claim, base_url)]
