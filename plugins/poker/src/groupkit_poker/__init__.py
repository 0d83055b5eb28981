"""Scrum Poker: Planning poker: everyone votes a card, then all cards flip at once."""

from __future__ import annotations

__version__ = "0.1.0"
