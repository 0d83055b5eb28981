"""The built-in question bank (`questions.txt`): question number `qi` is the line's place in
the file, so the file only ever grows at the end."""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

BANK_FILE = Path(__file__).with_name("questions.txt")

#: Organiser-added questions are numbered from here, well clear of the bank's own numbers.
CUSTOM_BASE = 10_000


@dataclasses.dataclass(frozen=True)
class Question:
    qi: int
    question: str
    a: str
    b: str

    def public(self) -> dict[str, object]:
        return {"qi": self.qi, "question": self.question, "options": {"a": self.a, "b": self.b}}


def parse(text: str) -> list[Question]:
    """`question | answer a | answer b` per line; blank lines and `#` comments skipped."""
    questions: list[Question] = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        question, a, b = (part.strip() for part in line.split("|"))
        questions.append(Question(len(questions), question, a, b))
    return questions


@functools.cache
def bank() -> tuple[Question, ...]:
    questions = tuple(parse(BANK_FILE.read_text(encoding="utf-8")))
    if len(questions) >= CUSTOM_BASE:  # pragma: no cover - a guard for future editors
        raise RuntimeError("the bank has outgrown the custom question numbers")
    return questions
