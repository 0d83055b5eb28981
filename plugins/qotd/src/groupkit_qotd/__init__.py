"""Question of the Day: A fresh two-option question for the team every day."""

from __future__ import annotations

from groupkit import Tool
from groupkit.integrations import chat_operations

from . import api
from .api import MAX_ANSWERS_PER_DAY
from .api import MAX_CUSTOM
from .api import PUBLIC_SCHEMA
from .api import ROTATION_NOTE
from .api import ops
from .bank import bank
from .models import MODELS
from .rituals import RITUAL
from .rotation import sydney_day
from .schema import CreateQotd

DESCRIPTION = (
    f"{ROTATION_NOTE} Create never rejects: teamName is C(60) with non-strings converted to "
    "text, and every other field is ignored. An answer names the question it answers (day "
    "and qi from the tally); anything but today's current question is refused with 409. "
    "Each answer returns a 22-character token that changes it while its question is today's. "
    "The split and who picked what are public to the board, like a show of hands; the "
    "organiser page adds the days ahead, the questions added here and the last week's "
    "answers. The organiser can skip today's question, add questions of their own and "
    "remove any question from the rotation (see each operation for its effect on today's "
    "question).")


groupkit_tool = Tool.hook(
    api, hidden=(), create_schema=CreateQotd,
    # Today's question is Sydney's day: a cached page lasts at most that day.
    view_time=lambda instance, now: sydney_day(now),
    models=MODELS,
    limits={"bankQuestions": len(bank()), "answersPerDay": MAX_ANSWERS_PER_DAY,
            "addedQuestions": MAX_CUSTOM},
    public_schema=PUBLIC_SCHEMA, description=DESCRIPTION, chat=chat_operations(ops, RITUAL),
)
