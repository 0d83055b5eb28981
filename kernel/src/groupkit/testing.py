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

from ._app import create_app
from ._config import Settings

POSTGRES_ENV = "GROUPKIT_TEST_POSTGRES_URL"
REQUIRE_ENV = "GROUPKIT_REQUIRE_EXTERNAL"
BACKENDS_ENV = "GROUPKIT_TEST_BACKENDS"
#: "0" makes every app migrate its fresh database itself (see `_Templates`).
TEMPLATES_ENV = "GROUPKIT_TEST_TEMPLATES"


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


_ADMIN: dict[tuple[int, str], Any] = {}


def _admin_run(url: str, statement: str,
               params: Sequence[Any] | dict[str, Any] = ()) -> list[tuple[Any, ...]]:
    """Run one statement on this process's own autocommit connection to the test server
    (opening a connection costs more than creating or dropping a schema); returns its rows.
    A connection the server dropped is opened again once."""
    import psycopg2

    for attempt in (1, 2):
        key = (os.getpid(), url)
        conn = _ADMIN.get(key)
        if conn is None or conn.closed:
            conn = _ADMIN[key] = psycopg2.connect(url)
            conn.autocommit = True
        try:
            with conn.cursor() as cursor:
                cursor.execute(statement, params or None)
                return list(cursor.fetchall()) if cursor.description else []
        except (psycopg2.OperationalError, psycopg2.InterfaceError):
            conn.close()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


class PostgresSchema:
    """A throw-away schema: full isolation without creating databases."""

    def __init__(self, url: str) -> None:
        self.url, self.name = url, f"t_{secrets.token_hex(6)}"
        _admin_run(url, f"CREATE SCHEMA {self.name}")

    @property
    def database_url(self) -> str:
        return _with_search_path(self.url, self.name)

    def drop(self) -> None:
        _admin_run(self.url, f"DROP SCHEMA IF EXISTS {self.name} CASCADE")


#: Everything in a schema a test could change besides rows, as text with the schema's own
#: name replaced, so two schemas compare equal when their definitions are the same.
_PG_SHAPE = """
SELECT json_build_array(
  (SELECT json_agg(json_build_array(c.relname, c.relkind, c.relpersistence,
     (SELECT json_agg(json_build_array(a.attname, format_type(a.atttypid, a.atttypmod),
                                       a.attnotnull, pg_get_expr(d.adbin, d.adrelid))
                      ORDER BY a.attnum)
        FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid
                                                   AND d.adnum = a.attnum
       WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped),
     CASE WHEN c.relkind = 'i' THEN pg_get_indexdef(c.oid) END,
     CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid) END)
     ORDER BY c.relname) FROM pg_class c WHERE c.relnamespace = %(ns)s::regnamespace),
  (SELECT json_agg(json_build_array(conname, pg_get_constraintdef(oid)) ORDER BY conname)
     FROM pg_constraint WHERE connamespace = %(ns)s::regnamespace),
  (SELECT json_agg(tgname ORDER BY tgname) FROM pg_trigger t JOIN pg_class c
       ON c.oid = t.tgrelid WHERE c.relnamespace = %(ns)s::regnamespace),
  (SELECT json_agg(proname ORDER BY proname) FROM pg_proc
     WHERE pronamespace = %(ns)s::regnamespace),
  (SELECT json_agg(typname ORDER BY typname) FROM pg_type
     WHERE typnamespace = %(ns)s::regnamespace),
  (SELECT json_object_agg(sequencename, last_value) FROM pg_sequences
     WHERE schemaname = %(ns)s))::text
"""
_MIGRATIONS_TABLE = "groupkit_migration"


@dataclasses.dataclass(frozen=True)
class _PgState:
    """A freshly migrated schema as `_PG_SHAPE` and its migration records read it."""

    shape: str
    tables: tuple[str, ...]
    sequences: dict[str, Any]

    @classmethod
    def read(cls, url: str, schema: str) -> _PgState:
        definitions = json.loads(_admin_run(url, _PG_SHAPE, {"ns": schema})[0][0])
        sequences = definitions.pop()  # how far each sequence went is data, not definition
        tables = tuple(row[0] for row in definitions[0] or () if row[1] in ("r", "p"))
        records = _admin_run(url, f"SELECT id, app, name FROM {schema}.{_MIGRATIONS_TABLE} "
                                  "ORDER BY id") if _MIGRATIONS_TABLE in tables else []
        shape = json.dumps([definitions, records], default=str).replace(schema, "{schema}")
        return cls(shape, tables, dict(sequences or {}))

    def filled(self, url: str, schema: str) -> list[str]:
        """The tables holding rows (the migration records aside)."""
        probes = [f"SELECT %s WHERE EXISTS (SELECT 1 FROM {schema}.\"{table}\")"
                  for table in self.tables if table != _MIGRATIONS_TABLE]
        if not probes:
            return []
        names = [t for t in self.tables if t != _MIGRATIONS_TABLE]
        return [row[0] for row in _admin_run(url, " UNION ALL ".join(probes), names)]


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
        from ._storage import sqlite_path

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
    from ._storage import MigrationRecord
    from ._storage import apply_migrations

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


# --- the kit's live server and suites (defined in groupkit._kit_*; public from here) ---------
# ruff: noqa: E402, F401 (imported last, for their names: groupkit.testing is the kit's surface)

from ._kit_browser import AllStatesSuite
from ._kit_browser import BrowserSuites
from ._kit_browser import ScriptInjectionSuite
from ._kit_browser import kit_chromium
from ._kit_participation import Free
from ._kit_participation import Made
from ._kit_participation import Sent
from ._kit_participation import Session
from ._kit_participation import create_instance
from ._kit_participation import fill_example
from ._kit_participation import sibling_index
from ._kit_participation import string_leaves
from ._kit_privacy import Look
from ._kit_privacy import Markers
from ._kit_privacy import Surface
from ._kit_privacy import installed_tools
from ._kit_privacy import scan_declared
from ._kit_server import LiveServer
from ._kit_server import ServerFailed
from ._kit_server import live_server
from ._kit_suites import ContractSuite
from ._kit_suites import HostileInputSuite
from ._kit_suites import KitSuite
from ._kit_suites import PrivacySuite
from ._kit_suites import ToolSuites
from ._kit_suites import parametrize_suites as _parametrize_suites


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test of a `KitSuite` subclass once per tool it names (`kit_tool`)."""
    _parametrize_suites(metafunc)
