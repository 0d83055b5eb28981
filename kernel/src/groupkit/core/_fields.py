"""marshmallow fields for the spec's shorthands.

Each field receives every value, including a missing key (`marshmallow.missing`) and null,
because the spec gives absent, null and wrong-typed input precise meanings (usually: treat
as empty, never crash). Every field either returns a clean value or raises one
`ValidationError` carrying the spec's exact message; the kernel reports the first one in
field declaration order, so declaration order is check order.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import TypeVar

import marshmallow as ma

from groupkit.core._i18n import message

#: Characters that print as nothing: zero-width space, non-joiner and joiner, the word
#: joiner and invisible operators, the byte-order mark, soft hyphen and the bidi marks,
#: embeddings, overrides and isolates. A value made only of them (and whitespace) is empty,
#: and two names differing only by them are the same name.
INVISIBLE = "".join(chr(code) for first, last in (
    (0x00AD, 0x00AD), (0x061C, 0x061C), (0x180E, 0x180E), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x2064), (0x2066, 0x206F), (0xFEFF, 0xFEFF)) for code in range(first, last + 1))
_INVISIBLE = re.compile(f"[{INVISIBLE}]+")
#: What trimming removes from either end: whitespace (every character `str.strip()` removes;
#: none lies above U+3000) and the invisible characters. `str.strip(chars)` is linear, where
#: a regex anchored at the end would be quadratic on a long run of spaces.
TRIMMED = "".join(chr(code) for code in range(0x3001) if chr(code).isspace()) + INVISIBLE

#: The most digits a whole number may be written with (after leading zeros) before it is
#: read as "too large" rather than converted: far beyond every bound a field takes, and far
#: below Python's integer-string conversion limit, so no input reaches `int()` unbounded.
MAX_DIGITS = 100


MAX_DEPTH = 32


def js_string(value: Any, depth: int = 0) -> str:
    """Text for a non-string the way a browser's `String(value)` writes it, so 'non-strings
    converted to text' means the same here as in the page that sent them. Arrays nested
    deeper than MAX_DEPTH read as empty rather than exhausting the stack."""
    if value is None or value is ma.missing:
        return "null" if value is None else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value) and value == int(value) and abs(value) < 1e21:
            return str(int(value))
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, list):
        if depth >= MAX_DEPTH:
            return ""
        return ",".join("" if item is None else js_string(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def truthy(value: Any) -> bool:
    """JavaScript truthiness, which is what 'any truthy value' means to the page authors."""
    if value is None or value is ma.missing or value is False:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value != 0 and not (isinstance(value, float) and math.isnan(value))
    if isinstance(value, str):
        return value != ""
    return True


def _trim(value: str) -> str:
    """NFC, so one text typed two ways is stored and compared alike; then both ends trimmed
    of whitespace and invisible characters. Only invisibles left means empty, so the spec's
    "required" message applies to a value that shows nothing: trimming takes every
    invisible character and every whitespace character from both ends, so what is left is
    empty or begins with a character that shows (no second pass over the text needed)."""
    return unicodedata.normalize("NFC", value).strip(TRIMMED)


#: A value longer than its limit by more than this is cleaned from a prefix (see `_prefix`).
PREFIX_SLACK = 1024
_VISIBLE_ASCII = re.compile(r"[!-~]")


def _prefix(value: str, limit: int) -> str | None:
    """A prefix of a long value that decides its first `limit` cleaned code points, so a
    10 MB string is not normalised whole to keep 60 characters of it. The prefix ends just
    before a visible ASCII character, which no step can see past: it is not whitespace (no
    run to collapse spans it), it is a starter that composes with nothing before it (NFC of
    the whole is NFC of the parts) and trimming stops at it. None when the value is short
    or no such character follows; the caller then cleans the whole value."""
    if len(value) <= limit + PREFIX_SLACK:
        return None
    found = _VISIBLE_ASCII.search(value, limit + PREFIX_SLACK)
    return value[:found.start()] if found else None


def clean_line(value: str, limit: int) -> str:
    """C(n): trim, collapse every whitespace run to one space, then cut to n code points.
    `str.split()` splits at exactly the characters the regex `\\s` matches (those for which
    `str.isspace()` holds); the runs at either end, which trimming removes anyway, are dropped
    here already (a prefix keeps its last run as one space: text follows it). On megabytes of
    short words it is several times faster than a regex substitution."""
    head = _prefix(value, limit)
    if head is not None:
        collapsed = " ".join(head.split()) + (" " if head[-1].isspace() else "")
        text = unicodedata.normalize("NFC", collapsed).lstrip(TRIMMED)
        if len(text) >= limit:
            return text[:limit]
    return _trim(" ".join(value.split()))[:limit]


def clean_text(value: str, limit: int, crlf: bool = False) -> str:
    """T(n): trim both ends, keep inner whitespace and line breaks, cut to n code points."""
    head = _prefix(value, limit)
    if head is not None:
        text = unicodedata.normalize("NFC", head.replace("\r\n", "\n") if crlf else head)
        text = text.lstrip(TRIMMED)
        if len(text) >= limit:
            return text[:limit]
    if crlf:
        value = value.replace("\r\n", "\n")
    return _trim(value)[:limit]


@functools.cache
def _prototypes() -> dict[int, str]:
    """What `text_key` folds each small (case-folded) letter beyond ASCII to: the Latin
    letter it imitates, after Unicode's look-alikes (the confusables data of UTS #39, as
    confusable_homoglyphs ships it). Keys are compared case-folded, so a small letter
    stands for its capital too: one that imitates a Latin letter folds to it (Cyrillic
    "а" to "a", Greek "ν" to "v"); one that imitates none takes the letter its capital
    imitates (Cyrillic "т" to "t", for "Т"). Where both imitate, the small form wins:
    Greek "Ν" folds as "ν", to "v". ASCII itself is never folded: the standard's skeleton
    maps "m" to "rn", "1" to "l" and "0" to "O", which would make "Amie" and "Arnie" one
    name; names typed in plain ASCII keep the spec's "distinct ignoring case". Loaded on
    first use: the data takes a moment to read."""
    from confusable_homoglyphs import confusables

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data

    def prototype(char: str) -> str:
        """The member of `char`'s class of look-alikes that stands for all of them. The
        library lists every pair both ways; a class is a star around its prototype, so that
        is the member with more than one mate, or the one longer than a character; in a
        class of two single characters either would do (only equal keys matter), so the
        lower code point (ASCII where there is one) stands for both."""
        mates = data.get(char, [])
        if len(mates) != 1:
            return char
        mate = mates[0]["c"]
        return mate if len(mate) > 1 or len(data.get(mate, [])) > 1 else min(char, mate)

    table: dict[int, str] = {}
    for listed in data:
        for char in {listed, listed.lower(), listed.casefold()}:
            if len(char) != 1 or char.isascii():
                continue
            folded = prototype(char)
            capital = char.upper()
            if not folded.isascii() and len(capital) == 1 and capital != char:
                imitated = prototype(capital)
                if imitated.isascii():
                    folded = imitated
            if folded != char:
                table[ord(char)] = folded
    return table


def _fold(value: str) -> str:
    """One pass of `text_key`: compatibility forms folded (NFKC's "Ａ" is "A"), invisible
    characters dropped, case folded, then every character beyond ASCII replaced by its
    look-alike class's prototype, and case folded again (a prototype may be a capital)."""
    bare = _INVISIBLE.sub("", unicodedata.normalize("NFKD", value))
    mapped = unicodedata.normalize("NFD", bare.casefold()).translate(_prototypes())
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", mapped).casefold())


#: How many passes of `_fold` a key may take: a prototype can decompose into characters
#: that have prototypes of their own ("ø" is "o" and an overlay, which has one), so a key
#: is folded again until it stays the same; every single character settles within three
#: passes.
FOLD_ROUNDS = 6


def text_key(value: str) -> str:
    """What two names are compared by, so that names that look the same are the same name:
    "Zoë" typed composed or decomposed, "Ann" with a zero-width space inside, in fullwidth
    letters ("Ａnn") or with a Cyrillic or Greek "А" ("Аnn", "Αnn"). Case, compatibility
    forms (NFKC), invisible characters and Unicode's look-alikes (UTS #39 confusables, see
    `_prototypes`) are folded away; accents are kept ("José" is not "Jose"). A key is for
    comparing only: what is stored and shown is what the person typed. Compare stored
    names by their key computed afresh, not by a key stored beside them: a newer look-alike
    table (a library update) then applies to names stored before it. Plain ASCII is its
    own lower case."""
    if value.isascii():
        return value.lower()
    key = value
    for _ in range(FOLD_ROUNDS):
        folded = _fold(key)
        if folded == key:
            break
        key = folded
    return key


def as_text(value: Any, convert: str) -> str:
    """A string, or the text of a non-string when the rule says to convert it.

    convert: "never" (non-strings count as empty), "always" (null becomes "null"),
    "truthy" (falsy non-strings count as empty, truthy ones become text).
    """
    if isinstance(value, str):
        return value
    if value is ma.missing:
        return ""
    if convert == "always" or (convert == "truthy" and truthy(value)):
        return js_string(value)
    return ""


class SpecField(ma.fields.Field):
    """Base: route every value, missing and null included, through `clean`."""

    openapi_type: str | list[str] = "string"

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allow_none", True)
        super().__init__(**kwargs)

    def deserialize(self, value: Any, attr: str | None = None,
                    data: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
        return self.clean(value)

    def clean(self, value: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def openapi(self) -> dict[str, Any]:
        return {"type": self.openapi_type}


class _Words(SpecField):
    """What C(n) and T(n) share: a required message, a default for an empty result, and
    the spec's notation in the OpenAPI description; `tidy` is each one's own cleaning."""

    notation = ""
    summary = ""

    def __init__(self, limit: int, *, required: str | None = None, default: str = "",
                 convert: str = "never", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.limit, self.required_message, self.default_value = limit, required, default
        self.convert = convert

    def tidy(self, text: str) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def clean(self, value: Any) -> str:
        text = self.tidy(as_text(value, self.convert))
        if not text and self.required_message is not None:
            raise ma.ValidationError(self.required_message)
        return text or self.default_value

    def openapi(self) -> dict[str, Any]:
        return {"type": "string", "maxLength": self.limit,
                "description": f"{self.notation}({self.limit}): {self.summary}"}


class Line(_Words):
    """C(n) with optional 'required' message and default for an empty result."""

    notation, summary = "C", "trimmed, whitespace collapsed, truncated"

    def tidy(self, text: str) -> str:
        return clean_line(text, self.limit)


class Text(_Words):
    """T(n), optionally with CRLF normalised to LF first."""

    notation, summary = "T", "trimmed, truncated"

    def __init__(self, limit: int, *, crlf: bool = False, required: str | None = None,
                 default: str = "", convert: str = "never", **kwargs: Any) -> None:
        super().__init__(limit, required=required, default=default, convert=convert,
                         **kwargs)
        self.crlf = crlf

    def tidy(self, text: str) -> str:
        return clean_text(text, self.limit, self.crlf)


class Choice(SpecField):
    """Exactly one of `choices`, anything else the default; never an error."""

    def __init__(self, choices: Sequence[str], default: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.choices, self.default_value = tuple(choices), default

    def clean(self, value: Any) -> str:
        return value if isinstance(value, str) and value in self.choices else self.default_value

    def openapi(self) -> dict[str, Any]:
        """Every value with a meaning, the default among them (a default outside its own
        enum makes client generators drop the operation); the rest is said in words."""
        named = [*self.choices, *([] if self.default_value in self.choices
                                  else [self.default_value])]
        return {"type": "string", "enum": named, "default": self.default_value,
                "description": f"any other value reads as {json.dumps(self.default_value)}"}


class Flag(SpecField):
    """A boolean read with JavaScript truthiness; `only_false_clears` for 'default true, only
    an explicit false turns it off'; `description` documents an optional addition's meaning
    in the OpenAPI document."""

    openapi_type = "boolean"

    def __init__(self, default: bool = False, only_false_clears: bool = False,
                 description: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.default_value, self.only_false_clears = default, only_false_clears
        self.description = description

    def clean(self, value: Any) -> bool:
        if self.only_false_clears:
            return value is not False
        if value is ma.missing:
            return self.default_value
        return truthy(value)

    def openapi(self) -> dict[str, Any]:
        described = {"description": self.description} if self.description else {}
        return {"type": "boolean", "default": self.default_value, **described}


def bounded_int(text: str) -> int | None:
    """The integer written as `text` (an optional sign, then digits), or None when its digits
    (leading zeros aside) number more than MAX_DIGITS: the one rule every numeric field
    reads digit strings by, so no input of any size reaches `int()`."""
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > MAX_DIGITS:
        return None
    number = int(digits or "0")
    return -number if text.startswith("-") else number


def json_int(text: str) -> int | float:
    """A JSON integer as `json.loads(parse_int=...)` reads it: within MAX_DIGITS the integer,
    beyond it the signed infinity a browser's JSON.parse gives, which no field takes as a
    whole number."""
    number = bounded_int(text)
    if number is not None:
        return number
    return -math.inf if text.startswith("-") else math.inf


def whole_number(value: Any, numeric_strings: bool = True, bools: bool = False) -> int | None:
    """The integer a value stands for, or None: missing, null, fractions, text, numbers too
    long to be any field's (see `bounded_int`) and (unless `bools`) booleans stand for
    nothing."""
    if isinstance(value, bool):
        return int(value) if bools else None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() else None
    if isinstance(value, str) and numeric_strings:
        text = value.strip()
        if re.fullmatch(r"[+-]?\d+", text):
            return bounded_int(text)
        if re.fullmatch(r"[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?|[+-]?\d+[eE][+-]?\d+", text):
            number = float(text)
            return int(number) if math.isfinite(number) and number.is_integer() else None
    return None


class WholeNumber(SpecField):
    """A whole number in [minimum, maximum], numeric strings accepted; else `message`."""

    openapi_type = "integer"

    def __init__(self, minimum: int, maximum: int, message: str, *, bools: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.minimum, self.maximum, self.message, self.bools = minimum, maximum, message, bools

    def clean(self, value: Any) -> int:
        number = whole_number(value, bools=self.bools)
        if number is None or not self.minimum <= number <= self.maximum:
            raise ma.ValidationError(self.message)
        return number

    def openapi(self) -> dict[str, Any]:
        return {"type": ["integer", "string"], "minimum": self.minimum,
                "maximum": self.maximum,
                "description": "whole number; numeric strings accepted"}


def first_duplicate(names: Sequence[str]) -> str | None:
    """The first name that repeats an earlier one ignoring case, Unicode normalisation,
    invisible characters and look-alike letters (see `text_key`), in its cleaned form."""
    seen: set[str] = set()
    for name in names:
        key = text_key(name)
        if key in seen:
            return name
        seen.add(key)
    return None


def name_digest(name: str) -> str:
    """The SHA-256 of a name's `text_key`, for a unique index on names: it fits a column
    however far the key unfolds. Only the index reads it; names are compared by keys
    computed afresh (a name stored before a look-alike table update holds an older key)."""
    return hashlib.sha256(text_key(name).encode()).hexdigest()


Named = TypeVar("Named")


def kept_by_name(stored: Sequence[Named], names: Sequence[str],
                 name_of: Callable[[Named], str]) -> dict[str, Named]:
    """Which stored entries a new list of `names` keeps, by `text_key`: a name sent in
    another case or spacing is the same entry. Of two look-alikes stored before they
    counted as one, the one spelled exactly as sent is kept (the other leaves)."""
    wanted = {text_key(name) for name in names}
    exact = set(names)
    return {text_key(name_of(entry)): entry
            for entry in sorted(stored, key=lambda entry: name_of(entry) in exact)
            if text_key(name_of(entry)) in wanted}


class Count:
    """A bound on how many entries remain, with the message for breaking it.

    `message` may contain `{n}` for the count found."""

    def __init__(self, limit: int, message: str) -> None:
        self.limit, self.message = limit, message


class StringList(SpecField):
    """A list of cleaned strings: non-array counts as empty, empties dropped, silent caps,
    count bounds and case-insensitive distinctness (message gets the repeated name as
    `{name}`)."""

    openapi_type = "array"

    def __init__(self, item_limit: int, *, text: bool = False, convert: str = "never",
                 read_first: int | None = None, keep_first: int | None = None,
                 at_least: Count | None = None, at_most: Count | None = None,
                 distinct: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.item_limit, self.text, self.convert = item_limit, text, convert
        self.read_first, self.keep_first = read_first, keep_first
        self.at_least, self.at_most, self.distinct = at_least, at_most, distinct

    def clean_item(self, value: Any) -> str:
        raw = as_text(value, self.convert)
        return clean_text(raw, self.item_limit) if self.text else clean_line(raw, self.item_limit)

    def clean(self, value: Any) -> list[str]:
        entries = value if isinstance(value, list) else []
        if self.read_first is not None:
            entries = entries[: self.read_first]
        items = [item for item in (self.clean_item(entry) for entry in entries) if item]
        if self.keep_first is not None:
            items = items[: self.keep_first]
        check_count(len(items), self.at_least, self.at_most)
        if self.distinct is not None:
            repeated = first_duplicate(items)
            if repeated is not None:
                raise ma.ValidationError(message(self.distinct, name=repeated))
        return items

    def openapi(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "array",
                                  "items": {"type": "string", "maxLength": self.item_limit}}
        if self.at_least:
            schema["description"] = f"at least {self.at_least.limit} after cleaning"
        return schema


def check_count(found: int, at_least: Count | None, at_most: Count | None) -> None:
    if at_least is not None and found < at_least.limit:
        raise ma.ValidationError(message(at_least.message, n=found))
    if at_most is not None and found > at_most.limit:
        raise ma.ValidationError(message(at_most.message, n=found))


class ObjectList(SpecField):
    """A list of small objects checked in the spec's order: count bounds on the entries as
    sent, then each entry's fields in declaration order, then distinctness of one key.

    A non-array counts as empty and a non-object entry as `{}`; unlisted keys are dropped.
    `row_errors`: an entry's error names its row and key (`{index: {key: [message]}}`, so
    the 400's field reads "list.2.key", the form field of that row), not just the list."""

    openapi_type = "array"

    def __init__(self, entry: Mapping[str, SpecField], *, at_least: Count | None = None,
                 at_most: Count | None = None, keep_first: int | None = None,
                 distinct: tuple[str, str] | None = None,
                 keep: Callable[[dict[str, Any]], bool] | None = None,
                 row_errors: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entry, self.at_least, self.at_most = dict(entry), at_least, at_most
        self.keep_first, self.distinct, self.keep = keep_first, distinct, keep
        self.row_errors = row_errors

    def clean(self, value: Any) -> list[dict[str, Any]]:
        entries = value if isinstance(value, list) else []
        if self.keep_first is not None:
            entries = entries[: self.keep_first]
        check_count(len(entries), self.at_least, self.at_most)
        cleaned = []
        for index, raw in enumerate(entries):
            source = raw if isinstance(raw, dict) else {}
            item = {key: self._clean_one(index, key, field, source)
                    for key, field in self.entry.items()}
            if self.keep is None or self.keep(item):
                cleaned.append(item)
        if self.distinct is not None:
            key, message = self.distinct
            if first_duplicate([item[key] for item in cleaned]) is not None:
                raise ma.ValidationError(message)
        return cleaned

    def _clean_one(self, index: int, key: str, field: SpecField,
                   source: Mapping[str, Any]) -> Any:
        try:
            return field.clean(source.get(key, ma.missing))
        except ma.ValidationError as error:
            if not self.row_errors:
                raise
            raise ma.ValidationError({index: {key: error.messages}}) from None

    def openapi(self) -> dict[str, Any]:
        return {"type": "array", "items": {
            "type": "object",
            "properties": {key: field.openapi() for key, field in self.entry.items()}}}


class Exact(SpecField):
    """A string taken exactly as sent (a slot id, a reference, a secret); a non-string reads
    as empty. Never an error: the operation decides what an unknown value means."""

    def __init__(self, description: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.description = description

    def clean(self, value: Any) -> str:
        return value if isinstance(value, str) else ""

    def openapi(self) -> dict[str, Any]:
        return {"type": "string", **({"description": self.description} if self.description
                                     else {})}


#: The largest record id a body may name: beyond it no row exists (and no database
#: integer overflows).
MAX_RECORD_ID = 2**31 - 1


class RecordId(SpecField):
    """A record's id as a page shows it: a whole number (numeric strings accepted) from 1 to
    MAX_RECORD_ID, else None. Never an error: an unknown id is the operation's 404."""

    def __init__(self, description: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.description = description

    def clean(self, value: Any) -> int | None:
        number = whole_number(value)
        return number if number is not None and 0 < number <= MAX_RECORD_ID else None

    def openapi(self) -> dict[str, Any]:
        return {"type": ["integer", "string"], **({"description": self.description}
                                                   if self.description else {})}


class Raw(SpecField):
    """Any JSON value, passed through for the tool to interpret (e.g. a nullable result). An
    absent key stays absent from the cleaned body, so an omitted field and a null differ."""

    def __init__(self, types: Sequence[str] = (), description: str = "",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.types, self.description = list(types), description


    def clean(self, value: Any) -> Any:
        return value

    def openapi(self) -> dict[str, Any]:
        schema: dict[str, Any] = {}
        if self.types:
            schema["type"] = self.types
        if self.description:
            schema["description"] = self.description
        return schema
