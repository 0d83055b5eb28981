"""Recipe Collection: A shared recipe book everyone adds a recipe to."""

from __future__ import annotations

__version__ = "0.1.0"
