"""Office Sweep: random assignment of outcomes to names, fixed at creation."""

from __future__ import annotations

from pathlib import Path

from groupkit import Tool, hookimpl

from .api import DRAW_SCHEMA, EDIT, create, ops, organiser_view, public_view
from .schema import CreateSweep

__version__ = "0.1.0"


@hookimpl
def groupkit_tool() -> Tool:
    return Tool(
        name="sweeps", title="Office Sweep", version=__version__,
        plugin_api=(1, 1),
        hidden=(),
        group="games", icon="🏇",
        summary="Draw grand-final teams or Cup horses to names, fixed the moment you create it.",
        create_schema=CreateSweep, create=create, public_view=public_view,
        organiser_view=organiser_view, operations=ops, edit=EDIT,
        templates=Path(__file__).parent / "templates",
        example={"title": "Grand final sweep", "outcomes": ["Lions by 1-12", "Lions by 13+",
                                                           "Swans by 1-12", "Swans by 13+"],
                 "names": ["Ann", "Bo", "Cy", "Di"]},
        public_schema={"type": "object", "properties": {
            "heading": {"type": "string"}, "kind": {"type": "string"},
            "draw": DRAW_SCHEMA["properties"]["draw"],
            "surplus": DRAW_SCHEMA["properties"]["surplus"]}},
    )
