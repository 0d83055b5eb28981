"""Entries: rows that people add to an instance (a card's messages, a book's recipes, a
board's ideas, a wall's notes), each with the participant token that lets its author remove
it. Several tools keep them the same way, so the steps live here once: the room check under
the instance lock, finding one by its code (or by its token) with the tool's own 404, and
removing one with its tokens so a dead entry's link stops working. Also the reply schemas
those operations share."""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any
from typing import Generic
from typing import TypeVar

import peewee as pw

from groupkit.core._credentials import PARTICIPANT_TOKEN_LENGTH
from groupkit.core._errors import NOT_FOUND_MESSAGE
from groupkit.core._errors import ApiError
from groupkit.core._errors import conflict
from groupkit.core._storage import BaseModel
from groupkit.core._storage import Credential
from groupkit.core._storage import Instance
from groupkit.core._tokens import find_token
from groupkit.core._tokens import issue_token
from groupkit.core._tokens import revoke_tokens

M = TypeVar("M", bound=BaseModel)



def token_schema(description: str | None = None) -> dict[str, Any]:
    """The schema of a participant token in a reply or a view (its exact length), with what
    it is for as its description."""
    schema: dict[str, Any] = {"type": "string", "minLength": PARTICIPANT_TOKEN_LENGTH,
                              "maxLength": PARTICIPANT_TOKEN_LENGTH}
    if description is not None:
        schema["description"] = description
    return schema


def token_reply(token: str, id_description: str | None = None,
                id_type: str | None = None, *, required: bool = False) -> dict[str, Any]:
    """The reply schema of an operation that issues a participant token: `token`, described
    by `token` (what it is for), and the new entry's `id` when its description or its type
    (default string) is given; `required` lists `token` as required."""
    properties: dict[str, Any] = {"token": token_schema(token)}
    if id_description is not None or id_type is not None:
        properties["id"] = {"type": id_type or "string"}
        if id_description is not None:
            properties["id"]["description"] = id_description
    if required:
        return {"type": "object", "required": ["token"], "properties": properties}
    return {"type": "object", "properties": properties}


def entries_schema(key: str, items: dict[str, Any], *, limit: str,
                   order: str) -> dict[str, Any]:
    """The `limit` and `key` properties of a view schema for a board that lists at most
    `limit` entries (the number a view sends, so a page can say how many are left): `limit`
    says what the number counts, `order` how the list is sorted."""
    return {"limit": {"type": "integer", "description": limit},
            key: {"type": "array", "description": order, "items": items}}


def ok_reply(**flags: str) -> dict[str, Any]:
    """The reply schema of `{"ok": true}` plus a boolean per keyword, described by its value:
    `ok_reply(removed="false when no such note is on the wall")`."""
    properties: dict[str, Any] = {"ok": {"type": "boolean"}}
    properties.update({name: {"type": "boolean", "description": description}
                       for name, description in flags.items()})
    return {"type": "object", "properties": properties}


class Entries(Generic[M]):
    """The entries of one model: `code` names the column that the entry's tokens carry as
    their `ref` (a random code, or `id`), `kind` the tokens' kind, `missing` the tool's 404
    message for an entry that is not there (any more), by default the kernel's own."""

    def __init__(self, model: type[M], kind: str, missing: str = NOT_FOUND_MESSAGE, *,
                 code: str = "code") -> None:
        self.model, self.kind, self.missing, self.code = model, kind, missing, code

    def _of(self, instance: Instance) -> Any:
        return self.model.instance == instance  # type: ignore[attr-defined]

    def _where(self, instance: Instance, code: object) -> Any:
        """The entry `code` names; None when it cannot name one (a token's ref or a sent
        value that is no whole number, for an entry known by its numeric `id`)."""
        column = getattr(self.model, self.code)
        if isinstance(column, pw.IntegerField) and not isinstance(code, int):
            if not (isinstance(code, str) and code.isdigit()):
                return None
            code = int(code)
        return self._of(instance) & (column == code)

    def fresh_code(self, instance: Instance) -> str:
        """A random code (ten hex digits) no entry on `instance` has. Random rather than a
        row number, which the database may hand out again: a page anchor or a browser's
        memory of an entry must never attach itself to a later one."""
        column = getattr(self.model, self.code)
        while True:
            code = secrets.token_hex(5)
            if not self.model.select().where(self._of(instance) & (column == code)).exists():
                return code

    def add(self, instance: Instance, limit: int, full: str, *, keep_plain: bool = False,
            **fields: Any) -> tuple[M, str]:
        """Add an entry under a fresh code, refused with the 409 `full` when `limit` are
        there already (call it in the operation, under the instance lock), and issue the
        token that lets its author remove it (`keep_plain` where the organiser sees it
        again). Returns the row and the token."""
        self.make_room(instance, limit, full)
        code = self.fresh_code(instance)
        token = issue_token(instance, self.kind, code, keep_plain=keep_plain)
        row = self.model.create(instance=instance, **{self.code: code}, **fields)
        return row, token

    def make_room(self, instance: Instance, limit: int, full: str) -> None:
        """Refuse (409 `full`) when the instance already holds `limit` entries. Call it in
        the operation (under the instance lock), so concurrent adds never pass the limit."""
        if self.model.select().where(self._of(instance)).count() >= limit:
            raise conflict(full)

    def find(self, instance: Instance, code: object) -> M:
        """The entry `code` names on `instance`, or the 404 `missing`."""
        where = self._where(instance, code)
        row = self.model.get_or_none(where) if where is not None else None
        if row is None:
            raise ApiError(404, self.missing)
        return row

    def find_by_token(self, instance: Instance, token: object) -> M:
        """The entry a token of this kind was issued for (an organiser names an entry by the
        token it lists), or the 404 `missing`."""
        credential = find_token(instance, self.kind, token)
        if credential is None:
            raise ApiError(404, self.missing)
        return self.find(instance, credential.ref)

    def find_own(self, instance: Instance, credential: Credential | None) -> M:
        """The entry of the participant token a participant operation (or view) was called
        with (of this kind, or a retired kind the tool still answers)."""
        if credential is None:
            raise ApiError(404, self.missing)
        return self.find(instance, credential.ref)

    def remove(self, instance: Instance, row: M) -> None:
        """Delete the entry and revoke its tokens: its author's link dies with it."""
        revoke_tokens(instance, self.kind, str(getattr(row, self.code)))
        row.delete_instance()

    def remove_code(self, instance: Instance, code: object) -> bool:
        """Delete the entry `code` names, if it is there, with its tokens; whether it was."""
        where = self._where(instance, code) if code is not None else None
        removed = where is not None and bool(self.model.delete().where(where).execute())
        if removed:
            revoke_tokens(instance, self.kind, str(code))
        return removed

    def plain_tokens(self, instance: Instance) -> dict[str, str]:
        """Entry code -> its token, for the organiser: only tokens issued with
        `keep_plain=True` (the spec shows them again) are readable."""
        return {credential.ref: credential.plain for credential in Credential.select().where(
            (Credential.instance == instance) & (Credential.kind == self.kind))
            if credential.plain is not None}


def claim_once(row: BaseModel, field: Any, when: dt.datetime, taken: str) -> None:
    """Mark `row` claimed: set `field` (a time, null until claimed) to `when` in one
    statement that succeeds only while it is still null, so of two people claiming one name
    at once, one wins and the other gets the 409 `taken`."""
    model = type(row)
    claimed = model.update({field: when}).where(
        (model._meta.primary_key == row.get_id()) & field.is_null()).execute()
    if not claimed:
        raise conflict(taken)


#: The reply schema of an operation that answers `{"ok": true}`.
OK_REPLY: dict[str, Any] = ok_reply()
