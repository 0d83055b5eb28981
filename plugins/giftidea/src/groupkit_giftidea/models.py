"""Gift Idea Board tables. Claims are the kernel's slot claims, one slot per idea id."""

from __future__ import annotations

import secrets

import peewee as pw

from groupkit import BaseModel, Instance, utcnow


class GiftIdea(BaseModel):
    """One suggestion. `code` is the public id. The suggester's token is the kernel's, kept
    readable there (`keep_plain`) because the organiser removes an idea by it."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    code = pw.CharField(max_length=16)
    idea = pw.TextField()
    link = pw.TextField(default="")
    suggested_by = pw.TextField(default="")
    votes = pw.IntegerField(default=0)
    created = pw.DateTimeField(default=utcnow)

    class Meta:
        table_name = "giftidea_idea"
        indexes = ((("instance", "code"), True),)


def fresh_code(instance: Instance) -> str:
    """A public idea id no other idea on this board holds. Random rather than a row number,
    which SQLite may hand out again: a browser's memory of an upvote or a claim must never
    attach itself to a later idea."""
    while True:
        code = secrets.token_hex(5)
        if not GiftIdea.select().where((GiftIdea.instance == instance)
                                       & (GiftIdea.code == code)).exists():
            return code
