"""Tournament Bracket bodies, fields in the spec's check order."""

from __future__ import annotations

from groupkit import N_
from groupkit import Choice
from groupkit import Count
from groupkit import Line
from groupkit import Raw
from groupkit import Schema
from groupkit import StringList

from .draw import LISTED
from .draw import SHUFFLED

FEW_ENTRANTS = N_("Add at least two names — one person is just practice.")
MANY_ENTRANTS = N_("64 is the limit — run two brackets and stage a grand final.")
DUPLICATE_ENTRANT = N_('"{name}" is in the list twice — add a surname initial to tell them '
                       'apart.')

MAX_ENTRANTS = 64
NAME_LIMIT = 40


class CreateBracket(Schema):
    title = Line(80)
    entrants = StringList(NAME_LIMIT, convert="always",
                          at_least=Count(2, FEW_ENTRANTS),
                          at_most=Count(MAX_ENTRANTS, MANY_ENTRANTS),
                          distinct=DUPLICATE_ENTRANT)
    seeding = Choice([LISTED], default=SHUFFLED)


class ResultBody(Schema):
    """Never fails on its own: the operation checks the match, the winner and the version
    against the bracket, in the order its documentation gives."""

    round = Raw(["integer"], "round index: 0 is the first round")
    match = Raw(["integer"], "match index within the round: 0 is the top match")
    winner = Raw(["string", "null"],
                    "exactly one of the two names in that match, or null to clear its result; "
                    "required: leaving it out is not the same as null")
    score = Raw(["string", "null"],
                "optional: the score, the winner's points first, e.g. `3-1`; null or left out "
                "for none")
    version = Raw(["integer"],
                     "the bracket's `version` as you last read it (public read, or the reply "
                     "to your previous result); required")
