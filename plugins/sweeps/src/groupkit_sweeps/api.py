"""Office Sweep: create, views and the organiser's redraw."""

from __future__ import annotations

from typing import Any

from groupkit import Call
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import conflict

from .draw import draw
from .schema import CUP

ops = Operations()

WORDING = {
    CUP: {"heading": "Cup sweep", "outcome": "horse", "outcomes": "horses",
          "event": "the race"},
    "final": {"heading": "Grand final sweep", "outcome": "result", "outcomes": "results",
              "event": "the grand final"},
}


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"kind": data["kind"], "outcomes": data["outcomes"],
                     "names": data["names"],
                     "draw": draw(data["outcomes"], data["names"])}


def public_view(instance: Instance) -> dict[str, Any]:
    data = instance.data
    wording = WORDING[data["kind"]]
    return {"title": instance.title, "heading": instance.title or wording["heading"],
            "kind": data["kind"], "wording": wording, "draw": data["draw"]["pairs"],
            "surplus": data["draw"]["surplus"]}


def organiser_view(instance: Instance) -> dict[str, Any]:
    return {**public_view(instance), "outcomes": instance.data["outcomes"],
            "names": instance.data["names"]}


DRAW_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "ok": {"type": "boolean"},
    "draw": {"type": "array", "items": {"type": "object", "properties": {
        "outcome": {"type": "string"}, "name": {"type": "string"}}}},
    "surplus": {"type": "array", "items": {"type": "string"}}}}


@ops.organiser("redraw", returns=DRAW_SCHEMA)
def redraw(call: Call) -> dict[str, Any]:
    """Reshuffle the whole draw."""
    data = dict(call.instance.data)
    data["draw"] = draw(data["outcomes"], data["names"])
    call.instance.data = data
    call.instance.save()
    return {"ok": True, "draw": data["draw"]["pairs"], "surplus": data["draw"]["surplus"]}


REDRAW = ("Changing the names or outcomes draws the sweep again — everyone may end up with "
          "a different one. Go ahead?")


def apply_edit(call: Call) -> dict[str, Any]:
    """Title and flavour change as sent. New names or outcomes mean a new draw, so the
    organiser confirms it first (`confirm: true`); the same lists keep the draw."""
    changes, data = dict(call.data), call.instance.data
    changed = [key for key in ("outcomes", "names") if key in changes and changes[key] != data[key]]
    if changed:
        if not call.confirmed:
            raise conflict(REDRAW, changed[0], confirm=True)
        merged = {**data, **changes}
        changes["draw"] = draw(merged["outcomes"], merged["names"])
    return changes


EDIT = Edit(fields=("title", "kind", "outcomes", "names"), apply=apply_edit,
            errors={409: f"New names or outcomes redraw the sweep: `{REDRAW}` with "
                         "`confirm: true` until the body is sent with `\"confirm\": true`."})
