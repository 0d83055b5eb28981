"""Credential resolution. Every lookup of a slug, editToken or participant token goes through
here, so unknown, missing, wrong-tool and deleted credentials cannot answer differently."""

from __future__ import annotations

from .credentials import EDIT_TOKEN_LENGTH, digest, looks_like_token
from .errors import not_found
from .storage import Credential, Instance, is_postgres
from .tokens import lookup_token


def _locked(query: object, lock: bool) -> object:
    return query.for_update() if lock and is_postgres() else query  # type: ignore[attr-defined]


def by_slug(tool: str | None, slug: object, lock: bool = False) -> Instance:
    if not isinstance(slug, str) or not 16 <= len(slug) <= 80:
        raise not_found()
    query = Instance.select().where(Instance.slug == slug)
    if tool is not None:
        query = query.where(Instance.tool == tool)
    found = _locked(query, lock).first()  # type: ignore[attr-defined]
    if found is None:
        raise not_found()
    return found


def by_edit_token(tool: str | None, token: object, lock: bool = False) -> Instance:
    if not looks_like_token(token, EDIT_TOKEN_LENGTH):
        raise not_found()
    query = Instance.select().where(Instance.edit_digest == digest(str(token)))
    if tool is not None:
        query = query.where(Instance.tool == tool)
    found = _locked(query, lock).first()  # type: ignore[attr-defined]
    if found is None:
        raise not_found()
    return found


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
