"""Tournament Bracket: a single-elimination bracket with byes, results recorded by the organiser."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import BRACKET_SCHEMA
from .schema import MAX_ENTRANTS
from .schema import CreateBracket

DESCRIPTION = (
    "A single-elimination bracket drawn once, at creation, and never redrawn.\n\n"
    "Field: the entrants are padded with byes to the next power of two (3 entrants play in "
    "a field of 4, 33 in a field of 64).\n\n"
    "Seeding: `seeding: \"listed\"` keeps the order given, so the first name is seed 1; any "
    "other value shuffles the names uniformly at random first. Either way the seeds are then "
    "placed by standard seeding: seed 1 meets the lowest seed, 2 the second lowest and so "
    "on, and seeds 1 and 2 can only meet in the final (lines for 8: 1 v 8, 4 v 5, 2 v 7, "
    "3 v 6). The byes are the seeds beyond the field, so they go to the top of the order: "
    "with 5 entrants in a field of 8, seeds 1, 2 and 3 get byes. Since a padded field is "
    "always more than half full, no first-round match is ever bye against bye. A bye match "
    "needs no result: its entrant goes through on their own.\n\n"
    "Results: `POST /api/bracket/{editToken}/result` (see there); the public read shows "
    "every match, its result and the champion once the final is decided, and its `version` "
    "is what the next result must quote.")


groupkit_tool = Tool.hook(
    api, name="bracket", title="Tournament Bracket",
    plugin_api=(1, 1), hidden=(), group="games", icon="🏆",
    summary="A knockout bracket for up to 64 names, with byes sorted out for you: "
            "tap in the winners and everyone can follow along.",
    create_schema=CreateBracket, limits={"entrants": MAX_ENTRANTS}, public_schema=BRACKET_SCHEMA,
    description=DESCRIPTION,
    example={"title": "Office table tennis", "seeding": "listed",
             "entrants": ["Ann", "Bo", "Cy", "Di", "Ed"]},
)
