"""Group Vote tables. Counts live on the option rows and the ballot total in the instance
data, so a tally reads at most a hundred rows and a vote costs the same at 1,999 ballots as
at none: nothing ever recounts the ballots."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import JsonField
from groupkit import UTCDateTimeField
from groupkit import utcnow


class PollOption(BaseModel):
    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    option_id = pw.CharField(max_length=6)
    text = pw.CharField(max_length=80)
    position = pw.IntegerField()
    votes = pw.IntegerField(default=0)
    suggested = pw.BooleanField(default=False)

    class Meta:
        indexes = ((("instance", "option_id"), True),)


class PollBallot(BaseModel):
    """One ballot. `voter_name` is NULL on a secret ballot: the name is never written."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE", index=True)
    voter_name = pw.CharField(max_length=40, null=True)
    choices = JsonField(default=list)
    created = UTCDateTimeField(default=utcnow)
    changed = UTCDateTimeField(null=True)


MODELS: list[type[pw.Model]] = [PollOption, PollBallot]
