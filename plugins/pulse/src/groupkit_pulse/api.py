"""Weekly Pulse: create, the weekly results everyone sees, responding, editing, retention.

Against a watcher: a response adds one to one score and one entry to the words, so results
that moved with every response would tie each score to its words for anyone reading the
page before and after. This week's results therefore move only in batches of at least
BATCH new responses (the first batch is the spec's MIN_SHOWN), each with the words shuffled
afresh; the count of responses is live. A week that has ended shows all its responses. The
organiser may choose `resultsAtWeekEnd`: nothing of the current week but its count until
it ends, so there is only ever one release to compare with nothing.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections import defaultdict
from typing import Any

from groupkit import Call
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import request_time

from .models import PulseComments
from .models import PulseTally
from .schema import BAD_SCORE
from .schema import DetailsBody
from .schema import RespondBody
from .weeks import KEEP_WEEKS
from .weeks import label
from .weeks import oldest_kept
from .weeks import week_of

ops = Operations()

DEFAULT_HEADING = "Weekly pulse"
#: A week with fewer responses than this shows only its count, to everyone.
MIN_SHOWN = 4
#: This week's results take in new responses only this many (or more) at a time.
BATCH = MIN_SHOWN
SCORES = range(1, 6)


def _settings(data: dict[str, Any]) -> dict[str, Any]:
    return {"team": data["team"], "question": data["question"], "askWords": data["askWords"],
            "resultsAtWeekEnd": data["resultsAtWeekEnd"]}


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {**_settings(data), "release": {"week": ""}}  # batched from the start


def title_of(data: dict[str, Any]) -> str:
    return str(data["team"])


def _week(name: str, this_week: str, responses: int, counts: dict[int, int] | None,
          comments: list[str]) -> dict[str, Any]:
    """One week as everyone sees it. `counts` and `comments` are what its results show (for
    this week, the last batch released; None: nothing shown yet)."""
    in_results = sum(counts.values()) if counts is not None else 0
    shown = counts is not None and in_results >= MIN_SHOWN
    return {
        "week": name, "label": label(name), "current": name == this_week,
        "responses": responses, "shown": shown,
        "inResults": in_results if shown else None,
        "scores": [{"score": score, "count": counts.get(score, 0)} for score in SCORES]
        if shown and counts is not None else None,
        "average": round(sum(score * count for score, count in counts.items()) / in_results, 1)
        if shown and counts is not None else None,
        "comments": list(comments) if shown else None}


def _tallies(instance: Instance) -> tuple[dict[str, dict[int, int]], dict[str, list[str]]]:
    counts: dict[str, dict[int, int]] = defaultdict(dict)
    for row in PulseTally.select().where(PulseTally.instance == instance):
        counts[row.week][row.score] = row.count
    comments = {row.week: list(row.texts)
                for row in PulseComments.select().where(PulseComments.instance == instance)}
    return counts, comments


def released(instance: Instance, week: str) -> dict[str, Any] | None:
    """This week's last released batch ({responses, counts, texts}), if one was made."""
    batch = instance.data.get("release")
    return batch if isinstance(batch, dict) and batch.get("week") == week else None


def weeks(instance: Instance, now: dt.datetime) -> list[dict[str, Any]]:
    """This week (even when empty) and every kept week with responses, newest first."""
    this_week, oldest = week_of(now), oldest_kept(now)
    counts, comments = _tallies(instance)
    names = sorted({this_week, *(name for name in counts if name >= oldest)}, reverse=True)
    found = []
    for name in names:
        week_counts = counts.get(name, {})
        responses = sum(week_counts.values())
        shown_counts: dict[int, int] | None = week_counts
        shown_comments = comments.get(name, [])
        if name == this_week:
            batch = released(instance, name)
            if instance.data.get("resultsAtWeekEnd"):
                shown_counts = None
            elif batch is not None:
                shown_counts = {int(score): count for score, count in batch["counts"].items()}
                shown_comments = batch["texts"]
            elif "release" in instance.data:
                shown_counts = None  # no batch yet this week
        found.append(_week(name, this_week, responses, shown_counts, shown_comments))
    return found


def release_due(instance: Instance, week: str) -> None:
    """Take this week's responses into its results when BATCH or more have arrived since
    the last batch (the first batch needs MIN_SHOWN): counts as they stand, words shuffled
    afresh, so a new batch says nothing about which of its words came with which score.
    With `resultsAtWeekEnd` no batch is made: turned off mid-week, everything so far is
    one batch."""
    batch = released(instance, week)
    instance.data = {**instance.data, "release": batch or {"week": ""}}
    if instance.data.get("resultsAtWeekEnd"):
        return
    counts, comments = _tallies(instance)
    week_counts = counts.get(week, {})
    responses = sum(week_counts.values())
    done = batch["responses"] if batch is not None else 0
    if responses < MIN_SHOWN or responses - done < BATCH:
        return
    texts = list(comments.get(week, []))
    secrets.SystemRandom().shuffle(texts)
    instance.data = {**instance.data, "release": {
        "week": week, "responses": responses, "texts": texts,
        "counts": {str(score): count for score, count in week_counts.items()}}}


def public_view(instance: Instance) -> dict[str, Any]:
    """Everything anyone sees, the organiser included: there is no private view of answers."""
    data, now = instance.data, request_time()
    return {"title": instance.title, "heading": data["team"] or DEFAULT_HEADING,
            "team": data["team"], "question": data["question"], "askWords": data["askWords"],
            "resultsAtWeekEnd": bool(data.get("resultsAtWeekEnd")),
            "minimumShown": MIN_SHOWN, "batch": BATCH, "keptWeeks": KEEP_WEEKS,
            "thisWeek": week_of(now), "weeks": weeks(instance, now)}


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
              "description": f"false below {MIN_SHOWN} responses (and, with "
                             "`resultsAtWeekEnd`, for the current week): only the count"},
    "inResults": {"type": ["integer", "null"], "description": "how many responses the "
                  "scores and words cover: this week's last batch, a past week's all"},
    "scores": {"type": ["array", "null"], "items": _schema({
        "score": {"type": "integer", "minimum": 1, "maximum": 5},
        "count": {"type": "integer"}})},
    "average": {"type": ["number", "null"]},
    "comments": {"type": ["array", "null"], "items": {"type": "string"},
                 "description": "the week's words in random order, never tied to a score"}})

PULSE_SCHEMA = _schema({
    "title": {"type": "string"}, "heading": {"type": "string"}, "team": {"type": "string"},
    "question": {"type": "string"}, "askWords": {"type": "boolean"},
    "resultsAtWeekEnd": {"type": "boolean", "description": "the organiser's choice: this "
                         "week shows only its count until the week ends"},
    "minimumShown": {"type": "integer"},
    "batch": {"type": "integer", "description": "this week's results take in new responses "
              "only this many or more at a time"},
    "keptWeeks": {"type": "integer"},
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
                f"together. This week's results take in new responses {BATCH} or more at a "
                "time, words reshuffled each time, so comparing the results before and "
                "after one response shows nothing of it. Words are T(500), CRLF "
                "normalised, and dropped when the pulse "
                "does not ask for words. Numeric strings count as numbers. There is no "
                "one-per-person check: an anonymous check-in cannot tell people apart.")
def respond(call: Call) -> dict[str, Any]:
    """Check in for this week: a score from 1 to 5 and, optionally, a few words."""
    week, instance = week_of(call.now), call.instance
    words = call.data["words"] if instance.data["askWords"] else ""
    if "release" not in instance.data:
        # Made before batches: its page showed everything, so that is the first batch.
        release_due(instance, week)
    total = _record(instance, week, call.data["score"], words)
    release_due(instance, week)
    instance.save(only=[Instance.data])
    return {"ok": True, "week": week, "responses": total}


@ops.organiser("details", body=DetailsBody, returns=_schema({
    "ok": {"type": "boolean"}, "team": {"type": "string"}, "question": {"type": "string"},
    "askWords": {"type": "boolean"}}))
def details(call: Call) -> dict[str, Any]:
    """Change the team name, the question, or whether words are asked for.

    Same fields and rules as create; never an error. Past responses stay as they are; the link does
    not change.
    """
    settings = _settings(call.data)
    instance = call.instance
    instance.data = {**instance.data, **settings}
    instance.title = settings["team"]
    release_due(instance, week_of(call.now))
    instance.save()
    return {"ok": True, **settings}


def _edit(call: Call) -> None:
    """Settings change as with `details`; turning `resultsAtWeekEnd` off mid-week releases
    what is due at once, so the page never waits for a batch that already came."""
    instance = call.instance
    instance.data = {**instance.data, **call.data}
    release_due(instance, week_of(call.now))


EDIT = Edit(fields=("team", "question", "askWords", "resultsAtWeekEnd"), apply=_edit,
            description="As `details`, but partial. Past responses stay as they are.")
