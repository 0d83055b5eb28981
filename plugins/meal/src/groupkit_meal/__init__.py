"""Meal Train: days on which friends sign up to cook for someone who needs it."""

from __future__ import annotations

from groupkit import Hidden
from groupkit import Tool
from groupkit import slot_feed_operations

from . import api
from .api import NOT_HELD
from .api import SLOT_IDS
from .api import board_schema
from .api import ops
from .feeds import claim_events
from .schema import MAX_DAYS
from .schema import MAX_LINKS
from .schema import MAX_PER_DAY
from .schema import MAX_TASKS
from .schema import CreateMeal

groupkit_tool = Tool.hook(
    api, name="meal", title="Meal Train",
    plugin_api=(1, 1), hidden=(Hidden("dropoff"),), group="events", icon="🍲",
    summary="Days on which friends sign up to cook for someone who needs it, "
            "plus other jobs and useful links.",
    create_schema=CreateMeal, feed=slot_feed_operations(ops, NOT_HELD, claim_events),
    limits={"days": MAX_DAYS, "cooksPerDay": MAX_PER_DAY, "tasks": MAX_TASKS,
            "helpLinks": MAX_LINKS},
    public_schema=board_schema(),
    description=(
        f"Days are UTC calendar days. Slot ids: {SLOT_IDS}. The drop-off details "
        "(`dropoff`) are shown only on the coordinator page and in the organiser export; "
        "they are in no public page, public read, link preview, calendar entry or CSV. "
        "Allergies are deliberately public. The coordinator manages the roster with "
        "`details`, `addDays`, `addTask` {label, capacity} and `removeTask` {taskId}; "
        "`GET /api/meal/{editToken}/admin` is the CSV and "
        "`GET /api/meal/{slug}/ics/{slotId}` a claimed day's calendar entry. Create: "
        "tasks with an empty label are dropped before the first 12 are kept, and a task "
        "capacity outside 1 to 20 becomes 1; only the first 8 usable help links are kept."),
    example={"forWhom": "the Nguyen family",
             "note": "Baby Mai arrived on Tuesday! Meals for the first fortnight.",
             "allergies": "No peanuts. Mild spice only for the kids.",
             "dropoff": "12 Example St — esky on the front porch, text Linh when there",
             "startDate": "2026-03-02", "days": 14, "capacityPerDay": 1,
             "tasks": [{"label": "Walk the dog", "capacity": 2},
                       {"label": "School pick-up", "capacity": 1}],
             "helpLinks": [{"label": "Grocery delivery gift card",
                            "url": "https://example.com/gift"}]},
)
