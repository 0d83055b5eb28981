"""Scrum Poker storage: the voters of a board and the card each holds this round.

The round itself (story, revealed or not, earlier rounds) lives in the instance's data."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import UTCDateTimeField
from groupkit import utcnow


class PokerVoter(BaseModel):
    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    name = pw.CharField(max_length=40)
    #: Two voters of a board cannot share a name: the SHA-256 of its `text_key` (voters who
    #: joined before look-alike letters counted hold the name case-folded). Only the unique
    #: index reads it; joining compares keys computed afresh from the names.
    name_key = pw.CharField(max_length=160)
    #: This round's card, None until the voter picks one; hidden until the reveal.
    card = pw.CharField(max_length=10, null=True)
    joined = UTCDateTimeField(default=utcnow)

    class Meta:
        indexes = ((("instance", "name_key"), True),)
