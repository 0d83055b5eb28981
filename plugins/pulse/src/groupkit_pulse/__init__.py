"""Weekly Pulse: An anonymous 1-to-5 weekly check-in with optional words."""

from __future__ import annotations

__version__ = "0.1.0"
