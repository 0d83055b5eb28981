"""One row per person who answered; their answers per slot live with it."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import JsonField
from groupkit import UTCDateTimeField
from groupkit import utcnow


class Response(BaseModel):
    id = pw.AutoField()
    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE", index=True)
    name = pw.CharField(max_length=40)
    answers = JsonField(default=dict)  # slotId -> "yes" | "maybe" | "no"
    created = UTCDateTimeField(default=utcnow)

    class Meta:
        table_name = "finddate_response"
