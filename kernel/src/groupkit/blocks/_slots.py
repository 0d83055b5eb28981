"""Slot claims shared by the sign-up tools: a spot is claimed by one INSERT guarded by a
unique constraint, released with the claim's 16-character secret or by the organiser."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

import marshmallow as ma
import peewee as pw

from groupkit.core._credentials import CLAIM_SECRET_LENGTH
from groupkit.core._credentials import digest
from groupkit.core._credentials import looks_like_token
from groupkit.core._credentials import new_claim_secret
from groupkit.core._errors import ApiError
from groupkit.core._errors import conflict
from groupkit.core._fields import Raw
from groupkit.core._fields import whole_number
from groupkit.core._i18n import N_
from groupkit.core._i18n import message
from groupkit.core._storage import BaseModel
from groupkit.core._storage import Credential
from groupkit.core._storage import Instance
from groupkit.core._storage import JsonField
from groupkit.core._storage import UTCDateTimeField
from groupkit.core._storage import insert_new
from groupkit.core._storage import utcnow
from groupkit.core._tool import Call
from groupkit.core._tool import Reply

#: The credential kind of a claim's private calendar feed (`groupkit.integrations`): its
#: `ref` is `<slotId>:<secret digest>`, so it follows the claim when an edit moves it.
FEED = "feed"
RELEASE_MISMATCH = N_("That spot isn't held with that secret — it may already be free.")


class SlotClaim(BaseModel):
    """One taken spot of a sign-up board: unique per (instance, slot id), so two people can
    never hold one spot; the claimer's secret is kept only as a digest."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    slot_id = pw.CharField(max_length=40)
    name = pw.CharField(max_length=80)
    extra = JsonField(default=dict)
    secret_digest = pw.CharField(max_length=64)
    created = UTCDateTimeField(default=utcnow)

    class Meta:
        table_name = "slot_claim"
        indexes = ((("instance", "slot_id"), True),)


def claim_slot(instance: Instance, slot_id: str, name: str, extra: Mapping[str, Any],
               taken_message: str) -> str:
    """Claim `slot_id` for `name`; returns the secret. The loser of a race gets 409
    `taken_message` from the unique constraint, whatever the isolation level (the INSERT
    does nothing when the spot is held, so no savepoint is needed to carry on)."""
    secret = new_claim_secret()
    claim = SlotClaim(instance=instance, slot_id=slot_id, name=name, extra=dict(extra),
                      secret_digest=digest(secret))
    if not insert_new(claim, ("instance", "slot_id")):
        raise ApiError(409, taken_message)
    return secret


def release_slot(instance: Instance, slot_id: object, secret: object,
                 message: str = RELEASE_MISMATCH) -> None:
    """Free a spot for whoever holds its secret; anything else is one 404."""
    if not isinstance(slot_id, str) or not looks_like_token(secret, CLAIM_SECRET_LENGTH):
        raise ApiError(404, message)
    deleted = (SlotClaim.delete()
               .where((SlotClaim.instance == instance) & (SlotClaim.slot_id == slot_id)
                      & (SlotClaim.secret_digest == digest(str(secret))))
               .execute())
    if not deleted:
        raise ApiError(404, message)


def remove_slot(instance: Instance, slot_id: str) -> bool:
    """Organiser force-clear; True when a claim was there. The claim's calendar feeds stay
    and empty: they are bound to its secret, so a later claim of the spot never shows in
    them (`groupkit.blocks._feeds`), and a subscribed calendar drops the event."""
    return bool(SlotClaim.delete()
                .where((SlotClaim.instance == instance) & (SlotClaim.slot_id == slot_id))
                .execute())


def claims_by_slot(instance: Instance) -> dict[str, SlotClaim]:
    """Every claim of the instance by slot id, in one query (for a board's view)."""
    return {claim.slot_id: claim
            for claim in SlotClaim.select().where(SlotClaim.instance == instance)}


#: The key a stored group keeps its slot number under once it no longer matches the group's
#: position (an organiser's edit moved it, or it was added after a removal). Absent, the
#: number is the position, so a board never edited keeps the spec's `c<index>-<n>` ids.
SLOT_NUMBER = "slotNumber"


def _number(group: Mapping[str, Any], index: int) -> int:
    return int(group.get(SLOT_NUMBER, index))


def slot_group(groups: Sequence[Mapping[str, Any]], slot_id: str, prefix: str) -> int | None:
    """The board position of the group holding `slot_id` (`<prefix><number>-<n>`), or None:
    a group's number is not its position once an edit has moved it (see `regroup_slots`)."""
    number, _, spot = slot_id[len(prefix):].partition("-")
    if not slot_id.startswith(prefix) or not number.isdigit() or not spot.isdigit():
        return None
    return next((index for index, group in enumerate(groups)
                 if _number(group, index) == int(number)), None)


def slot_ids(groups: Sequence[Mapping[str, Any]], prefix: str) -> list[str]:
    """Every spot of a board of groups (categories, shifts, days) that each have a
    `capacity`: `<prefix><group number>-<n from 1>`, in board order. A group's number is its
    index from 0 when the board was made, and stays with the group when an edit moves it
    (see `regroup_slots`)."""
    return [f"{prefix}{_number(group, index)}-{n}" for index, group in enumerate(groups)
            for n in range(1, int(group["capacity"]) + 1)]


_SPOT = re.compile(r"([0-9]+)-([0-9]+)")


class GroupSpots(Mapping[str, str]):
    """Every spot of a board of groups as `{slot id: ""}` (the mapping `slot_ids` lists),
    without listing it: a claim looks up one spot, and listing a 240-spot board for that
    cost more than the claim's own INSERT."""

    def __init__(self, groups: Sequence[Mapping[str, Any]], prefix: str) -> None:
        self.groups, self.prefix = groups, prefix

    def __getitem__(self, slot_id: str) -> str:
        found = (_SPOT.fullmatch(slot_id, len(self.prefix))
                 if isinstance(slot_id, str) and slot_id.startswith(self.prefix) else None)
        if found is not None:
            number, spot = int(found[1]), int(found[2])
            # Only the one spelling `slot_ids` makes: no leading zeros.
            if f"{number}-{spot}" == slot_id[len(self.prefix):]:
                for index, group in enumerate(self.groups):
                    if _number(group, index) == number:
                        if 1 <= spot <= int(group["capacity"]):
                            return ""
                        break
        raise KeyError(slot_id)

    def __iter__(self) -> Iterator[str]:
        return iter(slot_ids(self.groups, self.prefix))

    def __len__(self) -> int:
        return sum(int(group["capacity"]) for group in self.groups)


def spot_board(instance: Instance, groups: Sequence[Mapping[str, Any]], prefix: str, *,
               extra: Callable[[SlotClaim | None], Mapping[str, Any]] = lambda claim: {},
               organiser: bool = False) -> list[dict[str, Any]]:
    """The sign-up board every sign-up tool shows: each group (its own keys kept) with
    `taken` and its `spots` (`slotId`, `taken`, `name`, then `extra(claim)` — called with
    None for a free spot so free and taken spots have the same keys — and, for the
    organiser, `claimedAt`). One query for all the claims."""
    claims = claims_by_slot(instance)
    board = []
    for index, group in enumerate(groups):
        spots = []
        for n in range(1, int(group["capacity"]) + 1):
            slot_id = f"{prefix}{_number(group, index)}-{n}"
            claim = claims.get(slot_id)
            spot: dict[str, Any] = {"slotId": slot_id, "taken": claim is not None,
                                    "name": claim.name if claim else None, **extra(claim)}
            if organiser:
                spot["claimedAt"] = (claim.created.replace(tzinfo=dt.UTC).isoformat()
                                     if claim else None)
            spots.append(spot)
        shown = {key: value for key, value in group.items() if key != SLOT_NUMBER}
        board.append({**shown, "taken": sum(spot["taken"] for spot in spots), "spots": spots})
    return board


def _continued(entry: Mapping[str, Any], position: int, old_count: int) -> int | None:
    """The old group an edited entry continues: `was` when it names one, the entry's own
    position when `was` is absent (an API client resending the list), else None (new)."""
    was = entry.get("was", ma.missing)
    if was is ma.missing:
        return position if position < old_count else None
    if isinstance(was, bool) or not isinstance(was, (int, str)):
        return None
    number = whole_number(was)
    return number if number is not None and 0 <= number < old_count else None


def _claimed_order(claim: SlotClaim) -> tuple[dt.datetime, int]:
    """Earliest claim first; at the same time the lower spot number first."""
    return claim.created, int(claim.slot_id.rsplit("-", 1)[1])


def regroup_slots(instance: Instance, old_groups: Sequence[Mapping[str, Any]],
                  new_groups: Sequence[Mapping[str, Any]], prefix: str, *,
                  removed: str, shrunk: str, field: str, name_key: str = "name",
                  confirmed: bool | None = None) -> list[dict[str, Any]]:
    """Apply an organiser's edit of a sign-up board's groups (categories, shifts) without
    losing a claim unasked; returns the new groups to store, each without its `was` key.

    Each new entry may carry `was`: the index of the old group it continues, so a rename or
    resize keeps that group's claims; without `was` an entry continues the old group at its
    own position; `was: null` (or anything else) starts a new group. An old group nobody
    continues is removed: 409 `removed` (formatted with the group's `name`) while anyone
    holds one of its spots. A group cut below its claimed spots: 409 `shrunk` (formatted
    with `name` and `taken`; the name is the group's `name_key`). Both 409s name `field`;
    removals are checked first, and nothing changes before every check has passed.

    Given `confirmed` (the edit's `call.confirmed`, True or False), the 409s ask to confirm
    (`confirm: true`); once True, every claim the edit would lose goes, each freed exactly
    as the organiser's `remove` frees a spot (`remove_slot`): all of a removed group's, and
    of a cut group the latest claimed beyond its new size (at the same moment: the higher
    spot number first). First come, first served: who signed up first keeps their spot,
    whichever row they picked. One confirmation covers every such loss in the edit. Without
    `confirmed` (None, a caller that does not pass it on) the 409s cannot be confirmed, as
    before: the organiser frees a spot with the tool's remove first.

    Slot ids stay put: a continued group keeps its number wherever it moves (stored under
    `SLOT_NUMBER` when it differs from the new position); a new group takes its position as
    its number when no group on the board before the edit had that number, else one above
    them all; a claim keeps its spot number while it exists, else moves to the group's
    first free spot. So a claimer's browser, which remembers its secret by slot id, still
    finds its spot after a rename, a move or another group's removal."""
    claims = list(SlotClaim.select().where(SlotClaim.instance == instance))
    old_numbers = [_number(group, index) for index, group in enumerate(old_groups)]
    index_of = {number: index for index, number in enumerate(old_numbers)}
    by_group: dict[int, list[SlotClaim]] = {}
    for claim in claims:
        number = int(claim.slot_id[len(prefix):].partition("-")[0])
        if number in index_of:
            by_group.setdefault(index_of[number], []).append(claim)
    continued: dict[int, int] = {}
    for position, entry in enumerate(new_groups):
        old = _continued(entry, position, len(old_groups))
        if old is not None and old not in continued:
            continued[old] = position
    asks = confirmed is not None
    released: list[SlotClaim] = []
    for index, group in enumerate(old_groups):
        if index not in continued and by_group.get(index):
            if not confirmed:
                raise conflict(message(removed, name=group[name_key]), field, confirm=asks)
            released.extend(by_group[index])
    numbers: dict[int, int] = {position: old_numbers[index]
                               for index, position in continued.items()}
    fresh = max([*old_numbers, len(new_groups) - 1], default=-1) + 1
    moves: dict[str, str] = {}
    for index, position in continued.items():
        held = by_group.get(index, [])
        capacity = int(new_groups[position]["capacity"])
        if len(held) > capacity:
            if not confirmed:
                raise conflict(message(shrunk, name=old_groups[index][name_key],
                                       taken=len(held)), field, confirm=asks)
            held = sorted(held, key=_claimed_order)
            released.extend(held[capacity:])
            held = held[:capacity]
        spots = {claim.slot_id: int(claim.slot_id.rsplit("-", 1)[1]) for claim in held}
        kept = {n for n in spots.values() if n <= capacity}
        free = (n for n in range(1, capacity + 1) if n not in kept)
        for slot_id, spot in spots.items():
            spot = spot if spot <= capacity else next(free)
            moves[slot_id] = f"{prefix}{numbers[position]}-{spot}"
    for claim in released:
        remove_slot(instance, claim.slot_id)
    _rekey(instance, {before: after for before, after in moves.items() if before != after})
    stored = []
    for position, entry in enumerate(new_groups):
        group = {key: value for key, value in entry.items() if key not in ("was", SLOT_NUMBER)}
        if position not in numbers:
            if position in numbers.values() or position in old_numbers:
                position_taken, fresh = fresh, fresh + 1
                numbers[position] = position_taken
            else:
                numbers[position] = position
        if numbers[position] != position:
            group[SLOT_NUMBER] = numbers[position]
        stored.append(group)
    return stored


WAS = ("the index (from 0) of the current group this entry continues, keeping its claims; "
       "absent: the group at this position; null: a new group")


def was_field() -> Raw:
    """The `was` key an edit schema adds to each group entry (see `regroup_slots`)."""
    return Raw(["integer", "null"], WAS)


def board_edit(field: str, prefix: str, *, removed: str, shrunk: str,
               name_key: str = "name") -> Callable[[Call], dict[str, Any]]:
    """An `Edit.apply` for a sign-up board: the groups in `field` go through
    `regroup_slots` (a confirmed call frees the spots the edit takes away), every other
    change is stored the default way."""
    def apply(call: Call) -> dict[str, Any]:
        changes = dict(call.data)
        if field in changes:
            changes[field] = regroup_slots(call.instance, call.instance.data[field],
                                           changes[field], prefix, removed=removed,
                                           shrunk=shrunk, field=field, name_key=name_key,
                                           confirmed=call.confirmed)
        return changes
    return apply


def _rekey(instance: Instance, moves: Mapping[str, str]) -> None:
    """Move claims to new slot ids in two steps, so no step collides with the unique index;
    their calendar feeds follow them."""
    for step in ({old: f"~{old}" for old in moves}, {f"~{old}": new for old, new in moves.items()}):
        for old, new in step.items():
            (SlotClaim.update(slot_id=new)
             .where((SlotClaim.instance == instance) & (SlotClaim.slot_id == old)).execute())
    follow_moved_claims(instance, moves)


def follow_moved_claims(instance: Instance, moves: Mapping[str, str]) -> None:
    """An organiser's edit moved claims to new slot ids (`regroup_slots`): each feed keeps
    following its claim (its `ref` is `<slotId>:<secret digest>`)."""
    if not moves:
        return
    feeds = Credential.select().where((Credential.instance == instance)
                                      & (Credential.kind == FEED))
    for credential in feeds:
        slot_id, _, secret_digest = credential.ref.partition(":")
        if slot_id in moves:
            Credential.update(ref=f"{moves[slot_id]}:{secret_digest}").where(
                Credential.id == credential.id).execute()


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> str:
    """Cell text a spreadsheet will not run as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def csv_reply(header: Sequence[str], rows: Iterable[Sequence[object]], filename: str) -> Reply:
    """A proper CSV (csv module quoting, formula-safe cells), never cached or indexed. It
    starts with a UTF-8 byte-order mark: without it Excel reads UTF-8 as the local code page
    and mangles every accented or non-Latin name."""
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer)
    writer.writerow(header)
    for row in rows:
        writer.writerow([spreadsheet_safe(cell) for cell in row])
    return Reply(body=buffer.getvalue(), content_type="text/csv; charset=utf-8",
                 headers={"Content-Disposition": f'attachment; filename="{filename}"',
                          "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow"})
