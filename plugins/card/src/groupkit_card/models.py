"""Group Card table: one row per signature."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import UTCDateTimeField
from groupkit import utcnow


class CardMessage(BaseModel):
    """A signed message. `code` is its public id; the signer's token is the kernel's
    (digest only: nobody, the organiser included, ever sees it again)."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    code = pw.CharField(max_length=16)
    name = pw.TextField()
    message = pw.TextField()
    created = UTCDateTimeField(default=utcnow)

    class Meta:
        indexes = ((("instance", "code"), True),)

