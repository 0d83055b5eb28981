"""Coffee Roulette's tables: the team, and the last few rounds' groups."""

from __future__ import annotations

import peewee as pw

from groupkit import BaseModel
from groupkit import Instance
from groupkit import JsonField
from groupkit import UTCDateTimeField
from groupkit import utcnow


class CoffeePerson(BaseModel):
    """One person, at their place in the organiser's list (what every view sorts by)."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    position = pw.IntegerField()
    name = pw.CharField(max_length=40)
    claimed_at = UTCDateTimeField(null=True)

    class Meta:
        indexes = ((("instance", "position"), True),)


class CoffeeRound(BaseModel):
    """One drawn round: `groups` is a list of groups of `CoffeePerson` ids (ids, not places
    in the list, so adding or removing someone leaves every past round as it was drawn).
    Only the last few rounds are kept (they are all the draw needs); only a person's own
    private page reads them."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    number = pw.IntegerField()
    groups = JsonField()
    drawn_at = UTCDateTimeField(default=utcnow)

    class Meta:
        indexes = ((("instance", "number"), True),)


def create_tables(database: pw.Database) -> None:
    database.create_tables([CoffeePerson, CoffeeRound], safe=True)


def rounds_by_person_id(database: pw.Database) -> None:
    """Rounds drawn before the organiser could edit the list named people by their place in
    it; name them by their row id instead (places were never changed back then)."""
    ids_by_instance: dict[int, dict[int, int]] = {}
    for stored in CoffeeRound.select():
        instance = stored.instance
        if instance.id not in ids_by_instance:
            ids_by_instance[instance.id] = {
                person.position: person.id for person in
                CoffeePerson.select().where(CoffeePerson.instance == instance)}
        ids = ids_by_instance[instance.id]
        stored.groups = [[ids[position] for position in group] for group in stored.groups]
        stored.save(only=[CoffeeRound.groups])


MIGRATIONS = [("0001_initial", create_tables),
              ("0002_rounds_by_person_id", rounds_by_person_id)]
