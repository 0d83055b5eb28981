"""Kris Kringle bodies, fields in the spec's check order."""

from __future__ import annotations

from groupkit import Count, Line, Schema, StringList, Text

FEW_NAMES = "Add at least three names — with two it's not a secret, it's a swap."
MANY_NAMES = "That's more than 100 people — split it into two draws."
DUPLICATE_NAME = ('"{name}" is in the list twice — add a surname initial so the right one '
                  "gets claimed.")

MIN_PEOPLE = 3
MAX_PEOPLE = 100
NAME_LIMIT = 40
WISHLIST_LIMIT = 500


class CreateKringle(Schema):
    title = Text(80)
    names = StringList(NAME_LIMIT, at_least=Count(MIN_PEOPLE, FEW_NAMES),
                       at_most=Count(MAX_PEOPLE, MANY_NAMES), distinct=DUPLICATE_NAME)
    budget = Text(40)
    exchangeDate = Text(60)  # the spec's field name
    note = Text(300)


class NameBody(Schema):
    """A name as a person or the organiser types it: C(40), matched ignoring case. Never
    fails here: a blank or unknown name is the operation's 404."""

    name = Line(NAME_LIMIT)


class WishlistBody(Schema):
    """T(500), CRLF as LF; an empty text clears the wishlist."""

    text = Text(WISHLIST_LIMIT, crlf=True)
