"""Coffee Roulette bodies, fields in the spec's check order."""

from __future__ import annotations

from groupkit import N_
from groupkit import Count
from groupkit import Flag
from groupkit import Line
from groupkit import Schema
from groupkit import StringList
from groupkit import Text

#: The title a roulette is created with when none is given (stored: the spec's default).
DEFAULT_TITLE = N_("Coffee roulette")
FEW_NAMES = N_("Add at least three names — with two there's only ever one pairing.")
# The spec names no message for these two; they follow their neighbours' voice.
MANY_NAMES = N_("That's more than 200 names — split the team into two roulettes.")
DUPLICATE_NAME = N_('"{name}" is on the list twice — add a surname initial to tell them '
                    'apart.')

MIN_PEOPLE = 3
MAX_PEOPLE = 200
NAME_LIMIT = 40


class CreateCoffee(Schema):
    title = Text(80, default=DEFAULT_TITLE)
    names = StringList(NAME_LIMIT, at_least=Count(MIN_PEOPLE, FEW_NAMES),
                       at_most=Count(MAX_PEOPLE, MANY_NAMES), distinct=DUPLICATE_NAME)
    cadence = Text(40)
    note = Text(300)
    # Optional; absent, a roulette behaves exactly as one created before it existed.
    personalLinks = Flag(description=(
        "optional: hand each person their own private link (listed on the organiser page, "
        "and emailed with `invite` when the server sends email) instead of claiming names "
        "on the team page, which is then turned off"))


class NameBody(Schema):
    """A name as a person or the organiser types it: C(40), matched ignoring case and
    look-alike letters (`text_key`). Never fails here: a blank or unknown name is the
    operation's 404."""

    name = Line(NAME_LIMIT)
