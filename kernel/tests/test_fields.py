"""The spec's field shorthands, each against its wording."""

from __future__ import annotations

import marshmallow as ma
import pytest

from groupkit.core import _fields as fields
from groupkit.core._fields import Choice
from groupkit.core._fields import Count
from groupkit.core._fields import Flag
from groupkit.core._fields import Line
from groupkit.core._fields import ObjectList
from groupkit.core._fields import StringList
from groupkit.core._fields import Text
from groupkit.core._fields import WholeNumber
from groupkit.core._fields import first_duplicate
from groupkit.core._fields import js_string
from groupkit.core._fields import truthy
from groupkit.core._fields import whole_number


def message(field: fields.SpecField, value: object) -> str:
    with pytest.raises(ma.ValidationError) as raised:
        field.clean(value)
    return str(raised.value.messages[0])


class TestLine:
    def test_trims_collapses_every_whitespace_run_and_truncates(self) -> None:
        assert Line(10).clean("  a \t\n b\u00a0\u2003c  ") == "a b c"
        assert Line(5).clean("abcdefgh") == "abcde"

    def test_trims_before_truncating_and_never_trims_again(self) -> None:
        assert Line(3).clean("   ab cd") == "ab "

    def test_counts_code_points(self) -> None:
        assert Line(2).clean("😀😀😀") == "😀😀"

    def test_overflow_is_never_an_error(self) -> None:
        assert Line(80).clean("x" * 5000) == "x" * 80

    @pytest.mark.parametrize("value", [None, 5, True, ["a"], {"a": 1}, ma.missing])
    def test_non_strings_count_as_empty(self, value: object) -> None:
        assert Line(10).clean(value) == ""

    def test_required_message_for_empty_result(self) -> None:
        assert message(Line(10, required="Add a name."), "   ") == "Add a name."
        assert message(Line(10, required="Add a name."), ma.missing) == "Add a name."

    def test_default_for_empty(self) -> None:
        assert Line(10, default="Coffee").clean("  ") == "Coffee"

    @pytest.mark.parametrize(("value", "text"), [
        (None, "null"), (True, "true"), (False, "false"), (3, "3"), (2.0, "2"), (2.5, "2.5"),
        ([1, None, "a"], "1,,a"), ({"a": 1}, "[object Object]")])
    def test_always_convert_writes_text_as_a_browser_would(self, value: object,
                                                            text: str) -> None:
        assert Line(40, convert="always").clean(value) == text

    @pytest.mark.parametrize("value", [None, False, 0, ""])
    def test_truthy_convert_treats_falsy_as_empty(self, value: object) -> None:
        assert message(Line(40, required="Whose?", convert="truthy"), value) == "Whose?"

    def test_truthy_convert_keeps_truthy_non_strings(self) -> None:
        assert Line(40, convert="truthy").clean(42) == "42"


class TestText:
    def test_keeps_inner_whitespace_and_line_breaks(self) -> None:
        assert Text(50).clean("  a\n\n  b  c \n") == "a\n\n  b  c"

    def test_crlf_variant_normalises_first(self) -> None:
        assert Text(50, crlf=True).clean("a\r\nb\r\n") == "a\nb"
        assert Text(50).clean("a\r\nb") == "a\r\nb"

    def test_truncates_after_trimming(self) -> None:
        assert Text(3).clean("  abcdef") == "abc"


class TestStringList:
    def test_non_array_counts_as_empty(self) -> None:
        field = StringList(10, at_least=Count(2, "Two please."))
        for value in (None, "a,b", {"a": "b"}, 7, ma.missing):
            assert message(field, value) == "Two please."

    def test_cleans_drops_empties_then_caps_silently(self) -> None:
        field = StringList(3, keep_first=2)
        assert field.clean(["  abcd ", "", "   ", 5, "x", "y"]) == ["abc", "x"]

    def test_read_first_limits_raw_entries_before_cleaning(self) -> None:
        assert StringList(5, read_first=3).clean(["", "", "a", "b"]) == ["a"]

    def test_bounds_in_order(self) -> None:
        field = StringList(10, at_least=Count(3, "few"), at_most=Count(4, "That's {n}."),
                           distinct='"{name}" twice')
        assert message(field, ["a", "A"]) == "few"
        assert message(field, list("abcde")) == "That's 5."
        assert message(field, ["Ann", "bob", "  ann  "]) == '"ann" twice'

    def test_convert_non_strings(self) -> None:
        assert StringList(10, convert="always").clean([None, 1, "x"]) == ["null", "1", "x"]

    def test_duplicates_allowed_without_rule(self) -> None:
        assert StringList(10).clean(["a", "a"]) == ["a", "a"]


class TestWholeNumber:
    @pytest.mark.parametrize(("value", "number"), [
        (4, 4), ("4", 4), (" 7 ", 7), (3.0, 3), ("3.0", 3), ("1e1", 10)])
    def test_accepts(self, value: object, number: int) -> None:
        assert WholeNumber(1, 20, "bad").clean(value) == number

    @pytest.mark.parametrize("value", [
        ma.missing, None, 2.5, "2.5", "", "abc", True, 0, 21, [], {}, float("nan"), "Infinity"])
    def test_rejects(self, value: object) -> None:
        assert message(WholeNumber(1, 20, "bad"), value) == "bad"

    def test_bools_when_the_rule_converts_them(self) -> None:
        assert WholeNumber(1, 20, "bad", bools=True).clean(True) == 1

    def test_helper(self) -> None:
        assert whole_number("12") == 12
        assert whole_number("12", numeric_strings=False) is None


class TestObjectList:
    def field(self) -> ObjectList:
        return ObjectList(
            {"name": Line(10, required="name"), "capacity": WholeNumber(1, 5, "capacity")},
            at_least=Count(1, "none"), at_most=Count(3, "many"), distinct=("name", "dup"))

    def test_check_order(self) -> None:
        field = self.field()
        assert message(field, "not a list") == "none"
        assert message(field, [{}] * 4) == "many"
        assert message(field, [{"name": "a", "capacity": 9}, {"capacity": 1}]) == "capacity"
        assert message(field, [{"name": "a", "capacity": 1}, {"capacity": 1}]) == "name"
        assert message(field, [{"name": "A", "capacity": 1}, {"name": "a", "capacity": 2}]) \
            == "dup"

    def test_non_object_entries_read_as_empty_and_extra_keys_drop(self) -> None:
        field = self.field()
        assert message(field, ["x"]) == "name"
        assert field.clean([{"name": " a ", "capacity": "2", "x": 1}]) == [
            {"name": "a", "capacity": 2}]


class TestSmallFields:
    def test_choice_exact_match_only(self) -> None:
        field = Choice(["cup"], "final")
        assert field.clean("cup") == "cup"
        for value in ("Cup", " cup", None, 5, ma.missing):
            assert field.clean(value) == "final"

    def test_flag_truthiness(self) -> None:
        assert Flag().clean("yes") is True
        assert Flag().clean(0) is False
        assert Flag().clean("") is False
        assert Flag().clean([]) is True
        assert Flag(default=True).clean(ma.missing) is True

    def test_flag_only_false_clears(self) -> None:
        field = Flag(default=True, only_false_clears=True)
        assert field.clean(False) is False
        for value in (0, None, "", ma.missing, "false"):
            assert field.clean(value) is True

    def test_first_duplicate_reports_cleaned_second(self) -> None:
        assert first_duplicate(["Ann", "Bo", "ANN"]) == "ANN"
        assert first_duplicate(["a", "b"]) is None

    def test_truthy_and_js_string(self) -> None:
        assert [truthy(v) for v in (0, 0.0, "", None, False, "0", [], {})] == [
            False, False, False, False, False, True, True, True]
        assert js_string(1e21) == "1e+21"


def test_js_string_survives_any_nesting() -> None:
    deep: list[object] = ["x"]
    for _ in range(5000):
        deep = [deep]
    assert js_string(deep) == ""
    assert js_string([[["a"], "b"]]) == "a,b"


def test_exact_record_id_and_raw_never_fail() -> None:
    from groupkit import Exact
    from groupkit import Raw
    from groupkit import RecordId
    from groupkit import Schema

    class Body(Schema):
        slot = Exact("a slot id")
        note = RecordId()
        result = Raw(["object", "null"])

    assert Body().load({"slot": " c0-1 ", "note": "12", "result": None}) == {
        "slot": " c0-1 ", "note": 12, "result": None}
    assert Body().load({"slot": 5, "note": 2**40}) == {"slot": "", "note": None}
    assert Body().load({"note": "1.5"}) == {"slot": "", "note": None}
    assert "result" not in Body().load({})
    assert Raw(["object", "null"], "the result").openapi() == {
        "type": ["object", "null"], "description": "the result"}
