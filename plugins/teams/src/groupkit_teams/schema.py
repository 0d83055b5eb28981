"""Team Picker create body, fields in the spec's check order."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from groupkit import Line
from groupkit import Schema
from groupkit import SpecField
from groupkit import clean_line
from groupkit import js_string

FEW_TEAMS = "Two teams at least — one team is just the group."
MANY_TEAMS = "That's more than 40 teams — split it into two draws."
FEW_MEMBERS = "Add at least two names — one person is just practice."
MANY_MEMBERS = "That's more than 200 names — split it into two draws."

MIN_TEAMS, MAX_TEAMS = 2, 40
MIN_MEMBERS, MAX_MEMBERS = 2, 200
TEAM_TITLE_LIMIT = 40
MEMBER_LIMIT = 40
DEFAULT_HEADING = "The teams"


def _text(value: Any) -> str:
    """Non-strings converted to text, the way the page that shuffled them would write them."""
    return value if isinstance(value, str) else js_string(value)


class Teams(SpecField):
    """The finished grouping: 2 to 40 entries as sent (a non-array counts as empty, a
    non-object entry as `{}`), each `{title, members}` cleaned, an empty title becoming
    `Team N` by position; then 2 to 200 members across all the teams."""

    openapi_type = "array"

    def clean(self, value: Any) -> list[dict[str, Any]]:
        entries = value if isinstance(value, list) else []
        if len(entries) < MIN_TEAMS:
            raise ma.ValidationError(FEW_TEAMS)
        if len(entries) > MAX_TEAMS:
            raise ma.ValidationError(MANY_TEAMS)
        teams = []
        for position, entry in enumerate(entries, start=1):
            source = entry if isinstance(entry, dict) else {}
            title = source.get("title")
            title = clean_line(title, TEAM_TITLE_LIMIT) if isinstance(title, str) else ""
            raw_members = source.get("members")
            members = [clean_line(_text(member), MEMBER_LIMIT)
                       for member in (raw_members if isinstance(raw_members, list) else [])]
            teams.append({"title": title or f"Team {position}",
                          "members": [member for member in members if member]})
        total = sum(len(team["members"]) for team in teams)
        if total < MIN_MEMBERS:
            raise ma.ValidationError(FEW_MEMBERS)
        if total > MAX_MEMBERS:
            raise ma.ValidationError(MANY_MEMBERS)
        return teams

    def openapi(self) -> dict[str, Any]:
        return {"type": "array", "minItems": MIN_TEAMS, "maxItems": MAX_TEAMS,
                "description": "the finished grouping, already shuffled by the client; "
                               f"{MIN_MEMBERS} to {MAX_MEMBERS} members across all teams",
                "items": {"type": "object", "properties": {
                    "title": {"type": "string", "maxLength": TEAM_TITLE_LIMIT,
                              "description": "C(40); empty becomes `Team N` (N from 1, "
                                             "by position)"},
                    "members": {"type": "array", "items": {
                        "type": "string", "maxLength": MEMBER_LIMIT,
                        "description": "C(40); non-strings converted to text; blanks "
                                       "dropped; duplicates allowed"}}}}}


class CreateTeams(Schema):
    title = Line(80)
    teams = Teams()
