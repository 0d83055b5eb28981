"""Coffee Roulette's tables: the team, and the last few rounds' groups."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel, Instance, JsonField, utcnow


class CoffeePerson(BaseModel):
    """One person, at their place in the organiser's list (what every view sorts by)."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    position = pw.IntegerField()
    name = pw.CharField(max_length=40)
    claimed_at = pw.DateTimeField(null=True)

    class Meta:
        table_name = "coffee_person"
        indexes = ((("instance", "position"), True),)


class CoffeeRound(BaseModel):
    """One drawn round: `groups` is a list of groups of positions. Only the last few rounds
    are kept (they are all the draw needs); only a person's own private page reads them."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    number = pw.IntegerField()
    groups = JsonField()
    drawn_at = pw.DateTimeField(default=utcnow)

    class Meta:
        table_name = "coffee_round"
        indexes = ((("instance", "number"), True),)
