"""What an edit conflict compares and how it words it (`groupkit.core._edits`): a sent value
is the same as the current one as it is or once cleaned; a field as a sentence names it, a
value as a sentence quotes it, marshmallow's unset values left out."""

from __future__ import annotations

import datetime as dt

import marshmallow as ma

from groupkit import Count
from groupkit import Line
from groupkit import Schema
from groupkit import StringList
from groupkit.core import _edits as edits


class Lunch(Schema):
    title = Line(40, required="Name it.")
    names = StringList(20, at_least=Count(1, "Add a name."))
    note = Line(60)


def test_same_as_sent_or_once_cleaned() -> None:
    schema = Lunch()
    assert edits.same(schema, "title", "Lunch", "Lunch")
    # A value the rules refuse (a required title left empty) is still the same as itself.
    assert edits.same(schema, "title", "", "")
    # Cleaned alone, without the fields the edit does not send (a partial load).
    assert edits.same(schema, "note", "  By Friday ", "By Friday")
    assert edits.same(schema, "note", "By Friday", " By Friday")
    assert not edits.same(schema, "note", "By Friday", "By Monday")
    # A value the rules refuse is never the same as another one.
    assert not edits.same(schema, "title", "", "Lunch")
    assert not edits.same(schema, "title", "Lunch", "")


def test_a_conflict_over_two_fields_names_both_in_one_sentence() -> None:
    body = edits.EditConflict(7, [("title", "Lunch", "Dinner"),
                                  ("dueDate", None, "Friday")]).body()
    assert body["error"] == (
        "Someone else saved a change while you were editing — title is now “Lunch” (yours: "
        "“Dinner”); due date is now empty (yours: “Friday”). Keep theirs, or send yours "
        "again to replace them.")
    assert body["field"] == "title" and body["version"] == 7


def test_label_names_a_field_as_a_sentence_does() -> None:
    assert edits.label("dueDate") == "due date"
    assert edits.label("title") == "title"
    assert edits.label("slot2Name") == "slot2 name"
    assert edits.label("firstDayOfWeek") == "first day of week"


def test_empty_values_and_flags_are_words() -> None:
    assert [edits.shown(value) for value in (None, "", [])] == ["empty"] * 3
    assert edits.shown(True) == "yes"
    assert edits.shown(False) == "no"
    assert edits.shown(0) == "0"
    assert edits.shown(2.5) == "2.5"


def test_text_is_quoted_with_its_spaces_folded() -> None:
    assert edits.shown("  Friday \n lunch ") == "“Friday lunch”"


def test_a_list_shows_its_items_and_a_row_its_longest_text() -> None:
    assert edits.shown(["Anna", "Ben  Li", 3]) == "“Anna, Ben Li, 3”"
    rows = [{"id": "s1", "name": "Salad", "note": ""}, {"id": "b2", "name": "Bread rolls"}]
    assert edits.shown(rows) == "“Salad, Bread rolls”"
    assert edits.shown({"id": "x", "name": "Trivia night"}) == "“Trivia night”"
    assert edits.shown({"count": 2, "open": True}) == '“{"count":2,"open":true}”'


def test_other_values_show_as_their_text() -> None:
    assert edits.shown(dt.date(2026, 11, 23)) == "“2026-11-23”"


def test_long_values_are_cut_to_80_characters() -> None:
    assert edits.shown("a" * 80) == "“" + "a" * 80 + "”"
    assert edits.shown("a" * 81) == "“" + "a" * 79 + "…”"
    # The cut never leaves a space before the ellipsis.
    assert edits.shown("a" * 78 + " bcd") == "“" + "a" * 78 + "…”"


def test_plain_leaves_out_what_marshmallow_left_unset() -> None:
    value = {"title": "Lunch", "note": ma.missing,
             "slots": [{"name": "Salad", "need": ma.missing}, "x"]}
    assert edits.plain(value) == {"title": "Lunch", "slots": [{"name": "Salad"}, "x"]}
