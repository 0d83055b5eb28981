"""What the kit needs from outside Python: a PostgreSQL server (a fresh schema per test)
and the rule that a missing external component skips on a laptop and fails in CI."""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote
from urllib.parse import urlsplit
from urllib.parse import urlunsplit

import pytest

POSTGRES_ENV = "GROUPKIT_TEST_POSTGRES_URL"
REQUIRE_ENV = "GROUPKIT_REQUIRE_EXTERNAL"
BACKENDS_ENV = "GROUPKIT_TEST_BACKENDS"
#: "0" makes every app migrate its fresh database itself (see `_Templates`).
TEMPLATES_ENV = "GROUPKIT_TEST_TEMPLATES"



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

