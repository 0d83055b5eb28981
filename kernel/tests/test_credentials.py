from __future__ import annotations

import re

from groupkit.core import _credentials as credentials
from groupkit.core._credentials import ALPHABET


def test_alphabet_has_31_characters_without_look_alikes() -> None:
    assert len(set(ALPHABET)) == 31
    assert not set("01ilo") & set(ALPHABET)
    assert ALPHABET.lower() == ALPHABET


def test_lengths() -> None:
    assert len(credentials.new_edit_token()) == 26
    assert len(credentials.new_participant_token()) == 22
    assert len(credentials.new_claim_secret()) == 16


def test_tokens_use_only_the_alphabet_and_do_not_repeat() -> None:
    tokens = {credentials.new_edit_token() for _ in range(2000)}
    assert len(tokens) == 2000
    assert all(set(token) <= set(ALPHABET) for token in tokens)
    used = set("".join(tokens))
    assert used == set(ALPHABET)


def test_every_character_is_about_equally_likely() -> None:
    """Drawn from bytes, with the bytes that would favour the first 8 characters dropped:
    over 200,000 characters each of the 31 is expected 6,452 times (standard deviation 79);
    a byte taken modulo 31 without dropping would give the first eight about 7,030."""
    drawn = "".join(credentials.random_string(31) for _ in range(6452))
    counts = [drawn.count(char) for char in ALPHABET]
    assert max(counts) < 6800 and min(counts) > 6100, counts
    assert credentials.random_string(0) == ""
    assert len(credentials.random_string(300)) == 300


def test_short_strings_have_their_length() -> None:
    """Fewer characters than the 8 spare bytes drawn each time: still one draw, never a
    negative or empty one."""
    for length in range(1, 9):
        assert len(credentials.random_string(length)) == length


def test_slug_is_title_words_then_a_14_character_tail() -> None:
    slug = credentials.new_slug("Office Grand-Final Sweep 2026: the big one!")
    words, tail = slug.rsplit("-", 1)
    assert words == "office-grand-final-sweep"
    assert len(tail) == 14 and set(tail) <= set(ALPHABET)


def test_slug_transliterates_and_falls_back_to_a_default_word() -> None:
    assert credentials.slug_words("Café Zoë") == "cafe-zoe"
    assert credentials.slug_words("🎉🎉", default="sweeps") == "sweeps"
    assert credentials.slug_words("") == credentials.DEFAULT_SLUG_WORD
    assert re.fullmatch(r"[a-z0-9-]+", credentials.slug_words("x" * 500))


def test_slug_words_cut_at_a_hyphen_drop_it() -> None:
    """The 40 characters end on the hyphen between two words: the slug never shows `--`."""
    assert credentials.slug_words("a" * 39 + " b") == "a" * 39


def test_new_slug_falls_back_to_the_tools_word() -> None:
    assert credentials.new_slug("🎉🎉", default="sweeps").startswith("sweeps-")


def test_slug_and_edit_token_are_independent() -> None:
    first = credentials.new_slug("Same title")
    second = credentials.new_slug("Same title")
    assert first != second


def test_digest_is_sha256_hex() -> None:
    assert credentials.digest("abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")


def test_looks_like_token() -> None:
    token = credentials.new_participant_token()
    assert credentials.looks_like_token(token, 22)
    assert not credentials.looks_like_token(token, 26)
    assert not credentials.looks_like_token(token[:-1] + "0", 22)
    assert not credentials.looks_like_token(None, 22)
