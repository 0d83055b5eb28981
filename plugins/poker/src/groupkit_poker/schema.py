"""Scrum Poker bodies and decks, fields in the spec's check order."""

from __future__ import annotations

from typing import Any

from groupkit import Choice
from groupkit import Line
from groupkit import RecordId
from groupkit import Schema
from groupkit import SpecField
from groupkit import StringList
from groupkit import whole_number

#: The decks exactly as the spec lists them, in table order (low to high, then the extras).
DECKS: dict[str, tuple[str, ...]] = {
    "fib": ("1", "2", "3", "5", "8", "13", "21", "?", "coffee"),
    "tshirt": ("XS", "S", "M", "L", "XL", "XXL", "?", "coffee"),
}
#: Cards that say "not sure" or "break, please": never a high or a low.
EXTRAS = ("?", "coffee")

TEAM_LIMIT = 60
STORY_LIMIT = 120
#: Stories waiting their turn: a backlog pasted at once, not the whole product.
STORIES_LIMIT = 50


class Stories(StringList):
    """The stories still to vote on, in order (an addition to the spec's fields: without it
    the board is the spec's, one story at a time)."""

    def __init__(self) -> None:
        super().__init__(STORY_LIMIT, convert="always", keep_first=STORIES_LIMIT)

    def openapi(self) -> dict[str, Any]:
        return {**super().openapi(), "description": (
            f"optional: the stories still to vote on, in order; each C({STORY_LIMIT}), "
            f"non-strings as text, blanks dropped, the first {STORIES_LIMIT} kept. With "
            "`story` empty the first is voted on first; `next` with an empty `story` takes "
            "the next")}


class CreatePoker(Schema):
    team = Line(TEAM_LIMIT)
    story = Line(STORY_LIMIT)
    deck = Choice(list(DECKS), default="fib")
    stories = Stories()


#: A voter's name: the spec gives it no length.
NAME_LIMIT = 40


class JoinBody(Schema):
    """Never fails on its own: the operation checks name, then room, then duplicates."""

    name = Line(NAME_LIMIT)


class Card(SpecField):
    """A card as sent: text trimmed, or a whole number as its digits; anything else reads as
    no card. Which cards exist depends on the board's deck, so the operation decides."""

    def clean(self, value: Any) -> str:
        if isinstance(value, str):
            return value.strip()
        number = whole_number(value, numeric_strings=False)
        return "" if number is None else str(number)

    def openapi(self) -> dict[str, Any]:
        return {"type": ["string", "integer"],
                "description": "one of the board's cards: fib 1, 2, 3, 5, 8, 13, 21, ?, "
                               "coffee; tshirt XS, S, M, L, XL, XXL, ?, coffee (any case)"}


class VoteBody(Schema):
    card = Card()


class NextBody(Schema):
    story = Line(STORY_LIMIT)


class RemoveBody(Schema):
    voterId = RecordId("a voter's `id` from the board")  # the board's field name
