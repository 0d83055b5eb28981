"""Kris Kringle's one table: the people of a draw, in the order the organiser listed them."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel, Instance


class KringlePerson(BaseModel):
    """One person. `position` is their place in the organiser's list (what every view sorts
    by); `giftee` is the position of the person they buy for, read only by that person's own
    private page, never by a public or organiser view."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    position = pw.IntegerField()
    name = pw.CharField(max_length=40)
    giftee = pw.IntegerField()
    wishlist = pw.TextField(default="")
    claimed_at = pw.DateTimeField(null=True)
    opened_at = pw.DateTimeField(null=True)

    class Meta:
        table_name = "kringle_person"
        indexes = ((("instance", "position"), True),)
