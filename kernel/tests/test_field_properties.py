"""Property tests for the spec's field cleaners: on any JSON value they never raise anything
but a validation error, their results respect their bounds, and cleaning is idempotent (up
to the spec's "trim first, then truncate; no second trim", which can leave a trailing
space, or an invisible character, where the cut fell)."""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

import marshmallow as ma
import pytest
from hypothesis import assume
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from groupkit import Choice
from groupkit import Count
from groupkit import Flag
from groupkit import Line
from groupkit import ObjectList
from groupkit import StringList
from groupkit import Text
from groupkit import WholeNumber
from groupkit import bounded_int
from groupkit import clean_line
from groupkit import clean_text
from groupkit import first_duplicate
from groupkit import js_string
from groupkit import text_key
from groupkit import whole_number
from groupkit.core._api import parse_body
from groupkit.core._fields import INVISIBLE
from groupkit.core._fields import MAX_DIGITS
from groupkit.core._fields import PREFIX_SLACK
from groupkit.core._fields import TRIMMED

# Text with the awkward parts of Unicode: NUL, surrogate-free astral characters, RTL
# overrides, combining marks, every kind of whitespace and line break.
awkward = st.text(alphabet=st.one_of(
    st.characters(blacklist_categories=["Cs"]),
    st.sampled_from(["\x00", "\u202e", "\u200b", "\u2028", "\r", "\n", "\t", "\u00a0", " ",
                     "\u0301", "😀"])), max_size=300)
json_scalars = st.one_of(st.none(), st.booleans(), st.integers(),
                         st.floats(allow_nan=False, allow_infinity=False), awkward)
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(awkward, inner, max_size=6)), max_leaves=40)
limits = st.integers(min_value=1, max_value=120)


@given(awkward, limits)
def test_c_n_is_bounded_single_line_and_idempotent(value: str, limit: int) -> None:
    cleaned = clean_line(value, limit)
    assert len(cleaned) <= limit
    assert cleaned == cleaned.lstrip()
    assert "\n" not in cleaned and "\r" not in cleaned and "  " not in cleaned
    assert clean_line(cleaned, limit) == cleaned.rstrip(TRIMMED)
    assert clean_line(cleaned.rstrip(TRIMMED), limit) == cleaned.rstrip(TRIMMED)


def spelled_out(value: str) -> str:
    """Trimming as the rule reads: NFC, both ends trimmed, and a value left with nothing but
    invisible characters and whitespace counts as empty."""
    text = unicodedata.normalize("NFC", value).strip(TRIMMED)
    return text if re.sub(f"[{INVISIBLE}]+", "", text).strip() else ""


@given(awkward, limits, st.booleans())
def test_c_n_and_t_n_are_the_rules_as_spelled_out(value: str, limit: int, crlf: bool) -> None:
    """clean_line collapses with `str.split()` and trims in one pass; the rules read "every
    `\\s+` run becomes one space, trim, then cut" and "trim, then cut"."""
    assert clean_line(value, limit) == spelled_out(re.sub(r"\s+", " ", value))[:limit]
    crlf_value = value.replace("\r\n", "\n") if crlf else value
    assert clean_text(value, limit, crlf) == spelled_out(crlf_value)[:limit]
    whitespace = "".join(chr(code) for code in range(0x3001) if re.fullmatch(r"\s", chr(code)))
    assert clean_line(f"a{whitespace}b{whitespace}", 10) == "a b"
    assert clean_line(f"{whitespace}{INVISIBLE}{whitespace}", 10) == ""


@given(awkward, awkward, st.sampled_from(["", " ", "\u200b", "\u0301", "a", "\u3000 "]),
       limits, st.booleans())
def test_long_values_are_cleaned_as_if_whole(first: str, second: str, joint: str,
                                              limit: int, crlf: bool) -> None:
    """A value far past its limit is cleaned from a prefix: the answer is the same as
    cleaning all of it, whatever sits where the prefix ends."""
    repeat = (first or " ") * (2 * PREFIX_SLACK // max(len(first), 1) + 2)
    for value in (repeat + joint + second, joint * PREFIX_SLACK + second + repeat,
                  second + repeat + joint + "Ab" + second):
        crlf_value = value.replace("\r\n", "\n") if crlf else value
        assert clean_line(value, limit) == spelled_out(re.sub(r"\s+", " ", value))[:limit]
        assert clean_text(value, limit, crlf) == spelled_out(crlf_value)[:limit]


def test_a_ten_megabyte_line_is_cleaned_from_its_start() -> None:
    huge = ("Ann  Bo\u0301 \u200b" * (10 * 1024 * 1024 // 10))
    assert clean_line(huge, 19) == "Ann Bó \u200bAnn Bó \u200bAnn"
    assert clean_text(huge, 12) == "Ann  Bó \u200bAnn"
    assert clean_line(" " * 3 * PREFIX_SLACK + huge, 5) == "Ann B"
    assert clean_text("\u0301" * 3 * PREFIX_SLACK + "x", 5) == "\u0301" * 5


@given(awkward, limits, st.booleans())
def test_t_n_is_bounded_keeps_inner_breaks_and_is_idempotent(value: str, limit: int,
                                                              crlf: bool) -> None:
    cleaned = clean_text(value, limit, crlf)
    assert len(cleaned) <= limit
    assert cleaned == cleaned.lstrip()
    # CRLF becomes LF in one pass, as JavaScript's replace(/\r\n/g) does: "\r\r\n" leaves
    # a CRLF behind, so idempotence holds for inputs without "\r\r".
    if not (crlf and "\r\r" in value):
        assert "\r\n" not in cleaned or not crlf
        assert clean_text(cleaned, limit, crlf) == cleaned.rstrip(TRIMMED)
    assert clean_text(cleaned.rstrip(TRIMMED), limit) == cleaned.rstrip(TRIMMED)


@given(st.integers(min_value=-10**30, max_value=10**30))
def test_whole_numbers_round_trip_through_text(number: int) -> None:
    assert whole_number(number) == number
    assert whole_number(str(number)) == number
    assert whole_number(f" {number} ") == number


@given(json_values)
def test_js_string_and_whole_number_never_raise(value: Any) -> None:
    assert isinstance(js_string(value), str)
    result = whole_number(value)
    assert result is None or isinstance(result, int)


FIELDS = {
    "line": Line(40, required="Name it."),
    "line_converted": Line(20, convert="always"),
    "text": Text(300, crlf=True),
    "list": StringList(30, read_first=10, keep_first=5, at_least=Count(1, "One at least."),
                       distinct='"{name}" twice.'),
    "objects": ObjectList({"name": Line(30), "capacity": WholeNumber(1, 50, "1 to 50.")},
                          at_most=Count(8, "At most 8."), distinct=("name", "Twice.")),
    "number": WholeNumber(0, 100, "0 to 100."),
    "flag": Flag(default=True, only_false_clears=True),
    "choice": Choice(["a", "b"], "a"),
}


@settings(max_examples=300)
@given(st.sampled_from(sorted(FIELDS)), json_values)
def test_every_field_answers_any_json_with_a_value_or_a_validation_error(
        name: str, value: Any) -> None:
    field = FIELDS[name]
    try:
        result = field.deserialize(value)
    except ma.ValidationError as error:
        assert all(isinstance(m, str) and m for m in error.messages)  # type: ignore[union-attr]
        return
    if isinstance(result, str):
        limit = getattr(field, "limit", None)
        assert limit is None or len(result) <= limit
        if "\r\r" not in js_string(value):
            assert field.deserialize(result) == result.rstrip(TRIMMED)
    if name == "list":
        assert 1 <= len(result) <= 5 and all(len(item) <= 30 for item in result)
        assert field.deserialize(result) == [item.rstrip(TRIMMED) for item in result]
    if name == "number":
        assert 0 <= result <= 100
    if name == "objects":
        assert len(result) <= 8


# --- huge digit strings -------------------------------------------------------------------------

digit_strings = st.builds(
    lambda sign, zeros, digits: sign + "0" * zeros + digits,
    st.sampled_from(["", "+", "-"]), st.integers(0, 6000),
    st.text(alphabet="0123456789", min_size=1, max_size=6000))


@settings(max_examples=60)
@given(digit_strings)
def test_digit_strings_of_any_length_never_reach_int_unbounded(text: str) -> None:
    """Beyond MAX_DIGITS (leading zeros aside) a digit string is no number; within it, the
    integer it writes. Python's own int() would raise past 4,300 digits."""
    significant = text.lstrip("+-").lstrip("0")
    sign = -1 if text.startswith("-") else 1
    expected = sign * int(significant or "0") if len(significant) <= MAX_DIGITS else None
    assert bounded_int(text) == expected
    assert whole_number(text) == expected
    assert whole_number(f" {text} ") == expected
    try:
        WholeNumber(1, 50, "1 to 50.").deserialize(text)
    except ma.ValidationError as error:
        assert error.messages == ["1 to 50."]


@pytest.mark.parametrize("sign", ["", "-"])
def test_a_five_thousand_digit_json_number_reads_as_an_infinity(sign: str) -> None:
    """As a browser's JSON.parse reads it: the rest of the body is kept, and no field takes
    it as a whole number."""
    body = parse_body(f'{{"days": {sign}{"9" * 5000}, "name": "Ann"}}')
    assert body["name"] == "Ann"
    assert body["days"] == (-math.inf if sign else math.inf)
    assert whole_number(body["days"]) is None
    assert js_string(body["days"]) == f"{sign}Infinity"
    assert parse_body('{"n": ' + "9" * MAX_DIGITS + "}")["n"] == int("9" * MAX_DIGITS)


# --- invisible characters and normalisation ----------------------------------------------------

INVISIBLES = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u200e", "\u200f",
              "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067",
              "\u2068", "\u2069", "\u00ad"]
invisible_only = st.text(alphabet=st.sampled_from([*INVISIBLES, " ", "\t", "\n", "\u00a0"]),
                         max_size=40)
names = st.text(alphabet=st.characters(whitelist_categories=["Lu", "Ll", "Mn", "Nd"]),
                min_size=1, max_size=20).filter(lambda name: name.strip() != "")


@given(invisible_only, limits)
def test_a_value_made_only_of_invisible_characters_is_empty(value: str, limit: int) -> None:
    assert clean_line(value, limit) == ""
    assert clean_text(value, limit) == ""
    with pytest.raises(ma.ValidationError) as refused:
        Line(40, required="Add a name.").deserialize(value)
    assert refused.value.messages == ["Add a name."]
    with pytest.raises(ma.ValidationError):
        Text(40, required="Add a name.").deserialize(value)


@given(names, invisible_only, invisible_only)
def test_invisible_edges_are_trimmed(name: str, before: str, after: str) -> None:
    cleaned = clean_line(name, 60)
    assert clean_line(before + name + after, 60) == cleaned


@given(names, st.lists(st.sampled_from(INVISIBLES), max_size=4), st.randoms())
def test_names_differing_by_invisibles_or_normalisation_are_duplicates(
        name: str, extra: list[str], rnd: Any) -> None:
    letters = list(unicodedata.normalize("NFD", name))
    for mark in extra:
        letters.insert(rnd.randint(0, len(letters)), mark)
    variant = "".join(letters)
    first = clean_line(unicodedata.normalize("NFC", name), 60)
    second = clean_line(variant, 60)
    assume(first and second)
    assert text_key(first) == text_key(second)
    assert first_duplicate([first, second]) == second
    assert StringList(60, distinct='"{name}" twice.').deserialize
    with pytest.raises(ma.ValidationError):
        StringList(60, distinct='"{name}" twice.').deserialize([name, variant])


@given(awkward, limits)
def test_cleaned_text_is_nfc(value: str, limit: int) -> None:
    for cleaned in (clean_line(value, limit), clean_text(value, limit)):
        assert unicodedata.is_normalized("NFC", cleaned) or len(cleaned) == limit


def test_zoe_composed_and_decomposed_is_one_name() -> None:
    composed, decomposed = "Zo\u00eb", "Zoe\u0308"
    assert clean_line(decomposed, 40) == composed
    assert first_duplicate([composed, decomposed]) == decomposed
    # Emoji sequences keep their joiners inside a name.
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467"
    assert clean_line(f"\u200b{family} Ann\u2060", 40) == f"{family} Ann"


def test_trimming_a_long_run_of_blanks_is_linear() -> None:
    """A body-sized run of spaces or invisible characters inside a value is cleaned in one
    pass (an end-anchored regex would take hours on this)."""
    for filler in (" ", "\u200b", " \u2060"):
        inner = filler * 100_000
        assert clean_text(f"a{inner}b", 10) == f"a{inner}"[:10]
        assert clean_text(inner, 10) == "" and clean_line(inner, 10) == ""
    assert clean_line("a" + " " * 100_000 + "b", 10) == "a b"
