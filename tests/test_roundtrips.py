"""The statements a write sends, counted through the whole kernel (bench/roundtrips.py):
on PostgreSQL each is a round trip, and those after the rate-limit count are made while the
instance's row lock is held, so they are what limits writes to one instance from several
workers."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from groupkit_testing import postgres_url

REPO = Path(__file__).resolve().parents[1]


def _roundtrips() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_roundtrips",
                                                  REPO / "bench" / "roundtrips.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: At most this many statements per write (SQLite, PostgreSQL). On PostgreSQL the rate-limit
#: count goes first on its own (committed at once: its row is one per address, and held to
#: the write's commit it made every write from one address wait for the one before), BEGIN
#: rides with the transaction's first statement, a savepoint with the statement after it,
#: and the version bump and notify with COMMIT. A vote's save of the poll's `data` is
#: written by the version bump, and the ballot's token (its credential's INSERT) rides with
#: the COMMIT too, as does a create's INSERT of its instance (whose key nobody reads). A
#: participant's write finds its credential and locks its instance in one statement.
MOST = {"claim (plate)": (6, 4), "vote (poll)": (9, 6), "upvote (gift idea)": (6, 4),
        "create (sweep, 20 names)": (4, 2), "change (poll ballot, by its token)": (10, 8)}


async def test_each_write_sends_only_its_own_statements(database_url: str) -> None:
    counts = await _roundtrips().count_writes(database_url)
    postgres = postgres_url() is not None
    assert set(counts) == set(MOST)
    for name, statements in counts.items():
        assert len(statements) <= MOST[name][postgres], (name, statements)
        assert not any("groupkit_operation" in sql for sql in statements), statements
        if postgres:
            assert statements[0].startswith("INSERT INTO rate_counter"), statements
            assert statements[1].startswith("BEGIN; "), statements
            assert statements[-1].endswith("COMMIT"), statements
        if name == "create (sweep, 20 names)":
            # A create that only fills `data` is stored in one INSERT, never INSERT + UPDATE.
            own = [sql.removeprefix("BEGIN; ") for sql in statements]
            assert [sql for sql in own if "instance" in sql.split("(")[0]] == [
                sql for sql in own if sql.startswith('INSERT INTO "instance"')], statements
            assert not any(sql.startswith('UPDATE "instance"') for sql in statements)
        if name == "vote (poll)":
            assert not any(sql.startswith('UPDATE "instance" SET "data"') for sql in statements)
            assert any(part.startswith("UPDATE instance SET data = ")
                       for sql in statements for part in sql.split("; "))
            if postgres:
                assert statements[-1].startswith('INSERT INTO "credential"'), statements
        if postgres and name != "create (sweep, 20 names)":
            assert "pg_notify" in statements[-1], statements
        if postgres and name == "change (poll ballot, by its token)":
            assert "FOR UPDATE OF i" in statements[1], statements
            assert sum("FOR UPDATE" in sql for sql in statements) == 1, statements
