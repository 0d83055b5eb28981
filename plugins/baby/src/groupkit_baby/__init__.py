"""Baby Guess Pool: guess the baby's arrival date and weight; closest guess wins."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import POOL_SCHEMA
from .models import BabyGuess
from .schema import DAYS_AFTER
from .schema import DAYS_BEFORE
from .schema import MAX_GRAMS
from .schema import MAX_GUESSES
from .schema import MIN_GRAMS
from .schema import CreateBaby

groupkit_tool = Tool.hook(
    api, name="baby", title="Baby Guess Pool",
    plugin_api=(1, 1), hidden=(), group="celebrations", icon="👶",
    summary="Everyone guesses the arrival date and birth weight; "
            "the closest guess wins once bub is here.",
    create_schema=CreateBaby, models=[BabyGuess], participant_kinds=(api.TOKEN_KIND,),
    limits={"guesses": MAX_GUESSES, "minGrams": MIN_GRAMS, "maxGrams": MAX_GRAMS,
            "daysBefore": DAYS_BEFORE, "daysAfter": DAYS_AFTER},
    public_schema=POOL_SCHEMA,
    description=(
        "Closest guess: fewest days between the guessed and the actual date, then "
        "fewest grams between the guessed and the actual weight, then the earliest "
        "guess. The leaderboard lists every guess in that order with `daysOff` and "
        "`gramsOff`. Guesses are public (name, date, weight, message); the remove "
        "token is not. Validation (400) comes before capacity and state (409); of the "
        "409s the 300-guess cap is checked before the closed pool, in the spec's order. "
        "The date window is by UTC calendar day: from the request's UTC date minus 400 "
        "days to plus 550 days, both ends included. The organiser removes one guess with "
        "`POST /api/baby/{editToken}/remove` `{id}`."),
    example={"parents": "Priya & Tom", "dueDate": "Mid March",
             "note": "Closest guess picks the middle name (within reason)."},
)
