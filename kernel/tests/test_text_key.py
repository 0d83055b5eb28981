"""Names are compared by `text_key`: two names that look the same are the same name, while
what is stored and shown stays what was typed."""

from __future__ import annotations

import unicodedata

import marshmallow as ma
import pytest
from hypothesis import given
from hypothesis import strategies as st

from groupkit import StringList
from groupkit import clean_line
from groupkit import first_duplicate
from groupkit import kept_by_name
from groupkit import name_digest
from groupkit import text_key
from groupkit.core._fields import _fold

LOOK_ALIKES = [
    ("Ann", "\uff21nn"),            # fullwidth A
    ("Ann", "\uff41\uff4e\uff4e"),  # all fullwidth, lower case
    ("Ann", "\u1d2cnn"),            # modifier capital A: NFKC alone folds it
    ("Ann", "\u0410nn"),            # Cyrillic capital A
    ("ann", "\u0430nn"),            # Cyrillic small a
    ("Ann", "\u0391nn"),            # Greek capital alpha
    ("Oscar", "\u039fscar"),        # Greek capital omicron
    ("Tom", "\u03a4\u03bfm"),       # Greek capital tau and small omicron
    ("Tom", "\u0422om"),            # Cyrillic capital te (its small letter imitates none)
    ("Harry", "\u0397arry"),        # Greek capital eta
    ("Ian", "\u0406an"),            # Cyrillic capital byelorussian-ukrainian i
    ("Dan", "\u0501an"),            # Cyrillic komi de
    ("Ann", "A\u200bnn"),           # a zero-width space inside
    ("Zo\u00eb", "Zoe\u0308"),      # composed and decomposed
    ("Zo\u00eb", "Z\u043e\u0451"),  # Cyrillic o and io
    ("Bo", "\U0001d401\U0001d428"), # mathematical bold
]

DIFFERENT = [
    ("Amie", "Arnie"),    # the standard's skeleton maps "m" to "rn": not for typed ASCII
    ("Clara", "Dara"),
    ("Ian", "lan"),
    ("Jo", "J0"),
    ("Jos\u00e9", "Jose"),  # accents are kept
    ("Zo\u00eb", "Zoe"),
    ("\u00d8yvind", "Oyvind"),
]


@pytest.mark.parametrize(("name", "look_alike"), LOOK_ALIKES)
def test_look_alikes_share_a_key(name: str, look_alike: str) -> None:
    assert name != look_alike
    assert text_key(name) == text_key(look_alike)
    cleaned = clean_line(look_alike, 40)
    assert first_duplicate([name, cleaned]) == cleaned


@pytest.mark.parametrize(("name", "other"), DIFFERENT)
def test_different_names_keep_different_keys(name: str, other: str) -> None:
    assert text_key(name) != text_key(other)
    assert first_duplicate([name, other]) is None


def test_a_look_alike_list_is_refused_with_the_name_as_typed() -> None:
    field = StringList(40, distinct='"{name}" is in the list twice.')
    with pytest.raises(ma.ValidationError) as refused:
        field.deserialize(["Ann", "Bo", "\u0410nn"])
    assert refused.value.messages == ['"\u0410nn" is in the list twice.']
    # Cleaning keeps what was typed: only the comparison folds.
    assert field.deserialize(["\uff21nn", "Bo", "Cy"]) == ["\uff21nn", "Bo", "Cy"]


names = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=40)
ascii_names = st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=40)


@given(names)
def test_a_key_is_its_own_key_and_ignores_case(name: str) -> None:
    key = text_key(name)
    assert text_key(key) == key
    assert text_key(name.casefold()) == key
    assert unicodedata.is_normalized("NFC", key)


@given(ascii_names)
def test_plain_ascii_is_compared_ignoring_case_only(name: str) -> None:
    assert text_key(name) == _fold(name) == name.lower()


@pytest.mark.parametrize("char", ["\u00a2", "\u00d8", "\u019d", "\u03da"])
def test_a_key_settles_when_a_prototype_has_a_prototype(char: str) -> None:
    """"Ø" is "O" and an overlay, and the overlay has a look-alike of its own: the key is
    folded again until it stays the same."""
    assert text_key(text_key(char)) == text_key(char)


def test_a_name_digest_is_one_for_look_alikes_and_fits_a_column() -> None:
    long = "\ufdfa" * 40  # one character that unfolds to eighteen
    assert len(text_key(long)) > 255
    assert len(name_digest(long)) == 64
    assert name_digest("Ann") == name_digest("\uff21nn") == name_digest("\u0410NN")
    assert name_digest("Ann") != name_digest("Anne")


def test_a_new_list_keeps_entries_by_key_and_the_exact_spelling_first() -> None:
    stored = [("\u0410nn", 1), ("Ann", 2), ("Bo", 3), ("Cy", 4)]
    kept = kept_by_name(stored, ["\u0410nn", "BO", "Di"], lambda entry: entry[0])
    # Of the two look-alikes stored apart, the one spelled as sent stays, wherever it was
    # stored; "BO" is Bo written another way; Cy leaves; Di is new (not stored, not kept).
    assert sorted(kept.values()) == [("Bo", 3), ("\u0410nn", 1)]
    kept = kept_by_name(stored[::-1], ["Ann"], lambda entry: entry[0])
    assert list(kept.values()) == [("Ann", 2)]
