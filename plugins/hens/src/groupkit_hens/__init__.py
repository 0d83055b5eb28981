"""Hens & Shower Planner: event details, an optional running order, and who-brings-what
lists with fixed spots."""

from __future__ import annotations

from groupkit import Tool
from groupkit.integrations import slot_feed_operations

from . import api
from .api import BOARD
from .api import board_schema
from .api import ops
from .feeds import claim_events
from .schema import MAX_ACTIVITIES
from .schema import MAX_CATEGORIES
from .schema import MAX_SPOTS
from .schema import CreateHens

groupkit_tool = Tool.hook(
    api, hidden=(), create_schema=CreateHens,
    limits={"categories": MAX_CATEGORIES, "spotsPerCategory": MAX_SPOTS,
            "activities": MAX_ACTIVITIES},
    public_schema=board_schema(), feed=slot_feed_operations(ops, BOARD.not_held, claim_events),
)
