"""What each field says of itself in the OpenAPI document (`SpecField.openapi`): the type a
client sends, its bounds, and the spec's rule in words. Client generators build their models
from exactly these entries."""

from __future__ import annotations

from groupkit import Choice
from groupkit import Count
from groupkit import Exact
from groupkit import Flag
from groupkit import Line
from groupkit import ObjectList
from groupkit import Raw
from groupkit import RecordId
from groupkit import StringList
from groupkit import Text
from groupkit import WholeNumber


def test_words_name_their_notation_and_limit() -> None:
    assert Line(40).openapi() == {
        "type": "string", "maxLength": 40,
        "description": "C(40): trimmed, whitespace collapsed, truncated"}
    assert Text(500, crlf=True).openapi() == {
        "type": "string", "maxLength": 500, "description": "T(500): trimmed, truncated"}


def test_a_choice_lists_every_value_with_a_meaning() -> None:
    assert Choice(["red", "blue"], "red").openapi() == {
        "type": "string", "enum": ["red", "blue"], "default": "red",
        "description": 'any other value reads as "red"'}
    # A default outside the choices is one of the values too.
    assert Choice(["red", "blue"], "").openapi()["enum"] == ["red", "blue", ""]


def test_a_flag_is_a_boolean_with_its_default() -> None:
    assert Flag().openapi() == {"type": "boolean", "default": False}
    assert Flag(default=True, description="Show the names.").openapi() == {
        "type": "boolean", "default": True, "description": "Show the names."}


def test_a_whole_number_takes_numeric_strings_too() -> None:
    assert WholeNumber(1, 20, "From 1 to 20.").openapi() == {
        "type": ["integer", "string"], "minimum": 1, "maximum": 20,
        "description": "whole number; numeric strings accepted"}


def test_a_string_list_names_its_items_and_its_least_count() -> None:
    assert StringList(30).openapi() == {
        "type": "array", "items": {"type": "string", "maxLength": 30}}
    assert StringList(30, at_least=Count(2, "Two at least.")).openapi() == {
        "type": "array", "items": {"type": "string", "maxLength": 30},
        "description": "at least 2 after cleaning"}


def test_an_object_list_describes_each_entry_field() -> None:
    field = ObjectList({"name": Line(20), "count": WholeNumber(1, 9, "1 to 9.")})
    assert field.openapi() == {"type": "array", "items": {"type": "object", "properties": {
        "name": Line(20).openapi(), "count": WholeNumber(1, 9, "1 to 9.").openapi()}}}


def test_exact_record_id_and_raw_say_only_what_they_are_given() -> None:
    assert Exact().openapi() == {"type": "string"}
    assert Exact("the spot's id").openapi() == {"type": "string",
                                                "description": "the spot's id"}
    assert RecordId().openapi() == {"type": ["integer", "string"]}
    assert RecordId("the entry's id").openapi() == {"type": ["integer", "string"],
                                                    "description": "the entry's id"}
    assert Raw().openapi() == {}
    assert Raw(["number", "null"], "the result").openapi() == {
        "type": ["number", "null"], "description": "the result"}
