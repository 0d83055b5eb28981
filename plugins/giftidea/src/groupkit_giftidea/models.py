"""Gift Idea Board tables. Claims are the kernel's slot claims, one slot per idea id."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import UTCDateTimeField
from groupkit import utcnow


class GiftIdea(BaseModel):
    """One suggestion. `code` is the public id. The suggester's token is the kernel's, kept
    readable there (`keep_plain`) because the organiser removes an idea by it."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    code = pw.CharField(max_length=16)
    idea = pw.TextField()
    link = pw.TextField(default="")
    suggested_by = pw.TextField(default="")
    votes = pw.IntegerField(default=0)
    created = UTCDateTimeField(default=utcnow)

    class Meta:
        table_name = "giftidea_idea"
        indexes = ((("instance", "code"), True),)

