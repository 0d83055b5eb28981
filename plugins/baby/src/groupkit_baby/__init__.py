"""Baby Guess Pool: Guess the baby's arrival date and weight; closest guess wins."""

from __future__ import annotations

__version__ = "0.1.0"
