"""Fact Matcher bodies, fields in the spec's check order."""

from __future__ import annotations

from groupkit import N_
from groupkit import Count
from groupkit import Flag
from groupkit import Line
from groupkit import Schema
from groupkit import StringList
from groupkit import Text

FEW_NAMES = N_("Add at least three names — a guessing game needs a few people.")
MANY_NAMES = N_("Sixty names is the limit — split a big group into two rounds.")
DUPLICATE_NAME = N_("\"{name}\" is on the list twice — add a surname initial so the right "
                    "person claims it.")
NO_FACT = N_("Write your fact first — something the room won't guess.")

#: The prompt a game is created with when none is given (stored: the spec's default).
DEFAULT_PROMPT = N_("Share a fun fact about yourself")
MIN_NAMES = 3
MAX_NAMES = 60
NAME_LIMIT = 40
FACT_LIMIT = 280


class CreateFact(Schema):
    title = Line(80)
    prompt = Line(140, default=DEFAULT_PROMPT)
    note = Text(300)
    names = StringList(NAME_LIMIT, convert="always", at_least=Count(MIN_NAMES, FEW_NAMES),
                       at_most=Count(MAX_NAMES, MANY_NAMES), distinct=DUPLICATE_NAME)
    # Optional; absent, a game behaves exactly as one created before it existed.
    personalLinks = Flag(description=(
        "optional: hand each person their own private link (listed on the organiser page, "
        "and emailed with `invite` when the server sends email) instead of claiming names "
        "on the share page, which is then turned off"))


class NameBody(Schema):
    """Claim and reset: a blank name is simply not on the list (404), so never a 400."""

    name = Line(NAME_LIMIT)


class SaveBody(Schema):
    text = Text(FACT_LIMIT, crlf=True, required=NO_FACT)


class RevealBody(Schema):
    reveal = Flag(default=True)
