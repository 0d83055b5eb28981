"""The board's documented schema (`board_schema`: the public answer in the OpenAPI document,
and the organiser's) names every key the views answer, each with its JSON type: a client
generated from the document reads every field."""

from __future__ import annotations

import re
from typing import Any

from groupkit_plate.api import DEFAULT_HEADING
from groupkit_plate.api import board_schema

JSON_TYPES: dict[str, type | tuple[type, ...]] = {
    "string": str, "integer": int, "boolean": bool, "array": list, "object": dict,
    "null": type(None)}


def check(schema: dict[str, Any], value: Any, where: str = "board") -> None:
    """`value` has the type `schema` names (and matches its pattern), every key of an object
    is a documented property (and every property is there), and so on down."""
    types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    assert isinstance(value, tuple(JSON_TYPES[name] for name in types)), (where, value)
    if "pattern" in schema:
        assert re.search(schema["pattern"], value), (where, value)
    if isinstance(value, dict):
        assert set(value) == set(schema["properties"]), where
        for key, item in value.items():
            check(schema["properties"][key], item, f"{where}.{key}")
    if isinstance(value, list):
        for index, item in enumerate(value):
            check(schema["items"], item, f"{where}[{index}]")


async def test_the_views_answer_what_the_schema_documents(client: Any,
                                                          board: dict[str, str]) -> None:
    claim = {"slug": board["slug"], "slotId": "c0-1", "name": "Ann", "dish": "Lasagne"}
    assert (await client.post("/api/plate/claim", json=claim)).status_code == 201
    public = await (await client.get(f"/api/plate/{board['slug']}")).get_json()
    check(board_schema(), public)
    export = await (await client.post(f"/api/plate/{board['editToken']}/export")).get_json()
    check(board_schema(organiser=True), export["data"])
    assert "claimedAt" in str(board_schema(organiser=True))
    assert "claimedAt" not in str(board_schema())
    assert DEFAULT_HEADING in board_schema()["properties"]["heading"]["description"]
    assert "what they're bringing" in str(board_schema())
