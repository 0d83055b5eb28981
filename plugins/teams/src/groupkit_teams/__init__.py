"""Team Picker: Shuffle people into teams and share the finished grouping."""

from __future__ import annotations

__version__ = "0.1.0"
