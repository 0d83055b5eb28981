"""Kris Kringle bodies, fields in the spec's check order."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from groupkit import N_
from groupkit import Count
from groupkit import Flag
from groupkit import Line
from groupkit import ObjectList
from groupkit import Schema
from groupkit import SpecField
from groupkit import StringList
from groupkit import Text

FEW_NAMES = N_("Add at least three names — with two it's not a secret, it's a swap.")
MANY_NAMES = N_("That's more than 100 people — split it into two draws.")
DUPLICATE_NAME = N_('"{name}" is in the list twice — add a surname initial so the right '
                     "one gets claimed.")
MANY_GROUPS = N_("That's more than 50 households — a household only needs listing once.")
MANY_PAIRS = N_("That's more than 500 exclusions — leave out the ones a household already "
                "covers.")

MIN_PEOPLE = 3
MAX_PEOPLE = 100
NAME_LIMIT = 40
WISHLIST_LIMIT = 500
MAX_GROUPS = 50
MAX_PAIRS = 500
QUESTION_LIMIT = 300
MAX_QUESTIONS = 40  # per conversation, both sides together


class NameGroups(SpecField):
    """Groups of names (households, couples): a non-array counts as none, each group is
    cleaned like `names` (C(40), empties dropped) and a group of fewer than two names,
    which rules nothing out, is dropped. Whether the names are in the draw is checked at
    create, where the names are known."""

    openapi_type = "array"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.names = StringList(NAME_LIMIT)

    def clean(self, value: Any) -> list[list[str]]:
        entries = value if isinstance(value, list) else []
        check = Count(MAX_GROUPS, MANY_GROUPS)
        groups = [group for group in (self.names.clean(_split(entry, ",")) for entry in entries)
                  if len(group) >= 2]
        if len(groups) > check.limit:
            raise ma.ValidationError(check.message)
        return groups

    def openapi(self) -> dict[str, Any]:
        return {"type": "array", "maxItems": MAX_GROUPS, "description": (
            "optional: groups of names (a household, a couple) in which nobody draws "
            "anybody else of the same group; each name as in `names`, compared ignoring "
            "case; a group may also be one string of names separated by commas (a line of "
            "the create form); groups of fewer than two names are dropped"),
            "items": {"type": "array", "items": {"type": "string", "maxLength": NAME_LIMIT}}}


def _split(entry: Any, separator: str) -> Any:
    """A form line `Ann, Bo` (or `Ann -> Bo`) as the list it stands for; anything else as
    it is."""
    return entry.split(separator) if isinstance(entry, str) else entry


ARROWS = ("->", "→")


def _as_pair(entry: Any) -> Any:
    if isinstance(entry, str):
        for arrow in ARROWS:
            if arrow in entry:
                giver, giftee = entry.split(arrow, 1)
                return {"giver": giver, "giftee": giftee}
        return {}
    return entry


def _complete(pair: dict[str, str]) -> bool:
    return bool(pair["giver"] and pair["giftee"])


class NamePairs(ObjectList):
    """One-way pairs `{giver, giftee}`: `giver` must not draw `giftee`."""

    def __init__(self) -> None:
        super().__init__({"giver": Line(NAME_LIMIT), "giftee": Line(NAME_LIMIT)},
                         at_most=Count(MAX_PAIRS, MANY_PAIRS), keep=_complete)

    def clean(self, value: Any) -> list[dict[str, Any]]:
        return super().clean([_as_pair(entry) for entry in value]
                             if isinstance(value, list) else value)

    def openapi(self) -> dict[str, Any]:
        return {**super().openapi(), "maxItems": MAX_PAIRS, "description": (
            "optional: one-way pairs in which `giver` must not draw `giftee` (last year's "
            "pairs, say); names as in `names`, compared ignoring case; an entry may also be "
            "one string `giver -> giftee` (a line of the create form); entries missing "
            "either name are dropped")}


class CreateKringle(Schema):
    title = Text(80)
    names = StringList(NAME_LIMIT, at_least=Count(MIN_PEOPLE, FEW_NAMES),
                       at_most=Count(MAX_PEOPLE, MANY_NAMES), distinct=DUPLICATE_NAME)
    budget = Text(40)
    exchangeDate = Text(60)  # the spec's field name
    note = Text(300)
    # Optional additions; absent, an instance behaves exactly as one created without them.
    households = NameGroups()
    exclusions = NamePairs()
    personalLinks = Flag(description=(
        "optional: hand each person their own private link (listed on the organiser page) "
        "instead of claiming names on the share page, which is then turned off"))
    questions = Flag(description=(
        "optional: each Kris Kringle and their giftee can ask each other anonymous "
        f"questions on their private pages (up to {MAX_QUESTIONS} messages of "
        f"{QUESTION_LIMIT} characters per pair); the organiser never sees them"))


class NameBody(Schema):
    """A name as a person or the organiser types it: C(40), matched ignoring case. Never
    fails here: a blank or unknown name is the operation's 404."""

    name = Line(NAME_LIMIT)


class WishlistBody(Schema):
    """T(500), CRLF as LF; an empty text clears the wishlist."""

    text = Text(WISHLIST_LIMIT, crlf=True)


class QuestionBody(Schema):
    """`to` is `giftee` (the person you buy for) or `santa` (whoever drew you); `text` is
    T(300), CRLF as LF."""

    to = Line(10)
    text = Text(QUESTION_LIMIT, crlf=True)
