"""Recipe Collection table: one row per recipe."""

from __future__ import annotations

import secrets

import peewee as pw

from groupkit import BaseModel, Instance, utcnow


class Recipe(BaseModel):
    """A contributed recipe. `code` is its public id; the contributor's token is the
    kernel's, kept readable there (`keep_plain`) because the organiser page shows it.
    Optional fields are stored empty when dropped."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    code = pw.CharField(max_length=16)
    cook = pw.TextField()
    dish = pw.TextField()
    ingredients = pw.TextField()
    method = pw.TextField()
    serves = pw.TextField(default="")
    story = pw.TextField(default="")
    created = pw.DateTimeField(default=utcnow)
    updated = pw.DateTimeField(default=utcnow)

    class Meta:
        table_name = "recipe_recipe"
        indexes = ((("instance", "code"), True),)


def new_code(instance: Instance) -> str:
    """An id no recipe in this book has; random, so page anchors never move to a later
    recipe that reuses a deleted row's number."""
    for _ in range(8):
        code = secrets.token_hex(5)
        if not Recipe.select().where((Recipe.instance == instance)
                                     & (Recipe.code == code)).exists():
            return code
    raise RuntimeError("no free recipe id")  # eight collisions in 2**40 ids: never in practice
