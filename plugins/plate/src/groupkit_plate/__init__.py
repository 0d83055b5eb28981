"""Bring a Plate: a potluck sign-up board of categories with fixed spots."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import board_schema
from .schema import MAX_CATEGORIES
from .schema import MAX_SPOTS
from .schema import CreatePlate

groupkit_tool = Tool.hook(
    api, name="plate", title="Bring a Plate",
    plugin_api=(1, 1), hidden=(), group="events", icon="🥗",
    summary="A potluck sign-up board: categories with a few spots each, "
            "so everyone can see who's bringing what.",
    create_schema=CreatePlate, limits={"categories": MAX_CATEGORIES, "spotsPerCategory": MAX_SPOTS},
    public_schema=board_schema(),
    example={"title": "End-of-year lunch", "eventDate": "Friday 12 December, 12:30",
             "note": "Drop-off in the staff kitchen from noon.",
             "categories": [{"name": "Mains", "capacity": 4},
                            {"name": "Salads and sides", "capacity": 4},
                            {"name": "Desserts", "capacity": 3}]},
)
