"""Team Picker: shuffle people into teams and share the finished grouping."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import TEAMS_SCHEMA
from .schema import MAX_MEMBERS
from .schema import MAX_TEAMS
from .schema import CreateTeams

DESCRIPTION = (
    "Stores an already-drawn set of teams at one link. The shuffle happens in the client "
    "(the create page shuffles in the browser and posts the result); the service stores the "
    "finished grouping exactly as sent, in the order sent, after cleaning. The server does "
    "no re-shuffle: besides delete (and the JSON export and edit every tool may have), the "
    "organiser's edit saves a grouping re-shuffled in the browser over the old one, at the "
    "same link (a new starter or a leaver between rounds).")


groupkit_tool = Tool.hook(
    api, name="teams", title="Team Picker",
    plugin_api=(1, 1), hidden=(), group="games", icon="🎲",
    summary="Shuffle a list of names into teams and share the result at one link.",
    create_schema=CreateTeams,
    limits={"teams": MAX_TEAMS, "members": MAX_MEMBERS}, public_schema=TEAMS_SCHEMA,
    description=DESCRIPTION,
    example={"title": "Trivia night", "teams": [
        {"title": "Quizzly Bears", "members": ["Ann", "Cy", "Ed"]},
        {"title": "", "members": ["Bo", "Di", "Flo"]}]},
)
