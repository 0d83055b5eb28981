"""Team Picker: create and views. A stored grouping never changes: no operations beyond the
kernel's export and delete."""

from __future__ import annotations

from typing import Any

from groupkit import Edit
from groupkit import Instance
from groupkit import Operations

from .schema import DEFAULT_HEADING

ops = Operations()


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"teams": data["teams"]}


def public_view(instance: Instance) -> dict[str, Any]:
    """The grouping as everyone sees it: each team's name and members, in the order sent."""
    teams = instance.data["teams"]
    return {"title": instance.title, "heading": instance.title or DEFAULT_HEADING,
            "teams": [{"title": team["title"], "members": list(team["members"])}
                      for team in teams],
            "memberCount": sum(len(team["members"]) for team in teams)}


def organiser_view(instance: Instance) -> dict[str, Any]:
    """Nothing about a grouping is private: the organiser sees what everyone sees."""
    return public_view(instance)


TEAMS_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "title": {"type": "string"},
    "heading": {"type": "string", "description": f"title, or `{DEFAULT_HEADING}`"},
    "teams": {"type": "array", "items": {"type": "object", "properties": {
        "title": {"type": "string"},
        "members": {"type": "array", "items": {"type": "string"}}}}},
    "memberCount": {"type": "integer"}}}


EDIT = Edit(fields=("title", "teams"),
            description="`teams` replaces the whole grouping (re-shuffled in the browser, "
                        "with new starters added and leavers taken out); nobody holds a "
                        "link of their own, so nothing else changes.")
