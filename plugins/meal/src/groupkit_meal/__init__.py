"""Meal Train: Days on which friends sign up to cook for someone who needs it."""

from __future__ import annotations

__version__ = "0.1.0"
