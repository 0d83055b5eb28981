"""Team Picker: shuffle people into teams and share the finished grouping."""

from __future__ import annotations

from pathlib import Path

from groupkit import Tool, hookimpl

from .api import EDIT, TEAMS_SCHEMA, create, ops, organiser_view, public_view
from .schema import MAX_MEMBERS, MAX_TEAMS, CreateTeams

__version__ = "0.1.0"

HERE = Path(__file__).parent

DESCRIPTION = (
    "Stores an already-drawn set of teams at one link. The shuffle happens in the client "
    "(the create page shuffles in the browser and posts the result); the service stores the "
    "finished grouping exactly as sent, in the order sent, after cleaning. The server does "
    "no re-shuffle: besides delete (and the JSON export and edit every tool may have), the "
    "organiser's edit saves a grouping re-shuffled in the browser over the old one, at the "
    "same link (a new starter or a leaver between rounds).")


@hookimpl
def groupkit_tool() -> Tool:
    return Tool(
        name="teams", title="Team Picker", version=__version__,
        plugin_api=(1, 1),
        hidden=(),
        group="games", icon="🎲",
        summary="Shuffle a list of names into teams and share the result at one link.",
        create_schema=CreateTeams, create=create, public_view=public_view,
        organiser_view=organiser_view, operations=ops, edit=EDIT,
        templates=HERE / "templates", static=HERE / "static",
        limits={"teams": MAX_TEAMS, "members": MAX_MEMBERS}, public_schema=TEAMS_SCHEMA,
        description=DESCRIPTION,
        example={"title": "Trivia night", "teams": [
            {"title": "Quizzly Bears", "members": ["Ann", "Cy", "Ed"]},
            {"title": "", "members": ["Bo", "Di", "Flo"]}]},
    )
