"""Request bodies. Fields are declared in check order: the first failing one is the error."""

from __future__ import annotations

from groupkit import Line
from groupkit import RecordId
from groupkit import Schema
from groupkit import Text


class CreateMyTool(Schema):
    title = Line(80, required="Give your board a title.")
    prompt = Text(200, default="")


class AddEntry(Schema):
    name = Line(40, required="Add your name.")
    text = Text(280, required="Write something first.")


class RemoveEntry(Schema):
    # A row id as the organiser page shows it; anything else cleans to None, the 404 below
    # (never a database error on PostgreSQL, whose integer column refuses text).
    id = RecordId("The note's id, as the organiser page shows it.")
