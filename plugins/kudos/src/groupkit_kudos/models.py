"""Kudos Wall storage: one row per note, filed under the Sydney week it was posted in."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import UTCDateTimeField
from groupkit import utcnow


class KudosNote(BaseModel):
    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    week = pw.CharField(max_length=10, index=True)
    recipient = pw.CharField(max_length=60)
    message = pw.TextField()
    sender = pw.CharField(max_length=60)
    posted = UTCDateTimeField(default=utcnow)

    class Meta:
        indexes = ((("instance", "week"), False),)
