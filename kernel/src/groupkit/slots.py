"""Slot claims shared by the sign-up tools: a spot is claimed by one INSERT guarded by a
unique constraint, released with the claim's 16-character secret or by the organiser."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import peewee as pw

from .credentials import CLAIM_SECRET_LENGTH, digest, looks_like_token, new_claim_secret
from .errors import ApiError
from .storage import BaseModel, Instance, JsonField, utcnow
from .tool import Reply

RELEASE_MISMATCH = "That spot isn't held with that secret — it may already be free."


class SlotClaim(BaseModel):
    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    slot_id = pw.CharField(max_length=40)
    name = pw.CharField(max_length=80)
    extra = JsonField(default=dict)
    secret_digest = pw.CharField(max_length=64)
    created = pw.DateTimeField(default=utcnow)

    class Meta:
        table_name = "slot_claim"
        indexes = ((("instance", "slot_id"), True),)


def claim_slot(instance: Instance, slot_id: str, name: str, extra: Mapping[str, Any],
               taken_message: str) -> str:
    """Claim `slot_id` for `name`; returns the secret. The loser of a race gets 409
    `taken_message` from the unique constraint, whatever the isolation level."""
    secret = new_claim_secret()
    try:
        with SlotClaim._meta.database.atomic():
            SlotClaim.create(instance=instance, slot_id=slot_id, name=name, extra=dict(extra),
                             secret_digest=digest(secret))
    except pw.IntegrityError:
        raise ApiError(409, taken_message) from None
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
    """Organiser force-clear; True when a claim was there."""
    return bool(SlotClaim.delete()
                .where((SlotClaim.instance == instance) & (SlotClaim.slot_id == slot_id))
                .execute())


def claims_by_slot(instance: Instance) -> dict[str, SlotClaim]:
    return {claim.slot_id: claim
            for claim in SlotClaim.select().where(SlotClaim.instance == instance)}


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
