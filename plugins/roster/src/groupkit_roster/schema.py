"""Volunteer Roster bodies, fields in the spec's check order."""

from __future__ import annotations

from groupkit import N_
from groupkit import Count
from groupkit import Line
from groupkit import Schema
from groupkit import Text
from groupkit import WholeNumber
from groupkit.signups import group_lists

NO_SHIFTS = N_("Add at least one shift.")
TOO_MANY_SHIFTS = N_("Twenty shifts is the limit — split the day if you need more.")
NO_LABEL = N_("Every shift needs a label — a job and a time.")
BAD_CAPACITY = N_("Spots per shift must be a whole number from 1 to 30.")

MAX_SHIFTS = 20
MAX_SPOTS = 30
LABEL_LIMIT = 50
MESSAGE_LIMIT = 120


SHIFTS, EDITED_SHIFTS = group_lists(
    {"label": Line(LABEL_LIMIT, required=NO_LABEL),
     "capacity": WholeNumber(1, MAX_SPOTS, BAD_CAPACITY)},
    at_least=Count(1, NO_SHIFTS), at_most=Count(MAX_SHIFTS, TOO_MANY_SHIFTS))


class CreateRoster(Schema):
    title = Line(80)
    eventDate = Line(60)  # the spec's field name; free text, read only to offer calendar entries
    note = Text(300)
    shifts = SHIFTS


class EditRoster(CreateRoster):
    """The create rules; each shift may say which existing one it continues (`was`)."""

    shifts = EDITED_SHIFTS


#: An edit that would take away someone's shift (409).
SHIFT_HELD = N_("Someone is on {name} — remove them from it first, then the shift can go.")
SHIFT_SHRUNK = N_("{name} has {taken} volunteers — remove someone first, "
                  "or keep at least {taken} spots.")
