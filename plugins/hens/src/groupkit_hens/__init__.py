"""Hens & Shower Planner: event details, an optional running order, who-brings-what lists
with fixed spots, and a guest list where each guest says whether they're coming."""

from __future__ import annotations

from groupkit import Hidden
from groupkit import Tool
from groupkit.integrations import slot_feed_operations

from . import api
from .api import BOARD
from .api import board_schema
from .api import ops
from .feeds import claim_events
from .guests import GUEST_KIND
from .guests import MAX_GUESTS
from .models import MIGRATIONS
from .models import HensGuest
from .schema import MAX_ACTIVITIES
from .schema import MAX_CATEGORIES
from .schema import MAX_SPOTS
from .schema import CreateHens

groupkit_tool = Tool.hook(
    api, create_schema=CreateHens,
    # A guest's note to the organiser: their own page and the organiser's side only.
    hidden=(Hidden("note", operation="rsvp", shown_to=("organiser", "participant")),
            Hidden("note", operation="r/{token}", shown_to=("organiser", "participant"))),
    participant_kinds=(GUEST_KIND,), models=[HensGuest], migrations=MIGRATIONS,
    limits={"categories": MAX_CATEGORIES, "spotsPerCategory": MAX_SPOTS,
            "activities": MAX_ACTIVITIES, "guests": MAX_GUESTS},
    public_schema=board_schema(), feed=slot_feed_operations(ops, BOARD.not_held, claim_events),
)
