"""Office Sweep: random assignment of outcomes to names, fixed at creation."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import DRAW_SCHEMA
from .api import REDRAWN_SCHEMA
from .schema import CreateSweep

groupkit_tool = Tool.hook(
    api, hidden=(), create_schema=CreateSweep,
    public_schema={"type": "object", "properties": {
        "heading": {"type": "string"}, "kind": {"type": "string"},
        "draw": DRAW_SCHEMA["properties"]["draw"],
        "surplus": DRAW_SCHEMA["properties"]["surplus"], "redrawn": REDRAWN_SCHEMA}},
)
