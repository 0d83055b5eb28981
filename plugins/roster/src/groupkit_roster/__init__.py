"""Volunteer Roster: Shifts with spots for volunteers to claim, with a CSV for the coordinator."""

from __future__ import annotations

__version__ = "0.1.0"
