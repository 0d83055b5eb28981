"""Bring a Plate: create, views, and claiming, releasing and removing spots."""

from __future__ import annotations

from typing import Any

from groupkit import N_
from groupkit import Edit
from groupkit import Instance
from groupkit import Line
from groupkit import Operations
from groupkit.signups import SignUp
from groupkit.signups import board_edit
from groupkit.signups import board_views
from groupkit.signups import claim_details
from groupkit.signups import group_spots
from groupkit.signups import signup_operations
from groupkit.signups import spot_board
from groupkit.signups import spots_schema
from groupkit.signups import stored_groups

from .schema import CATEGORY_HELD
from .schema import CATEGORY_SHRUNK
from .schema import DISH_LIMIT
from .schema import SLOT_ID
from .schema import EditPlate

ops = Operations()

#: The heading of a board with no title (pages say it in the reader's language).
DEFAULT_HEADING = N_("Bring a plate")


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"eventDate": data["eventDate"], "note": data["note"],
                     "categories": stored_groups(data["categories"])}


def _board(instance: Instance, organiser: bool) -> dict[str, Any]:
    data = instance.data
    categories = spot_board(instance, data["categories"], "c", organiser=organiser,
                            extra=claim_details("dish"))
    return {"title": instance.title, "heading": instance.title or DEFAULT_HEADING,
            "eventDate": data["eventDate"], "note": data["note"], "categories": categories}


#: The public view: the board as everyone sees it: who is bringing what (public on a potluck),
#: no secrets. The organiser's: the public board plus when each spot was claimed.
public_view, organiser_view = board_views(_board)


def board_schema(organiser: bool = False) -> dict[str, Any]:
    return {"type": "object", "properties": {
        "title": {"type": "string"},
        "heading": {"type": "string", "description": f"title, or `{DEFAULT_HEADING}`"},
        "eventDate": {"type": "string"}, "note": {"type": "string"},
        "categories": spots_schema("c", {"dish": "what they're bringing"}, organiser)}}


BOARD = SignUp(
    spots=group_spots("categories", "c"), bad_slot=N_("That spot doesn't exist on this board."),
    no_name=N_("Add your name so people know who's bringing it."),
    taken=N_("Someone snapped that spot up seconds ago — pick another."),
    fields={"dish": Line(DISH_LIMIT)},
    required={"dish": N_("Add what you're bringing so nobody doubles up.")},
    slot_doc=SLOT_ID, secret_use="release this spot yourself",
    docs={"claim": "Claim one spot with your name and dish; returns the secret that "
                   "releases it."})
signup_operations(ops, BOARD)


EDIT = Edit(fields=("title", "eventDate", "note", "categories"),
            apply=board_edit("categories", "c", removed=CATEGORY_HELD,
                             shrunk=CATEGORY_SHRUNK),
            schema=EditPlate, errors={
                409: "Would take away someone's spot: a category someone holds a spot in "
                     f"was left out (`{CATEGORY_HELD}`), or cut below its taken spots "
                     f"(`{CATEGORY_SHRUNK}`); `field` is `categories`, and `confirm: true`: "
                     "sent again with `\"confirm\": true`, the edit goes ahead and frees "
                     "those spots as `remove` does (all of a category left out; of a "
                     "category cut, the latest claims)."})
