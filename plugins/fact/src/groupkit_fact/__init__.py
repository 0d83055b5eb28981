"""Fact Matcher: everyone adds a fact about themselves; the group guesses who wrote which."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import BOARD_SCHEMA
from .api import PERSON
from .api import PERSON_RESET
from .models import Person
from .schema import FACT_LIMIT
from .schema import MAX_NAMES
from .schema import CreateFact

DESCRIPTION = """\
Each name on the list is seeded with an empty fact and its own private token. A person
claims their name from the share page and writes their fact on their private page
`/p/{token}`; the room guesses from the shuffled grid; the organiser reveals the answer key
(and can hide it again).

Paths the spec leaves open: `POST /api/fact/claim` `{slug, name}` -> 200 `{token}`,
`POST /api/fact/p/{token}/save` `{text}`, `POST /api/fact/{editToken}/reset` `{name}`,
`POST /api/fact/{editToken}/reveal` `{reveal}`, `POST /api/fact/{editToken}/show`.

Privacy before the reveal: the public page and `GET /api/fact/{slug}` list the names in the
organiser's order and the facts in a random order under random labels, and never say who
has claimed or written anything. Facts (and changed facts) join the grid three or more at
a time, so comparing the board before and after a save shows nothing of whose it is; the
organiser can put the last few on early with `POST /api/fact/{editToken}/show`. The
organiser page and export show who has claimed, never who has written or when, and the
export carries the answer key only once revealed. Resets, early showing and hiding the
answers again are listed on the board (`notices`) for everyone.

The organiser's edit changes the title, prompt and note, and the names: new starters join
with an empty fact; a leaver who has claimed their name goes only once confirmed (their fact
leaves the grid and the board says so, as for a reset).

A save with nothing left after trimming is refused with 400
`Write your fact first — something the room won't guess.`
"""


groupkit_tool = Tool.hook(
    api, name="fact", title="Fact Matcher",
    plugin_api=(1, 1), hidden=(), group="games", icon="🧩",
    summary="An icebreaker: everyone sends in a fact about themselves, the room guesses "
            "who wrote which, then you reveal the answers.",
    create_schema=CreateFact, participant_kinds=(PERSON, PERSON_RESET), models=[Person],
    limits={"names": MAX_NAMES, "factCharacters": FACT_LIMIT},
    public_schema=BOARD_SCHEMA, description=DESCRIPTION,
    example={"title": "Team offsite icebreaker",
             "prompt": "Something nobody here knows about you",
             "note": "Facts close at 10am; we reveal after morning tea.",
             "names": ["Ann", "Bo", "Cy", "Di", "Ed"]},
)
