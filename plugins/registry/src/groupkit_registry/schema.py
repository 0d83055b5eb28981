"""Pixel Gift Registry bodies, fields in the spec's check order."""

from __future__ import annotations

from typing import Any

from groupkit import N_
from groupkit import Exact
from groupkit import Flag
from groupkit import Line
from groupkit import Schema
from groupkit import SpecField
from groupkit import Text
from groupkit import WholeNumber
from groupkit import clean_line
from groupkit import js_string

NO_COUPLE = N_("Add your names — it's your registry.")
NO_NAME = N_("Add your name — it goes on the build crew wall.")
UNKNOWN_PART = N_("That part isn't on this build sheet.")
TAKEN = N_("Someone beat you to that one by a whisker.")
BAD_AMOUNT = N_("Pick an amount between $5 and $2,000.")
OVERFLOW_FULL = N_("The overflow patch is chockers — give your gift to the couple directly.")
NO_CLAIM = N_("That claim isn't on this registry — it may have been released already.")

#: Stored when the couple name no overflow gift; a page says it in its reader's language.
DEFAULT_OVERFLOW_TITLE = N_("Fuel & rego for the first year")
NAME_LIMIT = 60
MESSAGE_LIMIT = 240
MIN_CENTS = 500
MAX_CENTS = 200_000
MAX_CONTRIBUTIONS = 400
PART_COUNT = 126

#: The payment block's fields and their C(n) limits, in the spec's order.
PAYMENT_FIELDS = {"method": 40, "aliasId": 80, "accountName": 80, "bsb": 10,
                  "accountNumber": 20, "note": 200}
#: At least one of these must be non-empty for the block to be kept.
PAYMENT_KEYS = ("aliasId", "accountName", "bsb", "accountNumber")
EMPTY_PAYMENT = dict.fromkeys(PAYMENT_FIELDS, "")


class CoupleNames(Line):
    """C(80); a non-string with content is converted as a browser's `String()` would
    (so 0 and false become text); null and missing count as empty."""

    def clean(self, value: Any) -> str:
        if value is None or isinstance(value, str):
            return super().clean(value if isinstance(value, str) else "")
        return super().clean(js_string(value))


class Payment(SpecField):
    """The payment block: a non-object is absent; each field C(n), non-strings empty; kept
    only when aliasId, accountName, bsb or accountNumber has text, else stored all empty."""

    openapi_type = "object"

    def clean(self, value: Any) -> dict[str, str]:
        if not isinstance(value, dict):
            return dict(EMPTY_PAYMENT)
        block = {key: clean_line(value[key], limit) if isinstance(value.get(key), str) else ""
                 for key, limit in PAYMENT_FIELDS.items()}
        return block if any(block[key] for key in PAYMENT_KEYS) else dict(EMPTY_PAYMENT)

    def openapi(self) -> dict[str, Any]:
        return {"type": "object", "description":
                "kept only when one of aliasId, accountName, bsb, accountNumber has text; "
                "otherwise every field (method and note too) is stored empty",
                "properties": {key: {"type": "string", "maxLength": limit}
                               for key, limit in PAYMENT_FIELDS.items()}}


class CreateRegistry(Schema):
    coupleNames = CoupleNames(80, required=NO_COUPLE)  # the spec's field names
    tagline = Line(140)
    weddingDate = Line(60)
    payment = Payment()
    overflowTitle = Line(60, default=DEFAULT_OVERFLOW_TITLE)


class ClaimBody(Schema):
    """Name, then message, then the part (its id checked by the operation)."""

    name = Line(NAME_LIMIT, required=NO_NAME)
    message = Text(MESSAGE_LIMIT)
    partId = Exact("one of the 126 part ids, `p001` to `p126`")


class OverflowBody(Schema):
    """Amount first, as the spec lists it, then name and message."""

    amountCents = WholeNumber(MIN_CENTS, MAX_CENTS, BAD_AMOUNT)
    name = Line(NAME_LIMIT, required=NO_NAME)
    message = Text(MESSAGE_LIMIT)


class PaidBody(Schema):
    reference = Exact("the claim's reference")
    paid = Flag(default=True)


class ReleaseBody(Schema):
    reference = Exact("the claim's reference")
