"""Tournament Bracket: A single-elimination bracket with byes, results recorded by the organiser."""

from __future__ import annotations

__version__ = "0.1.0"
