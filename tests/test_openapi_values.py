"""Every value the whole OpenAPI document names is one its schema takes: a `default` validates
against its own schema, an `enum` entry or `const` is a JSON value of the schema's type. Client
generators build code from these values and skip an operation (openapi-python-client) when
one is not; they also stumble over a few valid constructs the document therefore avoids: a
numeric `const` (written as broken Python) and an array that does not say what it holds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry
from referencing import Resource
from referencing.jsonschema import DRAFT202012

from groupkit.core._openapi import openapi_document
from groupkit_testing import installed_tools

BASE = "urn:groupkit:openapi"
SUBSCHEMAS = ("items", "not", "additionalProperties", "contains")
SCHEMA_LISTS = ("prefixItems", "anyOf", "oneOf", "allOf")


def pointer(*parts: str | int) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def schemas_in(schema: Any, at: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(JSON pointer, schema) for `schema` and every schema inside it."""
    if not isinstance(schema, dict):
        return
    yield at, schema
    for name, inner in schema.get("properties", {}).items():
        yield from schemas_in(inner, at + pointer("properties", name))
    for key in SUBSCHEMAS:
        yield from schemas_in(schema.get(key), at + pointer(key))
    for key in SCHEMA_LISTS:
        for index, inner in enumerate(schema.get(key, ())):
            yield from schemas_in(inner, at + pointer(key, index))


def document_schemas(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema of the document: components, parameters, request and response bodies."""
    for name, schema in document.get("components", {}).get("schemas", {}).items():
        yield from schemas_in(schema, pointer("components", "schemas", name))
    for path, item in document["paths"].items():
        for method, operation in item.items():
            here = ("paths", path, method)
            for index, parameter in enumerate(operation.get("parameters", ())):
                yield from schemas_in(parameter.get("schema"),
                                      pointer(*here, "parameters", index, "schema"))
            bodies = [(("requestBody",), operation.get("requestBody", {}))] + [
                (("responses", status), response)
                for status, response in operation.get("responses", {}).items()]
            for where, body in bodies:
                for media, content in body.get("content", {}).items():
                    yield from schemas_in(content.get("schema"),
                                          pointer(*here, *where, "content", media, "schema"))


def test_every_default_enum_and_const_is_a_value_of_its_own_schema() -> None:
    document = openapi_document(installed_tools())
    registry = Registry().with_resource(
        BASE, Resource.from_contents(document, default_specification=DRAFT202012))
    schemas = list(document_schemas(document))
    assert len(schemas) > 1000
    wrong = []
    for at, schema in schemas:
        if "default" in schema:
            whole = Draft202012Validator({"$ref": f"{BASE}#{at}"}, registry=registry)
            wrong += [f"{at}: default {schema['default']!r}: {error.message}"
                      for error in whole.iter_errors(schema["default"])]
        typed = Draft202012Validator({"type": schema["type"]} if "type" in schema else {})
        for value in [*schema.get("enum", ()), *[schema[key] for key in ("const", "default")
                                                 if key in schema]]:
            json.dumps(value, allow_nan=False)
            if not typed.is_valid(value):
                wrong.append(f"{at}: {value!r} is not of type {schema['type']!r}")
    assert not wrong, "\n".join(wrong)


def test_no_construct_a_client_generator_stumbles_over() -> None:
    document = openapi_document(installed_tools())
    numeric_consts = [at for at, schema in document_schemas(document)
                      if isinstance(schema.get("const"), (int, float))
                      and not isinstance(schema["const"], bool)]
    assert not numeric_consts, "a single-value enum says the same"
    arrays = [at for at, schema in document_schemas(document)
              if "array" in (schema.get("type") if isinstance(schema.get("type"), list)
                             else [schema.get("type")])
              and "items" not in schema and "prefixItems" not in schema]
    assert not arrays, "say what the array holds"
