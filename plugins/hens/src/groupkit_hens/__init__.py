"""Hens & Shower Planner: event details, an optional running order, and who-brings-what
lists with fixed spots."""

from __future__ import annotations

from groupkit import Tool
from groupkit import slot_feed_operations

from . import api
from .api import NOT_HELD
from .api import board_schema
from .api import ops
from .feeds import claim_events
from .schema import MAX_ACTIVITIES
from .schema import MAX_CATEGORIES
from .schema import MAX_SPOTS
from .schema import CreateHens

DESCRIPTION = (
    "Event details (who it's for, when, where, a note, the kitty), an optional running "
    "order of up to 20 activities, and up to 12 who-brings-what lists of 1 to 20 spots. "
    "Spots are claimed with a name and an optional public message; each claim returns a "
    "16-character secret that lets the spot go again. Slot ids are `c<categoryIndex>-<n>`, "
    "categoryIndex from 0 in the order the lists were sent, n from 1; an edit never changes "
    "a spot's id (a moved list keeps its number, a new list takes a fresh one).\n\n"
    "`where` appears on the share page and in the public read, but never in the share "
    "page's link-preview metadata (title, description, Open Graph), which carry only the "
    "title, who it's for and when.")


groupkit_tool = Tool.hook(
    api, name="hens", title="Hens & Shower Planner",
    plugin_api=(1, 1), hidden=(), group="events", icon="🥂",
    summary="Plan a hens party or a shower: the details, the running order, and who's "
            "bringing or sorting what.",
    create_schema=CreateHens,
    limits={"categories": MAX_CATEGORIES, "spotsPerCategory": MAX_SPOTS,
            "activities": MAX_ACTIVITIES},
    public_schema=board_schema(), description=DESCRIPTION,
    feed=slot_feed_operations(ops, NOT_HELD, claim_events),
    example={"title": "Mia's hens", "forWhom": "Mia", "when": "Saturday 14 March, 2pm",
             "where": "The Boathouse, 12 River Rd", "note": "Dress code: pink.",
             "kitty": "$60 each covers lunch and the cruise.",
             "activities": ["Lunch", "Harbour cruise", "Karaoke"],
             "categories": [{"name": "Decorations", "capacity": 3},
                            {"name": "Games", "capacity": 2}]},
)
