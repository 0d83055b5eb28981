"""Credential resolution. Every lookup of a slug, editToken or participant token goes through
here, so unknown, missing, wrong-tool and deleted credentials cannot answer differently."""

from __future__ import annotations

import functools

from groupkit.core._credentials import EDIT_TOKEN_LENGTH
from groupkit.core._credentials import digest
from groupkit.core._credentials import looks_like_token
from groupkit.core._errors import not_found
from groupkit.core._storage import Credential
from groupkit.core._storage import Instance
from groupkit.core._storage import database
from groupkit.core._storage import is_postgres
from groupkit.core._storage import model_rows
from groupkit.core._tokens import lookup_token


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


def by_participant_token(tool: str | None, kinds: tuple[str, ...], token: object,
                         lock: bool = False) -> tuple[Instance, Credential]:
    credential = lookup_token(token)
    if credential is None or credential.kind not in kinds:
        raise not_found()
    instance = credential.instance
    if tool is not None and instance.tool != tool:
        raise not_found()
    if lock and is_postgres():
        instance = by_slug(instance.tool, instance.slug, lock=True)
        credential.instance = instance
    return instance, credential
