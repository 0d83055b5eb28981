"""A tool plugin used only by the kernel's tests: it exercises every operation kind, a
model of its own, participant tokens, the instance lock and slot claims."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import peewee as pw

from groupkit import ApiError
from groupkit import BaseModel
from groupkit import Call
from groupkit import Count
from groupkit import Instance
from groupkit import Line
from groupkit import Operations
from groupkit import Schema
from groupkit import StringList
from groupkit import Tool
from groupkit import UTCDateTimeField
from groupkit import hookimpl
from groupkit import issue_token
from groupkit import lock_instance
from groupkit import rotate_token
from groupkit import utcnow
from groupkit.integrations import CalendarEvent
from groupkit.integrations import calendar_reply
from groupkit.signups import claim_slot
from groupkit.signups import claims_by_slot
from groupkit.signups import csv_reply
from groupkit.signups import release_slot
from groupkit.signups import remove_slot

CAP = 3
KEEP_DAYS = 7
ops = Operations()


class Note(BaseModel):
    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    text = pw.TextField()
    created = UTCDateTimeField(default=utcnow)

    class Meta:
        table_name = "demo_note"


class CreateDemo(Schema):
    title = Line(40, required="Name it.")
    names = StringList(20, at_least=Count(1, "Add a name."), distinct='"{name}" twice.')


class NoteBody(Schema):
    text = Line(50, required="Say something.")


class SlotBody(Schema):
    slotId = Line(10, required="Which slot?")
    name = Line(40, required="Who?")


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"names": data["names"]}


def public_view(instance: Instance) -> dict[str, Any]:
    notes = [note.text for note in Note.select().where(Note.instance == instance).order_by(Note.id)]
    return {"title": instance.title, "notes": notes,
            "slots": {slot: claim.name for slot, claim in claims_by_slot(instance).items()}}


def organiser_view(instance: Instance) -> dict[str, Any]:
    return {**public_view(instance), "names": instance.data["names"]}


def participant_view(instance: Instance, credential: Any) -> dict[str, Any]:
    if credential.ref == "boom":
        raise RuntimeError("a page renderer bug")
    return {"name": credential.ref}


@ops.public("note", body=NoteBody, status=201, errors={409: "Full."})
def add_note(call: Call) -> dict[str, Any]:
    """Add a note, at most CAP per instance (checked under the instance lock)."""
    lock_instance(call.instance)
    if Note.select().where(Note.instance == call.instance).count() >= CAP:
        raise ApiError(409, "Full.")
    note = Note.create(instance=call.instance, text=call.data["text"],
                       created=call.now.replace(tzinfo=None))
    return {"id": note.id}


@ops.public("join", body=NoteBody, status=201)
def join(call: Call) -> dict[str, Any]:
    return {"token": issue_token(call.instance, "demo-player", call.data["text"])}


@ops.participant("p/{token}/whoami", token_kinds=["demo-player"])
def whoami(call: Call) -> dict[str, Any]:
    assert call.credential is not None
    return {"name": call.credential.ref}


@ops.organiser("rotate", body=NoteBody)
def rotate(call: Call) -> dict[str, Any]:
    return {"token": rotate_token(call.instance, "demo-player", call.data["text"])}


@ops.public("claim", body=SlotBody, status=201)
def claim(call: Call) -> dict[str, Any]:
    return {"secret": claim_slot(call.instance, call.data["slotId"], call.data["name"], {},
                                 "Taken.")}


class ReleaseBody(Schema):
    slotId = Line(10)
    secret = Line(20)


@ops.public("unclaim", body=ReleaseBody)
def unclaim(call: Call) -> dict[str, Any]:
    release_slot(call.instance, call.data["slotId"], call.data["secret"])
    return {"ok": True}


@ops.organiser("remove", body=SlotBody)
def remove(call: Call) -> dict[str, Any]:
    return {"removed": remove_slot(call.instance, call.data["slotId"])}


@ops.organiser("csv", method="GET", content_type="text/csv")
def export_csv(call: Call) -> Any:
    return csv_reply(["slot", "name"],
                     [(slot, claim.name) for slot, claim in claims_by_slot(call.instance).items()],
                     "demo.csv")


@ops.read("count")
def count(call: Call) -> dict[str, Any]:
    return {"notes": Note.select().where(Note.instance == call.instance).count()}


@ops.public("knock", status=200, not_found="Nobody home.")
def knock(call: Call) -> dict[str, Any]:
    """An operation with its own 404 wording; the raw body is there for shape rules."""
    return {"raw": call.raw_body}


@ops.read("ics/{day}", content_type="text/calendar")
def calendar(call: Call) -> Any:
    """A path placeholder reaches the handler as `call.params`."""
    day = dt.date.fromisoformat(call.params["day"])
    return calendar_reply([CalendarEvent(uid=f"{call.instance.slug}-{day}@demo",
                                         summary=call.instance.title, start=day)],
                          f"{day}.ics", call.now)


def prune(now: dt.datetime) -> int:
    """Notes older than KEEP_DAYS go."""
    cutoff = now - dt.timedelta(days=KEEP_DAYS)
    removed: int = Note.delete().where(Note.created < cutoff).execute()
    return removed


@ops.public("boom")
def boom(call: Call) -> dict[str, Any]:
    raise RuntimeError("an unexpected bug with a secret inside: /e/abc")


@hookimpl
def groupkit_tool() -> Tool:
    return Tool(name="demo", title="Demo", version="9.9", summary="A test tool.",
                plugin_api=(1, 1),
                create_schema=CreateDemo, create=create, public_view=public_view,
                organiser_view=organiser_view, participant_view=participant_view,
                participant_kinds=("demo-player",), operations=ops, models=[Note],
                templates=Path(__file__).parent / "templates", limits={"notes": CAP},
                prune=prune)


__all__ = ["Note", "groupkit_tool"]
