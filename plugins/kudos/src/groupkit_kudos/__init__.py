"""Kudos Wall: a weekly wall of thank-you notes for a team."""

from __future__ import annotations

from groupkit import Tool
from groupkit import local_date
from groupkit.integrations import chat_operations

from . import api
from .api import WALL_SCHEMA
from .api import ops
from .api import prune
from .models import KudosNote
from .rituals import RITUAL
from .schema import CreateKudos
from .weeks import ARCHIVE_WEEKS
from .weeks import KEEP_WEEKS
from .weeks import SYDNEY

groupkit_tool = Tool.hook(
    api, hidden=(),
    # The wall shows Sydney days and weeks: a cached page lasts at most one day.
    view_time=lambda instance, now: local_date(now, SYDNEY),
    create_schema=CreateKudos, models=[KudosNote], prune=prune,
    limits={"archiveWeeks": ARCHIVE_WEEKS, "keptWeeks": KEEP_WEEKS}, public_schema=WALL_SCHEMA,
    chat=chat_operations(ops, RITUAL),
    description="Weeks run Monday to Sunday in the Australia/Sydney time zone. The wall shows "
        f"this week's notes on top and folds the {ARCHIVE_WEEKS} weeks before into an "
        f"archive. {KEEP_WEEKS} weeks (about three months) are kept: older weeks are "
        "dropped whole by the retention task (`groupkit prune` and the server's periodic "
        "task), with their notes' tokens. Weeks kept but older than the archive appear "
        "only on the organiser page and in the export (`older`). No cap on notes: "
        "retention bounds the wall. Designed paths: `note`, `n/{token}/remove` (the "
        "poster), `{editToken}/remove` (the organiser, body `{noteId}`).",
)
