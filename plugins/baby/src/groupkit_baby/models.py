"""The pool's guesses: one row each, removed with the instance."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import UTCDateTimeField
from groupkit import utcnow


class BabyGuess(BaseModel):
    """One guess. `gid` is the public id; the guesser's token (a kernel credential whose ref
    is `gid`) is the only way for them to remove it."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE", index=True)
    gid = pw.CharField(max_length=16)
    guesser = pw.CharField(max_length=40)
    day = pw.DateField()
    grams = pw.IntegerField()
    message = pw.TextField(default="")
    created = UTCDateTimeField(default=utcnow)

    class Meta:
        indexes = ((("instance", "gid"), True),)
