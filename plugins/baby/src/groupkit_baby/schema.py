"""Baby Guess Pool bodies, fields in the spec's check order.

Checks that need the request time (the date window) or must come after it (the weight) are
left to the operation, so the schema never reports a later check before an earlier one.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

import marshmallow as ma

from groupkit import N_
from groupkit import Line
from groupkit import Raw
from groupkit import Schema
from groupkit import SpecField
from groupkit import Text
from groupkit import clean_text

NO_PARENTS = N_("Whose bub is it? Add the parents' names.")
NO_GUESSER = N_("Add your name so we know whose guess it is.")
NO_DATE = N_("Pick a date for your guess.")
BAD_DATE = N_("That date doesn't look right — use the date picker.")
NO_SUCH_DAY = N_("That date doesn't look right — check the day and month.")
OUT_OF_WINDOW = N_("Keep the date within a year or so — it's a guess, not a prophecy.")
BAD_WEIGHT = N_("Give a weight between 0.5 and 7 kg.")
FULL = N_("This pool's chockers — that's the limit on guesses.")
CLOSED = N_("Bub's already here — the guessing's closed.")
NO_RESULT_DATE = N_("Add the day bub arrived.")

PARENTS_LIMIT = 80
GUESSER_LIMIT = 40
MESSAGE_LIMIT = 200
ARRIVED_AT_LIMIT = 40
MIN_GRAMS, MAX_GRAMS = 500, 7000
#: The dates a guess or result may name: this many days before and after today (UTC).
DAYS_BEFORE, DAYS_AFTER = 400, 550
MAX_GUESSES = 300
#: Enough for any day written with spaces around it; longer text is malformed anyway.
DAY_TEXT_LIMIT = 64

_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def parse_day(value: Any, blank: str) -> dt.date:
    """A `YYYY-MM-DD` real calendar day (surrounding whitespace ignored); `blank` when there is
    no text at all (invisible characters alone count as none), then the spec's malformed and
    impossible-day messages."""
    text = clean_text(value, DAY_TEXT_LIMIT) if isinstance(value, str) else ""
    if not text:
        raise ma.ValidationError(blank)
    if not _ISO_DAY.fullmatch(text):
        raise ma.ValidationError(BAD_DATE)
    year, month, day = (int(part) for part in text.split("-"))
    try:
        return dt.date(year, month, day)
    except ValueError:
        raise ma.ValidationError(NO_SUCH_DAY) from None


def rounded_grams(value: Any) -> int | None:
    """A weight rounded to the nearest gram (halves up, as a browser's `Math.round`), or None
    for anything that is not a finite number or numeric string."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip()
        if not _DECIMAL.fullmatch(text):
            return None
        value = float(text)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return math.floor(value + 0.5)
    return None


class Day(SpecField):
    """A calendar day, `YYYY-MM-DD`."""

    def __init__(self, blank: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.blank = blank

    def clean(self, value: Any) -> dt.date:
        return parse_day(value, self.blank)

    def openapi(self) -> dict[str, Any]:
        return {"type": "string", "format": "date", "description": "YYYY-MM-DD, a real day"}


class Grams(SpecField):
    """A weight in grams, rounded; range-checked by the operation (after the date window)."""

    openapi_type = "number"

    def clean(self, value: Any) -> int | None:
        return rounded_grams(value)

    def openapi(self) -> dict[str, Any]:
        return {"type": ["number", "string"], "description":
                f"grams, rounded to the nearest whole gram, then {MIN_GRAMS} to {MAX_GRAMS}"}


class CreateBaby(Schema):
    parents = Line(PARENTS_LIMIT, required=NO_PARENTS, convert="truthy")
    dueDate = Line(60)  # the spec's field name
    note = Text(300)


class GuessBody(Schema):
    guesser = Line(GUESSER_LIMIT, required=NO_GUESSER)
    date = Day(NO_DATE)
    weightGrams = Grams()  # the spec's field name
    message = Text(MESSAGE_LIMIT)


class RemoveBody(Schema):
    id = Raw()


class ResultBody(Schema):
    """Every key is read raw: a null `result` (or a JSON `null` body, which the operation
    sees as `call.raw_body`) reopens the pool before anything is validated."""

    result = Raw()
    date = Raw()
    weightGrams = Raw()
    arrivedAt = Raw()
