"""Weekly Pulse storage, built so that no score can be tied back to its words.

A response leaves no row of its own: its score adds one to a per-week counter
(`PulseTally`), and its words, if any, go into the week's comment list (`PulseComments`) at a
uniformly random position. Neither table has a timestamp, a response id or any ordering that
follows arrival, so not even someone holding the database can pair a score with a comment.

One exception, the price of batching: the instance's data keeps the current week's last
released batch (counts, and words shuffled), and the tables minus that batch are the
responses since, fewer than four. Someone reading the database (not the pages) sees those
few as a group, and a lone one whole, until the next batch merges them.
"""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import JsonField


class PulseTally(BaseModel):
    """How many responses of one week gave one score."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    week = pw.CharField(max_length=10)
    score = pw.SmallIntegerField()
    count = pw.IntegerField(default=0)

    class Meta:
        indexes = ((("instance", "week", "score"), True),)


class PulseComments(BaseModel):
    """One week's words, as a list in random order."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    week = pw.CharField(max_length=10)
    texts = JsonField(default=list)

    class Meta:
        indexes = ((("instance", "week"), True),)
