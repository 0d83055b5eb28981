"""Claims on a registry: one row per claimed part or overflow contribution."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import UTCDateTimeField
from groupkit import utcnow


class RegistryClaim(BaseModel):
    """A part claim (`part_id` set) or an overflow contribution (`part_id` null).

    The unique (instance, part_id) index is what stops a part being claimed twice: NULLs
    never collide, so contributions are not limited by it."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE", index=True)
    reference = pw.CharField(max_length=16)
    part_id = pw.CharField(max_length=8, null=True)
    name = pw.CharField(max_length=60)
    message = pw.TextField(default="")
    amount_cents = pw.IntegerField()
    paid = pw.BooleanField(default=False)
    created = UTCDateTimeField(default=utcnow)

    class Meta:
        indexes = ((("instance", "part_id"), True), (("instance", "reference"), True))
