"""Volunteer Roster: shifts with spots for volunteers to claim, with a CSV for the coordinator."""

from __future__ import annotations

from groupkit import Hidden
from groupkit import Tool
from groupkit.integrations import slot_feed_operations

from . import api
from .api import NOT_HELD
from .api import SLOT_IDS
from .api import ops
from .api import roster_schema
from .feeds import claim_events
from .schema import MAX_SHIFTS
from .schema import MAX_SPOTS
from .schema import CreateRoster

groupkit_tool = Tool.hook(
    api, hidden=(Hidden("message", operation="claim"),), create_schema=CreateRoster,
    limits={"shifts": MAX_SHIFTS, "spotsPerShift": MAX_SPOTS}, public_schema=roster_schema(),
    feed=slot_feed_operations(ops, NOT_HELD, claim_events),
    description=f"Slot ids are {SLOT_IDS}. A volunteer's message is for the coordinator only: "
        "it appears on the organiser page, in the export and in the CSV "
        "(`GET /api/roster/{editToken}/admin`), never on the public page, in the public "
        "read or in link previews. Each shift offers a calendar entry "
        "(`GET /api/roster/{slug}/ics/{shiftId}`) only when the event date and the "
        "shift's label read as a time; otherwise its `calendar` is null and the page "
        "shows no calendar link.",
)
