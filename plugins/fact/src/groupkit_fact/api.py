"""Fact Matcher: create, views, claiming a name, saving a fact, reset and reveal.

Before the reveal nothing ties a fact to a name, not even for someone comparing the board
(or the organiser's page and export) before and after each save: facts join the grid in
batches of at least BATCH new or changed facts, listed by random labels, and no view says
who has written when. The organiser's page shows who has claimed, never who has written;
the answer key exists only once revealed. An organiser's own powers that could tie a fact
(reset wipes a shown fact; showing a short batch early) are announced on the board, so
using them to peek is seen by everyone.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from groupkit import N_
from groupkit import Call
from groupkit import Credential
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import conflict
from groupkit import instance_changed
from groupkit import issue_token
from groupkit import kept_by_name
from groupkit import message
from groupkit import name_digest
from groupkit import not_found
from groupkit import retire_tokens
from groupkit import revoke_tokens
from groupkit import rotate_token
from groupkit import text_key
from groupkit import utc_iso
from groupkit import utcnow
from groupkit.entries import CLAIM_BY_LINK
from groupkit.entries import OK_REPLY
from groupkit.entries import PersonalLinks
from groupkit.entries import token_reply

from .models import Person
from .schema import DEFAULT_PROMPT
from .schema import FACT_LIMIT
from .schema import NAME_LIMIT
from .schema import NO_FACT
from .schema import NameBody
from .schema import RevealBody
from .schema import SaveBody

ops = Operations()

PERSON = "fact-name"
#: A link the organiser reset: it opens a page that says so, and nothing else.
PERSON_RESET = "fact-name-reset"
#: The heading of a game with no title (pages say it in the reader's language).
DEFAULT_HEADING = N_("Fact Matcher")
NOT_ON_LIST = N_("That name isn't on this list.")
TAKEN = N_("That name's already been taken. If it's you, ask the organiser to reset it.")
#: With `personalLinks`, each person's own link, handed out by the organiser.
LINKS = PersonalLinks(PERSON)
#: Facts join the grid this many at a time (or more), so a new batch never says whose a
#: fact is; fewer wait for more, for the organiser's "show them now", or for the reveal.
BATCH = 3


def new_fact_id() -> str:
    return secrets.token_hex(6)


def create(instance: Instance, data: dict[str, Any]) -> None:
    """Seed every name with an empty fact and its own private token."""
    instance.data = {"prompt": data["prompt"], "note": data["note"], "revealed": False,
                     "shown": {}, "notices": []}
    LINKS.keep_option(instance, data)
    for position, name in enumerate(data["names"]):
        _add(instance, position, name)


def _add(instance: Instance, position: int, name: str) -> None:
    """A name joins with an empty fact and its own private token (with personal links, one
    the organiser page lists); `name_key` is its `name_digest`, which only the unique index
    reads."""
    person = Person.create(instance=instance, position=position, name=name,
                           name_key=name_digest(name),
                           fact_id=new_fact_id())
    if LINKS.issue(instance, person.id) is None:
        issue_token(instance, PERSON, str(person.id))


def named_people(instance: Instance) -> list[tuple[int, str]]:
    """Each person's id and name, in the organiser's order: whom personal links go to."""
    return [(person.id, person.name) for person in people_of(instance)]


# --- reading ------------------------------------------------------------------------------

def people_of(instance: Instance) -> list[Person]:
    return list(Person.select().where(Person.instance == instance).order_by(Person.position))


# --- the grid: facts join it in batches ---------------------------------------------------

def shown_facts(instance: Instance, people: list[Person]) -> dict[str, dict[str, str]]:
    """person id -> the version of their fact on the grid ({id, text}). An instance made
    before batching kept no such record: every saved fact counts as shown."""
    shown = instance.data.get("shown")
    if shown is None:
        return {str(person.id): {"id": person.fact_id, "text": person.fact}
                for person in people if person.fact}
    return dict(shown)


def waiting(people: list[Person], shown: dict[str, dict[str, str]]) -> list[Person]:
    """People whose saved fact is not (or not in this version) on the grid yet."""
    return [person for person in people
            if person.fact and shown.get(str(person.id), {}).get("id") != person.fact_id]


def release(instance: Instance, people: list[Person], *, force: bool = False) -> int:
    """Put the waiting facts on the grid when there are at least BATCH of them (or when
    `force`d: the reveal, the organiser's "show them now"). Returns how many joined."""
    shown = shown_facts(instance, people)
    ready = waiting(people, shown)
    if ready and (force or len(ready) >= BATCH):
        shown.update({str(person.id): {"id": person.fact_id, "text": person.fact}
                      for person in ready})
    else:
        ready = []
    instance.data = {**instance.data, "shown": shown}
    return len(ready)


def notice(instance: Instance, what: str, when: dt.datetime, **details: Any) -> None:
    """Tell the whole group about an organiser action that could tie a fact to its author."""
    notices = [*instance.data.get("notices", []),
               {"what": what, "at": utc_iso(when), **details}]
    instance.data = {**instance.data, "notices": notices[-MAX_NOTICES:]}


MAX_NOTICES = 100


def _board(instance: Instance, people: list[Person]) -> dict[str, Any]:
    data = instance.data
    grid = sorted(shown_facts(instance, people).values(), key=lambda fact: fact["id"])
    board: dict[str, Any] = {
        "title": instance.title, "heading": instance.title or DEFAULT_HEADING,
        "prompt": data["prompt"], "note": data["note"], "revealed": data["revealed"],
        "names": [person.name for person in people],
        "taken": [person.name for person in people if person.claimed is not None],
        "facts": [{"id": fact["id"], "text": fact["text"]} for fact in grid],
        "factsIn": len(grid), "total": len(people),
        "notices": list(data.get("notices", []))}
    if LINKS.on(instance):
        board["personalLinks"] = True
    if data["revealed"]:
        board["answers"] = [{"name": person.name, "fact": person.fact or None,
                             "id": person.fact_id if person.fact else None}
                            for person in people]
    return board


def public_view(instance: Instance) -> dict[str, Any]:
    """The guessing grid; the answer key only once the organiser reveals it."""
    return _board(instance, people_of(instance))


def organiser_view(instance: Instance) -> dict[str, Any]:
    """The board plus who has claimed (to know whom to chase or reset). Before the reveal
    nothing per person changes when a fact is saved: no "has a fact", no times, and no
    count of facts waiting; once revealed, who sent one."""
    people = people_of(instance)
    revealed = instance.data["revealed"]
    view = {**_board(instance, people),
            "people": [{"name": person.name, "claimed": person.claimed is not None,
                        **({"hasFact": bool(person.fact)} if revealed else {})}
                       for person in people]}
    if LINKS.on(instance):
        view["links"] = LINKS.listed(instance, named_people(instance))
    return view


def export(instance: Instance) -> dict[str, Any]:
    """The organiser's backup: the answer key (with save times) only once revealed, since
    before that the organiser may not know who wrote which either."""
    people = people_of(instance)
    view = organiser_view(instance)
    if instance.data["revealed"]:
        view["answerKey"] = [{"name": person.name, "fact": person.fact,
                              "savedAt": utc_iso(person.saved)} for person in people]
    return view


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    person = Person.get_or_none((Person.id == int(credential.ref))
                                & (Person.instance == instance))
    if person is None:
        raise not_found()
    data = instance.data
    if credential.kind == PERSON_RESET:
        return {"title": instance.title, "heading": instance.title or DEFAULT_HEADING,
                "name": person.name, "reset": True, "personalLinks": LINKS.on(instance)}
    if LINKS.on(instance) and person.claimed is None:
        # With personal links the page's first opening is the claim: the organiser sees
        # who has their link, and the name leaves the list of names still open.
        person.claimed = utcnow()
        person.save(only=[Person.claimed])
        instance_changed(instance)
        instance.version += 1  # this page starts from the version it shows
    shown = shown_facts(instance, [person]).get(str(person.id), {})
    return {"title": instance.title, "heading": instance.title or DEFAULT_HEADING,
            "prompt": data["prompt"], "note": data["note"], "revealed": data["revealed"],
            "name": person.name, "fact": person.fact,
            "onGrid": bool(person.fact) and shown.get("id") == person.fact_id}


def _person(instance: Instance, name: str) -> Person:
    """The person called `name` as names compare (`text_key`), else 404. A list made before
    look-alike letters counted may hold two such names: the one spelled exactly as sent is
    the one meant."""
    key = text_key(name)
    found = [person for person in people_of(instance) if name and text_key(person.name) == key]
    if not found:
        raise not_found(NOT_ON_LIST)
    return min(found, key=lambda person: person.name != name)


# --- operations ---------------------------------------------------------------------------

TOKEN_REPLY = token_reply("the private link's token: `/p/{token}` is where the fact is written",
                          required=True)


@ops.public("claim", body=NameBody, returns=TOKEN_REPLY, not_found=NOT_ON_LIST, errors={
    404: f"Checked in this order: unknown public link; name blank or not on the list "
         f"(C({NAME_LIMIT}), ignoring case and look-alike letters). Both answer "
         f"`{NOT_ON_LIST}`",
    409: f"The name is already claimed: `{TAKEN}`; or the game uses personal links (any "
         f"name): `{CLAIM_BY_LINK}`"})
def claim(call: Call) -> dict[str, Any]:
    """Claim your name; returns the token of your private page.

    Claims a name and issues its private link: the name's token is rotated, so the token returned is
    the only one that works. Answers 200, as a Kris Kringle claim does (the name already exists).
    """
    LINKS.refuse_claim(call.instance)
    person = _person(call.instance, call.data["name"])
    if person.claimed is not None:
        raise conflict(TAKEN)
    person.claimed = call.now
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
    person.fact, person.fact_id, person.saved = call.data["text"], new_fact_id(), call.now
    person.save(only=[Person.fact, Person.fact_id, Person.saved])
    instance = call.instance
    release(instance, people_of(instance), force=instance.data["revealed"])
    instance.save(only=[Instance.data])
    return {"ok": True, "fact": person.fact}


@ops.organiser("reset", body=NameBody, returns=OK_REPLY, errors={
    404: f"Name blank or not on the list (C({NAME_LIMIT}), ignoring case and look-alike "
         f"letters): `{NOT_ON_LIST}`"})
def reset(call: Call) -> dict[str, Any]:
    """Reset one name.

    The name becomes unclaimed and its fact is wiped; its private link is retired, so the old link
    only says it was reset, and the person claims the name again for a fresh one. Resetting an
    unclaimed name is allowed. With personal links the person gets a fresh personal link at once,
    on the organiser page.
    """
    instance = call.instance
    person = _person(instance, call.data["name"])
    shown = shown_facts(instance, people_of(instance))
    if person.claimed is not None or person.fact:
        # Wiping a shown fact would tie it to this name: the whole group is told.
        notice(instance, "reset", call.now, name=person.name,
               factRemoved=shown.pop(str(person.id), None) is not None)
    instance.data = {**instance.data, "shown": shown}
    instance.save(only=[Instance.data])
    person.claimed, person.fact, person.saved = None, "", None
    person.fact_id = new_fact_id()
    person.save(only=[Person.claimed, Person.fact, Person.saved, Person.fact_id])
    # The old link now opens a page that says it was reset, and nothing else.
    retire_tokens(instance, PERSON, str(person.id), PERSON_RESET)
    LINKS.issue(instance, person.id)
    return {"ok": True}


@ops.organiser("reveal", body=RevealBody, returns={"type": "object", "properties": {
    "ok": {"type": "boolean"}, "revealed": {"type": "boolean"}}})
def reveal(call: Call) -> dict[str, Any]:
    """Turn the answer key on or off.

    `{"reveal": true}` shows the answer key to everyone, `{"reveal": false}` goes back to the
    guessing grid. `reveal` is read with JavaScript truthiness; an absent `reveal` (or no body)
    reveals.
    """
    revealed = bool(call.data["reveal"])
    instance = call.instance
    if instance.data["revealed"] and not revealed:
        # Revealing for a moment is the organiser's way to peek: it stays on the board.
        notice(instance, "answers hidden", call.now)
    instance.data = {**instance.data, "revealed": revealed}
    if revealed:
        release(instance, people_of(instance), force=True)
    instance.save(only=[Instance.data])
    return {"ok": True, "revealed": revealed}


@ops.organiser("show", returns={"type": "object", "properties": {
    "ok": {"type": "boolean"}, "shown": {"type": "integer"}}},
    description=f"Puts the facts still waiting (fewer than {BATCH}) on the grid now. "
                "Everyone's board says that the organiser did so and how many joined: a "
                "short batch can say whose a fact is to someone who knows who wrote last.")
def show(call: Call) -> dict[str, Any]:
    """Show the waiting facts now."""
    instance = call.instance
    joined = release(instance, people_of(instance), force=True)
    if joined:
        notice(instance, "shown early", call.now, count=joined)
    instance.save(only=[Instance.data])
    return {"ok": True, "shown": joined}


BOARD_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "title": {"type": "string"},
    "heading": {"type": "string", "description": f"title, or `{DEFAULT_HEADING}`"},
    "prompt": {"type": "string", "description": f"default `{DEFAULT_PROMPT}`"},
    "note": {"type": "string"},
    "revealed": {"type": "boolean"},
    "names": {"type": "array", "items": {"type": "string"},
              "description": "every name, in the organiser's order"},
    "taken": {"type": "array", "items": {"type": "string"}, "description": (
        "the names already claimed (with personal links: whose page has been opened), in "
        "the organiser's order; the claim form offers only the others")},
    "personalLinks": {"type": "boolean", "description": "present (true) only when the "
                      "organiser hands out personal links: names cannot be claimed"},
    "facts": {"type": "array", "description": "the facts sent so far, shuffled (by their "
              "random labels), with nothing tying them to a name",
              "items": {"type": "object", "properties": {
                  "id": {"type": "string", "description": "a random label, new each time "
                         "the fact changes"},
                  "text": {"type": "string"}}}},
    "factsIn": {"type": "integer", "description": "facts on the grid"},
    "total": {"type": "integer"},
    "notices": {"type": "array", "description": "organiser actions that could tie a fact "
                "to its author, told to everyone: a reset or a claimed name taken off the "
                "list (`name`, `factRemoved`), "
                "waiting facts shown early (`count`), or the answers hidden again after a "
                "reveal, each with its time `at`",
                "items": {"type": "object", "properties": {
                    "what": {"type": "string",
                             "enum": ["reset", "removed", "shown early", "answers hidden"]},
                    "at": {"type": "string"}, "name": {"type": "string"},
                    "factRemoved": {"type": "boolean"}, "count": {"type": "integer"}}}},
    "answers": {"type": "array", "description": "only once revealed: each name with its "
                "fact (null when none was sent), in the organiser's order",
                "items": {"type": "object", "properties": {
                    "name": {"type": "string"}, "fact": {"type": ["string", "null"]},
                    "id": {"type": ["string", "null"]}}}}}}


# --- the organiser's edit -----------------------------------------------------------------

#: The answer key is out: the names in it no longer change (until the answers are hidden).
REVEALED_NAMES = N_("The answers are out — the names can't change while they're showing.")
#: The question as documented; a page asks it in the reader's language, through its form
#: for one name or for several (the same English, word for word).
REMOVE_CLAIMED = ("{names} {have} already claimed {their} name{s}. Taking {them} off the list "
                  "wipes any fact {they} sent, takes it off everyone's guessing grid along "
                  "with the guesses about it, and {their} private link{s} stop{verb_s} "
                  "working. Go ahead?")
REMOVE_CLAIMED_ONE = N_("{names} has already claimed their name. Taking them off the list "
                        "wipes any fact they sent, takes it off everyone's guessing grid along "
                        "with the guesses about it, and their private link stops working. Go "
                        "ahead?")
REMOVE_CLAIMED_MANY = N_("{names} have already claimed their names. Taking them off the list "
                         "wipes any fact they sent, takes it off everyone's guessing grid "
                         "along with the guesses about it, and their private links stop "
                         "working. Go ahead?")


def _claimed_message(people: list[Person]) -> str:
    """The 409 for taking claimed names off the list. It says "claimed", never "wrote":
    before the reveal the organiser may not learn who has sent a fact."""
    names = [person.name for person in people]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return message(REMOVE_CLAIMED_ONE if len(names) == 1 else REMOVE_CLAIMED_MANY,
                   names=joined)


def edit_current(instance: Instance) -> dict[str, Any]:
    """The create-shaped values the "Change details" form starts from: names only (who has
    claimed is on the page already; who has written is nobody's business before the reveal)."""
    return {"title": instance.title, "prompt": instance.data["prompt"],
            "note": instance.data["note"],
            "names": [person.name for person in people_of(instance)]}


def _regroup(call: Call, names: list[str]) -> None:
    """New starters join with an empty fact and their own token; leavers go. A leaver who has
    claimed their name goes only once the organiser confirms: their fact (and the guesses
    about it) would go too. A shown fact leaving the grid ties it to its author, so the
    group is told, as with a reset. Everyone else keeps their person, token and fact; a name
    sent in a different case or spacing is the same person, written the new way."""
    instance = call.instance
    people = people_of(instance)
    kept = kept_by_name(people, names, lambda person: person.name)
    leaving = [person for person in people if person not in kept.values()]
    claimed = [person for person in leaving if person.claimed is not None or person.fact]
    if claimed and not call.confirmed:
        raise conflict(_claimed_message(claimed), "names", confirm=True)
    shown = shown_facts(instance, people)
    for person in leaving:
        if person.claimed is not None or person.fact:
            notice(instance, "removed", call.now, name=person.name,
                   factRemoved=shown.pop(str(person.id), None) is not None)
        else:
            shown.pop(str(person.id), None)
        revoke_tokens(instance, PERSON, str(person.id))
    if leaving:
        Person.delete().where(Person.id.in_([person.id for person in leaving])).execute()
    instance.data = {**instance.data, "shown": shown}
    # Two steps, so no new position collides with an old one on the unique index.
    for person in kept.values():
        Person.update(position=-1 - person.position).where(Person.id == person.id).execute()
    for position, name in enumerate(names):
        key = text_key(name)
        if key in kept:
            (Person.update(position=position, name=name)
             .where(Person.id == kept[key].id).execute())
        else:
            _add(instance, position, name)


def apply_edit(call: Call) -> dict[str, Any]:
    """The names list is reconciled with the people; title, prompt and note are stored as
    sent (the default way).

    Once the answers are out the names are the answer key everyone has seen: adding,
    taking off, respelling or reordering one would change it, so the list must come back
    exactly as it is (the form sends it whole) or is refused until the answers are hidden
    again. The title, prompt and note only frame the game and stay editable."""
    names = call.data.get("names")
    if names is not None:
        if not call.instance.data["revealed"]:
            _regroup(call, names)
        elif names != [person.name for person in people_of(call.instance)]:
            raise conflict(REVEALED_NAMES, "names")
    return {field: value for field, value in call.data.items() if field != "names"}


EDIT = Edit(fields=("title", "prompt", "note", "names"), current=edit_current,
            apply=apply_edit, errors={409: (
                "Names left out of `names` that someone has already claimed: "
                f"`{REMOVE_CLAIMED}` (formatted with the names), with `confirm: true`. Sent "
                "again with `\"confirm\": true`, they go: their facts leave the grid, their "
                "links stop working, and the board tells everyone (`notices`, `removed`). "
                f"While the answers are revealed, `names` other than the list as it is: "
                f"`{REVEALED_NAMES}` (`field` `names`, no confirming).")},
            description="`names` is the whole list: names not on it yet join (each with an "
                        "empty fact and a fresh private link to claim), names left out go "
                        "(ignoring case and look-alike letters, as a claim does). Everyone "
                        "else keeps their claim, link and fact. Once the answers are revealed "
                        "the names are the answer key: only the list exactly as it is (same "
                        "names, spelling and order) is accepted until the answers are hidden "
                        "again; title, prompt and note stay editable.")
