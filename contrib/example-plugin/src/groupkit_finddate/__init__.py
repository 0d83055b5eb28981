"""Find a Date: a groupkit tool written as a third party would, against `groupkit` only."""

from __future__ import annotations

from groupkit import Participation
from groupkit import Tool
from groupkit import Walkthrough
from groupkit.integrations import participant_feed_operations

from . import api
from .api import MAX_RESPONSES
from .api import TOKEN_KIND
from .api import ops
from .api import response_events
from .models import Response
from .schema import MAX_SLOTS
from .schema import CreateFindDate


def take_part(api: Participation) -> None:
    """Two people answer; the all-states suite then shows the grid and their pages."""
    slots = [slot["id"] for slot in api.read()["slots"]]
    for index, name in enumerate(("Ann", "Bo")):
        api.public("respond", {"name": api.text(f"respond.name.{index}", name), "answers": [
            {"slotId": slots[0], "answer": "yes"}, {"slotId": slots[1], "answer": "maybe"}]})


def choose(api: Participation) -> None:
    """The organiser settles on the best date: the pages after the choice."""
    api.organiser("choose", {"slotId": api.read()["best"]})


groupkit_tool = Tool.hook(
    api, hidden=(), walkthrough=Walkthrough(take_part=take_part, reveal=choose),
    create_schema=CreateFindDate, participant_kinds=(TOKEN_KIND,), models=[Response],
    feed=participant_feed_operations(ops, "r/{token}/feed", [TOKEN_KIND], response_events),
    limits={"slots": MAX_SLOTS, "responses": MAX_RESPONSES},
)
