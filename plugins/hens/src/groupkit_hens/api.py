"""Hens & Shower Planner: create, views, link previews, and claiming, releasing and
removing spots on the who-brings-what lists."""

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
    LIST_HELD,
    LIST_SHRUNK,
    MESSAGE_LIMIT,
    NAME_LIMIT,
    ClaimBody,
    EditHens,
    RemoveBody,
    UnclaimBody,
)

ops = Operations()

BAD_SLOT = "That spot doesn't exist on this board."
NO_NAME = "Add your name so people know who's got it."
TAKEN = "Someone grabbed that spot seconds ago — pick another."
NOT_HELD = "That spot isn't held with that secret — it may already be free."

#: The event details kept from the create body, in the order the pages show them.
DETAILS = ("forWhom", "when", "where", "note", "kitty")


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {**{key: data[key] for key in DETAILS},
                     "activities": data["activities"],
                     "categories": [{"name": category["name"],
                                     "capacity": category["capacity"]}
                                    for category in data["categories"]]}


def _board(instance: Instance, organiser: bool) -> dict[str, Any]:
    data = instance.data
    categories = spot_board(instance, data["categories"], "c", organiser=organiser,
                            extra=lambda claim: {"message": claim.extra.get("message", "")
                                                  if claim else None})
    return {"title": instance.title, **{key: data[key] for key in DETAILS},
            "activities": list(data["activities"]), "categories": categories}


def public_view(instance: Instance) -> dict[str, Any]:
    """The share page: event details (the place included), the running order, the kitty and
    who has which spot with their message. No secrets."""
    return _board(instance, organiser=False)


def organiser_view(instance: Instance) -> dict[str, Any]:
    """The public board plus when each spot was claimed."""
    return _board(instance, organiser=True)


def preview(instance: Instance) -> dict[str, Any]:
    """Link-preview metadata: the title and who it's for and when. Never `where`: a share
    link pasted into a group chat must not put the address in the preview card."""
    data = instance.data
    about = " · ".join(part for part in (
        f"For {data['forWhom']}" if data["forWhom"] else "", data["when"]) if part)
    lead = f"{about}. " if about else ""
    return {"title": instance.title,
            "description": f"{lead}See the plans and put your name down for something."}


def _spot_schema(organiser: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "slotId": {"type": "string", "pattern": "^c[0-9]+-[0-9]+$"},
        "taken": {"type": "boolean"},
        "name": {"type": ["string", "null"], "description": "the claimer's name, when taken"},
        "message": {"type": ["string", "null"],
                    "description": "the claimer's optional message (public), when taken"}}
    if organiser:
        properties["claimedAt"] = {"type": ["string", "null"], "format": "date-time"}
    return {"type": "object", "properties": properties}


def board_schema(organiser: bool = False) -> dict[str, Any]:
    return {"type": "object", "properties": {
        "title": {"type": "string"},
        "forWhom": {"type": "string"}, "when": {"type": "string"},
        "where": {"type": "string",
                  "description": "shown on the share page, never in link-preview metadata"},
        "note": {"type": "string"}, "kitty": {"type": "string"},
        "activities": {"type": "array", "items": {"type": "string"},
                       "description": "the running order; empty when none was given"},
        "categories": {"type": "array", "items": {"type": "object", "properties": {
            "name": {"type": "string"},
            "capacity": {"type": "integer", "minimum": 1, "maximum": 20},
            "taken": {"type": "integer", "description": "spots already claimed"},
            "spots": {"type": "array", "items": _spot_schema(organiser)}}}}}}


SECRET_REPLY = {"type": "object", "properties": {"secret": {
    "type": "string", "minLength": CLAIM_SECRET_LENGTH, "maxLength": CLAIM_SECRET_LENGTH,
    "description": "keep it: it is the only way to let this spot go yourself"}}}
OK_REPLY = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
REMOVED_REPLY = {"type": "object", "properties": {
    "ok": {"type": "boolean"},
    "removed": {"type": "boolean", "description": "false when the spot was already free"}}}


def _known_slot(instance: Instance, slot_id: str) -> str:
    if slot_id not in slot_ids(instance.data["categories"], "c"):
        raise bad_request(BAD_SLOT)
    return slot_id


@ops.public("claim", body=ClaimBody, status=201, returns=SECRET_REPLY,
            description="The message is optional and public: it shows next to the name on "
                        "the share page (e.g. what they're bringing).",
            errors={
                400: f"Checked in this order: slot id not on this board: `{BAD_SLOT}`; "
                     f"name empty after cleaning (C({NAME_LIMIT})): `{NO_NAME}`. The "
                     f"message is C({MESSAGE_LIMIT}) and never an error.",
                409: f"The spot is already claimed: `{TAKEN}`"})
def claim(call: Call) -> dict[str, Any]:
    """Claim one spot with your name and an optional message; returns the secret that
    lets it go again."""
    slot_id = _known_slot(call.instance, call.data["slotId"])
    if not call.data["name"]:
        raise bad_request(NO_NAME)
    secret = claim_slot(call.instance, slot_id, call.data["name"],
                        {"message": call.data["message"]}, TAKEN)
    return {"secret": secret}


@ops.public("unclaim", body=UnclaimBody, returns=OK_REPLY, errors={
    404: "Unknown, missing, deleted or wrong-tool slug; or the spot is not held with that "
         f"secret (wrong or stale secret, free spot, unknown slot id): `{NOT_HELD}`"})
def unclaim(call: Call) -> dict[str, Any]:
    """Let your own spot go with the secret its claim returned."""
    release_slot(call.instance, call.data["slotId"], call.data["secret"], NOT_HELD)
    return {"ok": True}


@ops.organiser("remove", body=RemoveBody, returns=REMOVED_REPLY, errors={
    400: f"Slot id not on this board: `{BAD_SLOT}`"})
def remove(call: Call) -> dict[str, Any]:
    """Force-clear any spot; an already-free spot answers `removed: false`."""
    slot_id = _known_slot(call.instance, call.data["slotId"])
    return {"ok": True, "removed": remove_slot(call.instance, slot_id)}


EDIT = Edit(fields=("title", *DETAILS, "activities", "categories"),
            apply=board_edit("categories", "c", removed=LIST_HELD, shrunk=LIST_SHRUNK),
            schema=EditHens, errors={
                409: "Would take away someone's spot: a list someone holds a spot in was "
                     f"left out (`{LIST_HELD}`), or cut below its taken spots "
                     f"(`{LIST_SHRUNK}`); `field` is `categories`."})
