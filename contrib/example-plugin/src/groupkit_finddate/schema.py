"""Request bodies, fields in check order (the first failing check is the answer)."""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from typing import Any

import marshmallow as ma

from groupkit import N_
from groupkit import Choice
from groupkit import Count
from groupkit import Line
from groupkit import ObjectList
from groupkit import Raw
from groupkit import RecordId
from groupkit import Schema
from groupkit import SpecField
from groupkit import Text

MAX_SLOTS = 40
ANSWERS = ("yes", "maybe", "no")

NO_TITLE = N_("Name the event so people know what they're picking a date for.")
TOO_FEW = N_("Propose at least two dates or times to choose between.")
TOO_MANY = N_("Forty options is the most — keep the ones that matter.")
#: Said beside the browser's date and time pickers, whose format is the visitor's own, so
#: they name no format (the OpenAPI document gives the wire format).
BAD_DATE = N_("Each option needs a real date — pick one with the date picker.")
BAD_TIME = N_("Each time needs to be a real time, and the end comes after the start.")
TWICE = N_("The same date and time is proposed twice — remove one.")
BAD_ZONE = N_("That time zone isn't one we know — use a name like Australia/Sydney.")
NO_NAME = N_("Add your name so the organiser knows who's coming.")
NO_SLOT = N_("That option isn't on this list.")
NO_ANSWERS = N_("Mark at least one option.")
#: Edits that would take away answers or the chosen date (409).
ANSWERED_OPTION = ("{count} already answered {label} — remove it anyway? "
                   "Their answers for it go with it.")
#: ANSWERED_OPTION with its count said, so a page can say the whole sentence in its
#: reader's language (the English is the same, word for word).
ANSWERED_BY_ONE = N_("1 person has already answered {label} — remove it anyway? "
                     "Their answers for it go with it.")
ANSWERED_BY_MANY = N_("{n} people have already answered {label} — remove it anyway? "
                      "Their answers for it go with it.")
CHOSEN_OPTION = N_("{label} is the date you chose — clear the choice first, then remove it.")


class IsoDate(SpecField):
    def clean(self, value: Any) -> str:
        if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
            raise ma.ValidationError(BAD_DATE)
        try:
            return dt.date.fromisoformat(value.strip()).isoformat()
        except ValueError:
            raise ma.ValidationError(BAD_DATE) from None

    def openapi(self) -> dict[str, Any]:
        return {"type": "string", "format": "date", "description": "YYYY-MM-DD, a real day"}


class ClockTime(SpecField):
    """HH:MM or nothing (an all-day option)."""

    def clean(self, value: Any) -> str:
        if value is None or value is ma.missing or value == "":
            return ""
        if not isinstance(value, str) or not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d",
                                                          value.strip()):
            raise ma.ValidationError(BAD_TIME)
        return value.strip()

    def openapi(self) -> dict[str, Any]:
        return {"type": "string", "pattern": "^([01]\\d|2[0-3]):[0-5]\\d$",
                "description": "HH:MM, 24-hour"}


class TimeZone(SpecField):
    def clean(self, value: Any) -> str:
        if value is None or value is ma.missing or value == "":
            return "Australia/Sydney"
        if not isinstance(value, str) or value.strip() not in zoneinfo.available_timezones():
            raise ma.ValidationError(BAD_ZONE)
        return value.strip()

    def openapi(self) -> dict[str, Any]:
        return {"type": "string", "default": "Australia/Sydney",
                "description": "IANA time zone of the times"}


def _slot_key(slot: dict[str, Any]) -> str:
    return f"{slot['date']} {slot['start']}-{slot['end']}"


class CreateFindDate(Schema):
    title = Line(80, required=NO_TITLE)
    note = Text(300)
    timezone = TimeZone()
    slots = ObjectList({"date": IsoDate(), "start": ClockTime(), "end": ClockTime()},
                       at_least=Count(2, TOO_FEW), at_most=Count(MAX_SLOTS, TOO_MANY),
                       row_errors=True)

    @ma.validates_schema(skip_on_field_errors=True)
    def times_in_order(self, data: dict[str, Any], **_: Any) -> None:
        seen: set[str] = set()
        for slot in data.get("slots", []):  # absent from an edit that leaves the options be
            if slot["end"] and (not slot["start"] or slot["end"] <= slot["start"]):
                raise ma.ValidationError(BAD_TIME, "slots")
            if _slot_key(slot) in seen:
                raise ma.ValidationError(TWICE, "slots")
            seen.add(_slot_key(slot))


class AnswersField(SpecField):
    """`[{slotId, answer}]`; answers other than yes / maybe / no read as no."""

    def clean(self, value: Any) -> list[dict[str, str]]:
        entries = value if isinstance(value, list) else []
        cleaned = []
        for entry in entries[:MAX_SLOTS * 2]:
            source = entry if isinstance(entry, dict) else {}
            slot_id = Line(10).clean(source.get("slotId", ma.missing))
            answer = Choice(ANSWERS, "no").clean(source.get("answer", ma.missing))
            if slot_id:
                cleaned.append({"slotId": slot_id, "answer": answer})
        if not cleaned:
            raise ma.ValidationError(NO_ANSWERS)
        return cleaned

    def openapi(self) -> dict[str, Any]:
        return {"type": "array", "items": {"type": "object", "properties": {
            "slotId": {"type": "string"}, "answer": {"type": "string", "enum": list(ANSWERS)}}}}


class RespondBody(Schema):
    name = Line(40, required=NO_NAME)
    answers = AnswersField()
    email = Raw(["string"], "optional: an email address to hear when the date is chosen (the "
                            "first message asks to confirm it); needs email on the server")


class ChangeBody(Schema):
    answers = AnswersField()


class ChooseBody(Schema):
    slotId = Raw()


class RemoveBody(Schema):
    id = RecordId("a response's `id` from the organiser's view")
