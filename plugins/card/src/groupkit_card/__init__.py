"""Group Card: A card everyone signs with a message for the recipient."""

from __future__ import annotations

__version__ = "0.1.0"
