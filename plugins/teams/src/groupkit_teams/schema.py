"""Team Picker create body, fields in the spec's check order."""

from __future__ import annotations

import secrets
from typing import Any

import marshmallow as ma

from groupkit import N_
from groupkit import Line
from groupkit import Schema
from groupkit import SpecField
from groupkit import clean_line
from groupkit import js_string

FEW_TEAMS = N_("Two teams at least — one team is just the group.")
MANY_TEAMS = N_("That's more than 40 teams — split it into two draws.")
FEW_MEMBERS = N_("Add at least two names — one person is just practice.")
MANY_MEMBERS = N_("That's more than 200 names — split it into two draws.")

MIN_TEAMS, MAX_TEAMS = 2, 40
MIN_MEMBERS, MAX_MEMBERS = 2, 200
TEAM_TITLE_LIMIT = 40
MEMBER_LIMIT = 40
#: The heading of an untitled grouping (translated on pages, English in the API).
DEFAULT_HEADING = N_("The teams")


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


#: The most lines of names the create page shuffles without script (past the API's limit,
#: so the save still says how many is too many).
SHUFFLE_LINES = 1000


def shuffled(names_text: str, count_text: str | None) -> list[dict[str, Any]]:
    """The create page's shuffle for a browser without script (teams.js does the same in
    the browser): the names, one per line, dealt round `count` teams (2 to 40, else 2)
    from a random team, so sizes differ by at most one."""
    names = [line.strip() for line in names_text.splitlines()[:SHUFFLE_LINES] if line.strip()]
    count = int(count_text) if count_text and count_text.strip().isdigit() \
        and len(count_text.strip()) < 4 else MIN_TEAMS
    count = min(MAX_TEAMS, max(MIN_TEAMS, count))
    draw = secrets.SystemRandom()
    draw.shuffle(names)
    start = draw.randrange(count)
    teams: list[list[str]] = [[] for _ in range(count)]
    for position, name in enumerate(names):
        teams[(start + position) % count].append(name)
    return [{"title": "", "members": members} for members in teams]


class CreateTeams(Schema):
    title = Line(80)
    teams = Teams()
    #: For the create page's template (it reaches the schema as `tool.create_schema`).
    shuffled = staticmethod(shuffled)
