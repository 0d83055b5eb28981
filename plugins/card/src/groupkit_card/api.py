"""Group Card: create, views, signing and removing messages."""

from __future__ import annotations

from typing import Any

from groupkit import N_
from groupkit import Call
from groupkit import Credential
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import checked_in_order
from groupkit import gettext
from groupkit import utc_iso
from groupkit.entries import OK_REPLY
from groupkit.entries import Entries
from groupkit.entries import entries_schema
from groupkit.entries import token_reply
from groupkit.signups import board_views

from .models import CardMessage
from .schema import MESSAGE_LIMIT
from .schema import NAME_LIMIT
from .schema import NO_MESSAGE
from .schema import NO_NAME
from .schema import RemoveBody
from .schema import SignBody

ops = Operations()

MAX_MESSAGES = 400
TOKEN_KIND = "message"

FULL = N_("This card is chockers — 400 messages is the limit.")
UNKNOWN_MESSAGE = N_("That message isn't on this card any more — it may have been removed.")

MESSAGES = Entries(CardMessage, TOKEN_KIND, UNKNOWN_MESSAGE)


#: The phrase naming the recipient: the title when none is sent, otherwise the sub-line.
DEFAULT_TITLE = N_("A card for {recipient}")


def default_title(recipient: str) -> str:
    """The phrase naming the recipient: the title when none is sent, otherwise the sub-line."""
    return DEFAULT_TITLE.format(recipient=recipient)[:80]


def title_of(data: dict[str, Any]) -> str:
    return str(data["title"]) or default_title(data["recipient"])


def create(instance: Instance, data: dict[str, Any]) -> None:
    phrase = default_title(data["recipient"])
    # A title equal to the phrase (ignoring case) would only repeat it underneath.
    subline = "" if title_of(data).casefold() == phrase.casefold() else phrase
    instance.data = {"recipient": data["recipient"], "subline": subline, "note": data["note"]}


def _message(row: CardMessage, organiser: bool) -> dict[str, Any]:
    shown = {"id": row.code, "name": row.name, "message": row.message}
    if organiser:
        shown["signedAt"] = utc_iso(row.created)
    return shown


def _card(instance: Instance, organiser: bool) -> dict[str, Any]:
    """Public: the card as everyone sees it: every message and its signer; no tokens. Organiser:
    the card plus when each message was signed."""
    rows = (CardMessage.select().where(CardMessage.instance == instance)
            .order_by(CardMessage.created, CardMessage.id))
    data = instance.data
    return {"title": instance.title, "recipient": data["recipient"],
            "subline": data["subline"], "note": data["note"], "limit": MAX_MESSAGES,
            "messages": [_message(row, organiser) for row in rows]}


public_view, organiser_view = board_views(_card)


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """The signer's own page: their message, and the card it is on."""
    row = MESSAGES.find(instance, credential.ref)
    return {"title": instance.title, "recipient": instance.data["recipient"],
            "message": _message(row, organiser=False)}


def preview(instance: Instance) -> dict[str, Any]:
    recipient = instance.data["recipient"]
    title = instance.title
    if title == default_title(recipient):  # the card's own phrase, not a typed title
        title = gettext(DEFAULT_TITLE).format(recipient=recipient)
    return {"title": title,
            "description": gettext("Add your name and a message to the card for {recipient}.")
            .format(recipient=recipient)}


def _message_schema(organiser: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "id": {"type": "string", "description": "the message's id (`messageId`)"},
        "name": {"type": "string", "maxLength": NAME_LIMIT},
        "message": {"type": "string", "maxLength": MESSAGE_LIMIT}}
    if organiser:
        properties["signedAt"] = {"type": "string", "format": "date-time"}
    return {"type": "object", "properties": properties}


def card_schema(organiser: bool = False) -> dict[str, Any]:
    return {"type": "object", "properties": {
        "title": {"type": "string", "description": "as sent, or `A card for <recipient>`"},
        "recipient": {"type": "string"},
        "subline": {"type": "string", "description": "`A card for <recipient>` under a "
                    "title of its own; empty when the title is that phrase (ignoring case)"},
        "note": {"type": "string"},
        **entries_schema("messages", _message_schema(organiser),
                         limit="most messages a card holds",
                         order="in the order they were signed")}}


TOKEN_REPLY = token_reply("the only way to remove this message: "
                          "`POST /api/card/m/{token}/remove`; also opens `/p/{token}`",
                          "the message's id")


@ops.public("sign", body=SignBody, status=201, returns=TOKEN_REPLY, errors={
    400: checked_in_order((f"name empty after cleaning (C({NAME_LIMIT}))", NO_NAME),
                          (f"message empty after cleaning (T({MESSAGE_LIMIT}))", NO_MESSAGE)),
    409: f"The card already holds {MAX_MESSAGES} messages: `{FULL}`"},
    description="Path designed here (the spec leaves it open). Counted and written under the "
                f"instance lock, so concurrent signers never take a card past {MAX_MESSAGES} "
                "messages. Duplicate names are fine.")
def sign(call: Call) -> dict[str, Any]:
    """Sign the card with your name and a message; returns the token that removes it."""
    row, token = MESSAGES.add(call.instance, MAX_MESSAGES, FULL, name=call.data["name"],
                              message=call.data["message"], created=call.now)
    return {"token": token, "id": row.code}


@ops.participant("m/{token}/remove", token_kinds=[TOKEN_KIND], returns=OK_REPLY)
def remove_own(call: Call) -> dict[str, Any]:
    """Remove the message this token was issued for.

    Path designed here. The signer's token is the only way to remove a message short of the
    organiser; it dies with the message, so a second call is a 404.
    """
    MESSAGES.remove(call.instance, MESSAGES.find_own(call.instance, call.credential))
    return {"ok": True}


@ops.organiser("remove", body=RemoveBody, returns=OK_REPLY, errors={
    404: f"Unknown editToken, or no message with that id on this card: `{UNKNOWN_MESSAGE}`"})
def remove(call: Call) -> dict[str, Any]:
    """Remove any one message.

    Path designed here: the organiser names a message by its `id` from the views, and the signer's
    token stops working.
    """
    MESSAGES.remove(call.instance, MESSAGES.find(call.instance, call.data["messageId"]))
    return {"ok": True}


def current(instance: Instance) -> dict[str, Any]:
    """The card's details as the create form takes them; an untouched title reads empty, so
    it keeps following the recipient's name."""
    data = instance.data
    title = "" if instance.title == default_title(data["recipient"]) else instance.title
    return {"recipient": data["recipient"], "title": title, "note": data["note"]}


def apply_edit(call: Call) -> None:
    """Store the card as create would have, so the sub-line follows the new title."""
    merged = {**current(call.instance), **call.data}
    create(call.instance, merged)
    call.instance.title = title_of(merged)


EDIT = Edit(fields=("recipient", "title", "note"), current=current, apply=apply_edit,
            description="Every message stays as it was.")
