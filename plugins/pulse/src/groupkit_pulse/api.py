"""Weekly Pulse: create, the weekly results everyone sees, responding, editing, retention.

Against a watcher: a response adds one to one score and one entry to the words, so results
that moved with every response would tie each score to its words for anyone reading the
page before and after. A response therefore joins its week's results only with a full
batch: it is held (`PulseHeld`) until BATCH responses have come in since the last batch,
then they join together, the week's words shuffled afresh; the count of responses is live.
The week's end releases nothing: the responses it ends with (fewer than BATCH) stay out of
its results for good, so the last batch is what the week shows. The organiser may choose
`resultsAtWeekEnd`: nothing of the current week but its count until it ends.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections import Counter
from collections import defaultdict
from typing import Any

import peewee as pw

from groupkit import N_
from groupkit import Call
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import gettext
from groupkit import request_time

from .models import PulseComments
from .models import PulseHeld
from .models import PulseHeldWords
from .models import PulseTally
from .schema import BAD_SCORE
from .schema import DEFAULT_QUESTION
from .schema import DetailsBody
from .schema import RespondBody
from .weeks import KEEP_WEEKS
from .weeks import label
from .weeks import oldest_kept
from .weeks import week_of

ops = Operations()

DEFAULT_HEADING = N_("Weekly pulse")
#: A week with fewer responses than this shows only its count, to everyone.
MIN_SHOWN = 4
#: A response joins its week's results only with this many new ones, the week's end included.
BATCH = MIN_SHOWN
SCORES = range(1, 6)


def _settings(data: dict[str, Any]) -> dict[str, Any]:
    return {"team": data["team"], "question": data["question"], "askWords": data["askWords"],
            "resultsAtWeekEnd": data["resultsAtWeekEnd"]}


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = _settings(data)


def title_of(data: dict[str, Any]) -> str:
    return str(data["team"])


def _week(name: str, this_week: str, counts: dict[int, int], comments: list[str],
          held: int, hidden: bool) -> dict[str, Any]:
    """One week as everyone sees it. `counts` and `comments` are its results (its full
    batches), `held` the responses that have not joined them; `hidden`: this week under
    `resultsAtWeekEnd`."""
    in_results = sum(counts.values())
    shown = in_results >= MIN_SHOWN and not hidden
    return {
        "week": name, "label": label(name), "current": name == this_week,
        "responses": in_results + held, "shown": shown,
        "inResults": in_results if shown else None,
        "scores": [{"score": score, "count": counts.get(score, 0)} for score in SCORES]
        if shown else None,
        "average": round(sum(score * count for score, count in counts.items()) / in_results, 1)
        if shown else None,
        "comments": list(comments) if shown else None}


def _tallies(instance: Instance) -> tuple[dict[str, dict[int, int]], dict[str, list[str]]]:
    counts: dict[str, dict[int, int]] = defaultdict(dict)
    for row in PulseTally.select().where(PulseTally.instance == instance):
        counts[row.week][row.score] = row.count
    comments = {row.week: list(row.texts)
                for row in PulseComments.select().where(PulseComments.instance == instance)}
    return counts, comments


def weeks(instance: Instance, now: dt.datetime) -> list[dict[str, Any]]:
    """This week (even when empty) and every kept week with responses, newest first."""
    this_week, oldest = week_of(now), oldest_kept(now)
    counts, comments = _tallies(instance)
    held = {row.week: row.responses for row in
            PulseHeld.select(PulseHeld.week, PulseHeld.responses)
            .where(PulseHeld.instance == instance)}
    names = sorted({this_week, *(name for name in (*counts, *held) if name >= oldest)},
                   reverse=True)
    hide_current = bool(instance.data.get("resultsAtWeekEnd"))
    return [_week(name, this_week, counts.get(name, {}), comments.get(name, []),
                  held.get(name, 0), hide_current and name == this_week) for name in names]


def public_view(instance: Instance) -> dict[str, Any]:
    """Everything anyone sees, the organiser included: there is no private view of answers."""
    data, now = instance.data, request_time()
    return {"title": instance.title, "heading": data["team"] or gettext(DEFAULT_HEADING),
            "team": data["team"], "question": _question(data), "askWords": data["askWords"],
            "resultsAtWeekEnd": bool(data.get("resultsAtWeekEnd")),
            "minimumShown": MIN_SHOWN, "batch": BATCH, "keptWeeks": KEEP_WEEKS,
            "thisWeek": week_of(now), "weeks": weeks(instance, now)}


def _question(data: dict[str, Any]) -> str:
    """The question as asked: the tool's own default in the reader's language, a question
    the organiser typed as typed."""
    question = str(data["question"])
    return gettext(question) if question == DEFAULT_QUESTION else question


def preview(instance: Instance) -> dict[str, Any]:
    return {"title": instance.data["team"] or gettext(DEFAULT_HEADING),
            "description": _question(instance.data)}


def forget_unreleased(now: dt.datetime) -> int:
    """The responses a week ended with never show: keep how many they were, not their
    scores and words. Returns the rows of words removed."""
    ended = week_of(now)
    stored_empty = pw.Value("[]", converter=False)  # an empty list, as the column holds it
    (PulseHeld.update({PulseHeld.scores: []})
     .where((PulseHeld.week < ended) & (PulseHeld.scores != stored_empty)).execute())
    return int(PulseHeldWords.delete().where(PulseHeldWords.week < ended).execute())


def prune(now: dt.datetime) -> int:
    """Drop every week older than the kept ones, whole weeks at a time, for every pulse,
    and what ended weeks held back but its number."""
    oldest = oldest_kept(now)
    removed = PulseTally.delete().where(PulseTally.week < oldest).execute()
    removed += PulseComments.delete().where(PulseComments.week < oldest).execute()
    removed += PulseHeld.delete().where(PulseHeld.week < oldest).execute()
    return int(removed) + forget_unreleased(now)


def _released(instance: Instance, week: str) -> int:
    """How many of the week's responses its results hold."""
    rows = (PulseTally.select(PulseTally.count)
            .where((PulseTally.instance == instance) & (PulseTally.week == week)))
    return sum(row.count for row in rows)


def _join_results(instance: Instance, week: str, scores: list[int], words: list[str]) -> None:
    """Held responses join the week's results together: each score's count grows, and the
    week's words are shuffled afresh, so nothing says which new words came with which new
    score, or in what order they came."""
    for score, count in Counter(scores).items():
        (PulseTally.insert(instance=instance, week=week, score=score, count=count)
         .on_conflict(conflict_target=[PulseTally.instance, PulseTally.week, PulseTally.score],
                      update={PulseTally.count: PulseTally.count + count})
         .execute())
    if words:
        row = (PulseComments.select()
               .where((PulseComments.instance == instance) & (PulseComments.week == week))
               .first())
        texts = [*(row.texts if row is not None else []), *words]
        secrets.SystemRandom().shuffle(texts)
        if row is None:
            PulseComments.create(instance=instance, week=week, texts=texts)
        else:
            row.texts = texts
            row.save()


def _record(instance: Instance, week: str, score: int, words: str) -> int:
    """Hold the response with the others since the week's last batch, its words apart from
    its score; once BATCH are held (the first batch needs MIN_SHOWN) they join the results.
    Returns the week's responses."""
    held = (PulseHeld.get_or_none((PulseHeld.instance == instance) & (PulseHeld.week == week))
            or PulseHeld(instance=instance, week=week))
    held.responses += 1
    held.scores = sorted([*held.scores, score])
    said = PulseHeldWords.get_or_none((PulseHeldWords.instance == instance)
                                      & (PulseHeldWords.week == week))
    if words:
        said = said or PulseHeldWords(instance=instance, week=week)
        texts = list(said.texts)
        # A uniformly random position: the list's order says nothing about arrival.
        texts.insert(secrets.randbelow(len(texts) + 1), words)
        said.texts = texts
    total = _released(instance, week) + held.responses
    if held.responses >= BATCH and total >= MIN_SHOWN:
        _join_results(instance, week, held.scores, said.texts if said is not None else [])
        for row in (held, said):
            if row is not None and row.id is not None:
                row.delete_instance()
    else:
        held.save()
        if said is not None and words:
            said.save()
    return total


def _schema(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


WEEK_SCHEMA = _schema({
    "week": {"type": "string", "format": "date", "description": "the week's Monday (Sydney)"},
    "label": {"type": "string"},
    "current": {"type": "boolean"},
    "responses": {"type": "integer", "description": "every response of the week, those not "
                  "in its results included"},
    "shown": {"type": "boolean",
              "description": f"false below {MIN_SHOWN} responses in the results (and, "
                             "with `resultsAtWeekEnd`, for the current week): only the count"},
    "inResults": {"type": ["integer", "null"], "description": "how many responses the "
                  f"scores and words cover: the week's full batches of {BATCH}. The rest "
                  "(`responses` minus this) wait for their batch while the week runs; "
                  "those a week ends with stay private for good"},
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
    "batch": {"type": "integer", "description": "results take in new responses this many "
              "at a time, the week's end included"},
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
                f"together. A response joins the week's results only in a batch of {BATCH}, "
                "words reshuffled each time, so comparing the results before and after one "
                "response shows nothing of it; the week's end releases nothing, and the "
                f"responses after a week's last batch (1 to {BATCH - 1}) never show. What "
                f"batching cannot stop: someone who adds {BATCH - 1} responses of their own "
                "to a batch learns the one left by subtracting theirs. Words are T(500), "
                "CRLF normalised, and dropped when the pulse does not ask for words. "
                "Numeric strings count as numbers. There is no one-per-person check: an "
                "anonymous check-in cannot tell people apart.")
def respond(call: Call) -> dict[str, Any]:
    """Check in for this week: a score from 1 to 5 and, optionally, a few words."""
    week, instance = week_of(call.now), call.instance
    words = call.data["words"] if instance.data["askWords"] else ""
    total = _record(instance, week, call.data["score"], words)
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
    instance.save()
    return {"ok": True, **settings}


EDIT = Edit(fields=("team", "question", "askWords", "resultsAtWeekEnd"),
            description="As `details`, but partial. Past responses stay as they are.")
