"""Pixel Gift Registry: create, views, claiming parts, chipping in, and the organiser's
claim list, mark-paid and release."""

from __future__ import annotations

import functools
import secrets
from typing import Any

import peewee as pw
from markupsafe import Markup

from groupkit import N_
from groupkit import Call
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import Reply
from groupkit import bad_request
from groupkit import checked_in_order
from groupkit import conflict
from groupkit import gettext
from groupkit import not_found
from groupkit import utc_iso
from groupkit.signups import board_views

from .models import RegistryClaim
from .schema import BAD_AMOUNT
from .schema import DEFAULT_OVERFLOW_TITLE
from .schema import MAX_CENTS
from .schema import MAX_CONTRIBUTIONS
from .schema import MIN_CENTS
from .schema import NO_CLAIM
from .schema import NO_NAME
from .schema import OVERFLOW_FULL
from .schema import PAYMENT_FIELDS
from .schema import TAKEN
from .schema import UNKNOWN_PART
from .schema import ClaimBody
from .schema import OverflowBody
from .schema import PaidBody
from .schema import ReleaseBody
from .vehicle import HEIGHT
from .vehicle import SECTIONS
from .vehicle import WIDTH
from .vehicle import Part
from .vehicle import by_id
from .vehicle import parts
from .vehicle import spoken_name

ops = Operations()

REFERENCE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def title_of(data: dict[str, Any]) -> str:
    return str(data["coupleNames"])


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"coupleNames": data["coupleNames"], "tagline": data["tagline"],
                     "weddingDate": data["weddingDate"], "payment": data["payment"],
                     "overflowTitle": data["overflowTitle"]}


# --- views --------------------------------------------------------------------------------

def _claims(instance: Instance) -> list[RegistryClaim]:
    return list(RegistryClaim.select().where(RegistryClaim.instance == instance)
                .order_by(RegistryClaim.created, RegistryClaim.id))


def _overflow_title(data: dict[str, Any]) -> str:
    """The overflow gift's title: the couple's words, or the default in the reader's language."""
    title = str(data["overflowTitle"])
    return gettext(title) if title == DEFAULT_OVERFLOW_TITLE else title


def _item(instance: Instance, claim: RegistryClaim) -> str:
    part = by_id().get(claim.part_id or "")
    return spoken_name(part) if part else _overflow_title(instance.data)


def _registry(instance: Instance, organiser: bool) -> dict[str, Any]:
    """Public: the build sheet as guests see it. Never the payment details, references or who
    paid. Organiser: the public view plus the payment details and every claim with reference
    and paid."""
    data = instance.data
    claims = _claims(instance)
    by_part = {claim.part_id: claim for claim in claims if claim.part_id}
    contributions = [claim for claim in claims if claim.part_id is None]
    # Part names and sections in the language being spoken: a page's reader's (the API's
    # English is the same words as `part.name`).
    catalogue = [{"id": part.id, "name": spoken_name(part), "section": gettext(part.section),
                  "priceCents": part.price_cents, "claimed": part.id in by_part,
                  "claimedBy": by_part[part.id].name if part.id in by_part else None,
                  "shape": shape_of(part), "pixels": pixels_svg(part)}
                 for part in parts()]
    view: dict[str, Any] = {
        "title": instance.title, "heading": data["coupleNames"],
        "coupleNames": data["coupleNames"], "tagline": data["tagline"],
        "weddingDate": data["weddingDate"], "sections": [gettext(name) for name in SECTIONS],
        "canvas": {"width": WIDTH, "height": HEIGHT},
        "parts": catalogue, "partsClaimed": len(by_part), "partsTotal": len(catalogue),
        "overflow": {"title": _overflow_title(data), "minCents": MIN_CENTS,
                     "maxCents": MAX_CENTS, "limit": MAX_CONTRIBUTIONS,
                     "count": len(contributions),
                     "open": len(contributions) < MAX_CONTRIBUTIONS},
        # The public claim list: who built what, with their message. No references, no
        # paid status, no amounts for contributions.
        "crew": [{"kind": "part" if claim.part_id else "overflow", "partId": claim.part_id,
                  "item": _item(instance, claim), "name": claim.name,
                  "message": claim.message} for claim in claims],
    }
    if organiser:
        view["payment"] = dict(data["payment"])
        view["claims"] = [_organiser_claim(instance, claim) for claim in claims]
        view["totals"] = {
            "claimedCents": sum(claim.amount_cents for claim in claims),
            "paidCents": sum(claim.amount_cents for claim in claims if claim.paid)}
    return view


public_view, organiser_view = board_views(_registry)


def _organiser_claim(instance: Instance, claim: RegistryClaim) -> dict[str, Any]:
    return {"reference": claim.reference, "kind": "part" if claim.part_id else "overflow",
            "partId": claim.part_id, "item": _item(instance, claim), "name": claim.name,
            "message": claim.message, "amountCents": claim.amount_cents, "paid": claim.paid,
            "claimedAt": utc_iso(claim.created)}


@functools.cache
def shape_of(part: Part) -> dict[str, Any]:
    """How the part is drawn: pixel runs `[x, y, width, height, fill, detail]` on the
    vehicle's grid, its outline as SVG path data, and its blueprint shade. Parts never
    change, so each shape is built once per process (callers must not mutate it)."""
    return {"rects": [[r.x, r.y, r.w, r.h, r.fill, int(r.detail)] for r in part.rects],
            "outline": part.outline, "shade": part.shade}


@functools.cache
def pixels_svg(part: Part) -> Markup:
    """The part's pixel runs as SVG, built once: the page draws 126 parts of many runs each,
    and a template loop over every run was most of the page's render time. Only numbers and
    the server's own colours go in, never user text."""
    return Markup("".join(
        f'<rect x="{r.x}" y="{r.y}" width="{r.w}" height="{r.h}" fill="{r.fill}"'
        + (' class="d"' if r.detail else "") + "/>" for r in part.rects))


def export(instance: Instance) -> dict[str, Any]:
    """The organiser's view without the drawing."""
    view = organiser_view(instance)
    view["parts"] = [{key: value for key, value in part.items() if key not in ("shape", "pixels")}
                     for part in view["parts"]]
    return view


#: A link preview's words, in the reader's language.
PREVIEW_TITLE = N_("{names}: the wedding van registry")
PREVIEW_INVITATION = N_("Help build our wedding van, one pixel part at a time.")


def preview(instance: Instance) -> dict[str, Any]:
    data = instance.data
    description = data["tagline"] or gettext(PREVIEW_INVITATION)
    return {"title": gettext(PREVIEW_TITLE).format(names=data["coupleNames"]),
            "description": description}


# --- schemas for the OpenAPI document ----------------------------------------------------

PAYMENT_SCHEMA: dict[str, Any] = {
    "type": "object", "description": "how to pay the couple (all empty when none was given)",
    "properties": {key: {"type": "string", "maxLength": limit}
                   for key, limit in PAYMENT_FIELDS.items()}}
CLAIM_REPLY: dict[str, Any] = {"type": "object", "properties": {
    "reference": {"type": "string", "description": "put it on the transfer"},
    "partId": {"type": ["string", "null"]}, "item": {"type": "string"},
    "amountCents": {"type": "integer"}, "payment": PAYMENT_SCHEMA}}
PART_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "id": {"type": "string"}, "name": {"type": "string"}, "section": {"type": "string"},
    "priceCents": {"type": "integer"}, "claimed": {"type": "boolean"},
    "claimedBy": {"type": ["string", "null"]},
    "shape": {"type": "object", "description": "the part's pixels on the 86 x 50 grid: "
              "`rects` `[x, y, width, height, fill, detail]`, `outline` (SVG path data), "
              "`shade` (blueprint tint, never the same as a touching part's)"},
    "pixels": {"type": "string", "description": "the same runs as SVG `<rect>` elements, "
               "ready to draw"}}}
CREW_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "kind": {"enum": ["part", "overflow"]}, "partId": {"type": ["string", "null"]},
    "item": {"type": "string"}, "name": {"type": "string"}, "message": {"type": "string"}}}
ORGANISER_CLAIM: dict[str, Any] = {"type": "object", "properties": {
    "reference": {"type": "string"}, "kind": {"enum": ["part", "overflow"]},
    "partId": {"type": ["string", "null"]}, "item": {"type": "string"},
    "name": {"type": "string"}, "message": {"type": "string"},
    "amountCents": {"type": "integer"}, "paid": {"type": "boolean"},
    "claimedAt": {"type": "string", "format": "date-time"}}}
REGISTRY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "title": {"type": "string"}, "heading": {"type": "string"},
    "coupleNames": {"type": "string"}, "tagline": {"type": "string"},
    "weddingDate": {"type": "string"},
    "sections": {"type": "array", "items": {"type": "string"}},
    "parts": {"type": "array", "items": PART_SCHEMA, "minItems": 126, "maxItems": 126},
    "partsClaimed": {"type": "integer"}, "partsTotal": {"type": "integer"},
    "overflow": {"type": "object", "properties": {
        "title": {"type": "string"}, "minCents": {"type": "integer"},
        "maxCents": {"type": "integer"}, "limit": {"type": "integer"},
        "count": {"type": "integer"}, "open": {"type": "boolean"}}},
    "crew": {"type": "array", "items": CREW_SCHEMA,
             "description": "the public claim list, oldest first: no references, no paid "
                            "status, no contribution amounts"}}}
CLAIMS_REPLY: dict[str, Any] = {"type": "object", "properties": {
    "claims": {"type": "array", "items": ORGANISER_CLAIM}, "payment": PAYMENT_SCHEMA,
    "totals": {"type": "object"}}}


# --- guests -------------------------------------------------------------------------------

def _reference(instance: Instance) -> str:
    """A short code for the bank transfer, unique within the registry."""
    while True:
        code = "VAN-" + "".join(secrets.choice(REFERENCE_ALPHABET) for _ in range(6))
        if not RegistryClaim.select().where((RegistryClaim.instance == instance)
                                            & (RegistryClaim.reference == code)).exists():
            return code


def _reply(instance: Instance, claim: RegistryClaim) -> dict[str, Any]:
    """The claimant's own receipt: the only public response that carries payment details."""
    return {"reference": claim.reference, "partId": claim.part_id,
            "item": _item(instance, claim), "amountCents": claim.amount_cents,
            "payment": dict(instance.data["payment"])}


@ops.public("claim", body=ClaimBody, status=201, returns=CLAIM_REPLY, errors={
    400: checked_in_order(("name empty after C(60)", NO_NAME),
                          ("part id not one of the 126", UNKNOWN_PART),
                          then="The message is cut to 240 silently."),
    409: f"The part is already claimed: `{TAKEN}`",
    404: "Unknown, malformed, deleted or another tool's public link: `not found`"})
def claim(call: Call) -> dict[str, Any]:
    """Claim one part of the van; returns a reference, the amount and how to pay.

    Body `{slug, partId, name, message?}`. The amount is the part's price, fixed on the server. The
    reply is the only public response with the payment details.
    """
    part: Part | None = by_id().get(call.data["partId"])
    if part is None:
        raise bad_request(UNKNOWN_PART)
    instance = call.instance
    taken = RegistryClaim.select().where((RegistryClaim.instance == instance)
                                         & (RegistryClaim.part_id == part.id)).exists()
    if taken:
        raise conflict(TAKEN)
    try:
        with RegistryClaim._meta.database.atomic():
            made = RegistryClaim.create(
                instance=instance, reference=_reference(instance), part_id=part.id,
                name=call.data["name"], message=call.data["message"],
                amount_cents=part.price_cents, created=call.now)
    except pw.IntegrityError:  # the unique (instance, part_id) index: a lost race
        raise conflict(TAKEN) from None
    return _reply(instance, made)


@ops.public("overflow", body=OverflowBody, status=201, returns=CLAIM_REPLY, errors={
    400: checked_in_order((f"amountCents not a whole number from {MIN_CENTS} to {MAX_CENTS} "
                           "(numeric strings accepted)", BAD_AMOUNT), ("name empty", NO_NAME)),
    409: f"{MAX_CONTRIBUTIONS} contributions held: `{OVERFLOW_FULL}`",
    404: "Unknown, malformed, deleted or another tool's public link: `not found`"})
def overflow(call: Call) -> dict[str, Any]:
    """Chip in any amount from $5 to $2,000 to the overflow item.

    Body `{slug, amountCents, name, message?}`: chip in to the overflow item (its title is the
    registry's `overflowTitle`). Same reply as a part claim.
    """
    instance = call.instance
    # The kernel holds the instance lock: this count and the insert cannot interleave.
    held = RegistryClaim.select().where((RegistryClaim.instance == instance)
                                        & RegistryClaim.part_id.is_null()).count()
    if held >= MAX_CONTRIBUTIONS:
        raise conflict(OVERFLOW_FULL)
    made = RegistryClaim.create(
        instance=instance, reference=_reference(instance), part_id=None,
        name=call.data["name"], message=call.data["message"],
        amount_cents=call.data["amountCents"], created=call.now)
    return _reply(instance, made)


# --- the organiser ------------------------------------------------------------------------

@ops.organiser("claims", method="GET", returns=CLAIMS_REPLY)
def list_claims(call: Call) -> Reply:
    """List all claims with references, amounts and paid status.

    Every part claim and contribution, oldest first, with reference, amount and paid status; served
    no-store.
    """
    view = organiser_view(call.instance)
    return Reply({"claims": view["claims"], "payment": view["payment"],
                  "totals": view["totals"]}, headers={"Cache-Control": "no-store"})


def _find(instance: Instance, reference: str) -> RegistryClaim:
    found = RegistryClaim.select().where((RegistryClaim.instance == instance)
                                         & (RegistryClaim.reference == reference)).first()
    if found is None:
        raise not_found(NO_CLAIM)
    return found


@ops.organiser("paid", body=PaidBody, returns={"type": "object", "properties": {
    "ok": {"type": "boolean"}, "reference": {"type": "string"}, "paid": {"type": "boolean"}}},
    errors={404: f"No claim with that reference on this registry: `{NO_CLAIM}`"})
def mark_paid(call: Call) -> dict[str, Any]:
    """Mark a claim paid (or not paid).

    Body `{reference, paid?}`: marks a part claim or contribution paid; `paid: false` takes the mark
    off again (default true).
    """
    found = _find(call.instance, call.data["reference"])
    found.paid = call.data["paid"]
    found.save(only=[RegistryClaim.paid])
    return {"ok": True, "reference": found.reference, "paid": found.paid}


@ops.organiser("release", body=ReleaseBody, returns={"type": "object", "properties": {
    "ok": {"type": "boolean"}, "partId": {"type": ["string", "null"]}}},
    errors={404: f"No claim with that reference on this registry: `{NO_CLAIM}`"})
def release(call: Call) -> dict[str, Any]:
    """Release a claim.

    Body `{reference}`: a released part is available again (paid or not); a released contribution is
    removed and frees its place under the cap.
    """
    found = _find(call.instance, call.data["reference"])
    found.delete_instance()
    return {"ok": True, "partId": found.part_id}


EDIT = Edit(fields=("coupleNames", "tagline", "weddingDate", "payment", "overflowTitle"),
            description="Fix a typo in the payment details (a PayID, a BSB): claims, their "
                        "references and what was paid stay as they are; guests who claim "
                        "from now on see the new details. `payment` is replaced whole.")
