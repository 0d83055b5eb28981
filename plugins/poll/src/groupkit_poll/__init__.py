"""Group Vote: A quick vote on options, open or secret ballot, with live tallies."""

from __future__ import annotations

__version__ = "0.1.0"
