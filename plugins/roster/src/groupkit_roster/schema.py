"""Volunteer Roster bodies, fields in the spec's check order."""

from __future__ import annotations

from groupkit import Count, Line, ObjectList, Raw, Schema, Text, WholeNumber

NO_SHIFTS = "Add at least one shift."
TOO_MANY_SHIFTS = "Twenty shifts is the limit — split the day if you need more."
NO_LABEL = "Every shift needs a label — a job and a time."
BAD_CAPACITY = "Spots per shift must be a whole number from 1 to 30."

MAX_SHIFTS = 20
MAX_SPOTS = 30
LABEL_LIMIT = 50
NAME_LIMIT = 40
MESSAGE_LIMIT = 120


class CreateRoster(Schema):
    title = Line(80)
    eventDate = Line(60)  # the spec's field name; free text, read only to offer calendar entries
    note = Text(300)
    shifts = ObjectList(
        {"label": Line(LABEL_LIMIT, required=NO_LABEL),
         "capacity": WholeNumber(1, MAX_SPOTS, BAD_CAPACITY)},
        at_least=Count(1, NO_SHIFTS),
        at_most=Count(MAX_SHIFTS, TOO_MANY_SHIFTS))


class ClaimBody(Schema):
    """Never fails on its own: the operation checks slot id, then name (the spec's order).
    `slotId` is taken as sent (a non-string is no spot)."""

    slotId = Raw()  # the spec's field name
    name = Line(NAME_LIMIT)
    message = Line(MESSAGE_LIMIT)


class UnclaimBody(Schema):
    slotId = Raw()
    secret = Raw()


class RemoveBody(Schema):
    slotId = Raw()
