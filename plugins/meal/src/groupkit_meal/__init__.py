"""Meal Train: days on which friends sign up to cook for someone who needs it."""

from __future__ import annotations

from groupkit import Hidden
from groupkit import Tool
from groupkit.integrations import slot_feed_operations

from . import api
from .api import BOARD
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
    api, hidden=(Hidden("dropoff"),), create_schema=CreateMeal,
    feed=slot_feed_operations(ops, BOARD.not_held, claim_events),
    limits={"days": MAX_DAYS, "cooksPerDay": MAX_PER_DAY, "tasks": MAX_TASKS,
            "helpLinks": MAX_LINKS},
    public_schema=board_schema(),
    description=f"Days are UTC calendar days. Slot ids: {SLOT_IDS}. The drop-off details "
        "(`dropoff`) are shown only on the coordinator page, in the organiser export and to "
        "whoever holds a spot (`held`, with the spot's secret); "
        "they are in no public page, public read, link preview, calendar entry or CSV. "
        "Allergies are deliberately public. The coordinator manages the roster with "
        "`details`, `addDays`, `addTask` {label, capacity} and `removeTask` {taskId}; "
        "`GET /api/meal/{editToken}/admin` is the CSV and "
        "`GET /api/meal/{slug}/ics/{slotId}` a claimed day's calendar entry. Create: "
        "tasks with an empty label are dropped before the first 12 are kept, and a task "
        "capacity outside 1 to 20 becomes 1; only the first 8 usable help links are kept.",
)
