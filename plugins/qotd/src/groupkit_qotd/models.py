"""Question of the Day table: one row per answer, found by (instance, day, qi)."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import UTCDateTimeField
from groupkit import utcnow


class QotdVote(BaseModel):
    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    day = pw.CharField(max_length=10)
    qi = pw.IntegerField()
    choice = pw.CharField(max_length=1)
    voter_name = pw.CharField(max_length=40)
    created = UTCDateTimeField(default=utcnow)
    changed = UTCDateTimeField(null=True)

    class Meta:
        indexes = ((("instance", "day", "qi"), False),)


MODELS: list[type[pw.Model]] = [QotdVote]
