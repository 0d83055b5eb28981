"""Request bodies. Fields are declared in check order: the first failing one is the error."""

from __future__ import annotations

from groupkit import Line, Schema, Text


class CreateMyTool(Schema):
    title = Line(80, required="Give your board a title.")
    prompt = Text(200, default="")


class AddEntry(Schema):
    name = Line(40, required="Add your name.")
    text = Text(280, required="Write something first.")


class RemoveEntry(Schema):
    id = Line(12, required="Which note?")
