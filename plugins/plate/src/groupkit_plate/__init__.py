"""Bring a Plate: a potluck sign-up board of categories with fixed spots."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import board_schema
from .schema import MAX_CATEGORIES
from .schema import MAX_SPOTS
from .schema import CreatePlate

groupkit_tool = Tool.hook(
    api, hidden=(), create_schema=CreatePlate,
    limits={"categories": MAX_CATEGORIES, "spotsPerCategory": MAX_SPOTS},
    public_schema=board_schema(),
)
