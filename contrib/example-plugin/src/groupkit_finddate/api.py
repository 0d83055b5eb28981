"""Find a Date: views, answering, choosing the date and the calendar entry."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

from groupkit import N_
from groupkit import ApiError
from groupkit import Call
from groupkit import Credential
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import bad_request
from groupkit import conflict
from groupkit import format_date
from groupkit import gettext
from groupkit import issue_token
from groupkit import message
from groupkit import not_found
from groupkit.integrations import CalendarEvent
from groupkit.integrations import ask_for_news
from groupkit.integrations import calendar_reply
from groupkit.integrations import forget_news
from groupkit.integrations import send_news

from .models import Response
from .schema import ANSWERED_BY_MANY
from .schema import ANSWERED_BY_ONE
from .schema import ANSWERED_OPTION
from .schema import CHOSEN_OPTION
from .schema import NO_SLOT
from .schema import ChangeBody
from .schema import ChooseBody
from .schema import RemoveBody
from .schema import RespondBody

MAX_RESPONSES = 200
FULL = N_("Two hundred people have answered — that's the most this poll takes.")
NOT_CHOSEN = N_("No date has been chosen yet — the organiser picks one when the "
                "answers are in.")
#: How an option's day is written (a Babel date pattern): "Fri 4 Dec 2026" in English,
#: each language's catalog giving its own order and punctuation.
DAY_PATTERN = N_("EEE d MMM y")
TOKEN_KIND = "finddate-response"
#: The news emailed to those who asked for it, in the group's language.
DATE_CHOSEN = N_("The date for {title} is chosen: {when}.")

ops = Operations()


def _in_order(slots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(slots, key=lambda s: (s["date"], s["start"] or "", s["end"] or ""))


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"note": data["note"], "timezone": data["timezone"], "chosen": None,
                     "slots": [{"id": f"d{i + 1}", **slot}
                               for i, slot in enumerate(_in_order(data["slots"]))]}


def current(instance: Instance) -> dict[str, Any]:
    """What the organiser may change, as the create form takes it."""
    data = instance.data
    return {"title": instance.title, "note": data["note"], "timezone": data["timezone"],
            "slots": [{key: slot[key] for key in ("date", "start", "end")}
                      for slot in data["slots"]]}


def _key(slot: dict[str, Any]) -> tuple[str, str, str]:
    return slot["date"], slot["start"], slot["end"]


def apply_edit(call: Call) -> dict[str, Any]:
    """Options are the same option when their date and times are: they keep their id and
    every answer. A new one is added (everyone who answered reads as no until they change
    it); one left out goes, but never the chosen date, and answers only when confirmed."""
    changes = dict(call.data)
    if "slots" not in changes:
        return changes
    old = call.instance.data["slots"]
    kept = {_key(slot): slot["id"] for slot in old}
    wanted = {_key(slot) for slot in changes["slots"]}
    responses = _responses(call.instance)
    for slot in old:
        if _key(slot) in wanted:
            continue
        if slot["id"] == call.instance.data["chosen"]:
            raise conflict(message(CHOSEN_OPTION, label=_label(slot)), "slots")
        answered = sum(1 for response in responses if slot["id"] in response.answers)
        if answered and not call.confirmed:
            said = message(ANSWERED_BY_ONE, label=_label(slot)) if answered == 1 else \
                message(ANSWERED_BY_MANY, n=answered, label=_label(slot))
            raise conflict(said, "slots", confirm=True)
    next_id = max((int(slot["id"][1:]) for slot in old), default=0)
    slots = []
    for slot in _in_order(changes["slots"]):
        if _key(slot) not in kept:
            next_id += 1
        slots.append({"id": kept.get(_key(slot), f"d{next_id}"), **slot})
    gone = {slot["id"] for slot in old} - {slot["id"] for slot in slots}
    for response in responses:
        if gone & set(response.answers):
            response.answers = {k: v for k, v in response.answers.items() if k not in gone}
            response.save()
    changes["slots"] = slots
    return changes


def _label(slot: dict[str, Any]) -> str:
    """An option as people read it, in the language being spoken (the API's is English)."""
    day = format_date(dt.date.fromisoformat(slot["date"]), gettext(DAY_PATTERN))
    if not slot["start"]:
        return day
    return f"{day}, {slot['start']}" + (f"–{slot['end']}" if slot["end"] else "")


def _moments(slot: dict[str, Any], zone: str) -> dict[str, str | None]:
    """A timed option's start and end as UTC moments, so a page can say them in the
    viewer's own zone; None for an all-day option (a date is the same date everywhere)."""
    def moment(clock: str) -> str | None:
        if not clock:
            return None
        local = dt.datetime.combine(dt.date.fromisoformat(slot["date"]),
                                    dt.time.fromisoformat(clock), zoneinfo.ZoneInfo(zone))
        return local.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {"startsAt": moment(slot["start"]), "endsAt": moment(slot["end"])}


def _responses(instance: Instance) -> list[Response]:
    return list(Response.select().where(Response.instance == instance).order_by(Response.id))


def _board(instance: Instance, with_ids: bool) -> dict[str, Any]:
    """The grid everyone sees. Best: most yes, then most yes + if-need-be, then earliest."""
    data = instance.data
    responses = _responses(instance)
    slots = []
    for slot in data["slots"]:
        answers = [r.answers.get(slot["id"], "no") for r in responses]
        slots.append({**slot, "label": _label(slot), **_moments(slot, data["timezone"]),
                      "yes": answers.count("yes"),
                      "maybe": answers.count("maybe"), "no": answers.count("no")})
    ranked = sorted(range(len(slots)), key=lambda i: (-slots[i]["yes"],
                                                      -slots[i]["yes"] - slots[i]["maybe"], i))
    best = slots[ranked[0]]["id"] if responses and slots[ranked[0]]["yes"] else None
    people = [{"name": r.name, "answers": {s["id"]: r.answers.get(s["id"], "no")
                                           for s in data["slots"]},
               **({"id": str(r.id)} if with_ids else {})} for r in responses]
    return {"title": instance.title, "note": data["note"], "timezone": data["timezone"],
            "slots": slots, "best": best, "chosen": data["chosen"], "responses": people}


def public_view(instance: Instance) -> dict[str, Any]:
    return _board(instance, with_ids=False)


def organiser_view(instance: Instance) -> dict[str, Any]:
    return _board(instance, with_ids=True)


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """One person's own answers, to change them."""
    response = Response.get_or_none((Response.instance == instance)
                                    & (Response.id == int(credential.ref)))
    if response is None:
        raise not_found()
    return {**_board(instance, with_ids=False), "me": {"name": response.name,
                                                       "answers": response.answers}}


def _answers(instance: Instance, answers: list[dict[str, str]]) -> dict[str, str]:
    known = {slot["id"] for slot in instance.data["slots"]}
    for answer in answers:
        if answer["slotId"] not in known:
            raise bad_request(NO_SLOT)
    return {answer["slotId"]: answer["answer"] for answer in answers}


ANSWERED = {"type": "object", "properties": {"token": {"type": "string"},
                                             "id": {"type": "string"}}}


@ops.public("respond", body=RespondBody, status=201, returns=ANSWERED,
            errors={409: FULL})
def respond(call: Call) -> dict[str, Any]:
    """Answer every proposed slot: yes, maybe (if need be) or no.

    Slots left out of `answers` count as no. The token opens `/p/{token}`, where the same person
    changes their answers.
    """
    answers = _answers(call.instance, call.data["answers"])
    if Response.select().where(Response.instance == call.instance).count() >= MAX_RESPONSES:
        raise conflict(FULL)
    response = Response.create(instance=call.instance, name=call.data["name"], answers=answers,
                               created=call.now)
    if call.data.get("email") not in (None, ""):
        ask_for_news(call, str(response.id), call.data["email"])
    return {"token": issue_token(call.instance, TOKEN_KIND, str(response.id)),
            "id": str(response.id)}


@ops.participant("r/{token}", token_kinds=[TOKEN_KIND], body=ChangeBody)
def change(call: Call) -> dict[str, Any]:
    """Change your answers (slots left out keep their answer)."""
    assert call.credential is not None
    response = Response.get_or_none((Response.instance == call.instance)
                                    & (Response.id == int(call.credential.ref)))
    if response is None:
        raise not_found()
    response.answers = {**response.answers, **_answers(call.instance, call.data["answers"])}
    response.save()
    return {"ok": True, "answers": response.answers}


@ops.organiser("choose", body=ChooseBody)
def choose(call: Call) -> dict[str, Any]:
    """Choose the date (or clear the choice).

    `{slotId}` fixes the date everyone sees and adds to their calendar; `{slotId: null}` un-chooses
    it.
    """
    slot_id = call.data.get("slotId")
    known = {s["id"] for s in call.instance.data["slots"]}
    if slot_id is not None and (not isinstance(slot_id, str) or slot_id not in known):
        raise bad_request(NO_SLOT)
    was = call.instance.data.get("chosen")
    call.instance.data = {**call.instance.data, "chosen": slot_id}
    call.instance.save()
    slot = next((s for s in call.instance.data["slots"] if s["id"] == slot_id), None)
    if slot is not None and slot_id != was:
        title = call.instance.title
        send_news(call, lambda: gettext(DATE_CHOSEN).format(title=title, when=_label(slot)))
    return {"ok": True, "chosen": slot_id}


@ops.organiser("remove", body=RemoveBody)
def remove(call: Call) -> dict[str, Any]:
    """Remove one person's answers; their private link stops working."""
    if call.data["id"] is None:
        raise not_found()
    removed = Response.delete().where((Response.instance == call.instance)
                                      & (Response.id == call.data["id"])).execute()
    if not removed:
        raise not_found()
    forget_news(call.instance, str(call.data["id"]))
    return {"ok": True}


def chosen_event(instance: Instance, base_url: str) -> CalendarEvent | None:
    """The chosen slot as a calendar event (all-day when it has no time); None until one is
    chosen."""
    data = instance.data
    slot = next((s for s in data["slots"] if s["id"] == data["chosen"]), None)
    if slot is None:
        return None
    day = dt.date.fromisoformat(slot["date"])
    start: dt.date | dt.datetime = day
    end: dt.date | dt.datetime | None = None
    if slot["start"]:
        zone = zoneinfo.ZoneInfo(data["timezone"])
        start = dt.datetime.combine(day, dt.time.fromisoformat(slot["start"]), zone)
        if slot["end"]:
            end = dt.datetime.combine(day, dt.time.fromisoformat(slot["end"]), zone)
    return CalendarEvent(uid=f"{instance.slug}-{slot['id']}@groupkit", summary=instance.title,
                         start=start, end=end, description=data["note"],
                         url=f"{base_url}/s/{instance.slug}" if base_url else "")


@ops.read("ics", content_type="text/calendar", errors={409: NOT_CHOSEN})
def calendar(call: Call) -> Any:
    """The chosen slot as an iCalendar event (all-day when it has no time)."""
    event = chosen_event(call.instance, call.base_url)
    if event is None:
        raise ApiError(409, NOT_CHOSEN)
    return calendar_reply([event], f"{call.instance.title or 'event'}.ics", call.now)


def response_events(instance: Instance, credential: Credential,
                    base_url: str) -> list[CalendarEvent]:
    """A person's subscription: the chosen date, once there is one, while their answers
    stand (removing them empties it)."""
    if not Response.select().where((Response.instance == instance)
                                   & (Response.id == int(credential.ref))).exists():
        return []
    event = chosen_event(instance, base_url)
    return [event] if event is not None else []


EDIT = Edit(fields=("title", "note", "timezone", "slots"), current=current, apply=apply_edit,
            errors={409: f"An option left out is the chosen date (`{CHOSEN_OPTION}`), or "
                         f"people answered it (`{ANSWERED_OPTION}`, with `confirm: true`: "
                         "send again with `\"confirm\": true` to remove it and those "
                         "answers); `field` is `slots`."},
            description="Options match by date and times: a kept option keeps its id and "
                        "answers; a new one gets the next id.")
