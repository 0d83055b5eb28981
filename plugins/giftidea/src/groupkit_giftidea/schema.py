"""Gift Idea Board bodies, fields in the spec's check order."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import marshmallow as ma

from groupkit import N_
from groupkit import Line
from groupkit import Schema
from groupkit import SpecField
from groupkit import Text

NO_RECIPIENT = N_("Who's the gift for? Add their name.")
NO_IDEA = N_("Add the idea first — what could the group get them?")
BAD_LINK = N_("That link doesn't look right — paste the full web address, or leave it "
               "blank.")
NOT_WEB_LINK = N_("Links need to start with http:// or https://.")
NO_CLAIM_NAME = N_("Add your name so nobody else buys it too.")

RECIPIENT_LIMIT = 80
IDEA_LIMIT = 120
LINK_LIMIT = 300
SUGGESTED_BY_LIMIT = 40
CLAIM_NAME_LIMIT = 40
#: Idea ids and tokens are short; anything longer cannot name one.
CODE_LIMIT = 40

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
#: Whitespace and control characters: a pasted address holding them is not one address.
_UNSAFE = re.compile(r"[\s\x00-\x1f\x7f]")
_HOST = re.compile(r"[^\s/?#@:\[\]<>%\"{}|\\^`]+")


def check_link(text: str) -> str:
    """The link as stored, or a `ValidationError` with one of the spec's two messages.

    Read the way a browser reads an address typed in full: without a `scheme:` it is not a
    full address (first message); a scheme other than http or https gets the second; an
    http(s) address needs a `//host` that is a plausible host name or IP address, and may
    not hold whitespace or control characters anywhere.
    """
    if not _SCHEME.match(text):
        raise ma.ValidationError(BAD_LINK)
    scheme = text.split(":", 1)[0].lower()
    if scheme not in ("http", "https"):
        raise ma.ValidationError(NOT_WEB_LINK)
    if _UNSAFE.search(text):
        raise ma.ValidationError(BAD_LINK)
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError:
        raise ma.ValidationError(BAD_LINK) from None
    host = parts.hostname or ""
    if not text[len(scheme) + 1:].startswith("//") or not host:
        raise ma.ValidationError(BAD_LINK)
    if not (host.startswith("[") or ":" in host or _HOST.fullmatch(host)) or ".." in host:
        raise ma.ValidationError(BAD_LINK)
    return text


class Link(SpecField):
    """Optional http(s) address: trimmed, cut to 300 characters, then checked; a missing,
    null, non-string or blank value means no link."""

    def clean(self, value: Any) -> str:
        text = value.strip()[:LINK_LIMIT] if isinstance(value, str) else ""
        return check_link(text) if text else ""

    def openapi(self) -> dict[str, Any]:
        return {"type": "string", "maxLength": LINK_LIMIT, "format": "uri",
                "description": "optional; http or https only; trimmed and cut to 300 "
                               "characters, then checked"}


class CreateGiftIdea(Schema):
    recipient = Line(RECIPIENT_LIMIT, required=NO_RECIPIENT)
    occasion = Line(80)
    budget = Line(40)
    note = Text(300)  # CRLF kept as sent


class SuggestBody(Schema):
    idea = Line(IDEA_LIMIT, required=NO_IDEA)
    link = Link()
    suggestedBy = Line(SUGGESTED_BY_LIMIT)  # the spec's field name


class IdeaBody(Schema):
    """Upvote: the idea is looked up by the operation (unknown is a 404)."""

    ideaId = Line(CODE_LIMIT)


class ClaimBody(IdeaBody):
    """Never fails on its own: the idea is checked first, then the name."""

    name = Line(CLAIM_NAME_LIMIT)


class UnclaimBody(IdeaBody):
    """The idea, and the secret its claim handed this browser."""

    secret = Line(CODE_LIMIT)


class RemoveIdeaBody(Schema):
    itoken = Line(CODE_LIMIT)
