"""Office Sweep: create, views and the organiser's redraw.

The draw is fixed at creation, but the organiser may redraw it (the redraw operation, or an
edit of the names or outcomes, confirmed). A redraw is a correction the group must be able
to see: every one is counted with the instance and the share page says when the last was,
so nobody can quietly redraw until a friend gets the favourite.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from groupkit import N_
from groupkit import Call
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import conflict
from groupkit import utc_iso

from .draw import draw
from .schema import CUP

ops = Operations()

#: The words each flavour's pages use: English in the API, translated where shown.
WORDING = {
    CUP: {"heading": N_("Cup sweep"), "outcome": N_("horse"), "outcomes": N_("horses"),
          "event": N_("the race")},
    "final": {"heading": N_("Grand final sweep"), "outcome": N_("result"),
              "outcomes": N_("results"), "event": N_("the grand final")},
}


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"kind": data["kind"], "outcomes": data["outcomes"],
                     "names": data["names"],
                     "draw": draw(data["outcomes"], data["names"])}


def redrawn(data: dict[str, Any], now: dt.datetime) -> dict[str, Any]:
    """`data` with a new draw of its lists, the redraw counted and its time kept (shown to
    everyone as `redrawn`)."""
    count = data.get("redrawn", {}).get("count", 0) + 1
    return {**data, "draw": draw(data["outcomes"], data["names"]),
            "redrawn": {"count": count, "at": utc_iso(now)}}


def public_view(instance: Instance) -> dict[str, Any]:
    """The draw, and once it has been redrawn how often and when last (a sweep never
    redrawn reads as it always did)."""
    data = instance.data
    wording = WORDING[data["kind"]]
    view = {"title": instance.title, "heading": instance.title or wording["heading"],
            "kind": data["kind"], "wording": wording, "draw": data["draw"]["pairs"],
            "surplus": data["draw"]["surplus"]}
    if "redrawn" in data:
        view["redrawn"] = dict(data["redrawn"])
    return view


def organiser_view(instance: Instance) -> dict[str, Any]:
    return {**public_view(instance), "outcomes": instance.data["outcomes"],
            "names": instance.data["names"]}


DRAW_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "ok": {"type": "boolean"},
    "draw": {"type": "array", "items": {"type": "object", "properties": {
        "outcome": {"type": "string"}, "name": {"type": "string"}}}},
    "surplus": {"type": "array", "items": {"type": "string"}}}}


REDRAWN_SCHEMA: dict[str, Any] = {
    "type": "object", "description": "present once the organiser has redrawn the sweep (the "
    "redraw operation, or a confirmed edit of the names or outcomes): how many times, and "
    "when the last was (UTC); the share page says so",
    "properties": {"count": {"type": "integer", "minimum": 1},
                   "at": {"type": "string", "format": "date-time"}}}


@ops.organiser("redraw", returns=DRAW_SCHEMA)
def redraw(call: Call) -> dict[str, Any]:
    """Reshuffle the whole draw.

    The redraw is counted and its time kept: the share page tells the group the organiser
    redrew the sweep, and when (`redrawn` in the public read).
    """
    data = redrawn(call.instance.data, call.now)
    call.instance.data = data
    call.instance.save()
    return {"ok": True, "draw": data["draw"]["pairs"], "surplus": data["draw"]["surplus"]}


REDRAW = N_("Changing the names or outcomes draws the sweep again — everyone may end up "
             "with a different one. Go ahead?")


def apply_edit(call: Call) -> dict[str, Any]:
    """Title and flavour change as sent. New names or outcomes mean a new draw, so the
    organiser confirms it first (`confirm: true`); the same lists keep the draw. A
    confirmed redraw is a correction the organiser may need, not something to hide: it is
    counted and shown to the group like the redraw operation."""
    changes, data = dict(call.data), call.instance.data
    changed = [key for key in ("outcomes", "names") if key in changes and changes[key] != data[key]]
    if changed:
        if not call.confirmed:
            raise conflict(REDRAW, changed[0], confirm=True)
        merged = redrawn({**data, **changes}, call.now)
        changes.update(draw=merged["draw"], redrawn=merged["redrawn"])
    return changes


EDIT = Edit(fields=("title", "kind", "outcomes", "names"), apply=apply_edit,
            errors={409: f"New names or outcomes redraw the sweep: `{REDRAW}` with "
                         "`confirm: true` until the body is sent with `\"confirm\": true`."},
            description="A confirmed redraw is counted and shown to the group as the redraw "
                        "operation's is (`redrawn` in the public read).")
