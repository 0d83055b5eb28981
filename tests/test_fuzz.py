"""Hostile input against every installed tool: arbitrary JSON in every field of every create
and every operation never gives a 5xx, and every refusal is one JSON `{"error"}`."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from groupkit.core._api import all_operations
from groupkit.core._config import Settings
from groupkit.ops._app import create_app
from groupkit.ops._plugins import load_tools
from groupkit_testing import PostgresSchema
from groupkit_testing import create
from groupkit_testing import postgres_url

INSTALLED = load_tools(Settings()).tools
ALLOWED = {200, 201, 400, 404, 409}

HUGE = "9" * 5000
#: Markers swapped for bare 5,000-digit JSON numbers when a body is sent (json.dumps cannot
#: write an int that long): numbers past Python's integer-string conversion limit.
BARE_HUGE = {"\u2063+huge\u2063": HUGE, "\u2063-huge\u2063": "-" + HUGE}
huge_numbers = st.sampled_from([HUGE, "-" + HUGE, "0" * 5000 + "1", *BARE_HUGE])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=30) | huge_numbers,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12)


def bodies(keys: list[str], fixed: dict[str, Any] | None = None) -> st.SearchStrategy[Any]:
    """Objects with the schema's keys (each maybe absent) holding any JSON, plus non-objects."""
    objects = st.fixed_dictionaries(
        dict(fixed or {}), optional={key: json_values for key in keys})
    return objects | json_values


def schema_keys(schema: Any) -> list[str]:
    return [field.data_key or name for name, field in schema().fields.items()]


class Target:
    """One app, shared by the module's tests (building and migrating an app for each test
    cost more than its examples on PostgreSQL); each test fuzzes an instance of its own."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.client = app.test_client()

    def run(self, coroutine: Any) -> Any:
        return asyncio.run(coroutine)

    def instance(self, name: str) -> dict[str, str]:
        """A new instance of the tool, made from its example."""
        made: dict[str, str] = self.run(create(self.client, name,
                                               dict(INSTALLED[name].example)))
        return made

    async def post(self, path: str, body: Any) -> None:
        data = json.dumps(body, ensure_ascii=False)
        for marker, digits in BARE_HUGE.items():
            data = data.replace(json.dumps(marker, ensure_ascii=False), digits)
        response = await self.client.post(path, data=data.encode(),
                                          headers={"Content-Type": "application/json"})
        assert response.status_code in ALLOWED, (path, body, response.status_code)
        payload = await response.get_json()
        if response.status_code >= 400:
            # The organiser's edit documents two extra members (`FieldError`): the field the
            # message is about and whether a confirmed resend goes ahead.
            extras = {"field", "confirm"} if path.endswith("/edit") else set()
            assert "error" in payload and set(payload) - {"error"} <= extras
            assert isinstance(payload["error"], str)
            assert isinstance(payload.get("field", ""), str)
            assert payload.get("confirm", True) is True
            assert payload["error"] and "Traceback" not in payload["error"]


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    """On this run's database (PostgreSQL when configured), with a POST limit no module of
    examples reaches (a test on an app of its own sent under 240)."""
    url = postgres_url()
    schema = PostgresSchema(url) if url else None
    database = schema.database_url if schema else \
        f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'groupkit.db'}"
    app = create_app(Settings(database_url=database, database_threads=4,
                              post_per_hour=10_000_000))
    try:
        yield Target(app)
    finally:
        app.config["GROUPKIT_STORAGE"].close()
        if schema is not None:
            schema.drop()


# `nox -s fuzz` raises the count; the test run keeps it bounded.
EXAMPLES = int(os.environ.get("GROUPKIT_FUZZ_EXAMPLES_PER_TOOL", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@pytest.mark.parametrize("tool_name", sorted(INSTALLED))
def test_create_never_fails_badly(tool_name: str, target: Target) -> None:
    keys = schema_keys(INSTALLED[tool_name].create_schema)

    @FUZZ
    @given(body=bodies(keys))
    def check(body: Any) -> None:
        target.run(target.post(f"/api/{tool_name}", body))

    check()


OPERATIONS = [(name, op) for name, tool in INSTALLED.items() for op in all_operations(tool)
              if op.writes and op.kind in ("public", "organiser") and op.path != "delete"]


@pytest.mark.parametrize(("tool_name", "op"), OPERATIONS,
                         ids=[f"{name}-{op.path}" for name, op in OPERATIONS])
def test_operations_never_fail_badly(tool_name: str, op: Any, target: Target) -> None:
    keys = schema_keys(op.body) if op.body is not None else []
    made = target.instance(tool_name)
    if op.kind == "public":
        path = f"/api/{tool_name}/{op.path}"
        fixed = {"slug": st.sampled_from([made["slug"], "x", ""]) | json_values}
    else:
        path = f"/api/{tool_name}/{made['editToken']}/{op.path}"
        fixed = {}

    @FUZZ
    @given(body=bodies(keys, fixed))
    def check(body: Any) -> None:
        target.run(target.post(path, body))

    check()
