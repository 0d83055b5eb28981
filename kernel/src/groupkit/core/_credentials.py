"""Capability credentials: every one random, none derivable from another.

A slug is the only credential with structure (readable words from the title, then a random
tail); the words carry no authority, the tail does.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata

#: 31 characters: digits and lower-case letters without the look-alikes 0, 1, i, l, o.
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
assert len(ALPHABET) == 31

SLUG_TAIL_LENGTH = 14
EDIT_TOKEN_LENGTH = 26
PARTICIPANT_TOKEN_LENGTH = 22
CLAIM_SECRET_LENGTH = 16

SLUG_WORDS = 4
SLUG_WORD_CHARS = 40
DEFAULT_SLUG_WORD = "group"

_TOKEN_PATTERN = re.compile(f"^[{ALPHABET}]+$")
#: What a slug looks like (routing uses it, so `/api/<tool>/claim` is never read as a slug).
SLUG_REGEX = rf"[a-z0-9][a-z0-9-]{{0,{SLUG_WORD_CHARS}}}-[{ALPHABET}]{{{SLUG_TAIL_LENGTH}}}"


#: Random bytes below this map evenly onto the alphabet (8 x 31); the rest are dropped.
_EVEN_BYTES = 256 - 256 % len(ALPHABET)
_TO_ALPHABET = bytes(ord(ALPHABET[b % len(ALPHABET)]) for b in range(256))
_UNEVEN = bytes(range(_EVEN_BYTES, 256))


def random_string(length: int) -> str:
    """`length` characters drawn uniformly from ALPHABET by the OS's random source: one read
    of random bytes, mapped in C, with the bytes that would favour some characters dropped
    (so as uniform as `secrets.choice`), instead of one system call per character, which
    cost a claim more than its SQL."""
    text = b""
    while len(text) < length:
        text += secrets.token_bytes(length + 8).translate(_TO_ALPHABET, _UNEVEN)
    return text[:length].decode("ascii")


def new_edit_token() -> str:
    return random_string(EDIT_TOKEN_LENGTH)


def new_participant_token() -> str:
    return random_string(PARTICIPANT_TOKEN_LENGTH)


def new_claim_secret() -> str:
    return random_string(CLAIM_SECRET_LENGTH)


def slug_words(title: str, default: str = DEFAULT_SLUG_WORD) -> str:
    """A few lower-case ASCII words from the title, hyphen-joined; `default` when none survive."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_title.lower())[:SLUG_WORDS]
    joined = "-".join(words)[:SLUG_WORD_CHARS].strip("-")
    return joined or default


def new_slug(title: str, default: str = DEFAULT_SLUG_WORD) -> str:
    return f"{slug_words(title, default)}-{random_string(SLUG_TAIL_LENGTH)}"


def digest(token: str) -> str:
    """What is stored for a token the service never shows again: a copy of the database
    alone then grants no control."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def looks_like_token(value: object, length: int) -> bool:
    """Cheap shape check before touching the database; the answer is the same 404 either way."""
    return isinstance(value, str) and len(value) == length and bool(_TOKEN_PATTERN.match(value))
