"""Team Picker: shuffle people into teams and share the finished grouping."""

from __future__ import annotations

from pathlib import Path

from groupkit import Tool, hookimpl

from .api import TEAMS_SCHEMA, create, ops, organiser_view, public_view
from .schema import MAX_MEMBERS, MAX_TEAMS, CreateTeams

__version__ = "0.1.0"

HERE = Path(__file__).parent

DESCRIPTION = (
    "Stores an already-drawn set of teams at one link. The shuffle happens in the client "
    "(the create page shuffles in the browser and posts the result); the service stores the "
    "finished grouping exactly as sent, in the order sent, after cleaning. There is no "
    "re-shuffle and no edit: the only organiser operation is delete (plus the JSON export "
    "every tool has). To draw again, create a new one and delete the old.")


@hookimpl
def groupkit_tool() -> Tool:
    return Tool(
        name="teams", title="Team Picker", version=__version__,
        plugin_api=(1, 1),
        summary="Shuffle a list of names into teams and share the result at one link.",
        create_schema=CreateTeams, create=create, public_view=public_view,
        organiser_view=organiser_view, operations=ops,
        templates=HERE / "templates", static=HERE / "static",
        limits={"teams": MAX_TEAMS, "members": MAX_MEMBERS}, public_schema=TEAMS_SCHEMA,
        description=DESCRIPTION,
        example={"title": "Trivia night", "teams": [
            {"title": "Quizzly Bears", "members": ["Ann", "Cy", "Ed"]},
            {"title": "", "members": ["Bo", "Di", "Flo"]}]},
    )
