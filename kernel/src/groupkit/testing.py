"""pytest fixtures for testing groupkit and its tool plugins (a pytest plugin, loaded
automatically once `groupkit` is installed).

    async def test_claim(make_app):
        app = make_app(tools=["plate"])
        client = app.test_client()
        created = await create(client, "plate", {...})

Every app gets a fresh database: a SQLite file in the test's tmp_path, or, when
$GROUPKIT_TEST_POSTGRES_URL is set, a fresh schema in that PostgreSQL database.
$GROUPKIT_REQUIRE_EXTERNAL=1 (set in CI) turns every "PostgreSQL / Chromium not available"
skip into a failure.
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import pytest

from ._app import create_app
from ._config import Settings

POSTGRES_ENV = "GROUPKIT_TEST_POSTGRES_URL"
REQUIRE_ENV = "GROUPKIT_REQUIRE_EXTERNAL"
BACKENDS_ENV = "GROUPKIT_TEST_BACKENDS"


class FakeClock:
    """A settable clock for `make_app(clock=...)` and the kernel's background tasks."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


def external_missing(what: str) -> None:
    """Skip on a laptop without `what`; fail in CI, where everything must be present."""
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{what} is required here ({REQUIRE_ENV}=1) but not available")
    pytest.skip(f"{what} not available")


def postgres_url() -> str | None:
    """The PostgreSQL server tests may use ($GROUPKIT_TEST_POSTGRES_URL), or None."""
    return os.environ.get(POSTGRES_ENV) or None


def server_backends() -> list[str]:
    """Databases a real-server test runs on: `@pytest.fixture(params=server_backends())`.

    SQLite always; PostgreSQL when $GROUPKIT_TEST_POSTGRES_URL is set. Without the URL the
    postgres case skips through `external_missing` on a laptop, but it is not generated at all
    under $GROUPKIT_REQUIRE_EXTERNAL=1: that is CI's SQLite pass, which unsets the URL on
    purpose and runs the suite again with it (where both cases run).
    $GROUPKIT_TEST_BACKENDS (e.g. "postgres") narrows the list, so a second pass need not
    repeat the SQLite servers the first pass ran."""
    chosen = [name for name in os.environ.get(BACKENDS_ENV, "").split(",") if name]
    if postgres_url() or os.environ.get(REQUIRE_ENV) != "1":
        backends = ["sqlite", "postgres"]
    else:
        backends = ["sqlite"]
    return [name for name in backends if name in chosen] if chosen else backends


def _with_search_path(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = (parts.query + "&" if parts.query else "") + "options=" + quote(
        f"-csearch_path={schema}")
    return urlunsplit(parts._replace(query=query))


class PostgresSchema:
    """A throw-away schema: full isolation without creating databases."""

    def __init__(self, url: str) -> None:
        import psycopg2

        self.url, self.name = url, f"t_{secrets.token_hex(6)}"
        self._connect = lambda: psycopg2.connect(url)
        with self._connect() as conn, conn.cursor() as cursor:
            cursor.execute(f"CREATE SCHEMA {self.name}")
        conn.close()

    @property
    def database_url(self) -> str:
        return _with_search_path(self.url, self.name)

    def drop(self) -> None:
        conn = self._connect()
        try:
            with conn, conn.cursor() as cursor:
                cursor.execute(f"DROP SCHEMA IF EXISTS {self.name} CASCADE")
        finally:
            conn.close()


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database for this test (PostgreSQL when configured, else SQLite)."""
    url = postgres_url()
    if url is None:
        yield f"sqlite:///{tmp_path / 'groupkit.db'}"
        return
    schema = PostgresSchema(url)
    try:
        yield schema.database_url
    finally:
        schema.drop()


@pytest.fixture
def settings(database_url: str) -> Settings:
    """Default settings on this test's own database; `make_app` varies them per app."""
    return Settings(database_url=database_url, database_threads=4)


@pytest.fixture
def make_app(settings: Settings) -> Iterator[Callable[..., Any]]:
    """Build an app on this test's database: `make_app(tools=["plate"], mode="production")`.
    Only one app per test is live at a time (they share the database binding)."""
    apps: list[Any] = []

    def factory(tools: Sequence[str] = ("*",), extra_plugins: Sequence[object] = (),
                entry_points: bool = True, clock: Callable[[], Any] | None = None,
                **changes: Any) -> Any:
        app = create_app(settings.replace(enabled_tools=tuple(tools), **changes),
                         extra_plugins=extra_plugins, entry_points=entry_points, clock=clock)
        apps.append(app)
        return app

    yield factory
    for app in apps:
        app.config["GROUPKIT_STORAGE"].close()


def run_command(argv: Sequence[str]) -> int:
    """Run the `groupkit` command in this process (`run_command(["prune", "--config", p])`)
    and return its exit status."""
    from ._cli import main

    return main(list(argv))


def prune_now(app: Any, now: Any) -> dict[str, int]:
    """Run every enabled tool's retention prune as of `now` (what the server does on its
    schedule and `groupkit prune` does once); returns the rows removed per tool."""
    from ._retention import prune_all

    return prune_all(app.config["GROUPKIT_STORAGE"], app.config["GROUPKIT_TOOLS"], now)


def rerun_migrations(app_name: str, migrations: Sequence[Any], keep: Sequence[str]) -> list[str]:
    """Pretend only `keep` of `app_name`'s migrations ran, then migrate again (an upgrade
    test: drop the later steps' tables first); returns the names applied."""
    from ._storage import MigrationRecord, apply_migrations

    MigrationRecord.delete().where((MigrationRecord.app == app_name)
                                   & MigrationRecord.name.not_in(list(keep))).execute()
    return apply_migrations(app_name, migrations)


async def create(client: Any, tool: str, body: Any) -> dict[str, str]:
    """Create an instance through the API and return `{slug, editToken}` (asserts 201)."""
    response = await client.post(f"/api/{tool}", json=body)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    return dict(payload)


async def edit(client: Any, tool: str, edit_token: str, body: Any) -> tuple[int, Any]:
    """Send an organiser's edit (`POST /api/<tool>/{editToken}/edit`): (status, JSON body)."""
    response = await client.post(f"/api/{tool}/{edit_token}/edit", json=body)
    return response.status_code, await response.get_json()


_DATABASE_FIXTURES = frozenset({"database_url", "live_server"})
_DATABASE_WORDS = ("postgres_url", "server_backends", "PostgresSchema", POSTGRES_ENV)


def _mentions_database(path: Path, seen: dict[Path, bool]) -> bool:
    if path not in seen:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            text = ""
        seen[path] = any(word in text for word in _DATABASE_WORDS)
    return seen[path]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A PostgreSQL-only pass ($GROUPKIT_TEST_BACKENDS=postgres, CI's second pass) runs only
    tests that can reach a database: those using `database_url` (so `settings`, `make_app`)
    or `live_server`, and those in modules that pick a backend themselves. The rest never
    open a database, so running them again would repeat the first pass exactly."""
    chosen = {name for name in os.environ.get(BACKENDS_ENV, "").split(",") if name}
    if chosen != {"postgres"}:
        return
    seen: dict[Path, bool] = {}
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        reaches = bool(fixtures & _DATABASE_FIXTURES) or _mentions_database(item.path, seen)
        (keep if reaches else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# --- API answers: the error helper (plugin tests) ------------------------------------------

async def error_of(response: Any, status: int, *, field: str | None = None) -> str:
    """The message of an API error answer, after checking its status, that it is JSON and
    that its body is `{"error": ...}` alone (with `field` too when one is expected): tests
    compare the message to the spec's, character for character."""
    payload = await response.get_json()
    assert response.status_code == status, payload
    assert response.content_type == "application/json", response.content_type
    assert payload == {"error": payload.get("error"), **({"field": field} if field else {})}, \
        payload
    return str(payload["error"])
