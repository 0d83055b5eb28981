"""The OpenAPI document is generated, valid 3.1 and complete."""

from __future__ import annotations

import re
from typing import Any

from openapi_spec_validator import validate

import demo_plugin
from groupkit.core._config import Settings
from groupkit.core._openapi import openapi_document
from groupkit.ops._plugins import load_tools


def served_api_routes(app: Any) -> set[tuple[str, str]]:
    routes = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: "{" + {
            "edit_token": "editToken"}.get(m.group(1), m.group(1)) + "}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            routes.add((method.lower(), path))
    return routes


async def test_document_is_valid_openapi_31_and_covers_every_route(demo_app: Any) -> None:
    client = demo_app.test_client()
    document = await (await client.get("/openapi.json")).get_json()
    validate(document)
    assert document["openapi"] == "3.1.0"
    assert document["info"]["version"] == "1.0.0"
    documented = {(method, path) for path, item in document["paths"].items()
                  for method in item}
    assert served_api_routes(demo_app) == documented
    assert not [path for path in document["paths"] if not path.startswith("/api/")]


async def test_operations_document_bodies_errors_and_fields(demo_app: Any) -> None:
    document = await (await demo_app.test_client().get("/openapi.json")).get_json()
    create = document["paths"]["/api/demo"]["post"]
    assert set(create["responses"]) >= {"201", "400", "429"}
    properties = create["requestBody"]["content"]["application/json"]["schema"]["properties"]
    assert properties["title"]["maxLength"] == 40
    note = document["paths"]["/api/demo/note"]["post"]
    body = note["requestBody"]["content"]["application/json"]["schema"]
    assert "slug" in body["required"] and "text" in body["properties"]
    assert note["responses"]["409"]["description"] == "Full."
    whoami = document["paths"]["/api/demo/p/{token}/whoami"]["post"]
    assert whoami["parameters"][0]["name"] == "token"
    csv = document["paths"]["/api/demo/{editToken}/csv"]["get"]
    assert "text/csv" in csv["responses"]["200"]["content"]
    ics = document["paths"]["/api/demo/{slug}/ics/{day}"]["get"]
    assert [parameter["name"] for parameter in ics["parameters"]] == ["slug", "day"]
    assert "text/calendar" in ics["responses"]["200"]["content"]
    events = document["paths"]["/api/demo/{slug}/events"]["get"]
    assert "text/event-stream" in events["responses"]["200"]["content"]


def test_every_installed_tool_is_documented() -> None:
    registry = load_tools(Settings(), [demo_plugin])
    document = openapi_document(registry.tools)
    validate(document)
    for name in registry.tools:
        assert f"/api/{name}" in document["paths"]
        assert f"/api/{name}/{{editToken}}/delete" in document["paths"]
