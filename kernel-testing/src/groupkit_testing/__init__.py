"""pytest fixtures for testing groupkit and its tool plugins (a pytest plugin, loaded
automatically once `groupkit-testing` is installed).

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

import collections
import contextlib
import dataclasses
import datetime as dt
import json
import os
import re
import secrets
import shutil
import sqlite3
from collections.abc import Callable
from collections.abc import Hashable
from collections.abc import Iterator
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs
from urllib.parse import quote
from urllib.parse import urlsplit
from urllib.parse import urlunsplit

import pytest

from groupkit.core._config import Settings
from groupkit.ops._app import create_app
from groupkit_testing._external import BACKENDS_ENV
from groupkit_testing._external import POSTGRES_ENV
from groupkit_testing._external import REQUIRE_ENV
from groupkit_testing._external import TEMPLATES_ENV
from groupkit_testing._external import PostgresSchema
from groupkit_testing._external import _admin_run
from groupkit_testing._external import _PgState
from groupkit_testing._external import _with_search_path
from groupkit_testing._external import external_missing
from groupkit_testing._external import postgres_url
from groupkit_testing._external import server_backends


class FakeClock:
    """A settable clock for `make_app(clock=...)` and the kernel's background tasks."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)



class _Templates:
    """Migrated databases kept by one test process, so `make_app` need not migrate a fresh
    database again for a set of tools (and extra plugins) it has already met twice. On
    SQLite the first database migrated for such a set is copied aside (the backup API,
    while it is still empty) and later tests start from a copy of that file. On
    PostgreSQL a test's schema is kept when the test ends: its rows are removed and its
    sequences restarted (TRUNCATE ... RESTART IDENTITY), then it is renamed and lent, under
    the next test's schema name, to the next test of the same set. A schema whose
    definitions or migration records changed during the test (an upgrade test, a table made
    by hand) is dropped instead, as every schema was before. Either way a test sees exactly
    the database a migration would have left, and `create_app` still runs `migrate`, which
    finds every step done. $GROUPKIT_TEST_TEMPLATES=0 turns this off."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.seen: collections.Counter[Hashable] = collections.Counter()
        self.sqlite: dict[Hashable, Path] = {}
        self.postgres: dict[Hashable, list[tuple[str, _PgState]]] = {}

    @staticmethod
    def key(chosen: Settings, extra_plugins: Sequence[object], entry_points: bool
            ) -> Hashable | None:
        """What decides the migrations that run (`create_app` loads the tools from these
        alone, and `migrate` reads nothing else): the enabled tools, the plugin objects by
        identity, entry points or not, and the kind of database; None if no key."""
        key = (chosen.enabled_tools, chosen.database_url.split(":", 1)[0],
               tuple(extra_plugins), entry_points)
        try:
            hash(key)
        except TypeError:
            return None
        return key

    def start(self, chosen: Settings, extra_plugins: Sequence[object],
              entry_points: bool) -> Callable[[str], Callable[[], None] | None] | None:
        """Before the first app of a test: prepare its database from a template when there is
        one. Returns what to call once the app is built (and has migrated), which in turn
        returns what to call when the test's apps are closed; or None."""
        key = self.key(chosen, extra_plugins, entry_points)
        if key is None or os.environ.get(TEMPLATES_ENV) == "0":
            return None
        self.seen[key] += 1
        url = chosen.database_url
        if url.startswith("sqlite:"):
            return self._start_sqlite(key, url)
        server, schema = postgres_url(), _schema_of(url)
        if server is None or schema is None:
            return None
        return self._start_postgres(key, server, schema)

    def _start_sqlite(self, key: Hashable, url: str) -> Any:
        from groupkit.core._storage import sqlite_path

        path = Path(sqlite_path(url))
        if path.exists() or not path.parent.is_dir():
            return None  # not a fresh database
        template = self.sqlite.get(key)
        if template is not None:
            shutil.copyfile(template, path)
            return None
        if self.seen[key] < 2:
            return None

        def keep(_: str) -> None:
            target = self.directory / f"sqlite-{len(self.sqlite)}.db"
            with contextlib.closing(sqlite3.connect(path)) as source, \
                    contextlib.closing(sqlite3.connect(target)) as copy:
                source.backup(copy)
            self.sqlite[key] = target
            return None

        return keep

    def _start_postgres(self, key: Hashable, server: str, schema: str) -> Any:
        if _admin_run(server, "SELECT count(*) FROM pg_class WHERE relnamespace = "
                              "%s::regnamespace", [schema])[0][0]:
            return None  # not a fresh database
        idle = self.postgres.get(key)
        state: _PgState | None = None
        if idle:
            kept, state = idle.pop()
            try:
                _admin_run(server, f"BEGIN; DROP SCHEMA {schema}; "
                                   f"ALTER SCHEMA {kept} RENAME TO {schema}; COMMIT")
            except Exception:
                _admin_run(server, "ROLLBACK")
                _admin_run(server, f"DROP SCHEMA IF EXISTS {kept} CASCADE")
                return None
        elif self.seen[key] < 2:
            return None

        def built(_: str) -> Callable[[], None] | None:
            fresh = state or _PgState.read(server, schema)
            if fresh.filled(server, schema):
                return None  # a migration that writes rows: not kept
            return lambda: self._keep_postgres(key, server, schema, fresh)

        return built

    def _keep_postgres(self, key: Hashable, server: str, schema: str, fresh: _PgState) -> None:
        """Bring the test's schema back to `fresh` and keep it; leave it to be dropped when
        that cannot be done exactly."""
        now = _PgState.read(server, schema)
        if (now.shape, now.tables) != (fresh.shape, fresh.tables):
            return  # definitions or migration records changed
        if set(now.sequences) != set(fresh.sequences):
            return
        statements = ["BEGIN", "SET LOCAL lock_timeout = '10s'"]
        filled = fresh.filled(server, schema)
        if filled:
            statements.append("TRUNCATE " + ", ".join(f'{schema}."{t}"' for t in filled)
                              + " RESTART IDENTITY CASCADE")
        for name, value in now.sequences.items():
            if value != fresh.sequences[name]:
                if fresh.sequences[name] is not None:
                    return  # a migration used this sequence: cannot restart it exactly
                statements.append(f'ALTER SEQUENCE {schema}."{name}" RESTART')
        kept = f"t_{secrets.token_hex(6)}"
        statements += [f"ALTER SCHEMA {schema} RENAME TO {kept}", "COMMIT"]
        try:
            _admin_run(server, "; ".join(statements))
        except Exception:
            with contextlib.suppress(Exception):
                _admin_run(server, "ROLLBACK")
            return
        self.postgres.setdefault(key, []).append((kept, fresh))

    def close(self) -> None:
        server = postgres_url()
        for idle in self.postgres.values():
            for kept, _ in idle:
                if server is not None:
                    with contextlib.suppress(Exception):
                        _admin_run(server, f"DROP SCHEMA IF EXISTS {kept} CASCADE")
        self.postgres.clear()


def _schema_of(url: str) -> str | None:
    """The schema a `_with_search_path` URL names."""
    options = parse_qs(urlsplit(url).query).get("options", [""])[0]
    match = re.fullmatch(r"-csearch_path=(t_[0-9a-f]+)", options)
    return match.group(1) if match else None


@pytest.fixture(scope="session")
def _groupkit_templates(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Templates]:
    """This test process's migrated templates (see `_Templates`)."""
    templates = _Templates(tmp_path_factory.mktemp("templates"))
    yield templates
    templates.close()


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
def make_app(settings: Settings, _groupkit_templates: _Templates
             ) -> Iterator[Callable[..., Any]]:
    """Build an app on this test's database: `make_app(tools=["plate"], mode="production")`.
    Only one app per test is live at a time (they share the database binding). The first
    app on the test's fresh database may start from a migrated copy (see `_Templates`)."""
    apps: list[Any] = []
    finish: list[Callable[[], None]] = []

    def factory(tools: Sequence[str] = ("*",), extra_plugins: Sequence[object] = (),
                entry_points: bool = True, clock: Callable[[], Any] | None = None,
                **changes: Any) -> Any:
        chosen = settings.replace(enabled_tools=tuple(tools), **changes)
        built = None
        if not apps and chosen.database_url == settings.database_url:
            built = _groupkit_templates.start(chosen, extra_plugins, entry_points)
        app = create_app(chosen, extra_plugins=extra_plugins, entry_points=entry_points,
                         clock=clock)
        apps.append(app)
        if built is not None:
            after = built(chosen.database_url)
            if after is not None:
                finish.append(after)
        return app

    yield factory
    for app in apps:
        app.config["GROUPKIT_STORAGE"].close()
    for step in finish:
        step()


def run_command(argv: Sequence[str]) -> int:
    """Run the `groupkit` command in this process (`run_command(["prune", "--config", p])`)
    and return its exit status."""
    from groupkit.ops._cli import main

    return main(list(argv))


def prune_now(app: Any, now: Any) -> dict[str, int]:
    """Run every enabled tool's retention prune as of `now` (what the server does on its
    schedule and `groupkit prune` does once); returns the rows removed per tool."""
    from groupkit.ops._retention import prune_all

    return prune_all(app.config["GROUPKIT_STORAGE"], app.config["GROUPKIT_TOOLS"], now)


def rerun_migrations(app_name: str, migrations: Sequence[Any], keep: Sequence[str]) -> list[str]:
    """Pretend only `keep` of `app_name`'s migrations ran, then migrate again (an upgrade
    test: drop the later steps' tables first); returns the names applied."""
    from groupkit.core._storage import MigrationRecord
    from groupkit.core._storage import apply_migrations

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


# --- the kit's live server and suites (defined in groupkit_testing._*; public from here) ---------
# ruff: noqa: E402, F401 (imported last, for their names: groupkit_testing is the kit's surface)

from groupkit_testing._browser import AllStatesSuite
from groupkit_testing._browser import BrowserSuites
from groupkit_testing._browser import PseudoLocaleSuite
from groupkit_testing._browser import ScriptInjectionSuite
from groupkit_testing._browser import kit_chromium
from groupkit_testing._participation import Free
from groupkit_testing._participation import Made
from groupkit_testing._participation import Sent
from groupkit_testing._participation import Session
from groupkit_testing._participation import create_instance
from groupkit_testing._participation import fill_example
from groupkit_testing._participation import sibling_index
from groupkit_testing._participation import string_leaves
from groupkit_testing._privacy import Look
from groupkit_testing._privacy import Markers
from groupkit_testing._privacy import Surface
from groupkit_testing._privacy import installed_tools
from groupkit_testing._privacy import scan_declared
from groupkit_testing._server import LiveServer
from groupkit_testing._server import ServerFailed
from groupkit_testing._server import live_server
from groupkit_testing._suites import ContractSuite
from groupkit_testing._suites import HostileInputSuite
from groupkit_testing._suites import KitSuite
from groupkit_testing._suites import PrivacySuite
from groupkit_testing._suites import ToolSuites
from groupkit_testing._suites import parametrize_suites as _parametrize_suites


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test of a `KitSuite` subclass once per tool it names (`kit_tool`)."""
    _parametrize_suites(metafunc)

__all__ = [
    "AllStatesSuite",
    "BrowserSuites",
    "ContractSuite",
    "FakeClock",
    "Free",
    "HostileInputSuite",
    "KitSuite",
    "LiveServer",
    "Look",
    "Made",
    "Markers",
    "PostgresSchema",
    "PrivacySuite",
    "PseudoLocaleSuite",
    "ScriptInjectionSuite",
    "Sent",
    "ServerFailed",
    "Session",
    "Surface",
    "ToolSuites",
    "create",
    "create_instance",
    "database_url",
    "edit",
    "error_of",
    "external_missing",
    "fill_example",
    "installed_tools",
    "kit_chromium",
    "live_server",
    "make_app",
    "postgres_url",
    "prune_now",
    "rerun_migrations",
    "run_command",
    "scan_declared",
    "server_backends",
    "settings",
    "sibling_index",
    "string_leaves",
]
