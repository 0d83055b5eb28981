"""Team Picker: shuffle people into teams and share the finished grouping."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import TEAMS_SCHEMA
from .schema import MAX_MEMBERS
from .schema import MAX_TEAMS
from .schema import CreateTeams

groupkit_tool = Tool.hook(
    api, hidden=(), create_schema=CreateTeams,
    limits={"teams": MAX_TEAMS, "members": MAX_MEMBERS}, public_schema=TEAMS_SCHEMA,
)
