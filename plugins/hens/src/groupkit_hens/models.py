"""Hens & Shower Planner table: the guest list, one row per guest's answer."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import UTCDateTimeField
from groupkit import utcnow


class HensGuest(BaseModel):
    """One guest's answer to "are you coming?". `code` is its public id; the guest's token
    (digest only) changes it. `note` is for the organiser: never on the public side."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    code = pw.CharField(max_length=16)
    name = pw.TextField()
    answer = pw.CharField(max_length=8)
    note = pw.TextField(default="")
    created = UTCDateTimeField(default=utcnow)
    changed = UTCDateTimeField(default=utcnow)

    class Meta:
        indexes = ((("instance", "code"), True),)


def create_guest_table(database: pw.Database) -> None:
    database.create_tables([HensGuest], safe=True)


#: The planner had no table of its own before the guest list.
MIGRATIONS = [("0001_guest_list", create_guest_table)]
