"""Question of the Day: create, the views, answering, changing an answer, and the
organiser's skip, add and remove."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from groupkit import N_
from groupkit import Call
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import bad_request
from groupkit import checked_in_order
from groupkit import conflict
from groupkit import format_date
from groupkit import gettext
from groupkit import issue_token
from groupkit import request_time
from groupkit import utc_iso
from groupkit.entries import token_schema

from . import rotation
from .models import QotdVote
from .schema import BAD_CHOICE
from .schema import BAD_QI
from .schema import NO_ANSWERS
from .schema import NO_NAME
from .schema import NO_QUESTION_NAMED
from .schema import NO_TEXT
from .schema import AddBody
from .schema import ChangeBody
from .schema import RemoveBody
from .schema import VoteBody

ops = Operations()

VOTE = "vote"
GENERIC_TITLE = N_("Question of the day")
TEAM_TITLE = N_("{team}: question of the day")
MAX_ANSWERS_PER_DAY = 1000
MAX_CUSTOM = 200
UPCOMING_DAYS = 7
HISTORY_DAYS = 7

STALE = N_("That's not today's question any more — refresh to see the current one.")
OLD_ANSWER = N_("That answer was for an earlier question — answer today's one instead.")
DAY_FULL = N_("That's 1000 answers to today's question — the limit for one day.")
SAME_ANSWERS = N_("The two answers need to be different.")
ALREADY_ASKED = N_("That question's already in the rotation.")
CUSTOM_FULL = N_("That's 200 questions of your own — remove one before adding another.")
LAST_QUESTION = N_("Keep at least one question in the rotation.")


def title_of(data: dict[str, Any]) -> str:
    team = data.get("teamName", "")
    return TEAM_TITLE.format(team=team) if team else GENERIC_TITLE


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"teamName": data.get("teamName", ""), **rotation.new_state()}


def day_label(day: dt.date) -> str:
    """`Saturday 28 November`, in the language being spoken (the API's is English); the
    pattern is a translator's, as each language writes dates its own way."""
    return format_date(day, gettext("EEEE d MMMM"))


def _asked(state: dict[str, Any], day: dt.date, qi: int) -> dict[str, Any]:
    return {"day": day.isoformat(), "dayLabel": day_label(day),
            **rotation.question(state, qi).public()}


def today_of(instance: Instance, now: dt.datetime) -> dict[str, Any]:
    """Today's question in Sydney, and when it changes."""
    day = rotation.sydney_day(now)
    state = instance.data
    return {**_asked(state, day, rotation.qi_on(state, day)),
            "changesAt": rotation.midnight_after(day).isoformat()}


def split(votes: Iterable[QotdVote]) -> tuple[dict[str, int], dict[str, list[str]]]:
    counts = {"a": 0, "b": 0}
    names: dict[str, list[str]] = {"a": [], "b": []}
    for vote in votes:
        counts[vote.choice] += 1
        names[vote.choice].append(vote.voter_name)
    return {**counts, "total": counts["a"] + counts["b"]}, names


def _votes(instance: Instance, day: str, qi: int) -> list[QotdVote]:
    return list(QotdVote.select().where((QotdVote.instance == instance) & (QotdVote.day == day)
                                        & (QotdVote.qi == qi)).order_by(QotdVote.id))


def _heading(instance: Instance) -> dict[str, Any]:
    """The heading is the tool's own words around the team's name, so a page says them in its
    reader's language; a title that is not those words stays as it is."""
    team, heading = instance.data["teamName"], instance.title or GENERIC_TITLE
    if heading == title_of(instance.data):
        heading = gettext(TEAM_TITLE).format(team=team) if team else gettext(GENERIC_TITLE)
    return {"teamName": team, "heading": heading}


def public_view(instance: Instance) -> dict[str, Any]:
    """Today's question without its split: pages load with empty bars and fill them from
    the tally."""
    return {**_heading(instance), "today": today_of(instance, request_time())}


def organiser_view(instance: Instance) -> dict[str, Any]:
    """Today's question, the days ahead, the questions added here and recent answers."""
    state, now = instance.data, request_time()
    today = rotation.sydney_day(now)
    upcoming = [_asked(state, day, qi) for day, qi in rotation.upcoming(state, today,
                                                                        UPCOMING_DAYS)]
    ring = set(state["ring"])
    custom = [{**rotation.question(state, int(qi)).public(), "inRotation": int(qi) in ring}
              for qi in state["custom"]]
    since = (today - dt.timedelta(days=HISTORY_DAYS)).isoformat()
    rows = (QotdVote.select().where((QotdVote.instance == instance) & (QotdVote.day >= since)
                                    & (QotdVote.day < today.isoformat()))
            .order_by(QotdVote.day.desc(), QotdVote.qi, QotdVote.id))
    grouped: dict[tuple[str, int], list[QotdVote]] = {}
    for row in rows:
        grouped.setdefault((row.day, row.qi), []).append(row)
    history = []
    for (day, qi), votes in grouped.items():
        tally, names = split(votes)
        history.append({**_asked(state, dt.date.fromisoformat(day), qi), "tally": tally,
                        "names": names})
    return {**_heading(instance), "today": today_of(instance, now), "upcoming": upcoming,
            "custom": custom, "rotationSize": len(state["ring"]), "history": history}


def export(instance: Instance) -> dict[str, Any]:
    """The organiser view plus every stored answer and the whole rotation order."""
    state = instance.data
    view = organiser_view(instance)
    view["rotation"] = list(state["ring"])
    view["answers"] = [
        {"day": vote.day, "qi": vote.qi, "choice": vote.choice, "voterName": vote.voter_name,
         "created": utc_iso(vote.created)}
        for vote in QotdVote.select().where(QotdVote.instance == instance)
        .order_by(QotdVote.id)]
    return view


def preview(instance: Instance) -> dict[str, Any]:
    return {"title": _heading(instance)["heading"],
            "description": gettext("A fresh either-or question for the team every day.")}


# --- documentation ------------------------------------------------------------------------

QUESTION_SCHEMA: dict[str, Any] = {
    "day": {"type": "string", "format": "date", "description": "the date in Sydney"},
    "dayLabel": {"type": "string"},
    "qi": {"type": "integer", "description": "the question's number: bank questions from 0, "
                                             "questions the organiser added from 10000"},
    "question": {"type": "string"},
    "options": {"type": "object", "properties": {"a": {"type": "string"},
                                                 "b": {"type": "string"}}}}
SPLIT_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "a": {"type": "integer"}, "b": {"type": "integer"}, "total": {"type": "integer"}}}
TODAY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    **QUESTION_SCHEMA,
    "changesAt": {"type": "string", "format": "date-time",
                  "description": "the next midnight in Sydney (UTC), when the question changes"}}}
PUBLIC_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "teamName": {"type": "string"}, "heading": {"type": "string"}, "today": TODAY_SCHEMA}}
TALLY_REPLY: dict[str, Any] = {"type": "object", "properties": {
    **TODAY_SCHEMA["properties"], "tally": SPLIT_SCHEMA,
    "names": {"type": "object", "description": "who picked each answer, in answer order",
              "properties": {"a": {"type": "array", "items": {"type": "string"}},
                             "b": {"type": "array", "items": {"type": "string"}}}}}}
VOTE_REPLY: dict[str, Any] = {"type": "object", "properties": {
    "token": token_schema("changes this answer at /api/qotd/v/{token} while it is today's"),
    "day": QUESTION_SCHEMA["day"], "qi": QUESTION_SCHEMA["qi"],
    "choice": {"type": "string", "enum": ["a", "b"]}, "tally": SPLIT_SCHEMA}}

ROTATION_NOTE = (
    "Rotation: each board's questions come from a bank of over 400 two-option questions in an "
    "order shuffled when the board is made; the question changes at midnight in "
    "Australia/Sydney (daylight saving included), computed from the calendar, so nothing "
    "runs at midnight and the share link never changes.")


# --- answering ----------------------------------------------------------------------------

def _current(call: Call) -> tuple[str, int]:
    today = rotation.sydney_day(call.now)
    return today.isoformat(), rotation.qi_on(call.instance.data, today)


def _tally(instance: Instance, day: str, qi: int) -> dict[str, Any]:
    return split(_votes(instance, day, qi))[0]


@ops.public(VOTE, body=VoteBody, status=201, returns=VOTE_REPLY, errors={
    400: checked_in_order(("choice not `a` or `b`", BAD_CHOICE),
                          ("day or qi missing or not a date string / whole number",
                           NO_QUESTION_NAMED), ("voterName empty after C(40)", NO_NAME)),
    409: f"Then: day and qi are not today's current question (the day has turned, or the "
         f"organiser skipped or removed it): `{STALE}`; 1000 answers to today's question: "
         f"`{DAY_FULL}`"})
def vote(call: Call) -> dict[str, Any]:
    """Answer today's question: `a` or `b`.

    Answer today's question. The slug is the only credential; the same person answering twice from
    two browsers is not prevented.
    """
    day, qi = _current(call)
    if (call.data["day"], call.data["qi"]) != (day, qi):
        raise conflict(STALE)
    answered = QotdVote.select().where((QotdVote.instance == call.instance)
                                       & (QotdVote.day == day) & (QotdVote.qi == qi)).count()
    if answered >= MAX_ANSWERS_PER_DAY:
        raise conflict(DAY_FULL)
    row = QotdVote.create(instance=call.instance, day=day, qi=qi, choice=call.data["choice"],
                          voter_name=call.data["voterName"], created=call.now)
    token = issue_token(call.instance, VOTE, str(row.id))
    return {"token": token, "day": day, "qi": qi, "choice": row.choice,
            "tally": _tally(call.instance, day, qi)}


@ops.participant("v/{token}", token_kinds=[VOTE], body=ChangeBody, returns=VOTE_REPLY, errors={
    400: f"As for a vote: `{BAD_CHOICE}`, then `{NO_QUESTION_NAMED}`",
    409: f"day and qi are not today's current question: `{STALE}`; the answer is for an "
         f"earlier question (a day ago, or one skipped or removed since): `{OLD_ANSWER}`"})
def change(call: Call) -> dict[str, Any]:
    """Change your answer to today's question.

    Change an answer while its question is still today's; the reply is the vote reply with the same
    token.
    """
    assert call.credential is not None and call.token is not None
    day, qi = _current(call)
    if (call.data["day"], call.data["qi"]) != (day, qi):
        raise conflict(STALE)
    row = QotdVote.get(QotdVote.id == int(call.credential.ref))
    if (row.day, row.qi) != (day, qi):
        raise conflict(OLD_ANSWER)
    row.choice, row.changed = call.data["choice"], call.now
    row.save(only=[QotdVote.choice, QotdVote.changed])
    return {"token": call.token, "day": day, "qi": qi, "choice": row.choice,
            "tally": _tally(call.instance, day, qi)}


@ops.read("tally", returns=TALLY_REPLY)
def tally(call: Call) -> dict[str, Any]:
    """Today's question and its split.

    What a client needs to answer: today's day, qi, the question and its two answers, the split so
    far and who picked what. Pages load with empty bars on purpose and fill them from here (and
    again whenever the live stream reports a change).
    """
    today = today_of(call.instance, call.now)
    counts, names = split(_votes(call.instance, today["day"], today["qi"]))
    return {**today, "tally": counts, "names": names}


# --- organiser ----------------------------------------------------------------------------

def _save(call: Call, state: dict[str, Any]) -> dict[str, Any]:
    call.instance.data = state
    call.instance.save(only=[Instance.data])
    return {"ok": True, "today": today_of(call.instance, call.now)}


ORGANISER_REPLY: dict[str, Any] = {"type": "object", "properties": {
    "ok": {"type": "boolean"}, "today": TODAY_SCHEMA}}


@ops.organiser("skip", returns=ORGANISER_REPLY)
def skip(call: Call) -> dict[str, Any]:
    """Skip today's question.

    Today's question is replaced at once by the next one in the rotation, and every later day
    follows on from it (nothing is lost: the skipped question comes round again after a full cycle).
    Answers already given to the skipped question stay stored and show in the organiser's history;
    its tally stops being today's, so answering it (or changing such an answer) is refused with 409.
    """
    state = dict(call.instance.data)
    rotation.skip(state, rotation.sydney_day(call.now))
    return _save(call, state)


ADD_REPLY: dict[str, Any] = {"type": "object", "properties": {
    **ORGANISER_REPLY["properties"],
    "added": {"type": "object", "properties": {**QUESTION_SCHEMA}}}}


@ops.organiser("add", body=AddBody, returns=ADD_REPLY, errors={
    400: checked_in_order(("question empty after C(140)", NO_TEXT),
                          ("a or b empty after C(40)", NO_ANSWERS),
                          ("a equals b ignoring case", SAME_ANSWERS),
                          ("the question is already in the rotation (ignoring case)",
                           ALREADY_ASKED)),
    409: f"200 questions added already: `{CUSTOM_FULL}`"})
def add(call: Call) -> dict[str, Any]:
    """Add your own question to the rotation.

    Body `{question, a, b}`. Today's question is unchanged; the new question is queued to be asked
    from the next midnight in Sydney, after any added questions still waiting (skip today's to ask
    it now). Added questions are numbered from 10000.
    """
    data, state = call.data, dict(call.instance.data)
    if data["a"].casefold() == data["b"].casefold():
        raise bad_request(SAME_ANSWERS)
    wanted = data["question"].casefold()
    if any(rotation.question(state, qi).question.casefold() == wanted for qi in state["ring"]):
        raise bad_request(ALREADY_ASKED)
    if len(state["custom"]) >= MAX_CUSTOM:
        raise conflict(CUSTOM_FULL)
    today = rotation.sydney_day(call.now)
    qi = rotation.add(state, today, data["question"], data["a"], data["b"])
    reply = _save(call, state)
    reply["added"] = _asked(state, today + dt.timedelta(days=_wait(state, today, qi)), qi)
    return reply


def _wait(state: dict[str, Any], today: dt.date, qi: int) -> int:
    """Days until `qi` is asked."""
    ring = state["ring"]
    return (ring.index(qi) - rotation.index_on(state, today)) % len(ring)


@ops.organiser("remove", body=RemoveBody, returns=ORGANISER_REPLY, errors={
    400: f"qi not a whole number, or not in this board's rotation: `{BAD_QI}`",
    409: f"It is the last question left: `{LAST_QUESTION}`"})
def remove(call: Call) -> dict[str, Any]:
    """Take a question out of the rotation.

    Body `{qi}`: works for bank questions and added ones. Removing any question but today's leaves
    today's as it is and closes the gap in the days ahead. Removing today's question moves today on
    to the next one at once, as a skip does: its answers stay stored, and answering it is refused
    with 409.
    """
    state = dict(call.instance.data)
    qi = call.data["qi"]
    if qi not in state["ring"]:
        raise bad_request(BAD_QI)
    if len(state["ring"]) == 1:
        raise conflict(LAST_QUESTION)
    rotation.remove(state, rotation.sydney_day(call.now), qi)
    return _save(call, state)


EDIT = Edit(fields=("teamName",),
            description="Today's question, the rotation and every answer stay as they are.")
