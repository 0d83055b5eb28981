"""Secret Role Dealer bodies, fields in the spec's check order, and the five presets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from typing import ClassVar

import marshmallow as ma

from groupkit import N_
from groupkit import Choice
from groupkit import Count
from groupkit import Exact
from groupkit import Flag
from groupkit import Line
from groupkit import Schema
from groupkit import SpecField
from groupkit import StringList
from groupkit import Text
from groupkit import clean_line
from groupkit import clean_text
from groupkit import whole_number

FEW_ROLES = N_("Add at least two roles — one per line.")
#: The same refusal for the role editor's rows (the create and organiser pages' form, with or
#: without script): the reader sees rows there, not lines. A body with the spec's list of
#: roles still gets the spec's words.
FEW_ROWS = N_("Add at least two roles: a name on each row, and how many players get it.")
MANY_ROLES = N_("That's {n} roles — this tool tops out at 40.")
NO_NAME = N_("Tell us your name first.")

MIN_ROLES = 2
MAX_ROLES = 40
ROLE_LIMIT = 80
BRIEF_LIMIT = 600
NAME_LIMIT = 40
TITLE_LIMIT = 80
NOTE_LIMIT = 600


class Briefs(SpecField):
    """The `briefs` map: a non-object means none; each briefing has CRLF normalised to LF,
    then T(600); empty (or non-string) briefings are dropped. Matching keys against the
    cleaned roles needs the roles, so that happens in `match_briefs`."""

    openapi_type = "object"

    def clean(self, value: Any) -> dict[str, str]:
        if not isinstance(value, dict):
            return {}
        cleaned = {}
        for key, brief in value.items():
            text = clean_text(brief, BRIEF_LIMIT, crlf=True) if isinstance(brief, str) else ""
            if text:
                cleaned[str(key)] = text
        return cleaned

    def openapi(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": {"type": "string",
                                                          "maxLength": BRIEF_LIMIT},
                "description": "role text -> briefing. A key must equal a cleaned role "
                               "exactly (it is not cleaned itself); unmatched keys are "
                               "dropped. Briefings: CRLF -> LF, T(600), empty dropped. "
                               "Every slot with that role gets the briefing."}


class PlayerNames(StringList):
    """The players a game with personal links names at create; checked there (only when
    `personalLinks` is on), so a game without it reads them not at all."""

    def openapi(self) -> dict[str, Any]:
        return {**super().openapi(), "description": (
            f"with `personalLinks` only (ignored otherwise): the players, each "
            f"C({NAME_LIMIT}), empties dropped, at least one, distinct ignoring case, no more "
            "than the roles")}


def roles_field() -> StringList:
    return StringList(ROLE_LIMIT, at_least=Count(MIN_ROLES, FEW_ROLES),
                      at_most=Count(MAX_ROLES, MANY_ROLES))


#: The five recognised preset names (the spec leaves them open). A preset only fills the
#: create page's editor; the stored roles always come from `roles`.
#: The five recognised preset names and what each fills in (the spec leaves them open).
#: One file serves both sides: the create page's script fetches it to fill the editor, and
#: here it names the presets a create body may carry. The stored roles always come from
#: `roles`; a recognised preset name is only kept for the record.
PRESETS: dict[str, Any] = json.loads(
    (Path(__file__).parent / "static" / "presets.json").read_text(encoding="utf-8"))
#: The presets' labels (`label` in presets.json), for the catalog: the create page's list
#: shows each in its reader's language.
PRESET_LABELS = (N_("Werewolf (8 players)"), N_("Mafia (7 players)"),
                 N_("Find the spy (6 players)"), N_("Murder mystery (6 players)"),
                 N_("Traitors (10 players)"))


class CreateRoles(Schema):
    """`roles` may also come as the role editor's rows, `[{name, count, brief, was}]` (the
    create and organiser pages' form, with or without script): each row stands for `count`
    players of that role (a missing or bad count is one), its brief becomes the role's
    briefing unless `briefs` is sent, and `was` (the organiser's edit only: the role's name
    when the page showed it) renames that role. Rows that make fewer than two roles are
    refused in the editor's words (`FEW_ROWS`)."""

    title = Text(TITLE_LIMIT)
    note = Text(NOTE_LIMIT)
    roles = roles_field()
    briefs = Briefs()
    preset = Choice(list(PRESETS), default="")
    # Optional; absent, a game behaves exactly as one created before it existed.
    personalLinks = Flag(description=(
        "optional: the organiser names the players (`names`), each is dealt a role at once "
        "and gets their own private link (listed on the organiser page, and emailed with "
        "`invite` when the server sends email) instead of joining from the share page, "
        "which is then turned off"))
    names = PlayerNames(NAME_LIMIT)
    #: What each preset fills in, for the create page's template (it reaches the schema as
    #: `tool.create_schema`), which fills the editor itself when a browser has no script.
    presets: ClassVar[dict[str, Any]] = PRESETS

    @ma.pre_load
    def rows(self, data: Any, **kwargs: Any) -> Any:
        rows = data.get("roles") if isinstance(data, dict) else None
        if not isinstance(rows, list) or not any(isinstance(row, dict) for row in rows):
            return data
        roles: list[Any] = []
        briefs: dict[str, Any] = {}
        renamed: dict[str, Any] = {}
        for row in rows:
            if not isinstance(row, dict):
                roles.append(row)
                continue
            name = row.get("name")
            count = whole_number(row.get("count"))
            count = 1 if count is None or count < 1 else min(count, ROW_COUNT_LIMIT)
            roles.extend([name] * count)
            key = clean_line(name, ROLE_LIMIT) if isinstance(name, str) else ""
            if key and isinstance(row.get("brief"), str) and row["brief"].strip():
                briefs.setdefault(key, row["brief"])
            was = row.get("was")
            if key and isinstance(was, str) and clean_line(was, ROLE_LIMIT) not in ("", key):
                renamed.setdefault(was, key)
        named = [role for role in roles if isinstance(role, str) and clean_line(role, ROLE_LIMIT)]
        if len(named) < MIN_ROLES:
            raise ma.ValidationError({"roles": [FEW_ROWS]})
        data = {**data, "roles": roles}
        data.setdefault("briefs", briefs)
        if renamed:
            data.setdefault("renamed", renamed)
        return data


class ClaimBody(Schema):
    name = Line(NAME_LIMIT, required=NO_NAME)


class HeldBody(Schema):
    token = Exact("the 22-character token the claim returned")


class ResetBody(Schema):
    name = Line(NAME_LIMIT)


class DetailsBody(Schema):
    title = Text(TITLE_LIMIT)
    note = Text(NOTE_LIMIT)


class RolesBody(Schema):
    roles = roles_field()
    briefs = Briefs()


#: The most players one editor row stands for (as the page's script reads a count).
ROW_COUNT_LIMIT = 1000


class Renamed(SpecField):
    """Roles the organiser renamed in the editor: old role -> new role, both as cleaned.
    Filled from the rows' `was` (see `EditRoles`); a non-object means none."""

    openapi_type = "object"

    def clean(self, value: Any) -> dict[str, str]:
        if not isinstance(value, dict):
            return {}
        pairs = {clean_line(old, ROLE_LIMIT): clean_line(new, ROLE_LIMIT)
                 for old, new in value.items() if isinstance(old, str) and isinstance(new, str)}
        return {old: new for old, new in pairs.items() if old and new and old != new}

    def openapi(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": {"type": "string"},
                "description": "old role -> new role: players holding the old one hold the "
                               "renamed one, no re-deal (the editor's rows send `was`)"}


class EditRoles(CreateRoles):
    """The organiser's edit: the create fields (rows included), and `renamed`, filled from
    the rows' `was`."""

    renamed = Renamed()


def match_briefs(roles: list[str], briefs: dict[str, str]) -> dict[str, str]:
    """Briefings whose key equals a cleaned role exactly, in the roles' order."""
    return {role: briefs[role] for role in dict.fromkeys(roles) if role in briefs}
