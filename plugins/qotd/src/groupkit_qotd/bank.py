"""The built-in question bank (`questions.txt`): question number `qi` is the line's place in
the file, so the file only ever grows at the end. The bank's words are the tool's own, so
they are in its catalogs (`extract_questions`) and a page shows them in its reader's
language; a question the organiser typed is shown as typed."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Collection
from collections.abc import Iterator
from pathlib import Path
from typing import IO
from typing import Any

from groupkit import gettext
from groupkit import pgettext

BANK_FILE = Path(__file__).with_name("questions.txt")

#: Organiser-added questions are numbered from here, well clear of the bank's own numbers.
CUSTOM_BASE = 10_000
#: The message context of the bank's answers.
ANSWER = "answer"


@dataclasses.dataclass(frozen=True)
class Question:
    qi: int
    question: str
    a: str
    b: str

    def public(self) -> dict[str, object]:
        """As a view shows it: a bank question in the language being spoken (the API's is
        English), one the organiser added as they typed it."""
        if self.qi >= CUSTOM_BASE:
            return {"qi": self.qi, "question": self.question,
                    "options": {"a": self.a, "b": self.b}}
        return {"qi": self.qi, "question": gettext(self.question),
                "options": {"a": answer(self.a), "b": answer(self.b)}}


def answer(text: str) -> str:
    """A bank answer in the language being spoken: its own context (ANSWER), so a one-word
    answer ("Open") is never the board word the kernel says for the same English."""
    return pgettext(ANSWER, text)


def _lines(text: str) -> Iterator[tuple[int, list[str]]]:
    """(line number, [question, answer a, answer b]) of each question line."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.startswith("#"):
            yield number, [part.strip() for part in line.split("|")]


def extract_questions(fileobj: IO[bytes], keywords: Collection[str],
                      comment_tags: Collection[str], options: dict[str, Any]
                      ) -> Iterator[tuple[int, str | None, str | tuple[str, str], list[str]]]:
    """Babel's extractor for the bank (babel.cfg): each question is a message, each answer
    one in the ANSWER context (`pgettext`)."""
    for number, (question, *answers) in _lines(fileobj.read().decode("utf-8")):
        yield number, None, question, []
        for part in answers:
            yield number, "pgettext", (ANSWER, part), []


def parse(text: str) -> list[Question]:
    """`question | answer a | answer b` per line; blank lines and `#` comments skipped."""
    questions: list[Question] = []
    for _, (question, a, b) in _lines(text):
        questions.append(Question(len(questions), question, a, b))
    return questions


@functools.cache
def bank() -> tuple[Question, ...]:
    questions = tuple(parse(BANK_FILE.read_text(encoding="utf-8")))
    if len(questions) >= CUSTOM_BASE:  # pragma: no cover - a guard for future editors
        raise RuntimeError("the bank has outgrown the custom question numbers")
    return questions
