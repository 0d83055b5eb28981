"""The fields' rules at their edges (`groupkit.core._fields`): JavaScript's text for
non-strings and its truthiness, the last number a range takes, the count a bound allows, and
the defaults a field starts from."""

from __future__ import annotations

import marshmallow as ma
import pytest

from groupkit import Count
from groupkit import Flag
from groupkit import ObjectList
from groupkit import RecordId
from groupkit import StringList
from groupkit import Text
from groupkit import WholeNumber
from groupkit.core import _fields as fields


def test_js_string_writes_what_a_browser_writes() -> None:
    assert fields.js_string(None) == "null"
    assert fields.js_string(ma.missing) == ""
    assert fields.js_string(1e20) == "100000000000000000000"
    assert fields.js_string(1e21) == "1e+21"
    assert fields.js_string(float("inf")) == "Infinity"
    assert fields.js_string(float("-inf")) == "-Infinity"


def test_js_string_reads_arrays_nested_to_the_depth_limit() -> None:
    nested: list[object] = [1]
    for _ in range(fields.MAX_DEPTH - 1):
        nested = [nested]
    assert fields.js_string(nested) == "1"
    assert fields.js_string([nested]) == ""


def test_truthy_is_javascripts() -> None:
    assert fields.truthy(1.5) and fields.truthy(-2)
    assert not fields.truthy(0.0) and not fields.truthy(float("nan"))


def test_whole_numbers_in_exponent_notation_either_case() -> None:
    assert fields.whole_number("1E3") == 1000
    assert fields.whole_number("1e3") == 1000
    assert fields.whole_number(True) is None


def test_ranges_take_their_last_value() -> None:
    assert WholeNumber(1, 20, "From 1 to 20.").clean(20) == 20
    assert RecordId().clean(1) == 1
    assert RecordId().clean(0) is None
    assert RecordId().clean(fields.MAX_RECORD_ID) == fields.MAX_RECORD_ID
    assert RecordId().clean(fields.MAX_RECORD_ID + 1) is None


def test_count_bounds_allow_their_limit_and_name_the_count_found() -> None:
    fields.check_count(3, Count(1, "At least one."), Count(3, "At most three."))
    with pytest.raises(ma.ValidationError) as refused:
        fields.check_count(1, Count(2, "Only {n}: add another."), None)
    assert refused.value.messages == ["Only 1: add another."]


def test_defaults_a_field_starts_from() -> None:
    assert Text(10).clean("") == ""
    assert Text(10).clean(5) == ""  # non-strings count as empty unless converted
    assert Flag().clean(ma.missing) is False
    assert StringList(10).clean(["a  b\n c"]) == ["a b c"]
    assert StringList(10, text=True).clean(["a  b\n c "]) == ["a  b\n c"]
    assert StringList(10, text=True).clean(["a\r\nb"]) == ["a\r\nb"]  # T(n), CRLF as sent


def test_an_object_list_keeps_its_first_entries_and_names_a_rows_error() -> None:
    rows = ObjectList({"name": Text(10, required="Name it.")}, keep_first=2, row_errors=True)
    assert rows.clean([{"name": "a"}, {"name": "b"}, {"name": ""}]) == [
        {"name": "a"}, {"name": "b"}]
    with pytest.raises(ma.ValidationError) as refused:
        rows.clean([{"name": "a"}, {}])
    assert refused.value.messages == {1: {"name": ["Name it."]}}
    kept = ObjectList({"name": Text(10)}, keep=lambda row: row["name"] != "skip")
    assert kept.clean([{"name": "skip"}, {"name": "keep"}]) == [{"name": "keep"}]
    flags = ObjectList({"on": Flag(default=True)})
    assert flags.clean([{}]) == [{"on": True}]
