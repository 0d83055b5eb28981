"""Office Sweep: random assignment of outcomes to names, fixed at creation."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import DRAW_SCHEMA
from .schema import CreateSweep

groupkit_tool = Tool.hook(
    api, name="sweeps", title="Office Sweep",
    plugin_api=(1, 1), hidden=(), group="games", icon="🏇",
    summary="Draw grand-final teams or Cup horses to names, fixed the moment you create it.",
    create_schema=CreateSweep,
    example={"title": "Grand final sweep", "outcomes": ["Lions by 1-12", "Lions by 13+",
                                                       "Swans by 1-12", "Swans by 13+"],
             "names": ["Ann", "Bo", "Cy", "Di"]},
    public_schema={"type": "object", "properties": {
        "heading": {"type": "string"}, "kind": {"type": "string"},
        "draw": DRAW_SCHEMA["properties"]["draw"],
        "surplus": DRAW_SCHEMA["properties"]["surplus"]}},
)
