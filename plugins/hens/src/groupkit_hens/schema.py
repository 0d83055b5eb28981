"""Hens & Shower Planner bodies, fields in the spec's check order: title, then the
categories (present, count, each entry's name and capacity, duplicates)."""

from __future__ import annotations

from groupkit import N_
from groupkit import Count
from groupkit import Line
from groupkit import Schema
from groupkit import StringList
from groupkit import Text
from groupkit import WholeNumber
from groupkit.signups import group_lists

NO_TITLE = N_("Give the event a name — whose hens or shower is it?")
NO_CATEGORIES = N_("Add at least one thing to bring or sort.")
TOO_MANY_CATEGORIES = N_("Twelve lists is the limit — combine a couple.")
NO_CATEGORY_NAME = N_("Every list needs a name.")
BAD_CAPACITY = N_("Spots per list must be a whole number from 1 to 20.")
DUPLICATE_CATEGORY = N_("Two lists share a name — make each one different.")

MAX_CATEGORIES = 12
MAX_SPOTS = 20
MAX_ACTIVITIES = 20
MESSAGE_LIMIT = 120


CATEGORIES, EDITED_CATEGORIES = group_lists(
    # "after numeric conversion": "4" passes and true counts as 1.
    {"name": Line(40, required=NO_CATEGORY_NAME),
     "capacity": WholeNumber(1, MAX_SPOTS, BAD_CAPACITY, bools=True)},
    at_least=Count(1, NO_CATEGORIES), at_most=Count(MAX_CATEGORIES, TOO_MANY_CATEGORIES),
    distinct=("name", DUPLICATE_CATEGORY))


class CreateHens(Schema):
    title = Line(80, required=NO_TITLE)
    forWhom = Line(80)  # the spec's field names
    when = Line(80)
    where = Line(120)
    note = Text(400)
    kitty = Text(200)
    categories = CATEGORIES
    activities = StringList(100, keep_first=MAX_ACTIVITIES)


class EditHens(CreateHens):
    """The create rules; each list may say which existing one it continues (`was`)."""

    categories = EDITED_CATEGORIES


#: An edit that would take away someone's spot (409).
LIST_HELD = N_("Someone has a spot in {name} — remove them from it first, then the list can "
               "go.")
LIST_SHRUNK = N_("{name} has {taken} spots taken — remove someone first, "
                 "or keep at least {taken} spots.")


SLOT_ID = "a spot on this board: `c<categoryIndex>-<n>`, categoryIndex from 0, n from 1"
