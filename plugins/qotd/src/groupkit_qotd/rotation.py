"""Which question is asked on which day: computed from the calendar, never by a daily job.

An instance keeps a `ring` (its rotation order of question numbers, shuffled at creation) and
an `anchor` (a Sydney date and the ring position asked on it). On any later day the position
is the anchor's plus the days since, wrapped round the ring, so the question changes at
midnight in Sydney by arithmetic alone (daylight saving included: days are calendar dates in
Australia/Sydney, not 24-hour blocks) and the share link never changes. Organiser actions
only move the anchor or edit the ring, always re-anchoring on today so that today's question
changes only when they mean it to (skip, or removing today's question).
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any
from zoneinfo import ZoneInfo

from groupkit import local_date

from .bank import CUSTOM_BASE
from .bank import Question
from .bank import bank

ZONE = "Australia/Sydney"
SYDNEY = ZoneInfo(ZONE)
#: The anchor of a new instance: position 0 of its (random) ring was asked on this day.
EPOCH = dt.date(2024, 1, 1)


def sydney_day(moment: dt.datetime) -> dt.date:
    """The calendar date in Sydney at `moment` (aware; naive is read as UTC)."""
    return local_date(moment, ZONE)


def midnight_after(day: dt.date) -> dt.datetime:
    """The instant (UTC) the day after `day` begins in Sydney: when the question changes."""
    start = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=SYDNEY)
    return start.astimezone(dt.UTC)


def new_state() -> dict[str, Any]:
    ring = [question.qi for question in bank()]
    secrets.SystemRandom().shuffle(ring)
    return {"ring": ring, "anchor": {"day": EPOCH.isoformat(), "position": 0},
            "custom": {}, "nextCustom": CUSTOM_BASE}


def index_on(state: dict[str, Any], day: dt.date) -> int:
    """The ring index asked on `day`."""
    anchor = state["anchor"]
    days = (day - dt.date.fromisoformat(anchor["day"])).days
    return (anchor["position"] + days) % len(state["ring"])


def qi_on(state: dict[str, Any], day: dt.date) -> int:
    return int(state["ring"][index_on(state, day)])


def question(state: dict[str, Any], qi: int) -> Question:
    """A question by number: the bank's, or one the organiser added (kept after removal so
    past answers still read)."""
    if qi < CUSTOM_BASE:
        return bank()[qi]
    custom = state["custom"][str(qi)]
    return Question(qi, custom["question"], custom["a"], custom["b"])


def known(state: dict[str, Any], qi: int) -> bool:
    return 0 <= qi < len(bank()) or str(qi) in state["custom"]


def _anchor(state: dict[str, Any], day: dt.date, index: int) -> None:
    state["anchor"] = {"day": day.isoformat(), "position": index % len(state["ring"])}


def skip(state: dict[str, Any], today: dt.date) -> None:
    """Today moves on to the next question in the ring; every later day follows on."""
    _anchor(state, today, index_on(state, today) + 1)


def add(state: dict[str, Any], today: dt.date, text: str, a: str, b: str) -> int:
    """Queue a new question to be asked from tomorrow, after any already queued ones, and
    return its number. Today's question stays."""
    current = index_on(state, today)
    ring: list[int] = state["ring"]
    place = current + 1
    while place < len(ring) and ring[place] >= CUSTOM_BASE:
        place += 1
    qi = int(state["nextCustom"])
    state["nextCustom"] = qi + 1
    state["custom"][str(qi)] = {"question": text, "a": a, "b": b}
    ring.insert(place, qi)
    _anchor(state, today, current)
    return qi


def remove(state: dict[str, Any], today: dt.date, qi: int) -> None:
    """Take a question out of the rotation. Removing today's question moves today on to the
    next one (as a skip would); removing any other leaves today's question as it is."""
    ring: list[int] = state["ring"]
    current = index_on(state, today)
    place = ring.index(qi)
    ring.pop(place)
    _anchor(state, today, current - 1 if place < current else current)


def upcoming(state: dict[str, Any], today: dt.date, days: int) -> list[tuple[dt.date, int]]:
    """(day, qi) for today and the following days, as things stand."""
    return [(today + dt.timedelta(days=n), qi_on(state, today + dt.timedelta(days=n)))
            for n in range(days)]
