"""Sign-up boards (Bring a Plate, Hens & Shower, Volunteer Roster, Meal Train, a third
party's board): one declaration, `SignUp`, gives a tool the operations every board has, with
its own messages and claim fields: `claim` (a spot for a name; returns the claim's secret),
the release with that secret (`unclaim`, from the browser that claimed: the page keeps the
secret), the organiser's `remove`. (A board with calendar feeds adds them with
`slot_feed_operations`, passing the same `not_held`.)

The checks run in the spec's order for every board: the slot id against the board, then the
name, then the tool's required fields; the unique constraint of `SlotClaim` settles a race.
A blank name or required field names its form field (`ApiError.errors`), so a form sent
without JavaScript shows the message next to it; the JSON body stays `{"error": ...}`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from groupkit.blocks._slots import RELEASE_MISMATCH
from groupkit.blocks._slots import GroupSpots
from groupkit.blocks._slots import SlotClaim
from groupkit.blocks._slots import claim_slot
from groupkit.blocks._slots import release_slot
from groupkit.blocks._slots import remove_slot
from groupkit.blocks._slots import was_field
from groupkit.core._credentials import CLAIM_SECRET_LENGTH
from groupkit.core._credentials import digest
from groupkit.core._credentials import looks_like_token
from groupkit.core._errors import ApiError
from groupkit.core._errors import checked_in_order
from groupkit.core._fields import Count
from groupkit.core._fields import Exact
from groupkit.core._fields import Line
from groupkit.core._fields import ObjectList
from groupkit.core._fields import SpecField
from groupkit.core._schema import Schema
from groupkit.core._storage import Instance
from groupkit.core._tool import Call
from groupkit.core._tool import Operations

#: The reply of an operation that answers only that it worked.
OK_REPLY: dict[str, Any] = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
REMOVED_REPLY: dict[str, Any] = {"type": "object", "properties": {
    "ok": {"type": "boolean"},
    "removed": {"type": "boolean", "description": "false when the spot was already free"}}}
NAME_LIMIT = 40
SECRET = "the 16-character secret the claim returned"


def group_spots(key: str, prefix: str) -> Callable[[Instance], Mapping[str, str]]:
    """`SignUp.spots` for a board of groups with a `capacity` each, stored under
    `instance.data[key]` (categories, lists, shifts): every `<prefix><number>-<n>`, one kind."""
    def spots(instance: Instance) -> Mapping[str, str]:
        return GroupSpots(instance.data[key], prefix)
    return spots


@dataclasses.dataclass(frozen=True)
class SignUp:
    """What one sign-up board says its own way; `signup_operations` does the rest.

    spots:    `(instance) -> {slot id: kind}`, every spot on the board now (`group_spots`
              for a board of groups); the kind ("" when all are alike) picks `taken` and
              `keeps`.
    bad_slot: 400 for a slot id not on the board (checked first).
    no_name:  400 for a name empty after cleaning (checked next).
    taken:    409 for a spot already claimed: one message, or one per kind.
    not_held: 404 for a release (or feed) whose secret does not hold the spot.
    fields:   the claim's own fields after `name`, stored with the claim
              (e.g. `{"dish": Line(80)}`); public unless the tool's views hide them.
    required: of those, each that must not be empty: field -> its 400, checked in order.
    keeps:    kind -> the fields a claim of that kind stores (default every one).
    release:  the release operation's path (`unclaim`; Meal Train's is `uncook`).
    slot_doc: what a slot id looks like, for the API document.
    secret_use: what the claim's secret is for, completing "the only way to ...".
    docs:     operation ("claim", "release", "remove") -> its longer API description.
    for_holder: `(instance, claim) -> text` only the spot's holder reads (Meal Train's
              drop-off address), kept off every other page: adds `POST .../held`, which
              answers it to the claim's secret (`{"forYou": text}`).
    """

    spots: Callable[[Instance], Mapping[str, str]]
    bad_slot: str
    no_name: str
    taken: str | Mapping[str, str]
    not_held: str = RELEASE_MISMATCH
    fields: Mapping[str, SpecField] = dataclasses.field(default_factory=dict)
    required: Mapping[str, str] = dataclasses.field(default_factory=dict)
    keeps: Mapping[str, Sequence[str]] | None = None
    release: str = "unclaim"
    slot_doc: str = "a spot on this board"
    secret_use: str = "release this spot yourself"
    docs: Mapping[str, str] = dataclasses.field(default_factory=dict)
    for_holder: Callable[[Instance, SlotClaim], str] | None = None

    def spot(self, instance: Instance, slot_id: object) -> tuple[str, str]:
        """(slot id, kind) of a spot on the board now, else the tool's 400 `bad_slot`."""
        kind = self.spots(instance).get(slot_id) if isinstance(slot_id, str) else None
        if kind is None or not isinstance(slot_id, str):
            raise ApiError(400, self.bad_slot)
        return slot_id, kind

    def taken_message(self, kind: str) -> str:
        return self.taken if isinstance(self.taken, str) else self.taken[kind]

    def body(self, schema_name: str, /, **fields: SpecField) -> type[Schema]:
        """A body schema: the slot id first (taken as sent), then `fields`."""
        return type(schema_name, (Schema,), {"slotId": Exact(self.slot_doc), **fields})

    def claim_errors(self) -> dict[int, str]:
        checks = [("slot id not on this board", self.bad_slot),
                  (f"name empty after cleaning (C({NAME_LIMIT}))", self.no_name),
                  *((f"{field} empty after cleaning", message)
                    for field, message in self.required.items())]
        taken = ([f"`{self.taken}`"] if isinstance(self.taken, str) else
                 [f"{kind or 'a spot'}: `{message}`" for kind, message in self.taken.items()])
        return {400: checked_in_order(*checks),
                409: "The spot is already claimed: " + "; ".join(taken)}


def _blank(field: str, message: str) -> ApiError:
    """A 400 about one form field: the page shows it there; the JSON body is the spec's."""
    return ApiError(400, message, errors=((field, message),))


def signup_operations(ops: Operations, board: SignUp) -> None:
    """Add `claim`, the release (`board.release`) and the organiser's `remove` to `ops`.
    Call it once, where the tool's `ops` is made (not in the hook, which runs per app)."""
    claim_body = board.body("ClaimBody", name=Line(NAME_LIMIT), **board.fields)
    secret_reply = {"type": "object", "properties": {"secret": {
        "type": "string", "minLength": CLAIM_SECRET_LENGTH, "maxLength": CLAIM_SECRET_LENGTH,
        "description": f"keep it: it is the only way to {board.secret_use}"}}}

    @ops.public("claim", body=claim_body, status=201, returns=secret_reply,
                description=board.docs.get("claim", ""), errors=board.claim_errors())
    def claim(call: Call) -> dict[str, Any]:
        """Claim one spot with your name; returns the secret that releases it."""
        slot_id, kind = board.spot(call.instance, call.data["slotId"])
        if not call.data["name"]:
            raise _blank("name", board.no_name)
        for field, message in board.required.items():
            if not call.data[field]:
                raise _blank(field, message)
        keeps = board.fields if board.keeps is None else board.keeps[kind]
        secret = claim_slot(call.instance, slot_id, call.data["name"],
                            {key: call.data[key] for key in keeps},
                            board.taken_message(kind))
        return {"secret": secret}

    @ops.public(board.release, body=board.body("ReleaseBody", secret=Exact(SECRET)),
                returns=OK_REPLY, description=board.docs.get("release", ""), errors={
                    404: "Unknown, missing, deleted or wrong-tool slug; or the spot is not "
                         "held with that secret (wrong or stale secret, free spot, unknown "
                         f"slot id): `{board.not_held}`"})
    def release(call: Call) -> dict[str, Any]:
        """Release your own spot with the secret its claim returned."""
        release_slot(call.instance, call.data["slotId"], call.data["secret"], board.not_held)
        return {"ok": True}

    if board.for_holder is not None:
        _held_operation(ops, board, board.for_holder)

    @ops.organiser("remove", body=board.body("RemoveBody"), returns=REMOVED_REPLY,
                   description=board.docs.get("remove", ""), errors={
                       400: f"Slot id not on this board: `{board.bad_slot}`"})
    def remove(call: Call) -> dict[str, Any]:
        """Free any spot; an already-free spot answers `removed: false`."""
        slot_id, _ = board.spot(call.instance, call.data["slotId"])
        return {"ok": True, "removed": remove_slot(call.instance, slot_id)}


HELD_REPLY = {"type": "object", "properties": {"forYou": {
    "type": "string", "description": "what only the spot's holder reads"}}}


def held_claim(instance: Instance, slot_id: object, secret: object, not_held: str) -> SlotClaim:
    """The claim `secret` holds on `slot_id`, else the tool's 404 `not_held`."""
    if not isinstance(slot_id, str) or not looks_like_token(secret, CLAIM_SECRET_LENGTH):
        raise ApiError(404, not_held)
    claim = SlotClaim.get_or_none((SlotClaim.instance == instance)
                                  & (SlotClaim.slot_id == slot_id)
                                  & (SlotClaim.secret_digest == digest(str(secret))))
    if claim is None:
        raise ApiError(404, not_held)
    return claim


def _held_operation(ops: Operations, board: SignUp,
                    for_holder: Callable[[Instance, SlotClaim], str]) -> None:
    @ops.public("held", body=board.body("HeldBody", secret=Exact(SECRET)), returns=HELD_REPLY,
                changes=False, errors={404: "The spot is not held with that secret: "
                                            f"`{board.not_held}`"},
                description="Body `{slug, slotId, secret}`: what only the spot's holder reads "
                            "(the secret its claim returned), kept off every other page.")
    def held(call: Call) -> dict[str, Any]:
        """What only your spot's holder reads."""
        claim = held_claim(call.instance, call.data["slotId"], call.data["secret"],
                           board.not_held)
        return {"forYou": for_holder(call.instance, claim)}


def stored_groups(groups: Sequence[Mapping[str, Any]],
                  name_key: str = "name") -> list[dict[str, Any]]:
    """A create body's groups as a board keeps them: each one's `name_key` and `capacity`."""
    return [{name_key: group[name_key], "capacity": group["capacity"]} for group in groups]


def claim_details(*keys: str) -> Callable[[SlotClaim | None], dict[str, Any]]:
    """`spot_board(extra=...)` showing the claim's own `keys` (a dish, a message): the
    claimer's value on a taken spot, None on a free one."""
    def details(claim: SlotClaim | None) -> dict[str, Any]:
        return {key: claim.extra.get(key, "") if claim else None for key in keys}
    return details


def spots_schema(prefix: str, details: Mapping[str, str], organiser: bool,
                 name_key: str = "name", most: int = 20,
                 more: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The API document's schema of a `spot_board` of groups (`<prefix><n>-<k>` spots):
    each group's `name_key`, `capacity` (1 to `most`), `more` properties, `taken` and
    `spots`, each spot with the claim's `details` (key -> description) and, for the
    organiser, `claimedAt`."""
    spot: dict[str, Any] = {
        "slotId": {"type": "string", "pattern": f"^{prefix}[0-9]+-[0-9]+$"},
        "taken": {"type": "boolean"},
        "name": {"type": ["string", "null"], "description": "the claimer's name, when taken"},
        **{key: {"type": ["string", "null"], "description": f"{description}, when taken"}
           for key, description in details.items()}}
    if organiser:
        spot["claimedAt"] = {"type": ["string", "null"], "format": "date-time"}
    return {"type": "array", "items": {"type": "object", "properties": {
        name_key: {"type": "string"},
        "capacity": {"type": "integer", "minimum": 1, "maximum": most}, **(more or {}),
        "taken": {"type": "integer", "description": "spots already claimed"},
        "spots": {"type": "array", "items": {"type": "object", "properties": spot}}}}}


def group_lists(entry: Mapping[str, SpecField], at_least: Count, at_most: Count,
                distinct: tuple[str, str] | None = None) -> tuple[ObjectList, ObjectList]:
    """A board's groups as its create schema and its edit schema take them: (create, edit),
    the edit's entries also saying which group each continues (`was_field`). A group's own
    error names its row ("categories.2.name"), so a form shows it at that row's input."""
    def groups(**more: SpecField) -> ObjectList:
        return ObjectList({**entry, **more}, at_least=at_least, at_most=at_most,
                          distinct=distinct, row_errors=True)
    return groups(), groups(was=was_field())


def board_views(board: Callable[[Instance, bool], dict[str, Any]]
                ) -> tuple[Callable[[Instance], dict[str, Any]],
                           Callable[[Instance], dict[str, Any]]]:
    """(`Tool.public_view`, `Tool.organiser_view`) of a board drawn once as
    `board(instance, organiser)`: the organiser's view adds what only they may see (when
    each spot was claimed, private notes); the public one never has it."""
    def public_view(instance: Instance) -> dict[str, Any]:
        """The board as everyone sees it: who holds which spot, never a secret."""
        return board(instance, False)

    def organiser_view(instance: Instance) -> dict[str, Any]:
        """The public board plus what only the organiser sees."""
        return board(instance, True)
    return public_view, organiser_view
