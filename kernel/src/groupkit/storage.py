"""One peewee database (SQLite file or PostgreSQL pool), the kernel's tables, units of work
and the instance lock.

Database work runs as plain synchronous peewee code in a small thread pool
(`Storage.read` / `Storage.write`), so the event loop never waits on SQLite's disk or
PostgreSQL's network. Every write is one transaction: `BEGIN IMMEDIATE` on SQLite (writers
queue instead of failing on a lock upgrade), READ COMMITTED plus `SELECT ... FOR UPDATE`
on the instance row on PostgreSQL (see `lock_instance`).

On SQLite only one writer can run at a time anyway, so each process sends its writes to one
writer thread, and the writer threads of several processes on the file take turns on an OS
file lock (`flock`) before `BEGIN IMMEDIATE`. Without that, eight threads (times the workers)
met in SQLite's busy handler, which sleeps and backs off (up to 100 ms a step): a queue of
writers turned into a p99 of a second. A waiter on `flock` wakes the moment the lock is free.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import datetime as dt
import fcntl
import functools
import json
import os
import threading
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qsl, unquote, urlsplit

import peewee as pw
from playhouse.pool import PooledPostgresqlDatabase, PooledSqliteDatabase

T = TypeVar("T")

database = pw.DatabaseProxy()


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class JsonField(pw.TextField):
    """JSON kept as text: the same bytes on SQLite and PostgreSQL, no dialect surprises."""

    def db_value(self, value: Any) -> str | None:
        return None if value is None else json.dumps(value, ensure_ascii=False,
                                                      separators=(",", ":"))

    def python_value(self, value: Any) -> Any:
        return None if value is None else json.loads(value)


class BaseModel(pw.Model):
    class Meta:
        database = database
        legacy_table_names = False


class Instance(BaseModel):
    """One created tool instance. `data` holds what the tool stores from its create body."""

    id = pw.AutoField()
    tool = pw.CharField(max_length=40, index=True)
    slug = pw.CharField(max_length=80, unique=True)
    edit_digest = pw.CharField(max_length=64, unique=True)
    title = pw.TextField(default="")
    data = JsonField(default=dict)
    version = pw.IntegerField(default=0)
    created = pw.DateTimeField(default=utcnow)


class Credential(BaseModel):
    """A participant token or claim secret, stored as a digest. `plain` is kept only for the
    rare token the spec shows again (e.g. on an organiser page)."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE", index=True)
    kind = pw.CharField(max_length=40)
    digest = pw.CharField(max_length=64, unique=True)
    ref = pw.CharField(max_length=120)
    plain = pw.CharField(max_length=40, null=True)
    created = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("instance", "kind", "ref"), False),)


class MigrationRecord(BaseModel):
    app = pw.CharField(max_length=60)
    name = pw.CharField(max_length=120)
    applied = pw.DateTimeField(default=utcnow)

    class Meta:
        table_name = "groupkit_migration"
        indexes = ((("app", "name"), True),)


def open_database(url: str, threads: int = 8) -> pw.Database:
    """A pooled database from `sqlite:///relative.db`, `sqlite:////absolute.db` or
    `postgresql://user:pass@host:port/name?option=value`."""
    parts = urlsplit(url)
    options = dict(parse_qsl(parts.query))
    if parts.scheme == "sqlite":
        path = unquote(parts.path[1:] if parts.path.startswith("/") else parts.path)
        if not path or path == ":memory:":
            raise ValueError("groupkit needs a SQLite file, not an in-memory database")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return PooledSqliteDatabase(
            path, max_connections=threads + 2, stale_timeout=600, check_same_thread=False,
            timeout=30, returning_clause=True,
            pragmas={"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 30000,
                     "synchronous": "normal"})
    if parts.scheme in ("postgresql", "postgres"):
        return PooledPostgresqlDatabase(
            unquote(parts.path.lstrip("/")), user=unquote(parts.username or "") or None,
            password=unquote(parts.password or "") or None, host=parts.hostname or None,
            port=parts.port or None, max_connections=threads + 2, stale_timeout=300,
            timeout=30, **options)
    raise ValueError(f"unsupported database URL scheme: {parts.scheme!r}")


def is_postgres(db: pw.Database | None = None) -> bool:
    target = db if db is not None else database.obj
    return isinstance(target, pw.PostgresqlDatabase)


@functools.cache
def _lock_key(name: str) -> int:
    return zlib.crc32(name.encode())


def transaction(lock: bool = True) -> Any:
    """A write transaction; on SQLite `BEGIN IMMEDIATE` so writers queue on the file lock."""
    if not lock or is_postgres():
        return database.atomic()
    return database.atomic(lock_type="IMMEDIATE")


def lock_instance(instance: Instance) -> None:
    """Hold the instance lock until the transaction ends: capacity checks and writes that
    follow cannot interleave with another worker's. SQLite's IMMEDIATE transaction already
    holds the database write lock; PostgreSQL locks the instance row."""
    if is_postgres():
        database.execute_sql("SELECT id FROM instance WHERE id = %s FOR UPDATE", (instance.id,))


def advisory_lock(name: str) -> None:
    """A whole-database lock for one-off work such as migrations (held to transaction end)."""
    if is_postgres():
        database.execute_sql("SELECT pg_advisory_xact_lock(%s)", (_lock_key(name),))


class Storage:
    """The database plus the threads that talk to it: a pool for reads, and for writes one
    thread on SQLite (whose writers queue anyway) or the same pool on PostgreSQL (whose row
    locks let writes to different instances run side by side)."""

    def __init__(self, db: pw.Database, threads: int = 8) -> None:
        self.db = db
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="groupkit-db")
        self.postgres = is_postgres(db)
        self.writer = self.executor if self.postgres else ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="groupkit-writer")
        self._lock_path = None if self.postgres else f"{db.database}-writer.lock"
        self._lock_fd: int | None = None
        self._lock_guard = threading.Lock()

    def bind(self) -> None:
        database.initialize(self.db)

    @contextlib.contextmanager
    def _writer_turn(self) -> Iterator[None]:
        """On SQLite, this process's turn at writing among every process on the file."""
        if self._lock_path is None:
            yield
            return
        with self._lock_guard:
            if self._lock_fd is None:
                self._lock_fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def _unit(self, fn: Callable[..., T], write: bool, args: Sequence[Any],
              before: Callable[[], None] | None = None) -> T:
        self.db.connect(reuse_if_open=True)
        try:
            if not write:
                # Reads run in a plain (deferred) transaction too: a page built from several
                # queries sees one state of the database.
                with self.db.atomic():
                    return fn(*args)
            with self._writer_turn():
                return self._write_unit(fn, args, before)
        finally:
            if not self.db.in_transaction():
                self.db.close()

    def _write_unit(self, fn: Callable[..., T], args: Sequence[Any],
                    before: Callable[[], None] | None) -> T:
        if before is None:
            with transaction():
                return fn(*args)
        # `before` (a rate-limit count) shares the transaction but must stand when `fn`
        # fails, so `fn` runs in a savepoint: one commit instead of two.
        # A fixed name, so one operation runs the same statements every time.
        failure: BaseException | None = None
        with transaction():
            before()
            self.db.execute_sql("SAVEPOINT groupkit_operation")
            try:
                result = fn(*args)
            except Exception as error:
                self.db.execute_sql("ROLLBACK TO SAVEPOINT groupkit_operation")
                failure = error
            else:
                self.db.execute_sql("RELEASE SAVEPOINT groupkit_operation")
        if failure is not None:
            raise failure
        return result

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        ctx = contextvars.copy_context()
        return await loop.run_in_executor(self.executor, ctx.run, self._unit, fn, False, args)

    async def write(self, fn: Callable[..., T], *args: Any,
                    before: Callable[[], None] | None = None) -> T:
        """Run `fn` in one write transaction; `before`, if given, first in the same
        transaction, and kept even when `fn` fails."""
        loop = asyncio.get_running_loop()
        ctx = contextvars.copy_context()
        return await loop.run_in_executor(self.writer, ctx.run, self._unit, fn, True, args,
                                          before)

    def run_sync(self, fn: Callable[..., T], *args: Any, write: bool = True) -> T:
        """The same unit of work from synchronous code (CLI, migrations, tests)."""
        return self._unit(fn, write, args)

    def close(self) -> None:
        self.executor.shutdown(wait=True)
        if self.writer is not self.executor:
            self.writer.shutdown(wait=True)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        closer = getattr(self.db, "close_all", None)
        if closer:
            closer()
        else:
            self.db.close()


Migration = tuple[str, Callable[[pw.Database], None]]

KERNEL_MODELS: list[type[pw.Model]] = [Instance, Credential]


def initial_migration(models: Iterable[type[pw.Model]]) -> Migration:
    model_list = list(models)

    def create(db: pw.Database) -> None:
        db.create_tables(model_list, safe=True)

    return ("0001_initial", create)


def apply_migrations(app_name: str, migrations: Sequence[Migration]) -> list[str]:
    """Apply `migrations` of one app in order, each once, under a database-wide lock so
    several workers starting together do it exactly once. Returns the names applied."""
    applied: list[str] = []
    with transaction():
        advisory_lock("groupkit-migrations")
        database.create_tables([MigrationRecord], safe=True)
        done = {row.name for row in MigrationRecord.select().where(MigrationRecord.app == app_name)}
        for name, step in migrations:
            if name in done:
                continue
            step(database.obj)
            MigrationRecord.create(app=app_name, name=name)
            applied.append(name)
    return applied
