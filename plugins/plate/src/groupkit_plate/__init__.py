"""Bring a Plate: a potluck sign-up board of categories with fixed spots."""

from __future__ import annotations

from pathlib import Path

from groupkit import Tool, hookimpl

from .api import EDIT, board_schema, create, ops, organiser_view, public_view
from .schema import MAX_CATEGORIES, MAX_SPOTS, CreatePlate

__version__ = "0.1.0"

HERE = Path(__file__).parent


@hookimpl
def groupkit_tool() -> Tool:
    return Tool(
        name="plate", title="Bring a Plate", version=__version__,
        plugin_api=(1, 1),
        hidden=(),
        group="events", icon="🥗",
        summary="A potluck sign-up board: categories with a few spots each, "
                "so everyone can see who's bringing what.",
        create_schema=CreatePlate, create=create, public_view=public_view,
        organiser_view=organiser_view, operations=ops, edit=EDIT,
        templates=HERE / "templates", static=HERE / "static",
        limits={"categories": MAX_CATEGORIES, "spotsPerCategory": MAX_SPOTS},
        public_schema=board_schema(),
        example={"title": "End-of-year lunch", "eventDate": "Friday 12 December, 12:30",
                 "note": "Drop-off in the staff kitchen from noon.",
                 "categories": [{"name": "Mains", "capacity": 4},
                                {"name": "Salads and sides", "capacity": 4},
                                {"name": "Desserts", "capacity": 3}]},
    )
