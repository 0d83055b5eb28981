"""Credential resolution. Every lookup of a slug, editToken or participant token goes through
here, so unknown, missing, wrong-tool and deleted credentials cannot answer differently."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any
from typing import TypeVar

from groupkit.core._credentials import EDIT_TOKEN_LENGTH
from groupkit.core._credentials import PARTICIPANT_TOKEN_LENGTH
from groupkit.core._credentials import digest
from groupkit.core._credentials import looks_like_token
from groupkit.core._errors import not_found
from groupkit.core._storage import BaseModel
from groupkit.core._storage import Credential
from groupkit.core._storage import Instance
from groupkit.core._storage import database
from groupkit.core._storage import is_postgres
from groupkit.core._storage import model_rows
from groupkit.core._tokens import lookup_token

M = TypeVar("M", bound=BaseModel)


@functools.cache
def _instance_sql(column: str, by_tool: bool, lock: bool, param: str) -> str:
    """The one statement each lookup needs, written once: every request resolves a link,
    and building it through peewee's query tree each time cost more than running it."""
    names = ", ".join(field.column_name for field in Instance._meta.sorted_fields)
    sql = f"SELECT {names} FROM instance WHERE {column} = {param}"
    if by_tool:
        sql += f" AND tool = {param}"
    return sql + (" FOR UPDATE" if lock else "")


def _instance(column: str, value: str, tool: str | None, lock: bool) -> Instance:
    sql = _instance_sql(column, tool is not None, lock and is_postgres(), database.param)
    params = (value,) if tool is None else (value, tool)
    for found in model_rows(Instance, sql, params):
        return found
    raise not_found()


def by_slug(tool: str | None, slug: object, lock: bool = False) -> Instance:
    if not isinstance(slug, str) or not 16 <= len(slug) <= 80:
        raise not_found()
    return _instance("slug", slug, tool, lock)


def by_edit_token(tool: str | None, token: object, lock: bool = False) -> Instance:
    if not looks_like_token(token, EDIT_TOKEN_LENGTH):
        raise not_found()
    return _instance("edit_digest", digest(str(token)), tool, lock)


@functools.cache
def _locked_participant_sql(param: str) -> str:
    """The credential and its instance, the instance's row locked, in one statement: a
    participant's write took two before (the credential, then its instance locked)."""
    names = [f"c.{field.column_name}" for field in Credential._meta.sorted_fields] + [
        f"i.{field.column_name}" for field in Instance._meta.sorted_fields]
    return (f"SELECT {', '.join(names)} FROM credential c JOIN instance i "
            f"ON i.id = c.instance_id WHERE c.digest = {param} FOR UPDATE OF i")


def _row(model: type[M], values: Sequence[Any]) -> M:
    row = model(__no_default__=1)
    row.__data__ = {field.name: field.python_value(value)
                    for field, value in zip(model._meta.sorted_fields, values, strict=True)}
    return row


def _locked_participant(token: object) -> Credential | None:
    """`lookup_token` with the instance's row locked (PostgreSQL): as of the lock, so the
    instance is the one the lock protects."""
    if not looks_like_token(token, PARTICIPANT_TOKEN_LENGTH):
        return None
    found = database.execute_sql(_locked_participant_sql(database.param),
                                 (digest(str(token)),)).fetchone()
    if found is None:
        return None
    split = len(Credential._meta.sorted_fields)
    credential = _row(Credential, found[:split])
    credential.instance = _row(Instance, found[split:])
    return credential


def by_participant_token(tool: str | None, kinds: tuple[str, ...], token: object,
                         lock: bool = False) -> tuple[Instance, Credential]:
    credential = _locked_participant(token) if lock and is_postgres() else lookup_token(token)
    if credential is None or credential.kind not in kinds:
        raise not_found()
    instance = credential.instance
    if tool is not None and instance.tool != tool:
        raise not_found()
    return instance, credential
