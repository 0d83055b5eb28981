"""Fact Matcher: create, views, claiming a name, saving a fact, reset and reveal.

Before the reveal nothing public ties a fact to a name: the grid lists facts in the order
of their random labels (a shuffle that stays put between refreshes) and says nothing about
who has claimed or written what. After the reveal the answer key is public.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from groupkit import (
    PARTICIPANT_TOKEN_LENGTH,
    Call,
    Credential,
    Instance,
    Operations,
    conflict,
    issue_token,
    not_found,
    rotate_token,
)

from .models import Person
from .schema import DEFAULT_PROMPT, FACT_LIMIT, NAME_LIMIT, NO_FACT, NameBody, RevealBody, SaveBody

ops = Operations()

PERSON = "fact-name"
DEFAULT_HEADING = "Fact Matcher"
NOT_ON_LIST = "That name isn't on this list."
TAKEN = "That name's already been taken. If it's you, ask the organiser to reset it."


def new_fact_id() -> str:
    return secrets.token_hex(6)


def create(instance: Instance, data: dict[str, Any]) -> None:
    """Seed every name with an empty fact and its own private token."""
    instance.data = {"prompt": data["prompt"], "note": data["note"], "revealed": False}
    for position, name in enumerate(data["names"]):
        person = Person.create(instance=instance, position=position, name=name,
                               name_key=name.casefold(), fact_id=new_fact_id())
        issue_token(instance, PERSON, str(person.id))


# --- reading ------------------------------------------------------------------------------

def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.replace(tzinfo=dt.UTC).isoformat()


def _naive(moment: dt.datetime) -> dt.datetime:
    return moment.astimezone(dt.UTC).replace(tzinfo=None) if moment.tzinfo else moment


def people_of(instance: Instance) -> list[Person]:
    return list(Person.select().where(Person.instance == instance).order_by(Person.position))


def _board(instance: Instance, people: list[Person]) -> dict[str, Any]:
    data = instance.data
    written = sorted((person for person in people if person.fact),
                     key=lambda person: person.fact_id)
    board: dict[str, Any] = {
        "title": instance.title, "heading": instance.title or DEFAULT_HEADING,
        "prompt": data["prompt"], "note": data["note"], "revealed": data["revealed"],
        "names": [person.name for person in people],
        "facts": [{"id": person.fact_id, "text": person.fact} for person in written],
        "factsIn": len(written), "total": len(people)}
    if data["revealed"]:
        board["answers"] = [{"name": person.name, "fact": person.fact or None,
                             "id": person.fact_id if person.fact else None}
                            for person in people]
    return board


def public_view(instance: Instance) -> dict[str, Any]:
    """The guessing grid; the answer key only once the organiser reveals it."""
    return _board(instance, people_of(instance))


def organiser_view(instance: Instance) -> dict[str, Any]:
    """The board plus who has claimed and who has sent a fact, never which fact (an
    organiser who plays can't see the answers by accident)."""
    people = people_of(instance)
    return {**_board(instance, people),
            "people": [{"name": person.name, "claimed": person.claimed is not None,
                        "claimedAt": _iso(person.claimed), "hasFact": bool(person.fact)}
                       for person in people]}


def export(instance: Instance) -> dict[str, Any]:
    """The organiser's full backup: the answer key included, revealed or not."""
    people = people_of(instance)
    view = organiser_view(instance)
    view["answerKey"] = [{"name": person.name, "fact": person.fact,
                          "savedAt": _iso(person.saved)} for person in people]
    return view


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    person = Person.get_or_none((Person.id == int(credential.ref))
                                & (Person.instance == instance))
    if person is None:
        raise not_found()
    data = instance.data
    return {"title": instance.title, "heading": instance.title or DEFAULT_HEADING,
            "prompt": data["prompt"], "note": data["note"], "revealed": data["revealed"],
            "name": person.name, "fact": person.fact}


def _person(instance: Instance, name: str) -> Person:
    person = Person.get_or_none((Person.instance == instance)
                                & (Person.name_key == name.casefold())) if name else None
    if person is None:
        raise not_found(NOT_ON_LIST)
    return person


# --- operations ---------------------------------------------------------------------------

TOKEN_REPLY = {"type": "object", "required": ["token"], "properties": {"token": {
    "type": "string", "minLength": PARTICIPANT_TOKEN_LENGTH,
    "maxLength": PARTICIPANT_TOKEN_LENGTH,
    "description": "the private link's token: `/p/{token}` is where the fact is written"}}}
OK_REPLY = {"type": "object", "properties": {"ok": {"type": "boolean"}}}


@ops.public("claim", body=NameBody, returns=TOKEN_REPLY, not_found=NOT_ON_LIST, errors={
    404: f"Checked in this order: unknown public link; name blank or not on the list "
         f"(C({NAME_LIMIT}), ignoring case). Both answer `{NOT_ON_LIST}`",
    409: f"The name is already claimed: `{TAKEN}`"},
    description="Claims a name and issues its private link: the name's token is rotated, "
                "so the token returned is the only one that works. Answers 200, as a "
                "Kris Kringle claim does (the name already exists).")
def claim(call: Call) -> dict[str, Any]:
    """Claim your name; returns the token of your private page."""
    person = _person(call.instance, call.data["name"])
    if person.claimed is not None:
        raise conflict(TAKEN)
    person.claimed = _naive(call.now)
    person.save(only=[Person.claimed])
    return {"token": rotate_token(call.instance, PERSON, str(person.id))}


@ops.participant("p/{token}/save", token_kinds=[PERSON], body=SaveBody,
                 returns={"type": "object", "properties": {
                     "ok": {"type": "boolean"}, "fact": {"type": "string"}}},
                 errors={400: f"Nothing left after trimming: `{NO_FACT}`"},
                 description=f"Saves (or replaces) your fact: CRLF becomes LF, then trimmed "
                             f"and cut to {FACT_LIMIT} characters. Allowed any number of "
                             "times, before or after the reveal.")
def save(call: Call) -> dict[str, Any]:
    """Save your fact."""
    assert call.credential is not None
    person = Person.get_by_id(int(call.credential.ref))
    person.fact, person.fact_id, person.saved = (call.data["text"], new_fact_id(),
                                                 _naive(call.now))
    person.save(only=[Person.fact, Person.fact_id, Person.saved])
    return {"ok": True, "fact": person.fact}


@ops.organiser("reset", body=NameBody, returns=OK_REPLY, errors={
    404: f"Name blank or not on the list (C({NAME_LIMIT}), ignoring case): `{NOT_ON_LIST}`"},
    description="The name becomes unclaimed and its fact is wiped; its private link is "
                "replaced, so the old link stops working, and the person claims the name "
                "again for a fresh one. Resetting an unclaimed name is allowed.")
def reset(call: Call) -> dict[str, Any]:
    """Reset one name."""
    person = _person(call.instance, call.data["name"])
    person.claimed, person.fact, person.saved = None, "", None
    person.fact_id = new_fact_id()
    person.save(only=[Person.claimed, Person.fact, Person.saved, Person.fact_id])
    rotate_token(call.instance, PERSON, str(person.id))
    return {"ok": True}


@ops.organiser("reveal", body=RevealBody, returns={"type": "object", "properties": {
    "ok": {"type": "boolean"}, "revealed": {"type": "boolean"}}},
    description="`{\"reveal\": true}` shows the answer key to everyone, `{\"reveal\": false}` "
                "goes back to the guessing grid. `reveal` is read with JavaScript "
                "truthiness; an absent `reveal` (or no body) reveals.")
def reveal(call: Call) -> dict[str, Any]:
    """Turn the answer key on or off."""
    revealed = bool(call.data["reveal"])
    call.instance.data = {**call.instance.data, "revealed": revealed}
    call.instance.save(only=[Instance.data])
    return {"ok": True, "revealed": revealed}


BOARD_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "title": {"type": "string"},
    "heading": {"type": "string", "description": f"title, or `{DEFAULT_HEADING}`"},
    "prompt": {"type": "string", "description": f"default `{DEFAULT_PROMPT}`"},
    "note": {"type": "string"},
    "revealed": {"type": "boolean"},
    "names": {"type": "array", "items": {"type": "string"},
              "description": "every name, in the organiser's order"},
    "facts": {"type": "array", "description": "the facts sent so far, shuffled (by their "
              "random labels), with nothing tying them to a name",
              "items": {"type": "object", "properties": {
                  "id": {"type": "string", "description": "a random label, new each time "
                         "the fact changes"},
                  "text": {"type": "string"}}}},
    "factsIn": {"type": "integer"}, "total": {"type": "integer"},
    "answers": {"type": "array", "description": "only once revealed: each name with its "
                "fact (null when none was sent), in the organiser's order",
                "items": {"type": "object", "properties": {
                    "name": {"type": "string"}, "fact": {"type": ["string", "null"]},
                    "id": {"type": ["string", "null"]}}}}}}
