"""Secret Role Dealer tables: one row per joined player."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import UTCDateTimeField
from groupkit import utcnow


class Player(BaseModel):
    """A joined player. `slot` indexes the instance's role list: the unique (instance, slot)
    index is what guarantees every role slot is dealt at most once, whatever the isolation
    level; the unique name key keeps one player per name (as `text_key` compares names).
    The player's private token is a kernel credential of kind `roles-player` whose ref is
    this row's id, so re-dealing (which only moves `slot`) never touches it."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    name = pw.CharField(max_length=80)
    #: The SHA-256 of the name's `text_key` (players who joined before look-alike letters
    #: counted hold the name case-folded). Only the unique index reads it: names compare by
    #: keys computed afresh.
    name_key = pw.CharField(max_length=200)
    slot = pw.IntegerField(null=True)
    joined = UTCDateTimeField(default=utcnow)
    looked = UTCDateTimeField(null=True)

    class Meta:
        table_name = "roles_player"
        indexes = ((("instance", "slot"), True), (("instance", "name_key"), True))
