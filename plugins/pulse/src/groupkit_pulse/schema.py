"""Weekly Pulse bodies, fields in the spec's check order."""

from __future__ import annotations

from groupkit import N_
from groupkit import Flag
from groupkit import Line
from groupkit import Schema
from groupkit import Text
from groupkit import WholeNumber

DEFAULT_QUESTION = N_("How was your week?")
BAD_SCORE = N_("Pick a number from 1 to 5.")

TEAM_LIMIT = 60
QUESTION_LIMIT = 120
#: The spec leaves the length of a response's words open: a few sentences.
WORDS_LIMIT = 500


class CreatePulse(Schema):
    team = Line(TEAM_LIMIT)
    question = Text(QUESTION_LIMIT, default=DEFAULT_QUESTION)
    askWords = Flag(default=True, only_false_clears=True)  # the spec's field name
    #: The organiser's stricter option: this week's results stay hidden until it ends.
    resultsAtWeekEnd = Flag(default=False)


class DetailsBody(CreatePulse):
    """The organiser's edit: the same fields and rules as create."""


class RespondBody(Schema):
    score = WholeNumber(1, 5, BAD_SCORE)
    words = Text(WORDS_LIMIT, crlf=True)
