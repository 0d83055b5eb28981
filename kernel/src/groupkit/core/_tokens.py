"""Participant tokens: issued by a tool's claim operation, stored as digests, resolved only by
the kernel so that a wrong or dead token always meets the same 404."""

from __future__ import annotations

from groupkit.core._credentials import PARTICIPANT_TOKEN_LENGTH
from groupkit.core._credentials import digest
from groupkit.core._credentials import looks_like_token
from groupkit.core._credentials import random_string
from groupkit.core._storage import Credential
from groupkit.core._storage import Instance


def issue_token(instance: Instance, kind: str, ref: str, *, keep_plain: bool = False,
                length: int = PARTICIPANT_TOKEN_LENGTH) -> str:
    """A fresh token for record `ref` of `instance`. `keep_plain` only where the spec shows
    the token again later (e.g. a recipe's token on the organiser page)."""
    token = random_string(length)
    Credential.create(instance=instance, kind=kind, digest=digest(token), ref=str(ref),
                      plain=token if keep_plain else None)
    return token


def revoke_tokens(instance: Instance, kind: str, ref: str | None = None) -> int:
    """Kill every token of `kind` (for one `ref`, or all) so old links stop working."""
    query = Credential.delete().where((Credential.instance == instance) & (Credential.kind == kind))
    if ref is not None:
        query = query.where(Credential.ref == str(ref))
    return int(query.execute())


def retire_tokens(instance: Instance, kind: str, ref: str, retired_kind: str) -> int:
    """Turn the tokens of `kind` for `ref` into `retired_kind` ones: the old links stop
    opening the person's page, but a participant view that accepts `retired_kind` can still
    say what happened (a reset) and how to get a fresh link, instead of a dead end."""
    return int(Credential.update(kind=retired_kind, plain=None).where(
        (Credential.instance == instance) & (Credential.kind == kind)
        & (Credential.ref == str(ref))).execute())


def rotate_token(instance: Instance, kind: str, ref: str, *, keep_plain: bool = False) -> str:
    """Revoke every token of (kind, ref) and issue a new one: a reset link kills the old."""
    revoke_tokens(instance, kind, ref)
    return issue_token(instance, kind, ref, keep_plain=keep_plain)


def find_token(instance: Instance, kinds: tuple[str, ...] | str, token: object,
               length: int = PARTICIPANT_TOKEN_LENGTH) -> Credential | None:
    """The credential `token` names within `instance`, or None (wrong shape, unknown, other
    instance, other kind)."""
    if not looks_like_token(token, length):
        return None
    wanted = (kinds,) if isinstance(kinds, str) else kinds
    return (Credential.select()
            .where((Credential.digest == digest(str(token))) & (Credential.instance == instance)
                   & (Credential.kind.in_(wanted)))
            .first())


def lookup_token(token: object, length: int = PARTICIPANT_TOKEN_LENGTH) -> Credential | None:
    """The credential and its instance for a bare token from a URL, or None."""
    if not looks_like_token(token, length):
        return None
    return (Credential.select(Credential, Instance).join(Instance)
            .where(Credential.digest == digest(str(token))).first())
