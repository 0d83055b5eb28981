"""Recipe Collection table: one row per recipe."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import UTCDateTimeField
from groupkit import utcnow


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
    created = UTCDateTimeField(default=utcnow)
    updated = UTCDateTimeField(default=utcnow)

    class Meta:
        table_name = "recipe_recipe"
        indexes = ((("instance", "code"), True),)

