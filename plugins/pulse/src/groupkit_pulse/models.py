"""Weekly Pulse storage, built so that no score can be tied back to its words.

A response leaves no row of its own: its score adds one to a per-week counter
(`PulseTally`), and its words, if any, go into the week's comment list (`PulseComments`) at a
uniformly random position. Neither table has a timestamp, a response id or any ordering that
follows arrival, so not even someone holding the database can pair a score with a comment.

Those two tables are a week's results and nothing else: a response joins them only with a
full batch of others; until then its score and its words are held the same way, apart
(`PulseHeld`, `PulseHeldWords`). The price of batching: someone
reading the database (not the pages) sees the few held responses as a group, and a lone one
whole, until their batch fills or their week ends; the responses a week ends with are then
forgotten but for their number.
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


class PulseHeld(BaseModel):
    """One week's responses that have not joined its results: how many, and their scores in
    order of size (their words are kept apart, in `PulseHeldWords`). While the week runs
    they are the few since its last batch, waiting for the batch they will join. Once it
    has ended they never show, so only how many they were is kept (`forget_unreleased`)."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    week = pw.CharField(max_length=10)
    responses = pw.IntegerField(default=0)
    scores = JsonField(default=list)

    class Meta:
        indexes = ((("instance", "week"), True),)


class PulseHeldWords(PulseComments):
    """The words of one week's held responses, as a list in random order: a table of its
    own, shaped like the results' words."""
