"""Gift Idea Board: Suggest, upvote and claim gift ideas — for everyone except the recipient."""

from __future__ import annotations

__version__ = "0.1.0"
