"""Database URLs, migrations and the units of work."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import demo_plugin
from groupkit.app import migrate
from groupkit.config import Settings
from groupkit.plugins import load_tools
from groupkit.storage import MigrationRecord, Storage, open_database


def test_only_sqlite_files_and_postgresql_urls() -> None:
    with pytest.raises(ValueError):
        open_database("sqlite:///:memory:")
    with pytest.raises(ValueError):
        open_database("mysql://x/y")


def test_sqlite_is_wal_with_foreign_keys(tmp_path: Any) -> None:
    storage = Storage(open_database(f"sqlite:///{tmp_path / 'x.db'}", 1), 1)
    storage.bind()
    try:
        mode = storage.run_sync(lambda: storage.db.execute_sql("PRAGMA journal_mode").fetchone())
        keys = storage.run_sync(lambda: storage.db.execute_sql("PRAGMA foreign_keys").fetchone())
        assert mode[0] == "wal" and keys[0] == 1
    finally:
        storage.close()


def test_migrations_apply_once(database_url: str) -> None:
    storage = Storage(open_database(database_url, 2), 2)
    storage.bind()
    try:
        registry = load_tools(Settings(), [demo_plugin], entry_points=False)
        first = migrate(storage, registry)
        assert first == {"groupkit": ["0001_initial", "0002_flash"],
                         "tool:demo": ["0001_initial"]}
        assert migrate(storage, registry) == {"groupkit": [], "tool:demo": []}
        count = storage.run_sync(lambda: MigrationRecord.select().count(), write=False)
        assert count == 3
    finally:
        storage.close()


def test_concurrent_migrations_run_each_step_once(database_url: str) -> None:
    registry = load_tools(Settings(), [demo_plugin], entry_points=False)
    storage = Storage(open_database(database_url, 4), 4)
    storage.bind()
    results: list[dict[str, list[str]]] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            results.append(migrate(storage, registry))
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    try:
        threads = [threading.Thread(target=worker) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors
        applied = sorted(name for result in results for names in result.values()
                         for name in names)
        assert applied == ["0001_initial", "0001_initial", "0002_flash"]
    finally:
        storage.close()
