"""A bank answer keeps its own translation: "Open" as the answer to "Window open or window
shut?" is "Auf" in German, not the board's free spot ("Frei") the kernel says for the same
English word (answers are extracted with their own context, `pgettext`)."""

from __future__ import annotations

from pathlib import Path

import groupkit_qotd
from groupkit.core import _i18n as i18n
from groupkit_qotd.bank import bank


def test_an_answer_is_translated_in_its_own_context() -> None:
    catalogs = i18n.Catalogs.of([Path(groupkit_qotd.__file__).parent])
    window = next(question for question in bank() if question.a == "Open")
    with i18n.speaking(catalogs, "de"):
        assert i18n.gettext("Open") == "Frei"  # the kernel's word for a free spot
        shown = window.public()
    assert shown["options"] == {"a": "Auf", "b": "Zu"}
    assert shown["question"] != window.question  # the question is German too
