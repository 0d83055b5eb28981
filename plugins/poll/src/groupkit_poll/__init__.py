"""Group Vote: A quick vote on options, open or secret ballot, with live tallies."""

from __future__ import annotations

from groupkit import Hidden
from groupkit import Tool

from . import api
from .api import BALLOT
from .api import PUBLIC_SCHEMA
from .ballots import MAX_BALLOTS
from .ballots import MAX_TOTAL_OPTIONS
from .ballots import is_closed
from .edit import EDIT
from .models import MODELS
from .results import BATCH
from .schema import MAX_OPTIONS
from .schema import READ_FIRST
from .schema import CreatePoll

DESCRIPTION = (
    "A poll, single or multiple choice, with live tallies. Each vote returns a 22-character "
    "ballot token: it changes the ballot (`POST /api/poll/v/{token}`) and opens the voter's "
    "own page `/p/{token}`. Only the organiser page and export show who voted for what; on "
    "a secret ballot no voter name is ever stored, so nobody (organiser included) can see "
    "one. Counts are kept per option as votes arrive, so a tally never recounts ballots (a "
    "ranked poll's runoff counts the distinct rankings, grouped by the database). "
    "Options: up to 30 at creation; suggestions and organiser additions may take the poll "
    "to 100 options in all. Vote checks run validation first (400), then state (409). "
    "Optional additions (a poll without them behaves and reads exactly as before): "
    "`closesAt`, a closing time after which the poll is closed (computed from the clock on "
    "every read and vote; later votes get the closed 409); `resultsAfterVote`, counts "
    "hidden (null) from the public read and page until the poll closes, shown to voters "
    "on their own page and in their vote's reply and to the organiser; `resultsAtClose`, "
    "counts hidden from everyone until it closes (on an open ballot the organiser, who "
    "sees every ballot anyway, keeps them); `ranked`, ranked choice: `choices` in order of "
    "preference, option counts are first choices, and `rounds`, `winner` and `tied` give "
    "the instant runoff (options tied on the fewest votes go out together). "
    f"A secret ballot's tally (everyone's, the organiser's included) moves only after "
    f"{BATCH} ballots have been cast or changed since it last moved, and a suggested option "
    "joins it then, so a watcher comparing reads cannot tie one ballot to its picks; what "
    f"batching cannot stop: someone who casts or changes {BATCH - 1} ballots of their own "
    "around another's learns that one, an organiser who closes the poll right after one "
    "ballot learns it, and a batch where everyone picked the same shows it. "
    "`resultsAtClose` leaves only the final tally to see.")


groupkit_tool = Tool.hook(
    api,
    hidden=(Hidden("voterName", operation="vote", shown_to=("organiser", "participant")),),
    create_schema=CreatePoll, title_of=lambda data: data["question"],
    # The views read the clock only to know whether the closing time has come.
    view_time=lambda instance, now: is_closed(instance.data, now),
    participant_kinds=(BALLOT,), models=MODELS,
    limits={"votes": MAX_BALLOTS, "optionsAtCreate": MAX_OPTIONS,
            "optionsRead": READ_FIRST, "optionsInAll": MAX_TOTAL_OPTIONS},
    public_schema=PUBLIC_SCHEMA, description=DESCRIPTION, edit=EDIT,
)
