"""Question of the Day bodies, fields in check order."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from groupkit import N_
from groupkit import Line
from groupkit import Schema
from groupkit import SpecField
from groupkit import clean_text
from groupkit import whole_number

TEAM_LIMIT = 60
NAME_LIMIT = 40
QUESTION_LIMIT = 140
ANSWER_LIMIT = 40

BAD_CHOICE = N_("Pick one of the two answers.")
NO_QUESTION_NAMED = N_("Say which question you're answering — send the day and qi from the "
                       "tally.")
NO_NAME = N_("Add your name so the team knows who picked what.")
NO_TEXT = N_("Add the question — what should people choose between?")
NO_ANSWERS = N_("Give both answers — it's an either-or.")
BAD_QI = N_("That question isn't in this rotation.")


class CreateQotd(Schema):
    """Never rejects: an empty body (or no body) makes a board with a generic title."""

    teamName = Line(TEAM_LIMIT, convert="always")  # the spec's field name


class AnswerChoice(SpecField):
    """Exactly `a` or `b`."""

    def clean(self, value: Any) -> str:
        if value not in ("a", "b"):
            raise ma.ValidationError(BAD_CHOICE)
        return str(value)

    def openapi(self) -> dict[str, Any]:
        return {"type": "string", "enum": ["a", "b"]}


#: A day is ten characters; anything much longer names no day of the tally's.
DAY_TEXT_LIMIT = 64


class Day(SpecField):
    """The Sydney date the answer is for, as the tally gives it (`YYYY-MM-DD`). Only its
    presence is checked here; whether it is today is the operation's business (409)."""

    def clean(self, value: Any) -> str:
        text = clean_text(value, DAY_TEXT_LIMIT) if isinstance(value, str) else ""
        if not text:  # invisible characters alone name no day either
            raise ma.ValidationError(NO_QUESTION_NAMED)
        return text

    def openapi(self) -> dict[str, Any]:
        return {"type": "string", "format": "date",
                "description": "today's date in Sydney, from the tally"}


class QuestionNumber(SpecField):
    """A question number: a whole number (numeric strings accepted)."""

    openapi_type = "integer"

    def __init__(self, message: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.message = message

    def clean(self, value: Any) -> int:
        number = whole_number(value)
        if number is None:
            raise ma.ValidationError(self.message)
        return number

    def openapi(self) -> dict[str, Any]:
        return {"type": ["integer", "string"], "description": "a question number (qi)"}


class VoteBody(Schema):
    choice = AnswerChoice()
    day = Day()
    qi = QuestionNumber(NO_QUESTION_NAMED)
    voterName = Line(NAME_LIMIT, required=NO_NAME)


class ChangeBody(Schema):
    choice = AnswerChoice()
    day = Day()
    qi = QuestionNumber(NO_QUESTION_NAMED)


class AddBody(Schema):
    question = Line(QUESTION_LIMIT, required=NO_TEXT)
    a = Line(ANSWER_LIMIT, required=NO_ANSWERS)
    b = Line(ANSWER_LIMIT, required=NO_ANSWERS)


class RemoveBody(Schema):
    qi = QuestionNumber(BAD_QI)
