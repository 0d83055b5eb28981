"""The tool's own table. The foreign key cascades, so deleting the instance removes it all."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import UTCDateTimeField
from groupkit import utcnow


class Entry(BaseModel):
    id = pw.AutoField()
    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE", index=True)
    name = pw.CharField(max_length=40)
    text = pw.TextField()
    created = UTCDateTimeField(default=utcnow)

    class Meta:
        table_name = "mytool_entry"
