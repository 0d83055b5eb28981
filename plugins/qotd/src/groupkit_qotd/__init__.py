"""Question of the Day: A fresh two-option question for the team every day."""

from __future__ import annotations

__version__ = "0.1.0"
