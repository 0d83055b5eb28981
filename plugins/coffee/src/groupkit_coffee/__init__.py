"""Coffee Roulette: Pair people up for a coffee each round, avoiding recent repeats."""

from __future__ import annotations

__version__ = "0.1.0"
