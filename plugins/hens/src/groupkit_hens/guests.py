"""Hens & Shower Planner guest list: each guest says going, maybe or can't with their name
and an optional note for the organiser, and changes it later with the private link the
answer returns (kept in their browser). The share page counts the answers and names who's
going; the notes go to the organiser (page, reads, export) and the guest's own page only."""

from __future__ import annotations

from typing import Any

from groupkit import N_
from groupkit import ApiError
from groupkit import Call
from groupkit import Credential
from groupkit import Instance
from groupkit import Line
from groupkit import Operations
from groupkit import Raw
from groupkit import Schema
from groupkit import Text
from groupkit import checked_in_order
from groupkit import utc_iso
from groupkit.entries import OK_REPLY
from groupkit.entries import Entries
from groupkit.entries import token_reply

from .models import HensGuest

#: The credential kind of a guest's own link, and the list's caps (`Tool.limits`).
GUEST_KIND, MAX_GUESTS, NAME_LIMIT, NOTE_LIMIT = "guest", 300, 40, 200
#: The answers, in the order the pages offer them: `no` is "can't make it".
ANSWERS = ("going", "maybe", "no")
#: Where a page shows a refused answer: the fieldset around the radios named `answer`.
ANSWER_FIELD = "answers"

#: Refusals of an answer, in check order (the body's fields top to bottom), then the cap.
NO_GUEST_NAME = N_("Add your name so the organiser knows who's answering.")
BAD_ANSWER = N_("Pick one: going, maybe or can't make it.")
GUESTS_FULL = N_("The guest list is full — 300 answers is the limit.")
#: The organiser's remove, for an answer already gone (or an id that never was).
UNKNOWN_GUEST = N_("That answer isn't on the guest list any more.")

GUESTS = Entries(HensGuest, GUEST_KIND, UNKNOWN_GUEST)


class RsvpBody(Schema):
    name = Line(NAME_LIMIT, required=NO_GUEST_NAME)
    answer = Raw(["string"], "`going`, `maybe` or `no` (can't make it); required")
    note = Text(NOTE_LIMIT)


class RemoveGuestBody(Schema):
    guestId = Line(16)  # the id each answer carries in the organiser's view and export


def _answer(call: Call) -> str:
    """The answer sent, or the spec-shaped 400 whose field goes only to a page that asks:
    the choices' fieldset (`data-field="answers"`), so the message follows the group of
    radios rather than its first button."""
    answer = call.data.get("answer")
    if not isinstance(answer, str) or answer not in ANSWERS:
        raise ApiError(400, BAD_ANSWER, errors=((ANSWER_FIELD, BAD_ANSWER),))
    return answer


def guest_list(instance: Instance, organiser: bool) -> dict[str, Any]:
    """Public: how many answered each way and who's going, by name. Organiser: every answer
    with its note and when it last changed, in the order they first came in."""
    rows = list(HensGuest.select().where(HensGuest.instance == instance)
                .order_by(HensGuest.created, HensGuest.id))
    shown: dict[str, Any] = {
        "limit": MAX_GUESTS,
        "counts": {answer: sum(row.answer == answer for row in rows) for answer in ANSWERS},
        "going": [row.name for row in rows if row.answer == "going"]}
    if organiser:
        shown["answers"] = [_row(row, with_note=True) for row in rows]
    return shown


def _row(row: HensGuest, with_note: bool) -> dict[str, Any]:
    shown = {"id": row.code, "name": row.name, "answer": row.answer}
    if with_note:
        shown.update(note=row.note, answeredAt=utc_iso(row.changed))
    return shown


def my_answer(instance: Instance, credential: Credential) -> dict[str, Any]:
    """The guest's own answer, note included, for their private page."""
    row = GUESTS.find_own(instance, credential)
    return {"id": row.code, "name": row.name, "answer": row.answer, "note": row.note}


def guests_schema(organiser: bool) -> dict[str, Any]:
    counts = {"type": "object", "description": "how many answered each way",
              "properties": {answer: {"type": "integer"} for answer in ANSWERS}}
    properties: dict[str, Any] = {
        "limit": {"type": "integer", "description": "most answers a guest list holds"},
        "counts": counts,
        "going": {"type": "array", "items": {"type": "string"},
                  "description": "the names of those going, in the order they answered"}}
    if organiser:
        properties["answers"] = {
            "type": "array", "description": "every answer, in the order they first came in",
            "items": {"type": "object", "properties": {
                "id": {"type": "string", "description": "the answer's id (`guestId`)"},
                "name": {"type": "string", "maxLength": NAME_LIMIT},
                "answer": {"type": "string", "enum": list(ANSWERS)},
                "note": {"type": "string", "maxLength": NOTE_LIMIT,
                         "description": "the guest's note to the organiser (never public)"},
                "answeredAt": {"type": "string", "format": "date-time",
                               "description": "when the answer was given or last changed"}}}}
    return {"type": "object", "description": "the guest list (RSVP): who's coming",
            "properties": properties}


ANSWERED = token_reply(
    "opens the guest's own page, `/p/{token}`, where they change their answer "
    "(`POST /api/hens/r/{token}`); pages keep it in the browser", "the answer's id")
BODY_CHECKS = checked_in_order(
    (f"name empty after cleaning (C({NAME_LIMIT}))", NO_GUEST_NAME),
    ("`answer` not one of `going`, `maybe`, `no`", BAD_ANSWER))
NOTE_DOC = (f"`note` (T({NOTE_LIMIT}), optional) is for the organiser only: it never appears "
            "on the share page or in the public read.")


def guest_operations(ops: Operations) -> None:
    """The guest list's operations: answering, changing an answer, the organiser's remove."""

    @ops.public("rsvp", body=RsvpBody, status=201, returns=ANSWERED, errors={
        400: BODY_CHECKS,
        409: f"The guest list already holds {MAX_GUESTS} answers: `{GUESTS_FULL}`"},
        description="Path designed here (the spec has no guest list). Say whether you're "
                    "coming: `answer` is `going`, `maybe` or `no`. " + NOTE_DOC + " Counted "
                    f"and written under the instance lock, so at most {MAX_GUESTS} answers. "
                    "Duplicate names are fine.")
    def rsvp(call: Call) -> dict[str, Any]:
        """Answer the invitation; returns the token that changes the answer."""
        answer = _answer(call)
        row, token = GUESTS.add(call.instance, MAX_GUESTS, GUESTS_FULL, name=call.data["name"],
                                answer=answer, note=call.data["note"], created=call.now,
                                changed=call.now)
        return {"token": token, "id": row.code}

    @ops.participant("r/{token}", token_kinds=[GUEST_KIND], body=RsvpBody,
                     returns=OK_REPLY, errors={400: BODY_CHECKS},
                     description="Path designed here. Change your answer: the body is the "
                                 "answer's as a whole (name, answer, note), as at first; a "
                                 "note left out is emptied. " + NOTE_DOC)
    def change(call: Call) -> dict[str, Any]:
        """Change the answer this token was given for."""
        row = GUESTS.find_own(call.instance, call.credential)
        row.answer = _answer(call)
        row.name, row.note, row.changed = call.data["name"], call.data["note"], call.now
        row.save()
        return {"ok": True}

    @ops.organiser("rsvp/remove", body=RemoveGuestBody, returns=OK_REPLY, errors={
        404: f"Unknown editToken, or no answer with that id: `{UNKNOWN_GUEST}`"},
        description="Path designed here. Take one answer off the guest list (named by its "
                    "`id`); the guest's link stops working, and they can answer again.")
    def remove_guest(call: Call) -> dict[str, Any]:
        """Remove one answer from the guest list."""
        GUESTS.remove(call.instance, GUESTS.find(call.instance, call.data.get("guestId")))
        return {"ok": True}
