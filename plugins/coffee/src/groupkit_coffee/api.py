"""Coffee Roulette: create, views, claiming a name, drawing rounds and resetting a person.

Who is with whom lives only in `CoffeeRound.groups`, and only `private_view` reads it: the
public and organiser views are built from names, claims and round numbers, so nothing they
return can depend on the groups.
"""

from __future__ import annotations

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
from groupkit import not_found
from groupkit import retire_tokens
from groupkit import revoke_tokens
from groupkit import text_key
from groupkit import utc_iso
from groupkit import utcnow
from groupkit.entries import CLAIM_BY_LINK
from groupkit.entries import Entries
from groupkit.entries import PersonalLinks
from groupkit.entries import claim_once
from groupkit.entries import ok_reply
from groupkit.entries import token_reply

from .models import CoffeePerson
from .models import CoffeeRound
from .pairing import RECENT_ROUNDS
from .pairing import draw_round
from .rituals import announce_round
from .schema import DEFAULT_TITLE
from .schema import NAME_LIMIT
from .schema import NameBody

ops = Operations()

#: The credential kind of a person's private link (`ref` is their `CoffeePerson.id`).
TOKEN_KIND = "member"
#: A link the organiser reset: it opens a page that says so, and nothing else.
RESET_KIND = "member-reset"
#: Team members, each found from their private link's token.
MEMBERS = Entries(CoffeePerson, TOKEN_KIND, code="id")
#: With `personalLinks`, each member's own link, handed out by the organiser.
LINKS = PersonalLinks(TOKEN_KIND)

NOT_ON_LIST = N_("That name isn't on this team's list.")
ALREADY_CLAIMED = N_("That name's already been claimed. If it's yours, ask the organiser to "
                     "reset you.")


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"cadence": data["cadence"], "note": data["note"], "round": 0,
                     "drawnAt": None}
    CoffeePerson.insert_many([{"instance": instance, "position": position, "name": name}
                              for position, name in enumerate(data["names"])]).execute()
    if LINKS.keep_option(instance, data):
        for person in _team(instance):
            LINKS.issue(instance, person.id)


def _team(instance: Instance) -> list[CoffeePerson]:
    return list(CoffeePerson.select().where(CoffeePerson.instance == instance)
                .order_by(CoffeePerson.position))


def _named(instance: Instance, name: str) -> CoffeePerson:
    """The team member called `name` (cleaned) as names compare (`text_key`: case and
    look-alike letters aside); 404 otherwise. A list made before look-alike letters counted
    may hold two such names: the one spelled exactly as sent is the one meant."""
    key = text_key(name)
    found = [person for person in _team(instance) if name and text_key(person.name) == key]
    if not found:
        raise not_found(NOT_ON_LIST)
    return min(found, key=lambda person: person.name != name)


def _about(instance: Instance) -> dict[str, Any]:
    data = instance.data
    return {"title": instance.title, "heading": instance.title or DEFAULT_TITLE,
            "cadence": data["cadence"], "note": data["note"], "round": data["round"],
            "drawnAt": data["drawnAt"]}


def _personal(instance: Instance) -> dict[str, Any]:
    """`personalLinks: true`, only on a roulette that hands out personal links."""
    return {"personalLinks": True} if LINKS.on(instance) else {}


def named_people(instance: Instance) -> list[tuple[int, str]]:
    """Each member's id and name, in the organiser's order: whom personal links go to."""
    return [(person.id, person.name) for person in _team(instance)]


def public_view(instance: Instance) -> dict[str, Any]:
    """The team page: the details, the round number and who has claimed their name (with
    personal links: who has opened their link). Never a link."""
    return {**_about(instance),
            "people": [{"name": person.name, "claimed": person.claimed_at is not None}
                       for person in _team(instance)], **_personal(instance)}


def organiser_view(instance: Instance) -> dict[str, Any]:
    """Who has claimed (and when) and which round is current; never who is with whom.
    With personal links, each member's link. Also the export."""
    team = _team(instance)
    people = [{"name": person.name, "claimed": person.claimed_at is not None,
               "claimedAt": utc_iso(person.claimed_at)} for person in team]
    view = {**_about(instance), "people": people,
            "claimedCount": sum(person["claimed"] for person in people), **_personal(instance)}
    if LINKS.on(instance):
        view["links"] = LINKS.listed(instance, named_people(instance))
    return view


def private_view(instance: Instance, person: CoffeePerson) -> dict[str, Any]:
    """One person's page: this round's partner(s), and whether each has picked up their own
    link yet (so they know to reach out). `inRound` is false for someone added to the list
    after the current round was drawn; a partner taken off the list since is left out."""
    latest = (CoffeeRound.select().where(CoffeeRound.instance == instance)
              .order_by(CoffeeRound.number.desc()).first())
    partners: list[dict[str, Any]] = []
    group = next((group for group in latest.groups if person.id in group), None) \
        if latest is not None else None
    if group is not None:
        team = {member.id: member for member in _team(instance)}
        partners = [{"name": member.name, "claimed": member.claimed_at is not None}
                    for member in sorted((team[ref] for ref in group
                                          if ref != person.id and ref in team),
                                         key=lambda member: member.position)]
    return {**_about(instance), "name": person.name, "inRound": group is not None,
            "partners": partners}


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """The private page. With personal links its first opening counts as the member's
    claim: the organiser and their partners see that they have their link."""
    person = MEMBERS.find_own(instance, credential)
    if credential.kind == RESET_KIND:
        # No partners: whoever holds the old link learns only that it was reset.
        return {**_about(instance), "name": person.name, "reset": True, "partners": [],
                **_personal(instance)}
    if LINKS.on(instance) and person.claimed_at is None:
        person.claimed_at = utcnow()
        CoffeePerson.update(claimed_at=person.claimed_at).where(
            CoffeePerson.id == person.id).execute()
        instance_changed(instance)  # the organiser's open page shows who has their link
        instance.version += 1  # and this page starts from the version it shows
    return private_view(instance, person)


# --- documents ----------------------------------------------------------------------------

_ABOUT_SCHEMA: dict[str, Any] = {
    "title": {"type": "string"},
    "heading": {"type": "string", "description": f"title, or `{DEFAULT_TITLE}`"},
    "cadence": {"type": "string"}, "note": {"type": "string"},
    "round": {"type": "integer", "description": "rounds drawn so far; 0 before the first"},
    "drawnAt": {"type": ["string", "null"], "format": "date-time",
                "description": "when the current round was drawn"}}
_PERSONAL_SCHEMA: dict[str, Any] = {
    "type": "boolean", "description": "present (true) only when the organiser hands out "
    "personal links: names cannot be claimed, and `claimed` means the member has opened "
    "their link"}
PUBLIC_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    **_ABOUT_SCHEMA,
    "people": {"type": "array", "description": "in the organiser's order", "items": {
        "type": "object", "properties": {"name": {"type": "string"},
                                         "claimed": {"type": "boolean"}}}},
    "personalLinks": _PERSONAL_SCHEMA}}
PRIVATE_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    **_ABOUT_SCHEMA,
    "name": {"type": "string", "description": "whose link this is"},
    "inRound": {"type": "boolean", "description": "false before the first round, and for "
                "someone added to the list after the current round was drawn"},
    "partners": {"type": "array", "description": "this round's partner, or two partners "
                 "in the odd count's group of three; empty before the first round or when "
                 "not in it, and without anyone taken off the list since the draw",
                 "items": {"type": "object", "properties": {
                     "name": {"type": "string"},
                     "claimed": {"type": "boolean",
                                 "description": "they have picked up their own link"}}}}}}
TOKEN_REPLY = token_reply("the permanent private link is `/p/{token}`; it is shown only once")
DRAW_REPLY = {"type": "object", "properties": {
    "ok": {"type": "boolean"},
    "round": {"type": "integer", "description": "the number of the round just drawn"},
    "groupCount": {"type": "integer", "description": "how many groups (never who is in them)"},
    "drawnAt": {"type": "string", "format": "date-time"}}}
RESET_REPLY = ok_reply(reset="false when the name was not claimed")


# --- operations ---------------------------------------------------------------------------

@ops.public("claim", body=NameBody, returns=TOKEN_REPLY, errors={
    404: f"Unknown slug (`Nothing here — check the link you were given.`), or the name "
         f"(C({NAME_LIMIT}), compared ignoring case and look-alike letters) is blank or "
         f"not on the list: `{NOT_ON_LIST}`",
    409: f"The name is already claimed: `{ALREADY_CLAIMED}`; or the roulette uses personal "
         f"links (any name): `{CLAIM_BY_LINK}`"})
def claim(call: Call) -> dict[str, Any]:
    """Claim your name; returns the token of your permanent private page `/p/{token}`.

    Each person claims their name once and keeps the private link for good: every new round shows up
    on the same page.
    """
    LINKS.refuse_claim(call.instance)
    person = _named(call.instance, call.data["name"])
    claim_once(person, CoffeePerson.claimed_at, call.now, ALREADY_CLAIMED)
    return {"token": issue_token(call.instance, TOKEN_KIND, str(person.id))}


@ops.participant("p/{token}", method="GET", token_kinds=[TOKEN_KIND], returns=PRIVATE_SCHEMA)
def read_private(call: Call) -> dict[str, Any]:
    """Your partner(s) this round.

    What the private page `/p/{token}` shows, as JSON.
    """
    return private_view(call.instance, MEMBERS.find_own(call.instance, call.credential))


@ops.organiser("draw", returns=DRAW_REPLY, description=(
    "Draws the next round for everyone on the list (claimed or not, so a late claimer "
    "finds their partner waiting): pairs, plus exactly one group of three when the count "
    f"is odd. Pairs who met in the last {RECENT_ROUNDS} rounds are kept apart whenever a "
    "grouping without any such repeat exists; when none exists (a tiny team), the fewest "
    "and least recent repeats are chosen. Private links do not change. The answer, like "
    "every organiser view, never says who is with whom."))
def draw(call: Call) -> dict[str, Any]:
    """Draw the next round."""
    instance = call.instance
    recent = [stored.groups for stored in
              CoffeeRound.select().where(CoffeeRound.instance == instance)
              .order_by(CoffeeRound.number.desc()).limit(RECENT_ROUNDS)]
    groups = draw_round([person.id for person in _team(instance)], recent)
    number = instance.data["round"] + 1
    CoffeeRound.create(instance=instance, number=number, drawn_at=call.now,
                       groups=[sorted(group) for group in groups])
    # Older rounds are no longer needed to avoid repeats: keep no pairing history beyond it.
    CoffeeRound.delete().where((CoffeeRound.instance == instance)
                               & (CoffeeRound.number <= number - RECENT_ROUNDS)).execute()
    stamp = utc_iso(call.now)
    instance.data = {**instance.data, "round": number, "drawnAt": stamp}
    instance.save()
    announce_round(call, number)
    return {"ok": True, "round": number, "groupCount": len(groups), "drawnAt": stamp}


@ops.organiser("reset", body=NameBody, returns=RESET_REPLY, errors={
    404: f"Unknown editToken, or the name is blank or not on the list: `{NOT_ON_LIST}`"})
def reset(call: Call) -> dict[str, Any]:
    """Reset one person so their name can be claimed again.

    For a lost link or a name claimed by the wrong person: the private link stops showing the
    partner at once (it says it was reset and how to claim again) and the name can be claimed again,
    which issues a fresh link. The person stays in the rounds (same partner this round). Resetting
    an unclaimed name changes nothing and answers `reset: false`. With personal links the person
    gets a fresh personal link at once (on the organiser page) and the answer is always `reset:
    true`.
    """
    person = _named(call.instance, call.data["name"])
    retire_tokens(call.instance, TOKEN_KIND, str(person.id), RESET_KIND)
    CoffeePerson.update(claimed_at=None).where(CoffeePerson.id == person.id).execute()
    fresh = LINKS.issue(call.instance, person.id)
    return {"ok": True, "reset": fresh is not None or person.claimed_at is not None}


# --- the organiser's edit -----------------------------------------------------------------

#: The confirmations as documented (their words filled in for one name or several)...
LEAVERS_CLAIMED = ("{names} {have} already claimed {their} name{s}: taking {them} off the "
                   "list stops {their} private link{s} working{round}. Go ahead?")
LEAVERS_IN_ROUND = ("{names} {are} in round {number}: taking {them} off the list means "
                    "anyone paired with {them} waits for the next draw. Go ahead?")
ROUND_CLAUSE = ", and anyone paired with {them} in round {number} waits for the next draw"
#: ...and each of their forms whole, the same English word for word, so that a page can
#: ask it in the reader's language: (claimed, drawn, one name) -> question.
LEAVERS: dict[tuple[bool, bool, bool], str] = {
    (True, False, True): N_("{names} has already claimed their name: taking them off the list "
                            "stops their private link working. Go ahead?"),
    (True, False, False): N_("{names} have already claimed their names: taking them off the "
                             "list stops their private links working. Go ahead?"),
    (True, True, True): N_("{names} has already claimed their name: taking them off the list "
                           "stops their private link working, and anyone paired with them in "
                           "round {number} waits for the next draw. Go ahead?"),
    (True, True, False): N_("{names} have already claimed their names: taking them off the "
                            "list stops their private links working, and anyone paired with "
                            "them in round {number} waits for the next draw. Go ahead?"),
    (False, True, True): N_("{names} is in round {number}: taking them off the list means "
                            "anyone paired with them waits for the next draw. Go ahead?"),
    (False, True, False): N_("{names} are in round {number}: taking them off the list means "
                             "anyone paired with them waits for the next draw. Go ahead?"),
}


def _leavers_message(leaving: list[CoffeePerson], number: int) -> str | None:
    """The confirmation a removal needs, or None. It depends on claims and on whether a
    round is drawn, never on the groups: the organiser may not learn who is with whom."""
    claimed = [person for person in leaving if person.claimed_at is not None]
    named = claimed or (leaving if number else [])
    if not named:
        return None
    one = len(named) == 1
    names = [person.name for person in named]
    return message(LEAVERS[bool(claimed), bool(number), one], number=number,
                   names=names[0] if one else ", ".join(names[:-1]) + " and " + names[-1])


def edit_current(instance: Instance) -> dict[str, Any]:
    """The create-shaped values the "Change details" form starts from (no groups, ever)."""
    data = instance.data
    return {"title": instance.title, "names": [person.name for person in _team(instance)],
            "cadence": data["cadence"], "note": data["note"]}


def _regroup(call: Call, names: list[str]) -> None:
    """New starters join the list (in the next draw); leavers go, with their link. Past
    rounds name people by id, so everyone else keeps their partner this round and the
    repeat rule still knows whom they met."""
    instance = call.instance
    team = _team(instance)
    kept = kept_by_name(team, names, lambda person: person.name)
    leaving = [person for person in team if person not in kept.values()]
    question = _leavers_message(leaving, instance.data["round"])
    if question is not None and not call.confirmed:
        raise conflict(question, "names", confirm=True)
    for person in leaving:
        revoke_tokens(instance, TOKEN_KIND, str(person.id))
    if leaving:
        CoffeePerson.delete().where(CoffeePerson.id.in_([p.id for p in leaving])).execute()
    # Two steps, so no new place collides with an old one on the unique index.
    for person in kept.values():
        (CoffeePerson.update(position=-1 - person.position)
         .where(CoffeePerson.id == person.id).execute())
    for position, name in enumerate(names):
        key = text_key(name)
        if key in kept:
            (CoffeePerson.update(position=position, name=name)
             .where(CoffeePerson.id == kept[key].id).execute())
        else:
            joined = CoffeePerson.create(instance=instance, position=position, name=name)
            LINKS.issue(instance, joined.id)


def apply_edit(call: Call) -> dict[str, Any]:
    """Title, cadence and note change as sent; the names list is reconciled with the team."""
    changes = dict(call.data)
    if "names" in changes:
        _regroup(call, changes.pop("names"))
    return changes


EDIT = Edit(fields=("title", "names", "cadence", "note"), current=edit_current,
            apply=apply_edit, errors={409: (
                "Names left out of `names` while that takes something away, with `confirm: "
                f"true`: someone who claimed their name (`{LEAVERS_CLAIMED}`, round clause "
                f"`{ROUND_CLAUSE}` once a round is drawn), or anyone once a round is drawn "
                f"(`{LEAVERS_IN_ROUND}`). Sent again with `\"confirm\": true`, they go and "
                "their links stop working.")},
            description="`names` is the whole list, matched to the team ignoring case and "
                        "look-alike letters: new names join from the next draw, names left "
                        "out go (with personal links, a new name gets its link on the "
                        "organiser page). Everyone else "
                        "keeps their link, their claim and this round's partner; the rule "
                        "against recent repeats still counts the rounds drawn before.")
