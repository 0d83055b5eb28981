"""`regroup_slots` once the organiser confirms an edit that takes spots away: unconfirmed it
changes nothing and asks (409 with `confirm: true`); confirmed, a removed group's claims and
a cut group's latest claims are freed as the organiser's remove frees a spot (their calendar
feeds empty for good), while every other claim keeps its slot id and its feed. (Called
without `confirmed`, it refuses as before: test_edit.py.)"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from groupkit import ApiError
from groupkit import Credential
from groupkit import Instance
from groupkit import issue_token
from groupkit.blocks._slots import FEED
from groupkit.signups import SlotClaim
from groupkit.signups import claim_slot
from groupkit.signups import claims_by_slot
from groupkit.signups import regroup_slots
from groupkit.signups import slot_ids

HELD = "{name} is held."
SHRUNK = "{name} has {taken}."
OLD = [{"name": "A", "capacity": 4}, {"name": "B", "capacity": 2}, {"name": "C", "capacity": 1}]
NOON = dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC)


@pytest.fixture
def instance(make_app: Callable[..., Any]) -> Instance:
    """A board of OLD with claims (claimed that many minutes after noon) and a calendar feed
    for each: A: a0-2 Ann (0), a0-4 Bo (1), a0-1 Cy (2, the latest of A); B: a1-1 Di (3);
    C: a2-1 Ed (4)."""
    make_app(tools=[], entry_points=False)
    board = Instance.create(tool="x", slug="x-1", edit_digest="d", title="")
    for minute, (slot, name) in enumerate([("a0-2", "Ann"), ("a0-4", "Bo"), ("a0-1", "Cy"),
                                           ("a1-1", "Di"), ("a2-1", "Ed")]):
        claim_slot(board, slot, name, {}, "taken")
        claimed = NOON + dt.timedelta(minutes=minute)
        SlotClaim.update(created=claimed).where(SlotClaim.slot_id == slot).execute()
        claim = SlotClaim.get(SlotClaim.slot_id == slot)
        issue_token(board, FEED, f"{slot}:{claim.secret_digest}")
    return board


def regroup(instance: Instance, new: list[dict[str, Any]], confirmed: bool) -> Any:
    return regroup_slots(instance, OLD, new, "a", removed=HELD, shrunk=SHRUNK,
                         field="groups", confirmed=confirmed)


def held(instance: Instance) -> dict[str, str]:
    return {slot: claim.name for slot, claim in claims_by_slot(instance).items()}


def feeds(instance: Instance) -> list[str | None]:
    """Whose claim each feed shows, as the feed looks it up (slot id and secret digest):
    None for a feed that is empty."""
    shown = []
    for feed in Credential.select().where(Credential.kind == FEED).order_by(Credential.id):
        slot_id, _, secret_digest = feed.ref.partition(":")
        claim = SlotClaim.get_or_none((SlotClaim.instance == instance)
                                      & (SlotClaim.slot_id == slot_id)
                                      & (SlotClaim.secret_digest == secret_digest))
        shown.append(claim.name if claim else None)
    return shown


BEFORE = {"a0-2": "Ann", "a0-4": "Bo", "a0-1": "Cy", "a1-1": "Di", "a2-1": "Ed"}
EVERY_FEED = ["Ann", "Bo", "Cy", "Di", "Ed"]
#: B left out, A cut to 2 spots: both would lose claims; the removal is asked first.
BOTH = [{"name": "A", "capacity": 2, "was": 0}, {"name": "C", "capacity": 1, "was": 2}]


@pytest.mark.parametrize(("new", "body"), [
    (BOTH, {"error": "B is held.", "field": "groups", "confirm": True}),
    ([{"name": "A", "capacity": 2, "was": 0}, *OLD[1:]],
     {"error": "A has 3.", "field": "groups", "confirm": True}),
])
def test_unconfirmed_it_asks_and_changes_nothing(instance: Instance, new: list[dict[str, Any]],
                                                 body: dict[str, Any]) -> None:
    with pytest.raises(ApiError) as refused:
        regroup(instance, new, confirmed=False)
    assert (refused.value.status, refused.value.body()) == (409, body)
    assert held(instance) == BEFORE
    assert feeds(instance) == EVERY_FEED


def test_a_confirmed_removal_frees_the_groups_spots(instance: Instance) -> None:
    groups = regroup(instance, [OLD[0], {"name": "C", "capacity": 1, "was": 2}],
                     confirmed=True)
    assert slot_ids(groups, "a") == ["a0-1", "a0-2", "a0-3", "a0-4", "a2-1"]
    assert held(instance) == {"a0-2": "Ann", "a0-4": "Bo", "a0-1": "Cy", "a2-1": "Ed"}
    assert feeds(instance) == ["Ann", "Bo", "Cy", None, "Ed"]
    # A group added later may take B's number again; whoever claims there is never in the
    # feed Di had.
    added = [groups[0], {"name": "New", "capacity": 1, "was": None},
             {"name": "C", "capacity": 1, "was": 1}]
    again = regroup_slots(instance, groups, added, "a", removed=HELD, shrunk=SHRUNK,
                          field="groups")
    assert slot_ids(again, "a") == ["a0-1", "a0-2", "a0-3", "a0-4", "a1-1", "a2-1"]
    claim_slot(instance, "a1-1", "Gus", {}, "taken")
    assert feeds(instance) == ["Ann", "Bo", "Cy", None, "Ed"]


def test_a_confirmed_cut_frees_the_latest_claims_first(instance: Instance) -> None:
    """A cut to 2 of A's 3 claims: Cy claimed last, so Cy goes although a0-1 is the lowest
    spot; Bo, beyond the new size, moves to the spot Cy freed, and Bo's feed follows Bo,
    while Cy's feed stays empty with Bo now at a0-1."""
    groups = regroup(instance, [{"name": "A", "capacity": 2, "was": 0}, *OLD[1:]],
                     confirmed=True)
    assert slot_ids(groups, "a") == ["a0-1", "a0-2", "a1-1", "a1-2", "a2-1"]
    assert held(instance) == {"a0-2": "Ann", "a0-1": "Bo", "a1-1": "Di", "a2-1": "Ed"}
    assert feeds(instance) == ["Ann", "Bo", None, "Di", "Ed"]


def test_claims_made_at_one_moment_go_from_the_highest_spot(instance: Instance) -> None:
    SlotClaim.update(created=NOON).where(SlotClaim.slot_id.startswith("a0-")).execute()
    regroup(instance, [{"name": "A", "capacity": 1, "was": 0}, *OLD[1:]], confirmed=True)
    assert held(instance) == {"a0-1": "Cy", "a1-1": "Di", "a2-1": "Ed"}


def test_one_confirmation_takes_every_loss_of_the_edit(instance: Instance) -> None:
    groups = regroup(instance, BOTH, confirmed=True)
    assert slot_ids(groups, "a") == ["a0-1", "a0-2", "a2-1"]
    assert held(instance) == {"a0-2": "Ann", "a0-1": "Bo", "a2-1": "Ed"}
    assert feeds(instance) == ["Ann", "Bo", None, None, "Ed"]
