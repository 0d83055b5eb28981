"""Group Card bodies, fields in the spec's check order."""

from __future__ import annotations

from groupkit import N_
from groupkit import Line
from groupkit import Schema
from groupkit import Text

NO_RECIPIENT = N_("Who's the card for? Add their name.")
NO_NAME = N_("Add your name so they know who it's from.")
NO_MESSAGE = N_("Write a message first — a line or two is plenty.")

RECIPIENT_LIMIT = 60
TITLE_LIMIT = 80
NAME_LIMIT = 40
MESSAGE_LIMIT = 400
#: Message ids are short; anything longer cannot name one.
CODE_LIMIT = 40


class CreateCard(Schema):
    recipient = Line(RECIPIENT_LIMIT, required=NO_RECIPIENT)
    title = Line(TITLE_LIMIT)
    note = Text(300)


class SignBody(Schema):
    """Name, then message: the order the spec lists them in."""

    name = Line(NAME_LIMIT, required=NO_NAME)
    message = Text(MESSAGE_LIMIT, required=NO_MESSAGE)


class RemoveBody(Schema):
    messageId = Line(CODE_LIMIT)  # the id each message carries in the views
