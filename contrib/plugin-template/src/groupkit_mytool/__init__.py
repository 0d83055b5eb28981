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
    api, create_schema=CreateMyTool, models=[Entry],
    # What the tool keeps off the public side, for the kit's privacy suite. Every note
    # here is public, so nothing is; a private field would be declared as, e.g.,
    # `hidden=(Hidden("text", operation="add", shown_to=("organiser",)),)`.
    hidden=(),
    limits={"entries": MAX_ENTRIES}, walkthrough=Walkthrough(take_part),
)
