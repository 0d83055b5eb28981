"""Hens & Shower Planner: event details, an optional running order, and who-brings-what
lists with fixed spots."""

from __future__ import annotations

from pathlib import Path

from groupkit import Tool, hookimpl, slot_feed_operations

from .api import (
    EDIT,
    NOT_HELD,
    board_schema,
    create,
    ops,
    organiser_view,
    preview,
    public_view,
)
from .feeds import claim_events
from .schema import MAX_ACTIVITIES, MAX_CATEGORIES, MAX_SPOTS, CreateHens

__version__ = "0.1.0"

HERE = Path(__file__).parent

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


@hookimpl
def groupkit_tool() -> Tool:
    return Tool(
        name="hens", title="Hens & Shower Planner", version=__version__,
        plugin_api=(1, 1),
        hidden=(),
        group="events", icon="🥂",
        summary="Plan a hens party or a shower: the details, the running order, and who's "
                "bringing or sorting what.",
        create_schema=CreateHens, create=create, public_view=public_view,
        organiser_view=organiser_view, preview=preview, operations=ops, edit=EDIT,
        templates=HERE / "templates", static=HERE / "static",
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
