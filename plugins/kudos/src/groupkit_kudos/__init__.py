"""Kudos Wall: A weekly wall of thank-you notes for a team."""

from __future__ import annotations

__version__ = "0.1.0"
