"""Secret Role Dealer: Deal secret roles to players, each seen only on the player's own page."""

from __future__ import annotations

__version__ = "0.1.0"
