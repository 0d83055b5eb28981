"""Edits that never undo each other: optimistic concurrency for every tool's edit.

Two organiser tabs (or a co-organiser) each edit from what their page showed. An edit says
which version of the instance it was based on (`If-Match: "<version>"` from an API client;
the `EDIT_VERSION` field of the organiser page's form). The kernel keeps, per instance and
edit field, the version that last changed the field (`EditStamp`, written by every write
that changes a field's value, whichever operation it was: a suggestion adding a poll option
counts). A field the edit sends that nobody changed since its base is applied; one somebody
changed since to a different value than the edit's is a conflict: 409 naming each such field
with both values (`EditConflict`), nothing applied. The form side makes sure an edit sends
only what the person changed (groupkit.js compares with what the form showed; without the
script, `groupkit.web._forms` drops every field posted as it was shown), so fields someone
else changed meanwhile are never sent back stale. An edit without a base behaves as before.
"""

from __future__ import annotations

import contextvars
import json
import re
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any

import marshmallow as ma
import peewee as pw

from groupkit.core._errors import ApiError
from groupkit.core._i18n import N_
from groupkit.core._i18n import message
from groupkit.core._schema import load
from groupkit.core._storage import BaseModel
from groupkit.core._storage import Instance

#: The form field (hidden, on the organiser page's edit form) holding the version it shows.
EDIT_VERSION = "groupkit-version"
#: The form field holding the values the edit form showed, as the pairs it would post.
EDIT_SHOWN = "groupkit-shown"
#: A conflict's "keep theirs" button (without the script): its value names the field left
#: out of the edit sent again.
KEEP_THEIRS = "groupkit-theirs"
#: A conflict's "use mine" button: the edit is sent again as it is.
USE_MINE = "groupkit-mine"

#: The request header an API client names its base version with.
IF_MATCH = "If-Match"
BAD_BASE = N_("If-Match takes the version your edit is based on: the ETag the export or "
            'your last edit answered with (e.g. "7").')
#: An edit conflict's words: the 409's message and each field's line on the page.
CONFLICT = N_("Someone else saved a change while you were editing — {changes}. Keep theirs, "
              "or send yours again to replace it.")
CONFLICTS = N_("Someone else saved a change while you were editing — {changes}. Keep theirs, "
               "or send yours again to replace them.")
FIELD_NOW = N_("{field} is now {theirs} (yours: {mine})")
#: How a conflict quotes an empty value and a yes/no one.
EMPTY, YES, NO = N_("empty"), N_("yes"), N_("no")
CHANGED = N_("Changed by someone else to {theirs}; yours is {mine}.")
_VERSION = re.compile(r'(?:W/)?"?(\d{1,12})"?')

_base: contextvars.ContextVar[int | None] = contextvars.ContextVar("groupkit_edit_base",
                                                                   default=None)


class EditStamp(BaseModel):
    """The version that last changed one edit field of an instance."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    field = pw.CharField(max_length=80)
    version = pw.IntegerField()

    class Meta:
        table_name = "groupkit_edit_stamp"
        indexes = ((("instance", "field"), True),)


def _create_tables(db: pw.Database) -> None:
    db.create_tables([EditStamp], safe=True)


#: The kernel's fourth migration: the edit stamps.
MIGRATION = ("0004_edit_stamps", _create_tables)


def parse_base(header: str | None) -> int | None:
    """The version an `If-Match` header names (`"7"`, `W/"7"` or `7`); None without one; a
    400 for anything else (`*` included: an edit is always based on something seen)."""
    if header is None or not header.strip():
        return None
    match = _VERSION.fullmatch(header.strip())
    if match is None:
        raise ApiError(400, BAD_BASE)
    return int(match[1])


def etag(version: int) -> str:
    """The `ETag` an export or an edit answers with: the version, for the next `If-Match`."""
    return f'"{version}"'


def set_base(version: int | None) -> contextvars.Token[int | None]:
    """For the form layer: the version the posted edit form showed (it has no header)."""
    return _base.set(version)


def reset_base(token: contextvars.Token[int | None]) -> None:
    _base.reset(token)


def form_base() -> int | None:
    """The version the posted edit form showed, when the form layer set it."""
    return _base.get()


def _canonical(value: Any) -> str:
    return json.dumps(plain(value), sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"), default=str)


def stamp_changes(instance: Instance, before: Mapping[str, Any],
                  after: Mapping[str, Any]) -> list[str]:
    """Stamp every field whose value differs between `before` and `after` (an operation's
    `Edit.current` on each side of it) with the version the write is making; returns them."""
    changed = [field for field in before
               if _canonical(before[field]) != _canonical(after.get(field))]
    mark_edited(instance, *changed)
    return changed


def mark_edited(instance: Instance, *fields: str) -> None:
    """Note that the running write changes these edit fields of `instance`: for a public or
    participant operation that changes one (a vote whose suggestion adds a poll option), so
    an organiser's edit based on an older version sees the change instead of overwriting
    it. Organiser operations need not call it (the kernel compares `Edit.current`)."""
    version = instance.version + 1  # the bump `live.changed` makes in this transaction
    for field in fields:
        (EditStamp.insert(instance=instance, field=field, version=version)
         .on_conflict(conflict_target=[EditStamp.instance, EditStamp.field],
                      update={EditStamp.version: version})
         .execute())


def changed_since(instance: Instance, base: int, fields: Iterable[str]) -> set[str]:
    """The fields among `fields` some write changed after version `base`."""
    wanted = list(fields)
    if not wanted or base >= instance.version:
        return set()
    return {row.field for row in EditStamp.select(EditStamp.field).where(
        (EditStamp.instance == instance) & (EditStamp.field.in_(wanted))
        & (EditStamp.version > base))}


def same(schema: ma.Schema, field: str, mine: Any, theirs: Any) -> bool:
    """Whether the value an edit sent for `field` and the current one are the same: as they
    are, or once both are cleaned by the edit's rules (a stored value and a sent one may
    differ only in shape; a field may clean into several, as a role list into its briefs)."""
    if _canonical(mine) == _canonical(theirs):
        return True
    try:
        return _canonical(load(schema, {field: mine}, partial=True)) == \
            _canonical(load(schema, {field: theirs}, partial=True))
    except ApiError:
        return False


def label(field: str) -> str:
    """`dueDate` -> "due date": a field as a sentence names it."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: " " + m[1].lower(), field)


_SHOWN_MAX = 80


def shown(value: Any) -> str:
    """A value as a sentence quotes it: text in quotes, a list as its items, a row by its
    first text; long values cut short."""
    if value is None or value == "" or value == []:
        return message(EMPTY)  # words a page says in its reader's language
    if isinstance(value, bool):
        return message(YES if value else NO)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        text = " ".join(value.split())
    elif isinstance(value, list):
        text = ", ".join(_item(item) for item in value)
    elif isinstance(value, dict):
        text = _item(value)
    else:
        text = str(value)
    if len(text) > _SHOWN_MAX:
        text = text[:_SHOWN_MAX - 1].rstrip() + "…"
    return f"“{text}”"


def _item(item: Any) -> str:
    if isinstance(item, dict):  # a row, by its longest text: a name, not an id
        texts = [value for value in item.values() if isinstance(value, str) and value]
        return max(texts, key=len) if texts else _canonical(item)
    return " ".join(str(item).split())


def plain(value: Any) -> Any:
    """A cleaned value as JSON shows it: what marshmallow left unset (`missing`) left out."""
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items() if item is not ma.missing}
    return value


class EditConflict(ApiError):
    """A 409 for an edit based on a version older than a change to a field it sends: the
    spec's one-sentence tone, then each field with both values; nothing was applied."""

    def __init__(self, version: int, conflicts: list[tuple[str, Any, Any]]) -> None:
        # Messages (`groupkit.core._i18n.message`): the API sends the English, a page says it
        # in its reader's language.
        parts = {f"p{number}": message(FIELD_NOW, field=label(field), theirs=shown(theirs),
                                       mine=shown(mine))
                 for number, (field, theirs, mine) in enumerate(conflicts)}
        changes = message("; ".join(f"{{{name}}}" for name in parts), **parts)
        said = message(CONFLICTS if len(conflicts) > 1 else CONFLICT, changes=changes)
        super().__init__(409, said, field=conflicts[0][0])
        self.version = version
        self.conflicts = [{"field": field, "theirs": plain(theirs), "yours": plain(mine),
                           "text": message(CHANGED, theirs=shown(theirs), mine=shown(mine))}
                          for field, theirs, mine in conflicts]

    def body(self) -> dict[str, object]:
        return {**super().body(), "conflicts": self.conflicts, "version": self.version}


def check(instance: Instance, schema: ma.Schema, sent: Mapping[str, Any],
          current: Mapping[str, Any], base: int | None) -> None:
    """Refuse (`EditConflict`) an edit based on `base` that sends (`sent`: the fields of its
    body as they came) a field somebody changed since to a value other than the edit's."""
    if base is None:
        return
    moved = changed_since(instance, base, sent)
    conflicts = [(field, current.get(field), sent[field]) for field in sent
                 if field in moved and not same(schema, field, sent[field], current.get(field))]
    if conflicts:
        raise EditConflict(instance.version, conflicts)
