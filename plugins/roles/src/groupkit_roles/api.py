"""Secret Role Dealer: create, views, joining, the `held` check and the organiser's controls.

A game is a list of role slots (one per player, duplicates expected) stored on the instance,
plus one `Player` row per joined player pointing at the slot dealt to them. `game` counts
restarts and `round` counts deals within a game, so a page can tell from `held` whether its
role may have changed.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable
from typing import Any

import peewee as pw

from groupkit import N_
from groupkit import Call
from groupkit import Credential
from groupkit import Instance
from groupkit import Operations
from groupkit import bad_request
from groupkit import checked_in_order
from groupkit import conflict
from groupkit import find_token
from groupkit import first_duplicate
from groupkit import instance_changed
from groupkit import issue_token
from groupkit import message
from groupkit import name_digest
from groupkit import not_found
from groupkit import request_time
from groupkit import revoke_tokens
from groupkit import text_key
from groupkit import utc_iso
from groupkit.entries import CLAIM_BY_LINK
from groupkit.entries import OK_REPLY
from groupkit.entries import PersonalLinks
from groupkit.entries import token_reply

from .models import Player
from .schema import BRIEF_LIMIT
from .schema import FEW_ROLES
from .schema import MANY_ROLES
from .schema import NAME_LIMIT
from .schema import NO_NAME
from .schema import ClaimBody
from .schema import DetailsBody
from .schema import HeldBody
from .schema import ResetBody
from .schema import RolesBody
from .schema import match_briefs

ops = Operations()

PLAYER = "roles-player"
#: The heading of a game with no title (pages say it in the reader's language).
DEFAULT_HEADING = N_("Secret roles")
CLAIM_TRIES = 3

ALL_DEALT = N_("All the roles are dealt.")
NAME_TAKEN = N_("Someone already joined with that name — add a surname initial.")
CONTENTION = N_("Everyone grabbed at once — try again.")
FEWER_THAN_PLAYERS = N_("{n} people have already joined — give at least {n} roles, "
                        "or reset someone first.")
NOT_JOINED = N_("Nobody has joined with that name.")
NO_PLAYERS = N_("Add the players' names, one per line, so each gets their own link.")
MORE_PLAYERS = N_("That's {n} players for {m} roles — give at least one role per player.")
TWICE = N_('"{name}" is on the list twice — add a surname initial.')

#: With `personalLinks`, each named player's own link, handed out by the organiser.
LINKS = PersonalLinks(PLAYER)

_random = secrets.SystemRandom()


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"note": data["note"], "roles": data["roles"],
                     "briefs": match_briefs(data["roles"], data["briefs"]),
                     "preset": data["preset"], "game": 1, "round": 1}
    if LINKS.keep_option(instance, data):
        _name_players(instance, data["names"])


def _name_players(instance: Instance, names: list[str]) -> None:
    """Personal links: every named player joins now, is dealt a role and gets a link."""
    roles = len(instance.data["roles"])
    if not names:
        raise bad_request(NO_PLAYERS)
    if first_duplicate(names) is not None:
        raise bad_request(message(TWICE, name=first_duplicate(names)))
    if len(names) > roles:
        raise bad_request(message(MORE_PLAYERS, n=len(names), m=roles))
    now = request_time()
    for name in names:
        Player.create(instance=instance, name=name, name_key=name_digest(name), joined=now)
    _deal(instance, roles)
    for player in players_of(instance):
        LINKS.issue(instance, player.id)


def named_people(instance: Instance) -> list[tuple[int, str]]:
    """Each player's id and name, in the order they joined: whom personal links go to."""
    return [(player.id, player.name) for player in players_of(instance)]


# --- reading ------------------------------------------------------------------------------

def players_of(instance: Instance) -> list[Player]:
    return list(Player.select().where(Player.instance == instance)
                .order_by(Player.joined, Player.id))


def dealt_slots(instance: Instance) -> set[int]:
    """Slots dealt right now (read fresh on every claim attempt)."""
    return {player.slot for player in Player.select(Player.slot)
            .where((Player.instance == instance) & Player.slot.is_null(False))
            if player.slot is not None}  # the query already said so; mypy cannot know


def choose_slot(free: list[int]) -> int:
    return _random.choice(free)


def grouped(roles: Iterable[str]) -> list[dict[str, Any]]:
    """The role list as `{name, count}` in order of first appearance."""
    return [{"name": name, "count": count} for name, count in Counter(roles).items()]


def public_view(instance: Instance) -> dict[str, Any]:
    """What the share page shows: how many roles are left. Never a role, never a name."""
    data = instance.data
    total = len(data["roles"])
    dealt = Player.select().where((Player.instance == instance)
                                  & Player.slot.is_null(False)).count()
    view = {"title": instance.title, "heading": instance.title or DEFAULT_HEADING,
            "note": data["note"], "total": total, "dealt": dealt, "left": total - dealt,
            "game": data["game"]}
    if LINKS.on(instance):
        view["personalLinks"] = True
    return view


def organiser_view(instance: Instance) -> dict[str, Any]:
    """Everything, roles included: the organiser page prints each player's role only when
    its address carries `?reveal=1`."""
    data = instance.data
    roles = data["roles"]
    players = [{"name": player.name, "joined": utc_iso(player.joined),
                "looked": utc_iso(player.looked),
                "role": roles[player.slot] if player.slot is not None else None}
               for player in players_of(instance)]
    view = {**public_view(instance), "round": data["round"], "preset": data["preset"],
            "roles": roles, "briefs": data["briefs"],
            "setup": [{**group, "brief": data["briefs"].get(group["name"], "")}
                      for group in grouped(roles)],
            "players": players}
    if LINKS.on(instance):
        view["links"] = LINKS.listed(instance, named_people(instance))
    return view


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """The player's own role and its briefing; the first visit after a deal counts as
    having looked."""
    player = Player.get_or_none((Player.id == int(credential.ref))
                                & (Player.instance == instance))
    if player is None or player.slot is None:
        raise not_found()
    if player.looked is None:
        player.looked = request_time()
        player.save(only=[Player.looked])
        instance_changed(instance)  # the organiser's list of who looked updates live
        instance.version += 1  # and this page starts from the version it shows
    data = instance.data
    role = data["roles"][player.slot]
    return {"title": instance.title, "heading": instance.title or DEFAULT_HEADING,
            "note": data["note"], "name": player.name, "role": role,
            "brief": data["briefs"].get(role, ""), "game": data["game"],
            "round": data["round"], **({"personalLinks": True} if LINKS.on(instance) else {})}


# --- dealing ------------------------------------------------------------------------------

def _save_data(instance: Instance, **changes: Any) -> dict[str, Any]:
    data = {**instance.data, **changes}
    instance.data = data
    instance.save(only=[Instance.title, Instance.data])
    return data


def _deal(instance: Instance, slots: int) -> int:
    """Deal every joined player a fresh random slot from the whole pool (distinct slots,
    uniformly at random); tokens stay with the players. Returns how many were dealt."""
    players = players_of(instance)
    Player.update(slot=None, looked=None).where(Player.instance == instance).execute()
    for player, slot in zip(players, _random.sample(range(slots), len(players)), strict=True):
        Player.update(slot=slot).where(Player.id == player.id).execute()
    return len(players)


# --- operations ---------------------------------------------------------------------------

TOKEN_REPLY = token_reply("the player's private token: their role page is `/p/{token}`",
                          required=True)
HELD_REPLY = {"type": "object", "required": ["held", "game", "round"], "properties": {
    "held": {"type": "boolean",
             "description": "whether this token still holds a role in this game"},
    "game": {"type": "integer", "description": "starts at 1; goes up on every restart"},
    "round": {"type": "integer", "description": "starts at 1 in each game; goes up on "
                                                "every re-deal and every roles update"}}}
SETUP_REPLY = {"type": "object", "properties": {
    "title": {"type": "string"}, "note": {"type": "string"},
    "roles": {"type": "array", "description": "the role list grouped by name, in order of "
              "first appearance", "items": {"type": "object", "properties": {
                  "name": {"type": "string"}, "count": {"type": "integer"}}}},
    "briefs": {"type": "object", "additionalProperties": {"type": "string"}}}}


def _joined_as(instance: Instance, name: str) -> list[Player]:
    """The players who joined as `name` as names compare (`text_key`), the one spelled
    exactly as sent first. Keys are computed afresh from the names, never read from
    `name_key`: players who joined before look-alike letters counted hold an older key (and
    may be two look-alikes)."""
    key = text_key(name)
    found = [player for player in Player.select().where(Player.instance == instance)
             if name and text_key(player.name) == key]
    return sorted(found, key=lambda player: player.name != name)


@ops.public("claim", body=ClaimBody, status=201, returns=TOKEN_REPLY, errors={
    400: f"Name empty after cleaning (C({NAME_LIMIT})): `{NO_NAME}`",
    409: f"A game with personal links, for any name: `{CLAIM_BY_LINK}`. Otherwise checked "
         f"in this order on every try: no role left: `{ALL_DEALT}`; the name "
         f"(ignoring case and look-alike letters) has already joined: `{NAME_TAKEN}`; three "
         f"tries lost to simultaneous joins: `{CONTENTION}`"},
    description="Deals a random unclaimed role slot and returns the player's token. Each "
                "try reads the free slots afresh and inserts the player; the unique "
                "(game, slot) index decides, and a lost insert tries another free slot, "
                "three tries in all, then 409. The kernel already runs each write holding "
                "the instance lock, so joins to one game are serialised and a try is "
                "practically never lost: simultaneous joiners beyond the last role are "
                f"told `{ALL_DEALT}`. The retry stays as the guard the spec names.")
def claim(call: Call) -> dict[str, Any]:
    """Join the game: deals you a random role and returns your private token."""
    instance, name = call.instance, call.data["name"]
    LINKS.refuse_claim(instance)
    slots = len(instance.data["roles"])
    for _ in range(CLAIM_TRIES):
        free = sorted(set(range(slots)) - dealt_slots(instance))
        if not free:
            raise conflict(ALL_DEALT)
        if _joined_as(instance, name):
            raise conflict(NAME_TAKEN)
        try:
            with Player._meta.database.atomic():
                player = Player.create(instance=instance, name=name,
                                       name_key=name_digest(name),
                                       slot=choose_slot(free), joined=call.now)
        except pw.IntegrityError:
            continue
        return {"token": issue_token(instance, PLAYER, str(player.id))}
    raise conflict(CONTENTION)


@ops.public("held", body=HeldBody, returns=HELD_REPLY, changes=False)
def held(call: Call) -> dict[str, Any]:
    """Whether a player's token still holds a role, and the game's deal counters.

    For pages: `held` turns false when the organiser resets the player or restarts the game (its
    token no longer works); `round` changes on a re-deal or roles update; a deleted game answers
    404. An unknown or malformed token is simply not held.
    """
    credential = find_token(call.instance, PLAYER, call.data["token"])
    holding = credential is not None and Player.select().where(
        (Player.id == int(credential.ref)) & Player.slot.is_null(False)).exists()
    data = call.instance.data
    return {"held": holding, "game": data["game"], "round": data["round"]}


@ops.organiser("reset", body=ResetBody, returns=OK_REPLY, errors={
    404: f"No player joined with that name (after cleaning, ignoring case and look-alike "
         f"letters; blank included): `{NOT_JOINED}`"})
def reset(call: Call) -> dict[str, Any]:
    """Reset one player.

    The player leaves the game: their slot returns to the pool and their token stops working. They
    can join again from the share link. With personal links the player keeps their role and gets
    a fresh link at once (on the organiser page); the old one stops working.
    """
    joined = _joined_as(call.instance, call.data["name"])
    if not joined:
        raise not_found(NOT_JOINED)
    player = joined[0]
    revoke_tokens(call.instance, PLAYER, str(player.id))
    if LINKS.issue(call.instance, player.id) is not None:
        Player.update(looked=None).where(Player.id == player.id).execute()
    else:
        player.delete_instance()
    return {"ok": True}


@ops.organiser("details", body=DetailsBody, returns={"type": "object", "properties": {
    "ok": {"type": "boolean"}, "title": {"type": "string"}, "heading": {"type": "string"},
    "note": {"type": "string"}}})
def details(call: Call) -> dict[str, Any]:
    """Change the title and note.

    Replaces both fields, with the create rules (an absent field is stored empty).
    """
    call.instance.title = call.data["title"]
    _save_data(call.instance, note=call.data["note"])
    return {"ok": True, "title": call.instance.title,
            "heading": call.instance.title or DEFAULT_HEADING, "note": call.data["note"]}


@ops.organiser("roles", body=RolesBody, returns={"type": "object", "properties": {
    "ok": {"type": "boolean"}, "total": {"type": "integer"}, "dealt": {"type": "integer"},
    "round": {"type": "integer"}}}, errors={
    400: checked_in_order(("fewer than two roles", FEW_ROLES), ("more than 40", MANY_ROLES),
                          ("fewer roles than players already joined", FEWER_THAN_PLAYERS))},
    description="Replaces the role list and briefings (create rules; briefings up to "
                f"{BRIEF_LIMIT} characters). Everyone who has joined is dealt afresh from "
                "the new list and keeps their token; the remaining slots are the pool for "
                "later joiners. `round` goes up.")
def update_roles(call: Call) -> dict[str, Any]:
    """Replace the roles and re-deal them to everyone who has joined."""
    instance, roles = call.instance, call.data["roles"]
    joined = len(players_of(instance))
    if joined > len(roles):
        raise bad_request(message(FEWER_THAN_PLAYERS, n=joined))
    data = _save_data(instance, roles=roles, briefs=match_briefs(roles, call.data["briefs"]),
                      round=instance.data["round"] + 1)
    dealt = _deal(instance, len(roles))
    return {"ok": True, "total": len(roles), "dealt": dealt, "round": data["round"]}


@ops.organiser("redeal", returns={"type": "object", "properties": {
    "ok": {"type": "boolean"}, "dealt": {"type": "integer"}, "round": {"type": "integer"}}})
def redeal(call: Call) -> dict[str, Any]:
    """Shuffle the roles across the same players.

    Every joined player is dealt a fresh random slot from the whole role list (not only the roles
    already out), so a role nobody drew can come into play. Tokens stay valid; `round` goes up.
    """
    data = _save_data(call.instance, round=call.instance.data["round"] + 1)
    dealt = _deal(call.instance, len(data["roles"]))
    return {"ok": True, "dealt": dealt, "round": data["round"]}


@ops.organiser("restart", returns={"type": "object", "properties": {
    "ok": {"type": "boolean"}, "game": {"type": "integer"}}})
def restart(call: Call) -> dict[str, Any]:
    """Clear all players so the group joins again.

    Clears every player and revokes every player token (a player's next join gets a new one); `game`
    goes up and `round` starts again at 1. With personal links the named players stay: each is
    dealt afresh and gets a fresh link (on the organiser page).
    """
    revoke_tokens(call.instance, PLAYER)
    if LINKS.on(call.instance):
        _deal(call.instance, len(call.instance.data["roles"]))
        for player in players_of(call.instance):
            LINKS.issue(call.instance, player.id)
    else:
        Player.delete().where(Player.instance == call.instance).execute()
    data = _save_data(call.instance, game=call.instance.data["game"] + 1, round=1)
    return {"ok": True, "game": data["game"]}


@ops.organiser("setup", returns=SETUP_REPLY, changes=False)
def setup(call: Call) -> dict[str, Any]:
    """Read the title, note, roles (grouped by name) and briefings.

    The game's set-up as the organiser edits it; nothing changes.
    """
    data = call.instance.data
    return {"title": call.instance.title, "note": data["note"],
            "roles": grouped(data["roles"]), "briefs": data["briefs"]}


PUBLIC_SCHEMA = {"type": "object", "properties": {
    "title": {"type": "string"},
    "heading": {"type": "string", "description": f"title, or `{DEFAULT_HEADING}`"},
    "note": {"type": "string"},
    "total": {"type": "integer", "description": "role slots, one per player"},
    "dealt": {"type": "integer"}, "left": {"type": "integer"},
    "game": {"type": "integer", "description": "goes up on every restart"},
    "personalLinks": {"type": "boolean", "description": "present (true) only when the "
                      "organiser hands out personal links: nobody joins from the share page"}}}
