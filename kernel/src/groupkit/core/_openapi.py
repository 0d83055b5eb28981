"""The OpenAPI 3.1.0 document, generated from the enabled tools' schemas and operations
(never written by hand), and the RFC 9727 API catalog that points at it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from groupkit.core import _edits as edits
from groupkit.core._api import PLACEHOLDER
from groupkit.core._api import all_operations
from groupkit.core._api import route_rule
from groupkit.core._errors import ALL_ERRORS_HEADER
from groupkit.core._fields import SpecField
from groupkit.core._limits import CREATE_LIMIT_MESSAGE
from groupkit.core._tool import BodyDoc
from groupkit.core._tool import Operation
from groupkit.core._tool import Tool

OPENAPI_PATH = "/openapi.json"
DOCUMENT_VERSION = "1.0.0"
CATALOG_PROFILE = "https://www.rfc-editor.org/info/rfc9727"

ERROR_DESCRIPTIONS = {
    400: "Validation failed; `error` says what to fix (the first failing check).",
    404: "Unknown, missing, deleted or wrong-tool credential.",
    409: "Someone else got there first, or a capacity or state conflict; re-read state.",
    413: "Request body too large.",
    429: "Rate limited (per client IP, per clock hour).",
}

FORM_NOTE = (
    "Every writing operation also takes an ordinary HTML form post "
    "(`application/x-www-form-urlencoded`, field names as in the kernel's forms: `key`, "
    "`group.key`, `list.0.key`, with `:lines`, `:number`, `:bool`, `:json` or `:list`), "
    "runs the same operation and answers 303 back to the page it came from, which then "
    "shows the result or the error once. Browsers without JavaScript use it; API clients "
    "send JSON.")

PARAMETERS = {
    "slug": "The group's public link code (from `/s/{slug}`).",
    "editToken": "The organiser's secret code (from `/e/{editToken}`).",
    "token": "A participant's private token.",
}


def _spec_field_properties(self: Any, field: ma.fields.Field, **kwargs: Any) -> dict[str, Any]:
    return field.openapi() if isinstance(field, SpecField) else {}


#: The header with which a page asks a body's 400 for every failing field (creates and
#: operations that take a body).
EVERY_FAILURE = {"name": ALL_ERRORS_HEADER, "in": "header", "required": False,
                 "description": ("`all`: a 400 also lists every failing field, and a refusal "
                                 "also says its message in the reader's language (`shown`)"),
                 "schema": {"type": "string", "enum": ["all"]}}
#: What a page's script reads beside the spec's English `error`.
SHOWN = {"type": "string", "description": (
    f"only with `{ALL_ERRORS_HEADER}: all` and a reader whose language (the `groupkit-lang` "
    "cookie, else Accept-Language) is not English: the message in that language, for a "
    "page to show; `error` stays the spec's English")}
#: The header an edit names the version it is based on with (`groupkit.core._edits`).
IF_MATCH = {"name": edits.IF_MATCH, "in": "header", "required": False,
            "description": "the version the edit is based on, quoted (`\"7\"`): fields "
                           "someone else changed since are a 409 instead of applied",
            "schema": {"type": "string", "pattern": '^(W/)?"?[0-9]{1,12}"?$'}}

class DocumentBuilder:
    def __init__(self, tools: Mapping[str, Tool]) -> None:
        self.tools = tools
        self.marshmallow = MarshmallowPlugin()
        self.spec = APISpec(
            title="groupkit", version=DOCUMENT_VERSION, openapi_version="3.1.0",
            plugins=[self.marshmallow],
            info={"description": "Small tools for organising groups of people. No accounts: "
                                 "possession of a link is the whole authorisation."})
        converter = self.marshmallow.converter
        assert converter is not None
        converter.add_attribute_function(_spec_field_properties)
        self.spec.components.schema("Error", {
            "type": "object", "required": ["error"],
            "properties": {"error": {"type": "string"}, "shown": SHOWN}})
        self.spec.components.schema("FieldError", {
            "type": "object", "required": ["error"],
            "properties": {
                "error": {"type": "string", "description": "the spec's message, exactly"},
                "shown": SHOWN,
                "field": {"type": "string",
                          "description": "the request field the message is about, when one"},
                "confirm": {"type": "boolean", "description": (
                    "true when sending the same body again with `\"confirm\": true` "
                    "goes ahead")}}})
        self.spec.components.schema("CreateError", {
            "type": "object", "required": ["error"],
            "properties": {
                "error": {"type": "string", "description": "the spec's message, exactly (the "
                          "first failing check)"},
                "shown": SHOWN,
                "field": {"type": "string", "description": (
                    f"only with `{ALL_ERRORS_HEADER}: all`: the field `error` is about")},
                "errors": {"type": "array", "description": (
                    f"only with `{ALL_ERRORS_HEADER}: all`: every failing field in check "
                    "order, the first being `error`, so a form can show them all at once"),
                    "items": {"type": "object", "required": ["field", "error"],
                              "properties": {"field": {"type": "string"},
                                             "error": {"type": "string"},
                                             "shown": SHOWN}}}}})
        self.spec.components.schema("Created", {
            "type": "object", "required": ["slug", "editToken"],
            "properties": {"slug": {"type": "string"},
                           "editToken": {"type": "string", "minLength": 26, "maxLength": 26}}})

    def body_schema(self, doc: BodyDoc | None, extra: Mapping[str, Any] | None = None
                    ) -> dict[str, Any]:
        if doc is None:
            schema: dict[str, Any] = {"type": "object"}
        elif isinstance(doc, Mapping):
            schema = dict(doc)
        else:
            instance = doc() if isinstance(doc, type) else doc
            converter = self.marshmallow.converter
            assert converter is not None
            schema = converter.schema2jsonschema(instance)
            schema.pop("required", None)
        if extra:
            schema = {**schema, "properties": {**schema.get("properties", {}), **extra},
                      "required": sorted(set(schema.get("required", [])) | set(extra))}
        return schema

    def error_responses(self, statuses: Mapping[int, str],
                        fields: bool = False, every: bool = False) -> dict[str, Any]:
        """fields: 400 and 409 bodies may name their field (`FieldError`); every: a 400
        lists every failing field when asked (`CreateError`)."""
        responses = {}
        for status in sorted(set(statuses) | {404, 413}):
            description = statuses.get(status) or ERROR_DESCRIPTIONS.get(status, "Error")
            name = "FieldError" if fields and status in (400, 409) else \
                "CreateError" if every and status == 400 else "Error"
            schema = {"$ref": f"#/components/schemas/{name}"}
            responses[str(status)] = {"description": description,
                                      "content": {"application/json": {"schema": schema}}}
        return responses

    def add_create(self, tool: Tool) -> None:
        errors = {400: ERROR_DESCRIPTIONS[400], 429: CREATE_LIMIT_MESSAGE}
        self.spec.path(path=f"/api/{tool.name}", operations={"post": {
            "tags": [tool.name], "operationId": f"{tool.name}_create",
            "summary": f"Create a {tool.title}",
            "description": FORM_NOTE,
            "parameters": [dict(EVERY_FAILURE)],
            "requestBody": {"required": False, "content": {"application/json": {
                "schema": self.body_schema(tool.create_schema),
                "example": dict(tool.example)}}},
            "responses": {"201": {"description": "Created: keep both codes.", "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Created"}}}},
                **self.error_responses(errors),
                "400": {"description": ERROR_DESCRIPTIONS[400], "content": {
                    "application/json": {"schema": {
                        "$ref": "#/components/schemas/CreateError"}}}}}}})
        self.spec.path(path=f"/api/{tool.name}/{{slug}}", operations={"get": {
            "tags": [tool.name], "operationId": f"{tool.name}_read",
            "summary": f"Read a {tool.title} as its public page shows it",
            "parameters": [self.parameter("slug")],
            "responses": {"200": {"description": "What the public page shows.", "content": {
                "application/json": {"schema": self.body_schema(tool.public_schema)}}},
                **self.error_responses({})}}})
        self.spec.path(path=f"/api/{tool.name}/{{slug}}/events", operations={"get": {
            "tags": [tool.name], "operationId": f"{tool.name}_events",
            "summary": f"Live updates: a Server-Sent Events stream for a {tool.title}",
            "description": "`event: version` (data: the instance's version number) on connect "
                           "and whenever the instance changes; `event: gone` when it is "
                           "deleted. Re-read the public view on each new version. The stream "
                           "ends after a few minutes; reconnect (EventSource does).",
            "parameters": [self.parameter("slug")],
            "responses": {"200": {"description": "An endless event stream.", "content": {
                "text/event-stream": {"schema": {"type": "string"}}}},
                **self.error_responses({})}}})

    @staticmethod
    def parameter(name: str) -> dict[str, Any]:
        return {"name": name, "in": "path", "required": True, "schema": {"type": "string"},
                "description": PARAMETERS.get(name, f"The {name} this operation acts on.")}

    def add_operation(self, tool: Tool, op: Operation) -> None:
        _, path = route_rule(tool, op)
        parameters = [self.parameter(name) for name in PLACEHOLDER.findall(path)]
        operation: dict[str, Any] = {
            "tags": [tool.name],
            "operationId": "_".join([tool.name, *path.split("/")[3:]]).replace(
                "{", "").replace("}", ""),
            "summary": op.summary or op.path, "parameters": parameters}
        if op.description:
            operation["description"] = op.description
        errors = dict(op.errors)
        if op.writes:
            errors.setdefault(429, ERROR_DESCRIPTIONS[429])
            extra = {"slug": {"type": "string"}} if op.kind == "public" else None
            if op.body is not None or extra:
                body = self.body_schema(op.body, extra)
                if op.partial:
                    body["properties"] = {**body.get("properties", {}), "confirm": {
                        "type": "boolean",
                        "description": "go ahead with a change a 409 asked to confirm"}}
                operation["requestBody"] = {"required": op.kind == "public", "content": {
                    "application/json": {"schema": body}}}
        if op.body is not None:
            errors.setdefault(400, ERROR_DESCRIPTIONS[400])
        every = op.writes and op.body is not None and not op.partial
        if every:
            parameters.append(dict(EVERY_FAILURE))
        if op.partial:
            parameters.append(dict(IF_MATCH))
        success: dict[str, Any] = {"description": "Success."}
        if op.content_type.startswith("application/json"):
            success["content"] = {"application/json": {"schema": self.body_schema(op.returns)}}
        else:
            success["content"] = {op.content_type.split(";")[0]: {"schema": {"type": "string"}}}
        operation["responses"] = {str(op.status): success,
                                  **self.error_responses(errors, fields=op.partial,
                                                         every=every)}
        self.spec.path(path=path, operations={op.method.lower(): operation})

    def build(self) -> dict[str, Any]:
        for tool in self.tools.values():
            about = f"{tool.title} {tool.version}."
            self.spec.tag({"name": tool.name,
                           "description": f"{about} {tool.description}".strip()})
            self.add_create(tool)
            for op in all_operations(tool):
                self.add_operation(tool, op)
        document: dict[str, Any] = self.spec.to_dict()
        return document


def openapi_document(tools: Mapping[str, Tool]) -> dict[str, Any]:
    return DocumentBuilder(tools).build()


def api_catalog(base_url: str) -> dict[str, Any]:
    """RFC 9727 linkset: one API, described by the OpenAPI document (`service-desc`)."""
    return {"linkset": [{
        "anchor": f"{base_url}/api/",
        "service-desc": [{"href": f"{base_url}{OPENAPI_PATH}",
                          "type": "application/vnd.oai.openapi+json;version=3.1"}],
        "service-doc": [{"href": f"{base_url}/", "type": "text/html"}],
    }]}
