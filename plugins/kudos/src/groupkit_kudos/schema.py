"""Kudos Wall bodies, fields in the spec's check order."""

from __future__ import annotations

from typing import Any

from groupkit import Line, Schema, SpecField, Text, whole_number

NO_RECIPIENT = "Who's it for?"
NO_MESSAGE = "Add a line about what they did."
NO_SENDER = "Put your name on it — an anonymous thank-you isn't worth much."

TEAM_LIMIT = 60
INTRO_LIMIT = 300
#: The spec gives a note's fields no lengths: a name, a few sentences, a name.
RECIPIENT_LIMIT = 60
MESSAGE_LIMIT = 500
SENDER_LIMIT = 60


#: The largest row id a database integer column holds.
MAX_ID = 2**31 - 1


class CreateKudos(Schema):
    team = Line(TEAM_LIMIT)
    intro = Text(INTRO_LIMIT)


class NoteBody(Schema):
    recipient = Line(RECIPIENT_LIMIT, required=NO_RECIPIENT)
    message = Text(MESSAGE_LIMIT, crlf=True, required=NO_MESSAGE)
    sender = Line(SENDER_LIMIT, required=NO_SENDER)


class NoteId(SpecField):
    """A note's id from the wall: a whole number (numeric strings accepted), else None."""

    def clean(self, value: Any) -> int | None:
        number = whole_number(value)
        # Beyond any row id: no such note (and no integer the database cannot hold).
        return number if number is not None and 0 < number <= MAX_ID else None

    def openapi(self) -> dict[str, Any]:
        return {"type": ["integer", "string"], "description": "a note's `id` from the wall"}


class RemoveBody(Schema):
    noteId = NoteId()  # the wall's field name
