"""Group Vote bodies, fields in the spec's check order."""

from __future__ import annotations

import datetime as dt
from typing import Any

import marshmallow as ma

from groupkit import N_
from groupkit import Choice
from groupkit import Exact
from groupkit import Flag
from groupkit import Line
from groupkit import Raw
from groupkit import Schema
from groupkit import SpecField
from groupkit import clean_line
from groupkit import request_time
from groupkit import whole_number

NO_QUESTION = N_("Add a question — what's the group deciding?")
TOO_FEW_OPTIONS = N_("Give people at least two options to choose between.")
TOO_MANY_OPTIONS = N_("Thirty options is the limit — trim the list a bit.")
BAD_MAX_PICKS = N_("Set how many each person can pick to a number from 2 to 30.")
BAD_CLOSING = N_("Give the closing time as a date and time with its time zone, like "
                 "2026-12-24T17:00+11:00.")
PAST_CLOSING = N_("That closing time has already passed — pick a time still to come.")
FAR_CLOSING = N_("Pick a closing time within a year from now.")

QUESTION_LIMIT = 140
OPTION_LIMIT = 80
NAME_LIMIT = 40
READ_FIRST = 200
MIN_OPTIONS = 2
MAX_OPTIONS = 30
MIN_PICKS = 2
MAX_PICKS = 30
MULTI = "multi"
RANKED = "ranked"
SINGLE = "single"


def option_text(entry: Any) -> str:
    """One option as sent: a plain string or an object with a `text` property, C(80).
    Anything else (a number, null, an object without string text) reads as empty."""
    raw = entry.get("text") if isinstance(entry, dict) else entry
    return clean_line(raw, OPTION_LIMIT) if isinstance(raw, str) else ""


class OptionList(SpecField):
    """The first 200 entries read; empties skipped; case-insensitive repeats dropped (the
    first wins); then 2 to 30 must remain."""

    openapi_type = "array"

    #: The most options the list may hold (the organiser's edit checks growth itself).
    most = MAX_OPTIONS

    def clean(self, value: Any) -> list[str]:
        return [text for _, text in self.entries(value)]

    def entries(self, value: Any) -> list[tuple[Any, str]]:
        """(entry as sent, cleaned text) of the options kept, with the list's rules."""
        entries = value if isinstance(value, list) else []
        kept: list[tuple[Any, str]] = []
        seen: set[str] = set()
        for entry in entries[:READ_FIRST]:
            text = option_text(entry)
            if text and text.casefold() not in seen:
                seen.add(text.casefold())
                kept.append((entry, text))
        if len(kept) < MIN_OPTIONS:
            raise ma.ValidationError(TOO_FEW_OPTIONS)
        if len(kept) > self.most:
            raise ma.ValidationError(TOO_MANY_OPTIONS)
        return kept

    def openapi(self) -> dict[str, Any]:
        return {"type": "array", "maxItems": READ_FIRST, "items": {"oneOf": [
            {"type": "string", "maxLength": OPTION_LIMIT},
            {"type": "object", "properties": {"text": {"type": "string"}}}]},
            "description": "first 200 read; each C(80); empties skipped; case-insensitive "
                           "duplicates dropped (first wins); 2 to 30 must remain"}


#: What a maxPicks value stands for before the mode is known.
NO_CAP = None
INVALID = -1


class MaxPicks(SpecField):
    """Absent, null or an empty string: no cap. A whole number (numeric strings accepted):
    itself. Anything else: INVALID, refused by the schema only in multi mode."""

    openapi_type = "integer"

    def clean(self, value: Any) -> int | None:
        if value is ma.missing or value is None or value == "":
            return NO_CAP
        number = whole_number(value)
        return INVALID if number is None else number

    def openapi(self) -> dict[str, Any]:
        return {"type": ["integer", "string", "null"], "minimum": MIN_PICKS,
                "maximum": MAX_PICKS,
                "description": "multi mode only; absent, null or empty string: no cap; "
                               "else a whole number 2 to 30 (at or above the option count "
                               "is fine)"}


#: The longest closing time read: an ISO 8601 date and time with seconds, fraction and offset.
CLOSING_LIMIT = 40
CLOSING_HORIZON = dt.timedelta(days=366)


def out_of_window(moment: dt.datetime) -> str | None:
    """Why a closing time cannot be set now (passed, or more than a year away), or None."""
    now = request_time()
    if moment <= now:
        return PAST_CLOSING
    if moment > now + CLOSING_HORIZON:
        return FAR_CLOSING
    return None


def _whole_second(moment: dt.datetime) -> dt.datetime:
    """`moment`, or the next whole second when it has a fraction."""
    whole = moment.replace(microsecond=0)
    return whole + dt.timedelta(seconds=1) if whole < moment else whole


class ClosingTime(SpecField):
    """An optional closing time: absent, null or an empty string for none; otherwise an
    ISO 8601 date and time with its offset (`Z` or `+11:00`: a time without a zone would be
    read differently by each reader), still to come and within a year. Kept in UTC to the
    second, a fraction rounded up to the next whole second: the poll never closes before
    the moment given, and every reader sees the whole second it closes at."""

    windowed = True

    def clean(self, value: Any) -> dt.datetime | None:
        if value is ma.missing or value is None or value == "":
            return None
        moment: dt.datetime | None = None
        if isinstance(value, str) and len(value.strip()) <= CLOSING_LIMIT:
            try:
                moment = dt.datetime.fromisoformat(value.strip())
                # Year 1 at +14:00 or year 9999 at -14:00 has no UTC time: refuse it too,
                # and the last fraction of a second of year 9999, which rounds past it.
                moment = _whole_second(moment.astimezone(dt.UTC)) if moment.tzinfo else None
            except (ValueError, OverflowError):
                moment = None
        if moment is None:
            raise ma.ValidationError(BAD_CLOSING)
        refused = out_of_window(moment) if self.windowed else None
        if refused:
            raise ma.ValidationError(refused)
        return moment

    def openapi(self) -> dict[str, Any]:
        return {"type": ["string", "null"], "format": "date-time",
                "description": "optional closing time: ISO 8601 with its offset (`Z` or "
                               "`+11:00`), still to come, within a year; the poll closes "
                               "itself then (a fraction of a second rounds up to the next "
                               f"whole second, so never early). Refused: `{BAD_CLOSING}` "
                               f"(no zone or not a time), `{PAST_CLOSING}`, "
                               f"`{FAR_CLOSING}`"}


class CreatePoll(Schema):
    question = Line(QUESTION_LIMIT, required=NO_QUESTION)
    options = OptionList()
    mode = Choice([MULTI], default=SINGLE)
    maxPicks = MaxPicks()  # the spec's field name
    allowSuggestions = Flag()
    secret = Flag()
    # Optional additions, after the spec's fields so its check order is untouched.
    ranked = Flag(description=(
        "ranked choice: voters rank the options (choices in order of preference) and the "
        "result is an instant runoff with its rounds; mode and maxPicks are then ignored"))
    closesAt = ClosingTime()
    resultsAfterVote = Flag(description=(
        "the public read and page show no counts until the poll closes; a voter sees them on "
        "their own page and in the reply to their vote; the organiser still sees them"))
    resultsAtClose = Flag(description=(
        "nobody sees counts until the poll closes (on a secret ballot not even the organiser)"))

    @ma.validates_schema
    def check_max_picks(self, data: dict[str, Any], **kwargs: Any) -> None:
        picks = data.get("maxPicks")
        if data.get("mode") == MULTI and picks is not NO_CAP and \
                not MIN_PICKS <= picks <= MAX_PICKS:
            raise ma.ValidationError(BAD_MAX_PICKS, field_name="maxPicks")

    @ma.post_load
    def single_has_no_cap(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if data.get("ranked"):
            data["mode"] = RANKED
        if data["mode"] != MULTI:
            data["maxPicks"] = NO_CAP
        return data


class OptionIds(SpecField):
    """Option ids as sent; the ballot rules (see `ballots.build`) drop what is unknown."""

    def clean(self, value: Any) -> list[Any]:
        return value if isinstance(value, list) else []

    def openapi(self) -> dict[str, Any]:
        return {"type": "array", "items": {"type": "string", "minLength": 6, "maxLength": 6},
                "description": "option ids; unknown ids dropped, repeats ignored"}


class VoteBody(Schema):
    """Never fails on its own: the ballot rules need the poll (see `ballots.build`)."""

    choices = OptionIds()
    voterName = Line(NAME_LIMIT)
    suggestion = Line(OPTION_LIMIT)


class ChangeBody(Schema):
    choices = OptionIds()


class AddOptionBody(Schema):
    text = Line(OPTION_LIMIT)
    option = Raw()  # the spec's word for the body: a string or {text}, read when text is empty


class RemoveOptionBody(Schema):
    optionId = Exact()
    option = Exact()


class EditedOptions(OptionList):
    """The organiser's whole new option list, with the create rules; an object entry may
    carry the `id` of the option it continues (a renamed option keeps its votes). How far
    the list may grow depends on the poll, so the edit checks that (`edit.py`)."""

    most = 100

    def clean(self, value: Any) -> list[dict[str, Any]]:  # type: ignore[override]
        return [{"id": entry.get("id") if isinstance(entry, dict)
                 and isinstance(entry.get("id"), str) else None, "text": text}
                for entry, text in self.entries(value)]

    def openapi(self) -> dict[str, Any]:
        return {**super().openapi(), "items": {"oneOf": [
            {"type": "string", "maxLength": OPTION_LIMIT},
            {"type": "object", "properties": {
                "text": {"type": "string"},
                "id": {"type": "string", "description": "the option this entry continues"}}}]},
            "description": "the whole new list, create rules (2 to 30 at most, or as many as "
                           "the poll already has); an entry `{id, text}` continues (renames) "
                           "that option, a plain text is the option of that text (ignoring "
                           "case) or a new one; options left out are removed"}


class EditedClosingTime(ClosingTime):
    """The closing time an edit sends: read as at creation, but whether it is still to come
    and within a year is checked (`out_of_window`) only when it differs from the stored one,
    so a closed poll's own closing time, sent back unchanged, is no error."""

    windowed = False


class EditPoll(Schema):
    """What the organiser may change: the question, the options and the closing time."""

    question = Line(QUESTION_LIMIT, required=NO_QUESTION)
    options = EditedOptions()
    closesAt = EditedClosingTime()
