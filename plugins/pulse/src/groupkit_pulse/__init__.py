"""Weekly Pulse: an anonymous 1-to-5 weekly check-in with optional words."""

from __future__ import annotations

from groupkit import Tool
from groupkit.integrations import chat_operations

from . import api
from .api import BATCH
from .api import MIN_SHOWN
from .api import PULSE_SCHEMA
from .api import ops
from .api import prune
from .api import public_view
from .migrations import MIGRATIONS
from .models import PulseComments
from .models import PulseHeld
from .models import PulseHeldWords
from .models import PulseTally
from .rituals import RITUAL
from .schema import CreatePulse
from .weeks import KEEP_WEEKS
from .weeks import week_of

DESCRIPTION = (
    "Weeks run Monday to Sunday in the Australia/Sydney time zone and are named by their "
    f"Monday. A week with fewer than {MIN_SHOWN} responses shows only its count, to "
    "everyone: the public page, the organiser page and the export are the same view, and "
    "there is no organiser view of single responses. A response joins its week's results "
    f"only in a batch of {BATCH} new responses (the count is live), so nobody comparing "
    "the results before and after a response can pair its score with its words; the "
    "week's end releases nothing, so the 1 to "
    f"{BATCH - 1} responses after a week's last batch never show (`responses` counts them, "
    "`inResults` does not). `resultsAtWeekEnd` (the organiser's option, default false) "
    "shows nothing of the current week but the count until the week is over. What "
    f"batching cannot stop: someone who adds {BATCH - 1} responses of their own to a batch "
    "can subtract them and learns the one response left, score and words; and a batch "
    "where everyone gave the same score shows that score for each of its words. "
    f"{KEEP_WEEKS} weeks (about six months) are kept: this week and the {KEEP_WEEKS - 1} "
    "before it; older weeks are dropped whole by the retention task. Organiser operation "
    "designed here: `details`.")

groupkit_tool = Tool.hook(
    api, hidden=(), create_schema=CreatePulse, organiser_view=public_view,
    # The views read the clock only for the Sydney week they show.
    view_time=lambda instance, now: week_of(now),
    models=[PulseTally, PulseComments, PulseHeld, PulseHeldWords], migrations=MIGRATIONS,
    prune=prune, limits={"keptWeeks": KEEP_WEEKS, "minimumShown": MIN_SHOWN},
    public_schema=PULSE_SCHEMA, chat=chat_operations(ops, RITUAL), description=DESCRIPTION,
)
