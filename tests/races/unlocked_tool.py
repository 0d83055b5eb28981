"""A tool for the race tests' negative control only, never installed: one place to take, its
room read by one request (`GET /api/unlocked/<slug>/room`, a read transaction) and taken by
another (`POST /api/unlocked/take`, which writes without looking). Whoever checks and then
takes does so in two transactions with nothing held between them: the check-then-write race
the real tools close by checking under the instance lock. The tests install it in a
folder of their own (as `pip install` would) on the path of a server they start."""

from __future__ import annotations

from typing import Any

import peewee as pw

from groupkit import BaseModel
from groupkit import Call
from groupkit import Instance
from groupkit import Line
from groupkit import Operations
from groupkit import Schema
from groupkit import Tool
from groupkit import hookimpl

ROOM = 1
ops = Operations()


class Taken(BaseModel):
    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    name = pw.TextField()

    class Meta:
        table_name = "unlocked_taken"


class CreateBody(Schema):
    title = Line(40)


class TakeBody(Schema):
    name = Line(40)


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {}


def view(instance: Instance) -> dict[str, Any]:
    return {"title": instance.title,
            "taken": [row.name for row in Taken.select().where(Taken.instance == instance)]}


@ops.read("room")
def room(call: Call) -> dict[str, Any]:
    """The check, in a transaction of its own."""
    return {"room": ROOM - Taken.select().where(Taken.instance == call.instance).count()}


@ops.public("take", body=TakeBody, status=201)
def take(call: Call) -> dict[str, Any]:
    """The write, trusting a check made earlier."""
    Taken.create(instance=call.instance, name=call.data["name"])
    return {"ok": True}


@hookimpl
def groupkit_tool() -> Tool:
    return Tool(name="unlocked", title="Unlocked", summary="A race tests' control.",
                plugin_api=(1, 1), create_schema=CreateBody, create=create,
                public_view=view, organiser_view=view, operations=ops, models=[Taken])
