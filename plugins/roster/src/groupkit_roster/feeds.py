"""Volunteer Roster calendar subscriptions: a volunteer's feed holds the shift they claimed,
as it stands now (the organiser moving it moves the event), and empties when they give the
spot up or it is cleared."""

from __future__ import annotations

from groupkit import Instance
from groupkit.integrations import CalendarEvent
from groupkit.signups import SlotClaim
from groupkit.signups import slot_group

from .api import shift_event


def claim_events(instance: Instance, claim: SlotClaim, base_url: str) -> list[CalendarEvent]:
    shift = slot_group(instance.data["shifts"], claim.slot_id, "s")
    if shift is None:
        return []
    event = shift_event(instance, shift, base_url)
    return [event] if event is not None else []
