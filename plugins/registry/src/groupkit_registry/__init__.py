"""Pixel Gift Registry: A gift registry drawn as a pixel-art vehicle built part by part."""

from __future__ import annotations

__version__ = "0.1.0"
