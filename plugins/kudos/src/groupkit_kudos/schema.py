"""Kudos Wall bodies, fields in the spec's check order."""

from __future__ import annotations

from groupkit import N_
from groupkit import Line
from groupkit import RecordId
from groupkit import Schema
from groupkit import Text

NO_RECIPIENT = N_("Who's it for?")
NO_MESSAGE = N_("Add a line about what they did.")
NO_SENDER = N_("Put your name on it — an anonymous thank-you isn't worth much.")

TEAM_LIMIT = 60
INTRO_LIMIT = 300
#: The spec gives a note's fields no lengths: a name, a few sentences, a name.
RECIPIENT_LIMIT = 60
MESSAGE_LIMIT = 500
SENDER_LIMIT = 60


class CreateKudos(Schema):
    team = Line(TEAM_LIMIT)
    intro = Text(INTRO_LIMIT)


class NoteBody(Schema):
    recipient = Line(RECIPIENT_LIMIT, required=NO_RECIPIENT)
    message = Text(MESSAGE_LIMIT, crlf=True, required=NO_MESSAGE)
    sender = Line(SENDER_LIMIT, required=NO_SENDER)


class RemoveBody(Schema):
    noteId = RecordId("a note's `id` from the wall")  # the wall's field name
