"""Entries: a participant adds one entry (a guess, a note, a vote) and gets a private
token to change it; each can be claimed once; people listed by name can get personal links
instead. See docs/how-to/private-links.md.
"""

from __future__ import annotations

from groupkit.blocks._entries import OK_REPLY
from groupkit.blocks._entries import Entries
from groupkit.blocks._entries import claim_once
from groupkit.blocks._entries import entries_schema
from groupkit.blocks._entries import ok_reply
from groupkit.blocks._entries import token_reply
from groupkit.blocks._entries import token_schema
from groupkit.blocks._personal import CLAIM_BY_LINK
from groupkit.blocks._personal import PersonalLinks

__all__ = [
    "CLAIM_BY_LINK",
    "OK_REPLY",
    "Entries",
    "PersonalLinks",
    "claim_once",
    "entries_schema",
    "ok_reply",
    "token_reply",
    "token_schema",
]
