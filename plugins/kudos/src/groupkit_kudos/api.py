"""Kudos Wall: create, the wall by week, posting and removing notes, retention."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from groupkit import N_
from groupkit import Call
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import checked_in_order
from groupkit import gettext
from groupkit import issue_token
from groupkit import not_found
from groupkit import request_time
from groupkit import revoke_tokens
from groupkit import utc_iso
from groupkit.entries import OK_REPLY
from groupkit.entries import Entries
from groupkit.entries import ok_reply
from groupkit.entries import token_reply

from .models import KudosNote
from .rituals import announce
from .schema import MESSAGE_LIMIT
from .schema import NO_MESSAGE
from .schema import NO_RECIPIENT
from .schema import NO_SENDER
from .schema import RECIPIENT_LIMIT
from .schema import SENDER_LIMIT
from .schema import NoteBody
from .schema import RemoveBody
from .weeks import ARCHIVE_WEEKS
from .weeks import day_label
from .weeks import label
from .weeks import oldest_archived
from .weeks import oldest_kept
from .weeks import week_of

ops = Operations()

DEFAULT_HEADING = N_("Kudos wall")
NOTE = "note"
NOTES = Entries(KudosNote, NOTE, code="id")


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"team": data["team"], "intro": data["intro"]}


def title_of(data: dict[str, Any]) -> str:
    return str(data["team"])


def _note(note: KudosNote) -> dict[str, Any]:
    return {"id": note.id, "recipient": note.recipient, "message": note.message,
            "sender": note.sender, "postedAt": utc_iso(note.posted),
            "day": day_label(note.posted)}


def _weeks(by_week: dict[str, list[dict[str, Any]]], newest: str,
           oldest: str) -> list[dict[str, Any]]:
    return [{"week": week, "label": label(week), "notes": by_week[week]}
            for week in sorted(by_week, reverse=True) if oldest <= week <= newest]


def wall(instance: Instance, now: dt.datetime, organiser: bool) -> dict[str, Any]:
    """This week's notes on top, the six weeks before folded into the archive; the organiser
    also gets the older weeks still kept."""
    this_week = week_of(now)
    last_week = (dt.date.fromisoformat(this_week) - dt.timedelta(weeks=1)).isoformat()
    by_week: dict[str, list[dict[str, Any]]] = defaultdict(list)
    notes = (KudosNote.select().where(KudosNote.instance == instance)
             .order_by(KudosNote.posted.desc(), KudosNote.id.desc()))
    for note in notes:
        by_week[note.week].append(_note(note))
    data = instance.data
    view = {"title": instance.title, "heading": data["team"] or gettext(DEFAULT_HEADING),
            "team": data["team"], "intro": data["intro"], "thisWeek": this_week,
            "label": label(this_week), "notes": by_week.get(this_week, []),
            "archive": _weeks(by_week, last_week, oldest_archived(now))}
    if organiser:
        before_archive = (dt.date.fromisoformat(oldest_archived(now))
                          - dt.timedelta(weeks=1)).isoformat()
        view["older"] = _weeks(by_week, before_archive, oldest_kept(now))
    return view


def public_view(instance: Instance) -> dict[str, Any]:
    return wall(instance, request_time(), organiser=False)


def organiser_view(instance: Instance) -> dict[str, Any]:
    return wall(instance, request_time(), organiser=True)


def preview(instance: Instance) -> dict[str, Any]:
    data = instance.data
    return {"title": data["team"] or gettext(DEFAULT_HEADING),
            "description": data["intro"] or gettext(
                "A wall of thank-you notes: say who helped, and how.")}


def prune(now: dt.datetime) -> int:
    """Drop every week older than the kept ones, whole weeks at a time, on every wall, with
    the tokens that removed those notes. Returns notes plus tokens removed."""
    old = list(KudosNote.select(KudosNote, Instance).join(Instance)
               .where(KudosNote.week < oldest_kept(now)))
    removed = 0
    for note in old:
        removed += revoke_tokens(note.instance, NOTE, str(note.id))
    if old:
        removed += KudosNote.delete().where(KudosNote.id.in_([note.id for note in old])).execute()
    return int(removed)


def _schema(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


NOTE_SCHEMA = _schema({
    "id": {"type": "integer"}, "recipient": {"type": "string"}, "message": {"type": "string"},
    "sender": {"type": "string"}, "postedAt": {"type": "string", "format": "date-time"},
    "day": {"type": "string", "description": "day posted, in Sydney: `Tue 18 Nov`"}})
WEEK_SCHEMA = _schema({
    "week": {"type": "string", "format": "date", "description": "the week's Monday (Sydney)"},
    "label": {"type": "string"}, "notes": {"type": "array", "items": NOTE_SCHEMA}})
WALL_SCHEMA = _schema({
    "title": {"type": "string"}, "heading": {"type": "string"}, "team": {"type": "string"},
    "intro": {"type": "string"},
    "thisWeek": {"type": "string", "format": "date"}, "label": {"type": "string"},
    "notes": {"type": "array", "items": NOTE_SCHEMA, "description": "this week, newest first"},
    "archive": {"type": "array", "items": WEEK_SCHEMA,
                "description": f"the {ARCHIVE_WEEKS} weeks before this one, those with notes, "
                               "newest first"}})


@ops.public("note", body=NoteBody, status=201, returns=token_reply(
    "keep it in the poster's browser: it removes this note", id_type="integer"), errors={
    400: checked_in_order(
        (f"recipient empty after cleaning (C({RECIPIENT_LIMIT}))", NO_RECIPIENT),
        (f"message empty (T({MESSAGE_LIMIT}), CRLF normalised)", NO_MESSAGE),
        (f"sender empty (C({SENDER_LIMIT}))", NO_SENDER))})
def note(call: Call) -> dict[str, Any]:
    """Post a thank-you note: who it's for, what they did, and who's saying thanks.

    Post a note on this week's wall (weeks run Monday to Sunday, Sydney time). The token is the only
    way for the poster to remove it; the page keeps it in the browser's local storage.
    """
    data = call.data
    created = KudosNote.create(instance=call.instance, week=week_of(call.now),
                               recipient=data["recipient"], message=data["message"],
                               sender=data["sender"], posted=call.now)
    announce(call, data["recipient"], data["message"], data["sender"])
    return {"token": issue_token(call.instance, NOTE, str(created.id)), "id": created.id}




@ops.participant("n/{token}/remove", token_kinds=[NOTE], returns=OK_REPLY)
def remove_own(call: Call) -> dict[str, Any]:
    """Take down your own note.

    The poster removes their own note with the token its posting returned; the token stops working
    with it.
    """
    assert call.credential is not None
    ref = call.credential.ref
    if not NOTES.remove_code(call.instance, int(ref) if ref.isdigit() else -1):
        raise not_found()
    return {"ok": True}


@ops.organiser("remove", body=RemoveBody,
               returns=ok_reply(removed="false when no such note is on the wall"))
def remove(call: Call) -> dict[str, Any]:
    """Remove any note from the wall.

    The organiser removes any note, by its `id` on the wall; the poster's token stops working with
    it.
    """
    return {"ok": True, "removed": NOTES.remove_code(call.instance, call.data["noteId"])}


EDIT = Edit(fields=("team", "intro"), description="Every note stays on the wall.")
