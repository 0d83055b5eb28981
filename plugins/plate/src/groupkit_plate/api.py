"""Bring a Plate: create, views, and claiming, releasing and removing spots."""

from __future__ import annotations

from typing import Any

from groupkit import (
    CLAIM_SECRET_LENGTH,
    Call,
    Edit,
    Instance,
    Operations,
    bad_request,
    board_edit,
    claim_slot,
    release_slot,
    remove_slot,
    slot_ids,
    spot_board,
)

from .schema import (
    CATEGORY_HELD,
    CATEGORY_SHRUNK,
    DISH_LIMIT,
    NAME_LIMIT,
    ClaimBody,
    EditPlate,
    RemoveBody,
    UnclaimBody,
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


SECRET_REPLY = {"type": "object", "properties": {"secret": {
    "type": "string", "minLength": CLAIM_SECRET_LENGTH, "maxLength": CLAIM_SECRET_LENGTH,
    "description": "keep it: it is the only way to release this spot yourself"}}}
OK_REPLY = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
REMOVED_REPLY = {"type": "object", "properties": {
    "ok": {"type": "boolean"},
    "removed": {"type": "boolean", "description": "false when the spot was already free"}}}


def _known_slot(instance: Instance, slot_id: str) -> str:
    if slot_id not in slot_ids(instance.data["categories"], "c"):
        raise bad_request(BAD_SLOT)
    return slot_id


@ops.public("claim", body=ClaimBody, status=201, returns=SECRET_REPLY, errors={
    400: f"Checked in this order: slot id not on this board: `{BAD_SLOT}`; "
         f"name empty after cleaning (C({NAME_LIMIT})): `{NO_NAME}`; "
         f"dish empty after cleaning (C({DISH_LIMIT})): `{NO_DISH}`",
    409: f"The spot is already claimed: `{TAKEN}`"})
def claim(call: Call) -> dict[str, Any]:
    """Claim one spot with your name and dish; returns the secret that releases it."""
    slot_id = _known_slot(call.instance, call.data["slotId"])
    if not call.data["name"]:
        raise bad_request(NO_NAME)
    if not call.data["dish"]:
        raise bad_request(NO_DISH)
    secret = claim_slot(call.instance, slot_id, call.data["name"],
                        {"dish": call.data["dish"]}, TAKEN)
    return {"secret": secret}


@ops.public("unclaim", body=UnclaimBody, returns=OK_REPLY, errors={
    404: "Unknown, missing, deleted or wrong-tool slug; or the spot is not held with that "
         f"secret (wrong or stale secret, free spot, unknown slot id): `{NOT_HELD}`"})
def unclaim(call: Call) -> dict[str, Any]:
    """Release your own spot with the secret its claim returned."""
    release_slot(call.instance, call.data["slotId"], call.data["secret"], NOT_HELD)
    return {"ok": True}


@ops.organiser("remove", body=RemoveBody, returns=REMOVED_REPLY, errors={
    400: f"Slot id not on this board: `{BAD_SLOT}`"})
def remove(call: Call) -> dict[str, Any]:
    """Free any spot; an already-free spot answers `removed: false`."""
    slot_id = _known_slot(call.instance, call.data["slotId"])
    return {"ok": True, "removed": remove_slot(call.instance, slot_id)}


EDIT = Edit(fields=("title", "eventDate", "note", "categories"),
            apply=board_edit("categories", "c", removed=CATEGORY_HELD,
                             shrunk=CATEGORY_SHRUNK),
            schema=EditPlate, errors={
                409: "Would take away someone's spot: a category someone holds a spot in "
                     f"was left out (`{CATEGORY_HELD}`), or cut below its taken spots "
                     f"(`{CATEGORY_SHRUNK}`); `field` is `categories`."})
