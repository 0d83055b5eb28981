"""Fact Matcher tables: one row per name on the list."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import UTCDateTimeField


class Person(BaseModel):
    """A name on the list and its fact. `fact_id` is a fresh random label each time the
    fact changes: the guessing grid lists facts by it, so neither the grid's order nor its
    labels say anything about who wrote what. The person's private token is a kernel
    credential of kind `fact-name` whose ref is this row's id."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    position = pw.IntegerField()
    name = pw.CharField(max_length=80)
    #: Backs the unique index only (see `api._add`): names compare by keys computed afresh.
    name_key = pw.CharField(max_length=200)
    fact = pw.TextField(default="")
    fact_id = pw.CharField(max_length=16)
    claimed = UTCDateTimeField(null=True)
    saved = UTCDateTimeField(null=True)

    class Meta:
        table_name = "fact_person"
        indexes = ((("instance", "position"), True), (("instance", "name_key"), True))
