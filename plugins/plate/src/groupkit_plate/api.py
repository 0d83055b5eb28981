"""Bring a Plate: create, views, and claiming, releasing and removing spots."""

from __future__ import annotations

from typing import Any

from groupkit import (
    Edit,
    Instance,
    Line,
    Operations,
    SignUp,
    board_edit,
    group_spots,
    signup_operations,
    spot_board,
)

from .schema import (
    CATEGORY_HELD,
    CATEGORY_SHRUNK,
    DISH_LIMIT,
    SLOT_ID,
    EditPlate,
)

ops = Operations()

DEFAULT_HEADING = "Bring a plate"

BAD_SLOT = "That spot doesn't exist on this board."
NO_NAME = "Add your name so people know who's bringing it."
NO_DISH = "Add what you're bringing so nobody doubles up."
TAKEN = "Someone snapped that spot up seconds ago — pick another."
NOT_HELD = "That spot isn't held with that secret — it may already be free."


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"eventDate": data["eventDate"], "note": data["note"],
                     "categories": [{"name": category["name"],
                                     "capacity": category["capacity"]}
                                    for category in data["categories"]]}


def _board(instance: Instance, organiser: bool) -> dict[str, Any]:
    data = instance.data
    categories = spot_board(instance, data["categories"], "c", organiser=organiser,
                            extra=lambda claim: {"dish": claim.extra.get("dish", "")
                                                  if claim else None})
    return {"title": instance.title, "heading": instance.title or DEFAULT_HEADING,
            "eventDate": data["eventDate"], "note": data["note"], "categories": categories}


def public_view(instance: Instance) -> dict[str, Any]:
    """The board as everyone sees it: who is bringing what (public on a potluck), no secrets."""
    return _board(instance, organiser=False)


def organiser_view(instance: Instance) -> dict[str, Any]:
    """The public board plus when each spot was claimed."""
    return _board(instance, organiser=True)


def _spot_schema(organiser: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "slotId": {"type": "string", "pattern": "^c[0-9]+-[0-9]+$"},
        "taken": {"type": "boolean"},
        "name": {"type": ["string", "null"], "description": "the claimer's name, when taken"},
        "dish": {"type": ["string", "null"], "description": "what they're bringing, when taken"}}
    if organiser:
        properties["claimedAt"] = {"type": ["string", "null"], "format": "date-time"}
    return {"type": "object", "properties": properties}


def board_schema(organiser: bool = False) -> dict[str, Any]:
    return {"type": "object", "properties": {
        "title": {"type": "string"},
        "heading": {"type": "string", "description": f"title, or `{DEFAULT_HEADING}`"},
        "eventDate": {"type": "string"},
        "note": {"type": "string"},
        "categories": {"type": "array", "items": {"type": "object", "properties": {
            "name": {"type": "string"},
            "capacity": {"type": "integer", "minimum": 1, "maximum": 20},
            "taken": {"type": "integer", "description": "spots already claimed"},
            "spots": {"type": "array", "items": _spot_schema(organiser)}}}}}}


BOARD = SignUp(
    spots=group_spots("categories", "c"), bad_slot=BAD_SLOT, no_name=NO_NAME, taken=TAKEN,
    not_held=NOT_HELD, fields={"dish": Line(DISH_LIMIT)}, required={"dish": NO_DISH},
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
                     f"(`{CATEGORY_SHRUNK}`); `field` is `categories`."})
