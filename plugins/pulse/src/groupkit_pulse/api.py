"""Weekly Pulse: create, the weekly results everyone sees, responding, editing, retention."""

from __future__ import annotations

import datetime as dt
import secrets
from collections import defaultdict
from typing import Any

from groupkit import Call, Edit, Instance, Operations, request_time

from .models import PulseComments, PulseTally
from .schema import BAD_SCORE, DetailsBody, RespondBody
from .weeks import KEEP_WEEKS, label, oldest_kept, week_of

ops = Operations()

DEFAULT_HEADING = "Weekly pulse"
#: A week with fewer responses than this shows only its count, to everyone.
MIN_SHOWN = 4
SCORES = range(1, 6)


def _settings(data: dict[str, Any]) -> dict[str, Any]:
    return {"team": data["team"], "question": data["question"], "askWords": data["askWords"]}


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = _settings(data)


def title_of(data: dict[str, Any]) -> str:
    return str(data["team"])


def _week(name: str, this_week: str, counts: dict[int, int],
          comments: list[str]) -> dict[str, Any]:
    responses = sum(counts.values())
    shown = responses >= MIN_SHOWN
    return {
        "week": name, "label": label(name), "current": name == this_week,
        "responses": responses, "shown": shown,
        "scores": [{"score": score, "count": counts.get(score, 0)} for score in SCORES]
        if shown else None,
        "average": round(sum(score * count for score, count in counts.items()) / responses, 1)
        if shown else None,
        "comments": list(comments) if shown else None}


def weeks(instance: Instance, now: dt.datetime) -> list[dict[str, Any]]:
    """This week (even when empty) and every kept week with responses, newest first."""
    this_week, oldest = week_of(now), oldest_kept(now)
    counts: dict[str, dict[int, int]] = defaultdict(dict)
    for row in PulseTally.select().where(PulseTally.instance == instance):
        counts[row.week][row.score] = row.count
    comments = {row.week: row.texts
                for row in PulseComments.select().where(PulseComments.instance == instance)}
    names = sorted({this_week, *(name for name in counts if name >= oldest)}, reverse=True)
    return [_week(name, this_week, counts.get(name, {}), comments.get(name, []))
            for name in names]


def public_view(instance: Instance) -> dict[str, Any]:
    """Everything anyone sees, the organiser included: there is no private view of answers."""
    data, now = instance.data, request_time()
    return {"title": instance.title, "heading": data["team"] or DEFAULT_HEADING,
            "team": data["team"], "question": data["question"], "askWords": data["askWords"],
            "minimumShown": MIN_SHOWN, "keptWeeks": KEEP_WEEKS, "thisWeek": week_of(now),
            "weeks": weeks(instance, now)}


def preview(instance: Instance) -> dict[str, Any]:
    return {"title": instance.data["team"] or DEFAULT_HEADING,
            "description": instance.data["question"]}


def prune(now: dt.datetime) -> int:
    """Drop every week older than the kept ones, whole weeks at a time, for every pulse."""
    oldest = oldest_kept(now)
    removed = PulseTally.delete().where(PulseTally.week < oldest).execute()
    removed += PulseComments.delete().where(PulseComments.week < oldest).execute()
    return int(removed)


def _record(instance: Instance, week: str, score: int, words: str) -> int:
    """Count the score and file the words apart from it; returns the week's responses."""
    (PulseTally.insert(instance=instance, week=week, score=score, count=1)
     .on_conflict(conflict_target=[PulseTally.instance, PulseTally.week, PulseTally.score],
                  update={PulseTally.count: PulseTally.count + 1})
     .execute())
    if words:
        row = (PulseComments.select()
               .where((PulseComments.instance == instance) & (PulseComments.week == week))
               .first())
        if row is None:
            PulseComments.create(instance=instance, week=week, texts=[words])
        else:
            texts = list(row.texts)
            # A uniformly random position: the list's order says nothing about arrival.
            texts.insert(secrets.randbelow(len(texts) + 1), words)
            row.texts = texts
            row.save()
    total = (PulseTally.select(PulseTally.count)
             .where((PulseTally.instance == instance) & (PulseTally.week == week)))
    return sum(row.count for row in total)


def _schema(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


WEEK_SCHEMA = _schema({
    "week": {"type": "string", "format": "date", "description": "the week's Monday (Sydney)"},
    "label": {"type": "string"},
    "current": {"type": "boolean"},
    "responses": {"type": "integer"},
    "shown": {"type": "boolean",
              "description": f"false below {MIN_SHOWN} responses: only the count is given"},
    "scores": {"type": ["array", "null"], "items": _schema({
        "score": {"type": "integer", "minimum": 1, "maximum": 5},
        "count": {"type": "integer"}})},
    "average": {"type": ["number", "null"]},
    "comments": {"type": ["array", "null"], "items": {"type": "string"},
                 "description": "the week's words in random order, never tied to a score"}})

PULSE_SCHEMA = _schema({
    "title": {"type": "string"}, "heading": {"type": "string"}, "team": {"type": "string"},
    "question": {"type": "string"}, "askWords": {"type": "boolean"},
    "minimumShown": {"type": "integer"}, "keptWeeks": {"type": "integer"},
    "thisWeek": {"type": "string", "format": "date"},
    "weeks": {"type": "array", "items": WEEK_SCHEMA}})

RESPONDED = _schema({
    "ok": {"type": "boolean"},
    "week": {"type": "string", "format": "date", "description": "the week it counts toward"},
    "responses": {"type": "integer", "description": "responses this week so far"}})


@ops.public("respond", body=RespondBody, status=201, returns=RESPONDED, errors={
    400: f"Score missing, not a whole number, or outside 1 to 5: `{BAD_SCORE}`"},
    description="Anonymous: nothing identifies the responder, no token is issued, and the "
                "score and the words are stored apart (a per-week count per score, and the "
                "week's words in random order, no timestamps), so they cannot be tied "
                "together. Words are T(500), CRLF normalised, and dropped when the pulse "
                "does not ask for words. Numeric strings count as numbers. There is no "
                "one-per-person check: an anonymous check-in cannot tell people apart.")
def respond(call: Call) -> dict[str, Any]:
    """Check in for this week: a score from 1 to 5 and, optionally, a few words."""
    week = week_of(call.now)
    words = call.data["words"] if call.instance.data["askWords"] else ""
    total = _record(call.instance, week, call.data["score"], words)
    return {"ok": True, "week": week, "responses": total}


@ops.organiser("details", body=DetailsBody, returns=_schema({
    "ok": {"type": "boolean"}, "team": {"type": "string"}, "question": {"type": "string"},
    "askWords": {"type": "boolean"}}),
    description="Same fields and rules as create; never an error. Past responses stay as "
                "they are; the link does not change.")
def details(call: Call) -> dict[str, Any]:
    """Change the team name, the question, or whether words are asked for."""
    settings = _settings(call.data)
    call.instance.data = settings
    call.instance.title = settings["team"]
    call.instance.save()
    return {"ok": True, **settings}


EDIT = Edit(fields=("team", "question", "askWords"),
            description="As `details`, but partial. Past responses stay as they are.")
