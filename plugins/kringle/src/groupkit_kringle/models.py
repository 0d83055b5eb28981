"""Kris Kringle's tables: the people of a draw, in the order the organiser listed them; the
organiser's resets (shown to everybody); the anonymous questions between a Kris Kringle and
their giftee."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import UTCDateTimeField
from groupkit import utcnow


class KringlePerson(BaseModel):
    """One person. `position` is their place in the organiser's list (what every view sorts
    by); `giftee` is the position of the person they buy for, read only by that person's own
    private page, never by a public or organiser view."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    position = pw.IntegerField()
    name = pw.CharField(max_length=40)
    giftee = pw.IntegerField()
    wishlist = pw.TextField(default="")
    claimed_at = UTCDateTimeField(null=True)
    opened_at = UTCDateTimeField(null=True)

    class Meta:
        indexes = ((("instance", "position"), True),)


class KringleReset(BaseModel):
    """The organiser reset `person` at `at`. Kept so that the share page and the person's
    old link say so: a reset is how an organiser could read someone's giftee, so it is
    never silent."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    person = pw.ForeignKeyField(KringlePerson, on_delete="CASCADE")
    at = UTCDateTimeField(default=utcnow)


class KringleMessage(BaseModel):
    """One anonymous message between the Kris Kringle `santa` and their `giftee` (both
    people of the draw); `from_santa` says which of the two wrote it. Read only by those
    two private pages, and by neither with the other's name."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    santa = pw.ForeignKeyField(KringlePerson, on_delete="CASCADE")
    giftee = pw.ForeignKeyField(KringlePerson, on_delete="CASCADE")
    from_santa = pw.BooleanField()
    text = pw.TextField()
    at = UTCDateTimeField(default=utcnow)

    class Meta:
        indexes = ((("santa", "giftee"), False),)


def create_person_table(database: pw.Database) -> None:
    database.create_tables([KringlePerson], safe=True)


def create_reset_and_message_tables(database: pw.Database) -> None:
    database.create_tables([KringleReset, KringleMessage], safe=True)


MIGRATIONS = [("0001_initial", create_person_table),
              ("0002_resets_and_questions", create_reset_and_message_tables)]
