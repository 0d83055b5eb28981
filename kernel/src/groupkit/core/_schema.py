"""Request schemas: marshmallow collects every error, the spec wants the first one."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

import marshmallow as ma

from groupkit.core._errors import ApiError
from groupkit.core._i18n import N_


class Schema(ma.Schema):
    """Base for create and operation bodies: unknown keys are dropped, never an error."""

    class Meta:
        unknown = ma.EXCLUDE


def _first_message(messages: Any) -> str:
    return _first_below(messages)[1]


def _first_below(messages: Any) -> tuple[str, str]:
    """(path, message) of a field's first error: a list's row error (`ObjectList` with
    `row_errors`) is keyed by the row's index, then its key, and the path says so
    (".2.name"), as a form names that row's input."""
    path = ""
    while isinstance(messages, (list, dict)):
        if not messages:
            return path, N_("That request doesn't look right.")
        if isinstance(messages, list):
            messages = messages[0]
        else:
            key = next(iter(messages))
            path, messages = f"{path}.{key}", messages[key]
    # A message made with `message` stays one, so a page can still translate it.
    return path, messages if isinstance(messages, str) else str(messages)


def first_failure(schema: ma.Schema, errors: Mapping[str, Any]) -> tuple[str | None, str]:
    """(field, message) of the first failing field in declaration order (the spec's check
    order), then any whole-schema check (field None)."""
    for name, field in schema.fields.items():
        key = field.data_key or name
        if key in errors:
            path, message = _first_below(errors[key])
            return key + path, message
    return None, _first_message(errors)


def first_error(schema: ma.Schema, errors: Mapping[str, Any]) -> str:
    """The message of the first failing field in declaration order, then any whole-schema
    check."""
    return first_failure(schema, errors)[1]


@functools.cache
def instance_of(schema: type[ma.Schema]) -> ma.Schema:
    """One instance per schema class, reused for every request: making a marshmallow
    schema copies all its fields, which cost a body more than cleaning it. Loading keeps no
    state on the instance."""
    return schema()


def all_failures(schema: ma.Schema, errors: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """(field, message) of every failing field, in declaration order."""
    found = []
    for name, field in schema.fields.items():
        key = field.data_key or name
        if key in errors:
            path, message = _first_below(errors[key])
            found.append((key + path, message))
    return tuple(found)


def load(schema: ma.Schema, body: Any, *, partial: bool = False) -> dict[str, Any]:
    """Clean `body` with `schema`; a non-object body reads as `{}`; failure is one 400.

    partial: only the fields present in the body are cleaned and returned (an edit), and
    the 400 names its field (`ApiError.field`). The 400 also carries every failing field
    (`ApiError.errors`): marshmallow checks each field on its own, so all of them are
    known at once; whole-schema checks run only when every field passed."""
    data = body if isinstance(body, dict) else {}
    try:
        result = schema.load(data, partial=partial)
    except ma.ValidationError as exc:
        messages = exc.messages if isinstance(exc.messages, dict) else {"_schema": exc.messages}
        field, message = first_failure(schema, messages)
        failures = all_failures(schema, messages)
        raise ApiError(400, message, field=field if partial else None,
                       errors=failures if failures and failures[0][1] == message
                       else ()) from None
    return dict(result)


def subset(schema: type[ma.Schema], fields: Sequence[str], name: str) -> type[ma.Schema]:
    """`schema` limited to `fields`: the same rules, messages and order, and its whole-schema
    checks too (which, loading partially, must allow for absent fields)."""
    declared = schema._declared_fields
    missing = [field for field in fields if field not in declared]
    if missing:
        raise ValueError(f"{schema.__name__} has no field {missing[0]!r}")
    base_meta = getattr(schema, "Meta", Schema.Meta)
    meta = type("Meta", (base_meta,), {"fields": tuple(f for f in declared if f in fields),
                                       "unknown": ma.EXCLUDE})
    return type(name, (schema,), {"Meta": meta})
