"""Recipe Collection bodies, fields in the spec's check order."""

from __future__ import annotations

from groupkit import N_
from groupkit import Line
from groupkit import Schema
from groupkit import Text

NO_TITLE = N_("What's the book called? Add a name.")
NO_COOK = N_("Add your name so everyone knows whose recipe it is.")
NO_DISH = N_("What's the dish called? Add its name.")
NO_INGREDIENTS = N_("List the ingredients — one per line is easiest.")
NO_METHOD = N_("Add the method — how do you make it?")

LIMITS = {"cook": 40, "dish": 80, "ingredients": 1500, "method": 2500, "serves": 40,
          "story": 500}
#: Recipe tokens are 22 characters; anything longer cannot be one.
CODE_LIMIT = 40


class CreateRecipe(Schema):
    title = Line(80, required=NO_TITLE)  # checked first
    forWhom = Line(80)  # the spec's field name
    note = Text(300, crlf=True)


class RecipeBody(Schema):
    """A whole recipe, for adding and for saving: one-line fields are C(n), the long ones
    T(n) with CRLF normalised to LF (as the book's note is). Empty optional fields are
    dropped from the stored recipe."""

    cook = Line(LIMITS["cook"], required=NO_COOK)
    dish = Line(LIMITS["dish"], required=NO_DISH)
    ingredients = Text(LIMITS["ingredients"], crlf=True, required=NO_INGREDIENTS)
    method = Text(LIMITS["method"], crlf=True, required=NO_METHOD)
    serves = Line(LIMITS["serves"])
    story = Text(LIMITS["story"], crlf=True)


class RemoveBody(Schema):
    rtoken = Line(CODE_LIMIT)  # the recipe's token, shown on the organiser page
