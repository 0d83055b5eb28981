"""Group Vote: A quick vote on options, open or secret ballot, with live tallies."""

from __future__ import annotations

from pathlib import Path

from groupkit import Tool, hookimpl

from .api import (
    BALLOT,
    PUBLIC_SCHEMA,
    create,
    ops,
    organiser_view,
    participant_view,
    preview,
    public_view,
)
from .ballots import MAX_BALLOTS, MAX_TOTAL_OPTIONS
from .models import MODELS
from .schema import MAX_OPTIONS, READ_FIRST, CreatePoll

__version__ = "0.1.0"

HERE = Path(__file__).parent

DESCRIPTION = (
    "A poll, single or multiple choice, with live tallies. Each vote returns a 22-character "
    "ballot token: it changes the ballot (`POST /api/poll/v/{token}`) and opens the voter's "
    "own page `/p/{token}`. Only the organiser page and export show who voted for what; on "
    "a secret ballot no voter name is ever stored, so nobody (organiser included) can see "
    "one. Counts are kept per option as votes arrive, so a tally never recounts ballots. "
    "Options: up to 30 at creation; suggestions and organiser additions may take the poll "
    "to 100 options in all. Vote checks run validation first (400), then state (409).")


@hookimpl
def groupkit_tool() -> Tool:
    return Tool(
        name="poll", title="Group Vote", version=__version__,
        plugin_api=(1, 1),
        summary="A quick vote on a few options: single or multiple choice, open or secret "
                "ballot, results live as people vote.",
        create_schema=CreatePoll, create=create, title_of=lambda data: data["question"],
        public_view=public_view, organiser_view=organiser_view,
        participant_view=participant_view, participant_kinds=(BALLOT,),
        preview=preview, operations=ops, models=MODELS,
        templates=HERE / "templates", static=HERE / "static",
        limits={"votes": MAX_BALLOTS, "optionsAtCreate": MAX_OPTIONS,
                "optionsRead": READ_FIRST, "optionsInAll": MAX_TOTAL_OPTIONS},
        public_schema=PUBLIC_SCHEMA, description=DESCRIPTION,
        example={"question": "Where should we have the end-of-year lunch?",
                 "options": ["Thai on King St", "Pub bistro", {"text": "Picnic in the park"}],
                 "mode": "single", "allowSuggestions": True},
    )
