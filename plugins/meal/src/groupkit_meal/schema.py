"""Meal Train bodies, fields in the spec's check order.

Days come either from `dates` (when it is a non-empty array) or from `startDate` + `days`;
which pair applies is only known once every field is read, so the fields report what they
found and `CreateMeal.days_of` decides, after the field checks.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import marshmallow as ma

from groupkit import N_
from groupkit import Line
from groupkit import Raw
from groupkit import Schema
from groupkit import SpecField
from groupkit import Text
from groupkit import clean_line
from groupkit import whole_number

NO_FOR_WHOM = N_("Who are the meals for? Add a name — a family, a person, whoever.")
BAD_DATE = N_("One of those days isn't a real calendar date.")
BAD_START = N_("Pick a valid first day.")
BAD_DAYS = N_("How many days need a meal? At least one.")
NO_DAYS = N_("Add at least one day that needs a meal.")
TOO_MANY_DAYS = N_("Sixty days is the limit — start a second roster if it runs longer.")
BAD_SPACING = N_("Space the new days 1, 2 or 7 days apart — every day, every second day or "
                 "weekly.")
NO_TASK_LABEL = N_("Give the job a name — what needs doing?")

MAX_DAYS = 60
DATES_READ = 61
MAX_PER_DAY = 3
MAX_TASKS = 12
MAX_TASK_SPOTS = 20
MAX_LINKS = 8
TITLE_PREFIX = "Meals for "
TITLE_LIMIT = 120
DISH_LIMIT = 120
TASK_LABEL_LIMIT = 70
LINK_LABEL_LIMIT = 70
URL_LIMIT = 300
SPACINGS = (1, 2, 7)

_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def title_for(for_whom: str) -> str:
    """The stored title follows forWhom: `Meals for <forWhom>`, cut to 120."""
    return (TITLE_PREFIX + for_whom)[:TITLE_LIMIT]


def iso_day(value: Any) -> dt.date | None:
    """The day an exact `YYYY-MM-DD` string names, or None (wrong shape, impossible day)."""
    if not isinstance(value, str) or not _ISO_DAY.fullmatch(value):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def day_run(start: dt.date, count: int, spacing: int = 1) -> list[dt.date] | None:
    """`count` days from `start`, `spacing` apart; None if they run past the calendar's end."""
    try:
        return [start + dt.timedelta(days=i * spacing) for i in range(count)]
    except OverflowError:
        return None


class Dates(SpecField):
    """`dates`: None unless a non-empty array; then the first 61 entries, each an exact real
    `YYYY-MM-DD`, deduplicated and sorted; more than 60 unique days is the spec's error."""

    openapi_type = "array"

    def clean(self, value: Any) -> list[dt.date] | None:
        if not isinstance(value, list) or not value:
            return None
        days = []
        for entry in value[:DATES_READ]:
            day = iso_day(entry)
            if day is None:
                raise ma.ValidationError(BAD_DATE)
            days.append(day)
        unique = sorted(set(days))
        if len(unique) > MAX_DAYS:
            raise ma.ValidationError(TOO_MANY_DAYS)
        return unique

    def openapi(self) -> dict[str, Any]:
        return {"type": "array", "items": {"type": "string", "format": "date"},
                "description": "used when a non-empty array: first 61 entries read, each "
                               "exactly YYYY-MM-DD and a real day (UTC), duplicates removed, "
                               "sorted; more than 60 unique days is an error"}


class StartDate(SpecField):
    """A trimmed exact `YYYY-MM-DD` real day, or None for the operation to refuse."""

    def clean(self, value: Any) -> dt.date | None:
        return iso_day(value.strip()) if isinstance(value, str) else None

    def openapi(self) -> dict[str, Any]:
        return {"type": "string", "format": "date",
                "description": "YYYY-MM-DD (trimmed), a real day, UTC"}


class DayCount(SpecField):
    """A whole number of days, at least 1 (numeric strings accepted), or None; `cap` cuts
    larger counts silently."""

    openapi_type = "integer"

    def __init__(self, cap: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cap = cap

    def clean(self, value: Any) -> int | None:
        number = whole_number(value)
        if number is None or number < 1:
            return None
        return min(number, self.cap) if self.cap is not None else number

    def openapi(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": ["integer", "string"], "minimum": 1,
                                  "description": "whole number; numeric strings accepted"}
        if self.cap is not None:
            schema["description"] += f"; above {self.cap} silently {self.cap}"
        return schema


class Lenient(SpecField):
    """A whole number from `minimum`; anything else `default`, above `maximum` cut to it
    (`clamp`) or `default`; never an error."""

    openapi_type = "integer"

    def __init__(self, minimum: int, maximum: int, default: int, clamp: bool,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.minimum, self.maximum, self.default_value, self.clamp = (minimum, maximum,
                                                                      default, clamp)

    def clean(self, value: Any) -> int:
        number = whole_number(value)
        if number is None or number < self.minimum:
            return self.default_value
        if number > self.maximum:
            return self.maximum if self.clamp else self.default_value
        return number

    def openapi(self) -> dict[str, Any]:
        return {"type": ["integer", "string"], "minimum": self.minimum,
                "maximum": self.maximum, "default": self.default_value,
                "description": "never an error: anything else becomes the default"
                + (f", more than {self.maximum} becomes {self.maximum}" if self.clamp else "")}


#: A job's spots: whole 1 to 20; missing or invalid (out of range included) is 1.
TASK_CAPACITY = Lenient(1, MAX_TASK_SPOTS, 1, clamp=False)


def _label(source: dict[str, Any], limit: int) -> str:
    label = source.get("label")
    return clean_line(label, limit) if isinstance(label, str) else ""


class _Entries(SpecField):
    """A list of small objects that never fails: `entry` turns each entry (a non-object
    counts as `{}`) into the object kept, or None to drop it, and the first `most` kept are
    the value (a non-list has none)."""

    openapi_type = "array"

    def __init__(self, entry: Callable[[dict[str, Any]], dict[str, Any] | None], *, most: int,
                 properties: dict[str, Any], note: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entry, self.most, self.properties, self.note = entry, most, properties, note

    def clean(self, value: Any) -> list[dict[str, Any]]:
        kept = []
        for raw in value if isinstance(value, list) else []:
            entry = self.entry(raw if isinstance(raw, dict) else {})
            if entry is not None:
                kept.append(entry)
            if len(kept) == self.most:
                break
        return kept

    def openapi(self) -> dict[str, Any]:
        return {"type": "array", "maxItems": self.most, "description": self.note,
                "items": {"type": "object", "properties": self.properties}}


def _task(source: dict[str, Any]) -> dict[str, Any] | None:
    """Other jobs: `{label, capacity}`; an empty label drops the entry."""
    label = _label(source, TASK_LABEL_LIMIT)
    if not label:
        return None
    return {"label": label, "capacity": TASK_CAPACITY.clean(source.get("capacity"))}


def web_link(url: str) -> tuple[str, str] | None:
    """(url cut to 300, hostname) for an http or https address, else None."""
    url = url.strip()[:URL_LIMIT]
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not host:
        return None
    return url, host


def _help_link(source: dict[str, Any]) -> dict[str, Any] | None:
    """`{label, url}`: only http and https kept; the label falls back to the hostname."""
    url = source.get("url")
    found = web_link(url) if isinstance(url, str) else None
    if found is None:
        return None
    return {"label": _label(source, LINK_LABEL_LIMIT) or found[1], "url": found[0]}


def task_list() -> _Entries:
    return _Entries(_task, most=MAX_TASKS, note=(
        "entries with an empty label dropped, then the first 12 kept"), properties={
        "label": {"type": "string", "maxLength": TASK_LABEL_LIMIT},
        "capacity": {"type": ["integer", "string"], "minimum": 1, "maximum": MAX_TASK_SPOTS,
                     "default": 1}})


def help_links() -> _Entries:
    return _Entries(_help_link, most=MAX_LINKS, note=(
        "only http and https addresses kept (others dropped), url cut to 300, label C(70) "
        "or the address's hostname; first 8 kept"), properties={
        "label": {"type": "string", "maxLength": LINK_LABEL_LIMIT},
        "url": {"type": "string", "maxLength": URL_LIMIT}})


class CreateMeal(Schema):
    forWhom = Line(80, required=NO_FOR_WHOM)  # the spec's field names
    note = Text(400)
    allergies = Line(200)
    dropoff = Line(120)
    dates = Dates()
    startDate = StartDate()
    days = DayCount(cap=MAX_DAYS)
    capacityPerDay = Lenient(1, MAX_PER_DAY, 1, clamp=True)
    tasks = task_list()
    helpLinks = help_links()

    @ma.post_load
    def days_of(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Settle the days: `dates` when given, else `startDate` then `days`."""
        days = data.get("dates")
        if days is None:
            start, count = data.get("startDate"), data.get("days")
            if start is None:
                raise ma.ValidationError(BAD_START)
            if count is None:
                raise ma.ValidationError(BAD_DAYS)
            days = day_run(start, count)
            if days is None:
                raise ma.ValidationError(BAD_START)
        if not days:
            raise ma.ValidationError(NO_DAYS)
        return {**data, "dayList": days}


class Details(Schema):
    forWhom = Line(80, required=NO_FOR_WHOM)
    note = Text(400)
    allergies = Line(200)
    dropoff = Line(120)


class AddDays(Schema):
    """Checked in this order by the operation: startDate, days, spacing; then the roster."""

    startDate = StartDate()
    days = DayCount()
    spacing = Raw()


class AddTask(Schema):
    label = Line(TASK_LABEL_LIMIT, required=NO_TASK_LABEL)
    capacity = Lenient(1, MAX_TASK_SPOTS, 1, clamp=False)


class TaskBody(Schema):
    taskId = Raw()
