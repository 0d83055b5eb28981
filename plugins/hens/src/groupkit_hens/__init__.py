"""Hens & Shower Planner: Sign-ups for a hens party or shower: who's helping with what."""

from __future__ import annotations

__version__ = "0.1.0"
