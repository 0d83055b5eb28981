"""Secret Role Dealer: the organiser's edit of the title, the note and the roles.

Roles are dealt only to who has joined, and a new role list changes no role someone holds
unless the organiser confirms: every player whose role is still in the list (renamed roles
included) keeps it; only players whose role is gone are dealt a new one from the roles left,
once confirmed. The rest of the list is the pool for later joiners.
"""

from __future__ import annotations

from typing import Any

from groupkit import N_
from groupkit import Call
from groupkit import Edit
from groupkit import Instance
from groupkit import bad_request
from groupkit import conflict
from groupkit import message

from .api import FEWER_THAN_PLAYERS
from .api import _random
from .api import organiser_view
from .api import players_of
from .models import Player
from .schema import EditRoles
from .schema import match_briefs

#: The question as documented; a page asks it in the reader's language, through the form
#: for one player or for several (the same English, word for word).
CHANGES_HELD = ("This takes away the role {count} who joined already hold{s}: they'll be dealt "
                "a new one from the roles left. Go ahead?")
CHANGES_HELD_ONE = N_("This takes away the role 1 player who joined already holds: they'll be "
                      "dealt a new one from the roles left. Go ahead?")
CHANGES_HELD_MANY = N_("This takes away the role {n} players who joined already hold: they'll "
                       "be dealt a new one from the roles left. Go ahead?")

DESCRIPTION = (
    "Secret Role Dealer: `title` and `note` change as sent. `roles` (with `briefs`) is the "
    "whole new list, create rules; it may also be the editor's rows `[{name, count, brief, "
    "was}]`, where `was` (the role's name as the page showed it) renames that role, also "
    "sent as `renamed` (old -> new). Every player who has joined keeps their role while it "
    "is still in the list (renamed or not); the rest is the pool for later joiners, and "
    "`round` does not move. Fewer roles than players: 400 "
    f"`{FEWER_THAN_PLAYERS}`. A list without a role someone holds is a 409 with `confirm: "
    f"true`, `{CHANGES_HELD}` (`{{count}}` is `1 player` or `<n> players`, never a name or "
    "a role: the organiser page hides roles); sent again with `\"confirm\": true`, only "
    "those players are dealt a new role at random from the roles left (their links stay "
    "and `round` goes up, so their pages show it).")


def current(instance: Instance) -> dict[str, Any]:
    """The title, the note and the roles as the editor's rows: never who holds what."""
    view = organiser_view(instance)
    return {"title": view["title"], "note": view["note"], "roles": view["setup"]}


def apply_edit(call: Call) -> dict[str, Any]:
    changes = dict(call.data)
    renamed = changes.pop("renamed", {})
    instance = call.instance
    old = instance.data["roles"]
    if "roles" not in changes:
        if "briefs" in changes:
            changes["briefs"] = match_briefs(old, changes["briefs"])
        return changes
    roles = changes["roles"]
    was = {player.id: player.slot for player in players_of(instance)
           if player.slot is not None}
    players = [player for player in players_of(instance) if player.id in was]
    if len(players) > len(roles):
        raise bad_request(message(FEWER_THAN_PLAYERS, n=len(players)), "roles")
    held = {player.id: renamed.get(old[was[player.id]], old[was[player.id]])
            for player in players}
    slots: dict[int, int] = {}
    for player in players:  # the same place first, so an unchanged list changes nothing
        place = was[player.id]
        if place < len(roles) and roles[place] == held[player.id]:
            slots[player.id] = place
    for player in players:
        if player.id not in slots:
            free = next((place for place, role in enumerate(roles) if role == held[player.id]
                         and place not in slots.values()), None)
            if free is not None:
                slots[player.id] = free
    losing = [player for player in players if player.id not in slots]
    if losing and not call.confirmed:
        question = (message(CHANGES_HELD_ONE) if len(losing) == 1
                    else message(CHANGES_HELD_MANY, n=len(losing)))
        raise conflict(question, "roles", confirm=True)
    left = [place for place in range(len(roles)) if place not in slots.values()]
    for player, place in zip(losing, _random.sample(left, len(losing)), strict=True):
        slots[player.id] = place
    # Slots are unique per game: lift every player's slot, then deal them all.
    Player.update(slot=None).where(Player.instance == instance).execute()
    for player in players:
        looked = {} if player not in losing else {"looked": None}
        Player.update(slot=slots[player.id], **looked).where(Player.id == player.id).execute()
    briefs = changes.get("briefs", {renamed.get(role, role): brief
                                    for role, brief in instance.data["briefs"].items()})
    changes["briefs"] = match_briefs(roles, briefs)
    if losing:
        changes["round"] = instance.data["round"] + 1
    return changes


EDIT = Edit(fields=("title", "note", "roles", "briefs", "renamed"), current=current,
            apply=apply_edit, schema=EditRoles, description=DESCRIPTION,
            template="roles/_fields.html",
            errors={409: f"With `confirm: true`: `{CHANGES_HELD}` (see above)."})
