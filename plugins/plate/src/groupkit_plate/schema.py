"""Bring a Plate bodies, fields in the spec's check order."""

from __future__ import annotations

from groupkit import N_
from groupkit import Count
from groupkit import Line
from groupkit import Schema
from groupkit import Text
from groupkit import WholeNumber
from groupkit.signups import group_lists

NO_CATEGORIES = N_("Add at least one category.")
TOO_MANY_CATEGORIES = N_("Twelve categories is the limit — combine a couple.")
NO_CATEGORY_NAME = N_("Every category needs a name.")
BAD_CAPACITY = N_("Spots per category must be a whole number from 1 to 20.")
DUPLICATE_CATEGORY = N_("Two categories share a name — make each one different.")

MAX_CATEGORIES = 12
MAX_SPOTS = 20
DISH_LIMIT = 80


CATEGORIES, EDITED_CATEGORIES = group_lists(
    {"name": Line(40, required=NO_CATEGORY_NAME),
     "capacity": WholeNumber(1, MAX_SPOTS, BAD_CAPACITY)},
    at_least=Count(1, NO_CATEGORIES), at_most=Count(MAX_CATEGORIES, TOO_MANY_CATEGORIES),
    distinct=("name", DUPLICATE_CATEGORY))


class CreatePlate(Schema):
    title = Line(80)
    eventDate = Line(60)  # the spec's field name
    note = Text(300)
    categories = CATEGORIES


class EditPlate(CreatePlate):
    """The create rules; each category may say which existing one it continues (`was`)."""

    categories = EDITED_CATEGORIES


#: An edit that would take away someone's spot (409).
CATEGORY_HELD = N_("Someone has a spot in {name} — remove them from it first, "
                   "then the category can go.")
CATEGORY_SHRUNK = N_("{name} has {taken} spots taken — remove someone first, "
                     "or keep at least {taken} spots.")


SLOT_ID = ("a spot on this board: `c<categoryIndex>-<n>`, categoryIndex from 0, n from 1; "
           "an edit never changes a spot's id (a moved category keeps its number, a new one "
           "takes a fresh one)")
