"""Request schemas: marshmallow collects every error, the spec wants the first one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import marshmallow as ma

from .errors import ApiError


class Schema(ma.Schema):
    """Base for create and operation bodies: unknown keys are dropped, never an error."""

    class Meta:
        unknown = ma.EXCLUDE


def _first_message(messages: Any) -> str:
    while isinstance(messages, (list, dict)):
        if not messages:
            return "That request doesn't look right."
        messages = messages[0] if isinstance(messages, list) else next(iter(messages.values()))
    return str(messages)


def first_error(schema: ma.Schema, errors: Mapping[str, Any]) -> str:
    """The message of the first failing field in declaration order (the spec's check order),
    then any whole-schema check."""
    for name, field in schema.fields.items():
        key = field.data_key or name
        if key in errors:
            return _first_message(errors[key])
    return _first_message(errors)


def load(schema: ma.Schema, body: Any) -> dict[str, Any]:
    """Clean `body` with `schema`; a non-object body reads as `{}`; failure is one 400."""
    data = body if isinstance(body, dict) else {}
    try:
        result = schema.load(data)
    except ma.ValidationError as exc:
        messages = exc.messages if isinstance(exc.messages, dict) else {"_schema": exc.messages}
        raise ApiError(400, first_error(schema, messages)) from None
    return dict(result)
