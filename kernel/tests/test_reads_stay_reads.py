"""Resource limits against a flood: looking at a link (known or not) never opens a write
transaction, and /healthz answers quickly whatever the database is doing."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from groupkit.core import _storage as storage_module
from groupkit.core._storage import is_postgres
from groupkit_testing import create


@pytest.fixture
def write_transactions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every write transaction the kernel opens, counted."""
    opened: list[int] = []
    real = storage_module.transaction

    def counting(lock: bool = True) -> Any:
        opened.append(1)
        return real(lock)

    monkeypatch.setattr(storage_module, "transaction", counting)
    return opened


def data_version(app: Any) -> int | None:
    """SQLite's count of commits made by other connections (None on PostgreSQL)."""
    db = app.config["GROUPKIT_STORAGE"].db
    if is_postgres(db):
        return None
    with sqlite3.connect(db.database) as conn:
        return int(conn.execute("PRAGMA data_version").fetchone()[0])


async def test_no_get_of_any_link_writes(client: Any, write_transactions: list[int]) -> None:
    made = await create(client, "demo", {"title": "Lunch", "names": ["A"]})
    joined = await client.post("/api/demo/join", json={"slug": made["slug"], "text": "Ann"})
    token = (await joined.get_json())["token"]
    slug, edit = made["slug"], made["editToken"]
    before_writes, before_version = len(write_transactions), data_version(client.app)
    unknown = "x" * 22
    paths = [f"/p/{token}", f"/p/{unknown}", "/p/garbage", f"/s/{slug}", f"/s/{slug[:-3]}zzz",
             f"/e/{edit}", f"/e/{'y' * 26}", f"/api/demo/{slug}", f"/api/demo/{slug}/count",
             "/healthz"]
    for _ in range(3):
        for path in paths:
            response = await client.get(path)
            assert response.status_code in (200, 404), path
    assert len(write_transactions) == before_writes
    assert data_version(client.app) == before_version


async def test_healthz_answers_while_another_connection_holds_the_write_lock(
        client: Any) -> None:
    db = client.app.config["GROUPKIT_STORAGE"].db
    holder: Any
    if is_postgres(db):
        import psycopg2

        holder = psycopg2.connect(database=db.database, **db.connect_params)
        holder.cursor().execute("LOCK TABLE instance IN ACCESS EXCLUSIVE MODE")
    else:
        holder = sqlite3.connect(db.database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
    try:
        response = await asyncio.wait_for(client.get("/healthz"), 5)
        assert response.status_code == 200
        assert await response.get_json() == {"ok": True}
    finally:
        holder.rollback() if is_postgres(db) else holder.execute("ROLLBACK")
        holder.close()


@pytest.fixture
def stuck_database(client: Any) -> Iterator[threading.Event]:
    """Every database thread of the app busy until the event is set."""
    release = threading.Event()
    storage = client.app.config["GROUPKIT_STORAGE"]
    for _ in range(storage.executor._max_workers):
        storage.executor.submit(release.wait, 30)
    try:
        yield release
    finally:
        release.set()


async def test_healthz_reports_degraded_instead_of_hanging(client: Any,
                                                           stuck_database: threading.Event
                                                           ) -> None:
    response = await asyncio.wait_for(client.get("/healthz"), 5)
    assert response.status_code == 503
    assert await response.get_json() == {"ok": False, "status": "degraded"}
    stuck_database.set()
    await asyncio.sleep(0.1)
    recovered = await asyncio.wait_for(client.get("/healthz"), 5)
    assert recovered.status_code == 200
