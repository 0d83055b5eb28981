"""My Tool: a groupkit tool plugin. This module holds the hook implementation only."""

from __future__ import annotations

from pathlib import Path

from groupkit import Tool, Walkthrough, hookimpl

from .api import MAX_ENTRIES, create, ops, organiser_view, public_view, take_part
from .models import Entry
from .schema import CreateMyTool

__version__ = "0.1.0"


@hookimpl
def groupkit_tool() -> Tool:
    return Tool(
        name="mytool", title="My Tool", version=__version__, plugin_api=(1, 1),
        summary="A board where everyone adds a short note.",
        create_schema=CreateMyTool, create=create, public_view=public_view,
        organiser_view=organiser_view, operations=ops, models=[Entry],
        templates=Path(__file__).parent / "templates", limits={"entries": MAX_ENTRIES},
        example={"title": "Team shout-outs", "prompt": "Who helped you this week?"},
        walkthrough=Walkthrough(take_part),
        # What the tool keeps off the public side, for the kit's privacy suite. Every note
        # here is public, so nothing is; a private field would be declared as, e.g.,
        # `hidden=(Hidden("text", operation="add", shown_to=("organiser",)),)`.
        hidden=(),
    )
