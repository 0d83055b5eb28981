"""Reading a day and a time out of free text, for tools whose dates are written by people.

A roster's event date is free text ("Saturday 14 March 2026") and a shift's label is "a job
and a time" ("Setup 7-9am"); a hens party's "when" is both at once ("Saturday 14 March,
2pm"). A calendar entry is offered only when they read unambiguously: a day, and a start
(and maybe an end) if a time is written. Anything doubtful reads as nothing, because no
calendar link is better than a wrong one.

Times are wall-clock times at the event, with no zone: calendar entries carry them as
floating times (RFC 5545), which every calendar shows at that hour wherever it is.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}
WEEKDAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}

_MONTH = (r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?"
          r"|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?P<year>\d{4})\b)?"

_ISO = re.compile(r"(?<![\d-])(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})(?![\d-])")
#: Day first, as written in Australia: 14/3/2026, 14.03.26.
_NUMERIC = re.compile(
    r"(?<![\d/.])(?P<day>\d{1,2})(?P<sep>[/.])(?P<month>\d{1,2})(?P=sep)(?P<year>\d{4}|\d{2})"
    r"(?!\d)")
_DAY_MONTH = re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}\b\.?{_YEAR}", re.IGNORECASE)
_MONTH_DAY = re.compile(rf"\b{_MONTH}\b\.?\s+{_DAY}\b{_YEAR}", re.IGNORECASE)
_WEEKDAY = re.compile(r"\b(?P<weekday>mon(?:day)?|tue(?:s)?(?:day)?|wed(?:nesday)?"
                      r"|thu(?:r(?:s)?)?(?:day)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\b",
                      re.IGNORECASE)

_TOKEN = r"(?:\d{1,2}(?:[:.]\d{2})?(?:\s*[ap]\.?m\b\.?)?|noon|midday|midnight)"
_RANGE = re.compile(
    rf"(?<![\w:.])(?P<start>{_TOKEN})"
    rf"(?:\s*(?:-|–|—|to|till|til|until)\s*(?P<end>{_TOKEN}))?(?![\w:])", re.IGNORECASE)
_TOKEN_PARTS = re.compile(
    r"(?P<hour>\d{1,2})(?:(?P<sep>[:.])(?P<minute>\d{2}))?(?:\s*(?P<meridiem>[ap])\.?m\.?)?",
    re.IGNORECASE)

DAY_MINUTES = 24 * 60


def _year_of(text: str) -> int:
    year = int(text)
    return 2000 + year if len(text) == 2 else year


def _explicit_day(text: str) -> tuple[int | None, int, int] | None:
    """(year or None, month, day) of the first date written in `text`, unchecked."""
    for pattern in (_ISO, _NUMERIC):
        found = pattern.search(text)
        if found:
            return _year_of(found["year"]), int(found["month"]), int(found["day"])
    for pattern in (_DAY_MONTH, _MONTH_DAY):
        found = pattern.search(text)
        if found:
            year = _year_of(found["year"]) if found["year"] else None
            return year, MONTHS[found["month"][:3].lower()], int(found["day"])
    return None


def _weekday(text: str) -> int | None:
    found = _WEEKDAY.search(text)
    return WEEKDAYS[found["weekday"][:3].lower()] if found else None


def read_day(text: str, today: dt.date) -> dt.date | None:
    """The day `text` names, or None. A date without a year is its next occurrence from
    `today` (within a year); a weekday, when written, must agree with the date."""
    found = _explicit_day(text)
    if found is None:
        return None
    year, month, day = found
    candidates = [year] if year is not None else [today.year, today.year + 1]
    weekday = _weekday(text)
    for candidate in candidates:
        try:
            when = dt.date(candidate, month, day)
        except ValueError:
            continue
        if year is None and when < today:
            continue
        if weekday is not None and when.weekday() != weekday:
            continue
        return when
    return None


@dataclasses.dataclass(frozen=True)
class _Token:
    """One written time: `hour` as written, `meridiem` "a", "p" or None."""

    hour: int
    minute: int
    meridiem: str | None
    clock: bool  # written with minutes (8:30), so it can stand alone as a 24-hour time
    fixed: int | None  # minutes after midnight when the token alone says exactly when

    def candidates(self) -> list[int]:
        """Every time of day the token could mean, earliest first."""
        if self.fixed is not None:
            return [self.fixed]
        if 1 <= self.hour <= 12:
            morning = (self.hour % 12) * 60 + self.minute
            return [morning, morning + 12 * 60]
        return [self.hour * 60 + self.minute]

    def as_written(self) -> int | None:
        """Minutes after midnight for a token that stands alone: am/pm, a word, or hh:mm."""
        if self.fixed is not None:
            return self.fixed
        return self.hour * 60 + self.minute if self.clock else None


def _token(text: str) -> _Token | None:
    word = text.strip().lower()
    if word in ("noon", "midday"):
        return _Token(12, 0, None, True, 12 * 60)
    if word == "midnight":
        return _Token(0, 0, None, True, 0)
    parts = _TOKEN_PARTS.fullmatch(text.strip())
    if parts is None:
        return None
    hour, minute = int(parts["hour"]), int(parts["minute"] or 0)
    meridiem = parts["meridiem"].lower() if parts["meridiem"] else None
    if minute > 59:
        return None
    if meridiem is not None:
        if not 1 <= hour <= 12:
            return None
        fixed = (hour % 12 + (12 if meridiem == "p" else 0)) * 60 + minute
        return _Token(hour, minute, meridiem, True, fixed)
    if hour > 23 or parts["sep"] == ".":
        return None  # 8.30 alone could be any number; with am/pm it is a time
    return _Token(hour, minute, None, parts["sep"] == ":", None)


def _span(start: _Token, end: _Token | None) -> tuple[int, int] | None:
    """(start, end) in minutes after the event day's midnight; end may pass midnight."""
    if end is None:
        begin = start.as_written()
        return None if begin is None else (begin, begin + 60)
    if start.fixed is not None:
        begin = start.fixed
        options = end.candidates()
        finish = next((option for option in options if option > begin), options[0])
    elif end.fixed is not None:
        finish = end.fixed
        options = start.candidates()
        begin = max((option for option in options if option < finish), default=max(options))
    elif start.clock:
        begin = start.hour * 60 + start.minute
        options = end.candidates()
        finish = next((option for option in options if option > begin), options[0])
    elif end.clock:
        finish = end.hour * 60 + end.minute
        options = start.candidates()
        begin = max((option for option in options if option < finish), default=max(options))
    else:
        return None  # "3-4": a table number as likely as a time
    if finish <= begin:
        finish += DAY_MINUTES
    return begin, finish


def read_hours(text: str) -> tuple[int, int] | None:
    """The first time (or time range) written in `text`, as minutes after midnight."""
    for found in _RANGE.finditer(text):
        start = _token(found["start"])
        end = _token(found["end"]) if found["end"] else None
        if start is None or (found["end"] and end is None):
            continue
        span = _span(start, end)
        if span is not None:
            return span
    return None


def written_time(day_text: str, time_text: str, today: dt.date
                 ) -> tuple[dt.datetime, dt.datetime] | None:
    """(start, end) as naive wall-clock datetimes, or None when `day_text` names no day or
    `time_text` no time (they may be the same text)."""
    day = read_day(day_text, today)
    if day is None:
        return None
    hours = read_hours(time_text)
    if hours is None:
        return None
    midnight = dt.datetime.combine(day, dt.time())
    return (midnight + dt.timedelta(minutes=hours[0]),
            midnight + dt.timedelta(minutes=hours[1]))
