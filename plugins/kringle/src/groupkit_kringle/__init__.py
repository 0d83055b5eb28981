"""Kris Kringle: A Secret Santa draw: one loop through everybody, each person sees only their own giftee."""

from __future__ import annotations

__version__ = "0.1.0"
