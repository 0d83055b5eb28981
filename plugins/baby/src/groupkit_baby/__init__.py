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
    api, hidden=(), create_schema=CreateBaby, models=[BabyGuess],
    participant_kinds=(api.TOKEN_KIND,),
    limits={"guesses": MAX_GUESSES, "minGrams": MIN_GRAMS, "maxGrams": MAX_GRAMS,
            "daysBefore": DAYS_BEFORE, "daysAfter": DAYS_AFTER},
    public_schema=POOL_SCHEMA,
)
