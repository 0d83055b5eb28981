"""Find a Date: a groupkit tool written as a third party would, against `groupkit` only."""

from __future__ import annotations

from groupkit import Participation
from groupkit import Tool
from groupkit import Walkthrough
from groupkit import participant_feed_operations

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
    api, name="finddate", title="Find a Date",
    plugin_api=(1, 1), hidden=(), group="events", icon="📅",
    walkthrough=Walkthrough(take_part=take_part, reveal=choose),
    summary="Propose a few dates or times; everyone marks yes, if need be or no, "
            "and the best one stands out.",
    create_schema=CreateFindDate, participant_kinds=(TOKEN_KIND,), models=[Response],
    feed=participant_feed_operations(ops, "r/{token}/feed", [TOKEN_KIND], response_events),
    limits={"slots": MAX_SLOTS, "responses": MAX_RESPONSES},
    description="Slots are sorted by date and time and numbered d1, d2, … The best slot "
                "has the most yes answers, then the most yes plus if-need-be, then comes "
                "first. Times are in the instance's time zone (default "
                "Australia/Sydney); a timed slot also carries `startsAt` and `endsAt`, "
                "the same moments in UTC (null without a time), for showing them in "
                "another zone.",
    example={"title": "Team dinner", "note": "Somewhere near the office.",
             "slots": [{"date": "2026-12-04", "start": "18:30", "end": "21:00"},
                       {"date": "2026-12-05"},
                       {"date": "2026-12-11", "start": "18:30"}]},
)
