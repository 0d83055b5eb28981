"""Views and operations. Each operation runs in one transaction holding the instance lock,
so the capacity check and the insert cannot interleave with another request's."""

from __future__ import annotations

from typing import Any

from groupkit import Call
from groupkit import Instance
from groupkit import Operations
from groupkit import Participation
from groupkit import conflict
from groupkit import not_found

from .models import Entry
from .schema import AddEntry
from .schema import RemoveEntry

MAX_ENTRIES = 100
FULL = "This board is full — the organiser can remove a note to make room."

ops = Operations()


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"prompt": data["prompt"]}


def _entries(instance: Instance) -> list[Entry]:
    return list(Entry.select().where(Entry.instance == instance).order_by(Entry.id))


def public_view(instance: Instance) -> dict[str, Any]:
    """Everything the public page shows (and `GET /api/mytool/{slug}` returns)."""
    return {"title": instance.title, "prompt": instance.data["prompt"],
            "entries": [{"name": e.name, "text": e.text} for e in _entries(instance)]}


def organiser_view(instance: Instance) -> dict[str, Any]:
    return {**public_view(instance),
            "entries": [{"id": str(e.id), "name": e.name, "text": e.text}
                        for e in _entries(instance)]}


@ops.public("add", body=AddEntry, status=201, errors={409: FULL},
            returns={"type": "object", "properties": {"id": {"type": "string"}}})
def add(call: Call) -> dict[str, Any]:
    """Add a note to the board."""
    if Entry.select().where(Entry.instance == call.instance).count() >= MAX_ENTRIES:
        raise conflict(FULL)
    entry = Entry.create(instance=call.instance, name=call.data["name"],
                         text=call.data["text"])
    return {"id": str(entry.id)}


@ops.organiser("remove", body=RemoveEntry)
def remove(call: Call) -> dict[str, Any]:
    """Remove one note (organiser only)."""
    if call.data["id"] is None:
        raise not_found()
    removed = Entry.delete().where((Entry.instance == call.instance)
                                   & (Entry.id == call.data["id"])).execute()
    if not removed:
        raise not_found()
    return {"ok": True}


def take_part(p: Participation) -> None:
    """Ordinary participation, for the kit's suites (`Tool.walkthrough`): two notes. Every
    free text goes through `p.text(label, example)`, so the suites can put their markers
    and payloads there."""
    for index in range(2):
        p.public("add", {"name": p.text(f"add.name.{index}", "Ann"),
                         "text": p.text(f"add.text.{index}", "Thanks for the help")})
