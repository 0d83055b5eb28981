"""My Tool: a groupkit tool plugin. This module holds the hook implementation only."""

from __future__ import annotations

from groupkit import Tool
from groupkit import Walkthrough

from . import api
from .api import MAX_ENTRIES
from .api import take_part
from .models import Entry
from .schema import CreateMyTool

groupkit_tool = Tool.hook(
    api, name="mytool", title="My Tool",
    plugin_api=(1, 1), hidden=(),
    summary="A board where everyone adds a short note.",
    create_schema=CreateMyTool, models=[Entry], limits={"entries": MAX_ENTRIES},
    example={"title": "Team shout-outs", "prompt": "Who helped you this week?"},
    walkthrough=Walkthrough(take_part),
    # What the tool keeps off the public side, for the kit's privacy suite. Every note
    # here is public, so nothing is; a private field would be declared as, e.g.,
    # `hidden=(Hidden("text", operation="add", shown_to=("organiser",)),)`.
)
