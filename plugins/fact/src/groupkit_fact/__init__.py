"""Fact Matcher: Everyone adds a fact about themselves; the group guesses who wrote which."""

from __future__ import annotations

__version__ = "0.1.0"
