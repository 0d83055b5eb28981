"""One peewee database (SQLite file or PostgreSQL pool), the kernel's tables, units of work
and the instance lock.

Database work runs as plain synchronous peewee code in a small thread pool
(`Storage.read` / `Storage.write`), so the event loop never waits on SQLite's disk or
PostgreSQL's network. Every write is one transaction: `BEGIN IMMEDIATE` on SQLite (writers
queue instead of failing on a lock upgrade), READ COMMITTED plus `SELECT ... FOR UPDATE`
on the instance row on PostgreSQL (see `lock_instance`).

On SQLite only one writer can run at a time anyway, so the processes on the file take turns
on an OS file lock (`flock`) before `BEGIN IMMEDIATE`. Without that, eight threads (times the
workers) met in SQLite's busy handler, which sleeps and backs off (up to 100 ms a step): a
queue of writers turned into a p99 of a second. A waiter on `flock` wakes the moment the
lock is free.

SQLite writes share transactions (group commit). A write joins this process's pending
batch; the batch runs once the event loop has gone round `BATCH_TURNS` more times, so the
writes of requests that arrived together meet there. It runs in one transaction, each write
inside a savepoint of its own: a write that fails is rolled back alone and its requester
gets its error, the others are kept. Each result is handed over only after the COMMIT, so
nothing is answered that is not stored. The `BEGIN IMMEDIATE`, the COMMIT (its WAL frames,
one per page changed, a page that several writes change written once) and the turn are paid
once per batch: with 32 connections voting on one worker, a poll vote's server CPU went from
0.63 to 0.52 ms. A batch of one is a plain transaction, as before.

A batch whose turn is free at once (no other process writing, and this process's writer
thread idle) runs right in the event loop's thread: a write is a fraction of a millisecond
of CPU without a wait, and handing it to a thread and back cost more than the write (the two
threads traded the GIL a dozen times a write). One that would wait goes to the process's one
writer thread, which waits for the turn on `flock` while the loop serves; the writes that
come meanwhile make the next batch.

On PostgreSQL, writes to different instances run side by side in the pool's threads, and
those of one instance (one `key`) take turns in the event loop; the writes that gathered
while one ran make the next batch, the same way (one transaction, a savepoint each). A
write's version bump, which otherwise waits for its COMMIT, goes with the next write's
first statement, so that write finds the instance as the one before left it. With 32
connections on one Gift Idea Board over two workers, an upvote's server CPU went from 2.41
to 0.79 ms (`nox -s bench`, docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import datetime as dt
import fcntl
import functools
import json
import os
import re
import threading
import time
import zlib
from collections.abc import Callable
from collections.abc import Hashable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from typing import TypeVar
from urllib.parse import parse_qsl
from urllib.parse import unquote
from urllib.parse import urlsplit

import peewee as pw
from playhouse.pool import PooledPostgresqlDatabase
from playhouse.pool import PooledSqliteDatabase

T = TypeVar("T")
M = TypeVar("M", bound="BaseModel")

database = pw.DatabaseProxy()


def utcnow() -> dt.datetime:
    """Now, as an aware UTC datetime: the one kind of time a plugin sees (`call.now`, stored
    `UTCDateTimeField` values)."""
    return dt.datetime.now(dt.UTC)


class UTCDateTimeField(pw.DateTimeField):
    """A moment, stored as naive UTC (the column and the stored text are exactly those of
    peewee's `DateTimeField`, so SQLite compares and orders them as strings, and PostgreSQL
    keeps a plain `timestamp`), read back as an aware UTC datetime. It accepts aware values
    in any zone (converted to UTC) and naive ones (taken as UTC already), also in queries
    (`Model.at < call.now`), so a plugin never converts between the two."""

    def db_value(self, value: Any) -> Any:
        if isinstance(value, dt.datetime) and value.tzinfo is not None:
            value = value.astimezone(dt.UTC).replace(tzinfo=None)
        return super().db_value(value)

    def python_value(self, value: Any) -> Any:
        moment = super().python_value(value)
        if isinstance(moment, dt.datetime):
            return moment.replace(tzinfo=dt.UTC) if moment.tzinfo is None \
                else moment.astimezone(dt.UTC)
        return moment


class JsonField(pw.TextField):
    """JSON kept as text: the same bytes on SQLite and PostgreSQL, no dialect surprises."""

    def db_value(self, value: Any) -> str | None:
        return None if value is None else json.dumps(value, ensure_ascii=False,
                                                      separators=(",", ":"))

    def python_value(self, value: Any) -> Any:
        return None if value is None else json.loads(value)


class BaseModel(pw.Model):
    """Base of every stored model: bound to the kernel's database (SQLite or PostgreSQL),
    so a plugin's tables live in the same transactions as the kernel's."""

    # peewee adds this primary key to every model that declares none; declared here for the
    # type checker only (peewee's stubs cannot know it), so `Model.id` type-checks in plugins.
    if TYPE_CHECKING:
        id: pw.AutoField[int]

    class Meta:
        database = database
        legacy_table_names = False

    def save(self, force_insert: bool = False, only: Any = None) -> int:
        """peewee's save, with the common case (a whole row inserted, or updated by its
        primary key) run as a statement written once per model and column set: every write
        saves a few rows, and building the statement through peewee's query tree each time
        cost more than running it. Anything else takes peewee's own path."""
        if "_key_unread" in self.__dict__:
            _ = self.id  # an insert held back (`_KeyWhenRead`): its key first
        saved = _quick_save(self, force_insert, only)
        return saved if saved is not None else super().save(force_insert=force_insert,
                                                             only=only)


@functools.cache
def _insert_sql(table: str, columns: tuple[str, ...], pk: str, param: str, quote: str,
                returning: bool) -> str:
    names = ", ".join(quote + column + quote for column in columns)
    marks = ", ".join(param for _ in columns)
    sql = f"INSERT INTO {quote}{table}{quote} ({names}) VALUES ({marks})"
    return sql + (f" RETURNING {quote}{pk}{quote}" if returning else "")


@functools.cache
def _update_sql(table: str, columns: tuple[str, ...], pk: str, param: str, quote: str) -> str:
    sets = ", ".join(f"{quote}{column}{quote} = {param}" for column in columns)
    return f"UPDATE {quote}{table}{quote} SET {sets} WHERE ({quote}{pk}{quote} = {param})"


#: (model, the fields a new row holds, dialect) -> how to insert it (`_insert_plan`).
_INSERT_PLANS: dict[tuple[type[pw.Model], tuple[str, ...], str], _InsertPlan | None] = {}


@dataclasses.dataclass(frozen=True, slots=True)
class _InsertPlan:
    names: tuple[str, ...]  # the fields, in the statement's order
    converters: tuple[Callable[[Any], Any], ...]
    relations: tuple[str, ...]  # foreign keys (None there with a related row: not yet saved)
    sql: str
    returning: bool
    pk: str
    held_sql: str  # the same without RETURNING, for a key read later (`_KeyWhenRead`)
    key_read_later: bool


def _insert_plan(model: type[pw.Model], names: tuple[str, ...]) -> _InsertPlan | None:
    meta = model._meta
    pk_field = meta.primary_key
    if (not meta.auto_increment or meta.composite_key or meta.only_save_dirty or meta.schema
            or not isinstance(pk_field, pw.AutoField)):
        return None
    fields = [meta.fields[name] for name in names if name != pk_field.name]
    if not fields:
        return None
    db = database.obj
    returning = bool(db.returning_clause)
    return _InsertPlan(
        names=tuple(field.name for field in fields),
        converters=tuple(field.db_value for field in fields),
        relations=tuple(field.name for field in fields if field in meta.refs),
        sql=_insert_sql(meta.table_name, tuple(field.column_name for field in fields),
                        pk_field.column_name, db.param, db.quote[0], returning),
        returning=returning, pk=pk_field.name,
        held_sql=_insert_sql(meta.table_name, tuple(field.column_name for field in fields),
                             pk_field.column_name, db.param, db.quote[0], False),
        key_read_later=isinstance(pk_field, _KeyReadLater))


def _quick_insert(row: BaseModel) -> int | None:
    """The insert of a new row with `_quick_save`'s rules, through a plan made once per model
    and set of fields: every claim, vote and token inserts a row, and working out the
    statement, the fields and their converters each time cost more than the insert."""
    data = row.__data__
    key = (type(row), tuple(data), database.obj.param)
    plan = _INSERT_PLANS.get(key, _NO_PLAN)
    if plan is _NO_PLAN:
        plan = _INSERT_PLANS[key] = _insert_plan(type(row), key[1])
    if plan is None or data.get(plan.pk) is not None:
        return None
    values = [data[name] for name in plan.names]
    if any(isinstance(value, pw.Node) for value in values) or any(
            data[name] is None and row.__rel__.get(name) is not None
            for name in plan.relations):
        return None  # an expression, or an unsaved related object: peewee's own path
    params = [convert(value) for convert, value in zip(plan.converters, values, strict=True)]
    hold = getattr(database.obj, "hold", None) if plan.key_read_later else None
    if hold is not None and hold(plan.held_sql, params):
        row.__dict__["_key_unread"] = True  # (read by `_KeyWhenRead` if anyone asks)
        row.__dict__.pop("_insert_on_use", None)  # (stored now: never inserted again)
    else:
        cursor = database.execute_sql(plan.sql, params)
        data[plan.pk] = cursor.fetchone()[0] if plan.returning else cursor.lastrowid
    row._dirty.difference_update(plan.names)  # type: ignore[attr-defined]
    row._dirty.discard(plan.pk)  # type: ignore[attr-defined]
    return 1


_NO_PLAN: Any = object()


def _quick_save(row: BaseModel, force_insert: bool, only: Any) -> int | None:
    """`Model.save` for a plain row of a single auto-increment key, or None to let peewee
    do it (composite keys, dirty-only saves, expressions as values, unsaved relations)."""
    key = row._meta.primary_key
    if only is None and isinstance(key, pw.AutoField) and row.__data__.get(key.name) is None:
        return _quick_insert(row)
    meta = row._meta
    pk_field = meta.primary_key
    if (not meta.auto_increment or meta.composite_key or meta.only_save_dirty or meta.schema
            or not isinstance(pk_field, pw.AutoField)):
        return None
    data = row.__data__
    if only is not None:
        names = [meta.combined[f] if isinstance(f, str) else f for f in only]
        data = {field.name: data[field.name] for field in names if field.name in data}
    pk_value = row.__data__.get(pk_field.name)
    fields = [meta.fields[name] for name in data if name != pk_field.name]
    values = [data[field.name] for field in fields]
    if not fields or any(isinstance(value, pw.Node) for value in values):
        return None
    if any(value is None and field in meta.refs
           and row.__rel__.get(field.name) is not None
           for field, value in zip(fields, values, strict=True)):
        return None  # an unsaved related object: peewee saves its key first
    db = meta.database
    params = [field.db_value(value) for field, value in zip(fields, values, strict=True)]
    columns = tuple(field.column_name for field in fields)
    quote = db.quote[0]
    if pk_value is not None and not force_insert:
        cursor = db.execute_sql(_update_sql(meta.table_name, columns, pk_field.column_name,
                                            db.param, quote),
                                (*params, pk_field.db_value(pk_value)))
        row._dirty -= {field.name for field in fields}  # type: ignore[attr-defined]
        return int(cursor.rowcount)
    if pk_value is not None:
        return None  # an insert with a chosen key: rare, peewee's path
    returning = bool(db.returning_clause)
    cursor = db.execute_sql(_insert_sql(meta.table_name, columns, pk_field.column_name,
                                        db.param, quote, returning), params)
    new_pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    row.__data__[pk_field.name] = new_pk
    row._dirty -= {field.name for field in fields}  # type: ignore[attr-defined]
    row._dirty.discard(pk_field.name)  # type: ignore[attr-defined]
    return 1


@functools.cache
def _insert_new_sql(table: str, columns: tuple[str, ...], unique: tuple[str, ...], pk: str,
                    param: str, quote: str) -> str:
    names = ", ".join(quote + column + quote for column in columns)
    keys = ", ".join(quote + column + quote for column in unique)
    marks = ", ".join(param for _ in columns)
    return (f"INSERT INTO {quote}{table}{quote} ({names}) VALUES ({marks}) "
            f"ON CONFLICT ({keys}) DO NOTHING RETURNING {quote}{pk}{quote}")


def insert_new(row: BaseModel, unique: Sequence[str]) -> bool:
    """Insert `row` (a new row of a model with an auto-increment key) unless a row with the
    same values of `unique` (the fields of one unique index) is there already: False then,
    and nothing is written. One statement: catching the unique constraint's error instead
    needs a savepoint around the INSERT on PostgreSQL (the error aborts the transaction),
    two statements more on every claim."""
    meta = row._meta
    pk_field = meta.primary_key
    assert isinstance(pk_field, pw.AutoField), "insert_new takes a model of one auto key"
    fields = [meta.fields[name] for name in row.__data__ if name != pk_field.name]
    db = meta.database
    sql = _insert_new_sql(meta.table_name, tuple(field.column_name for field in fields),
                          tuple(meta.fields[name].column_name for name in unique),
                          pk_field.column_name, db.param, db.quote[0])
    found = db.execute_sql(sql, [field.db_value(row.__data__[field.name])
                                 for field in fields]).fetchone()
    if found is None:
        return False
    row.__data__[pk_field.name] = found[0]
    row._dirty.clear()  # type: ignore[attr-defined]
    return True


_STATEMENTS: dict[tuple[Hashable, str], str] = {}


def _statement(key: Hashable, build: Callable[[], Any], params: Sequence[Any]) -> str:
    cache_key = (key, database.param)
    sql = _STATEMENTS.get(cache_key)
    if sql is None:
        sql, built = build().sql()
        if list(built) != list(params):
            raise ValueError(f"statement {key!r}: peewee's parameters {built!r} are not the "
                             f"ones given, {list(params)!r}")
        _STATEMENTS[cache_key] = sql
    return sql


def run_prepared(key: Hashable, build: Callable[[], Any], params: Sequence[Any]) -> Any:
    """Run the statement the peewee query `build()` makes, with `params` (its parameters,
    in order, as the database receives them), and return the cursor. The query is built
    only the first time for `key` (per database dialect): a hot write runs the same few
    statements every time, and building them through peewee's query tree cost more than
    running them. `key` must fix the statement's shape (an `IN` list's length, say); the
    first call checks that `params` are the query's own."""
    return database.execute_sql(_statement(key, build, params), tuple(params))


def prepared_rows(model: type[M], key: Hashable, build: Callable[[], Any],
                  params: Sequence[Any]) -> list[M]:
    """`run_prepared` for a SELECT whose rows are `model` instances."""
    return model_rows(model, _statement(key, build, params), params)


#: (model, result columns) -> (field name, converter) per column, or None for peewee's way.
_ROW_PLANS: dict[tuple[type[pw.Model], tuple[str, ...]], list[tuple[str, Any]] | None] = {}


def _row_plan(model: type[pw.Model], names: tuple[str, ...]) -> list[tuple[str, Any]] | None:
    """How peewee's raw query maps each result column to a field (the same clean-up of the
    column name, the same `python_value`), worked out once per model and column list."""
    key = (model, names)
    if key not in _ROW_PLANS:
        combined = model._meta.combined
        plan: list[tuple[str, Any]] | None = []
        for name in names:
            field = combined.get(name[name.rfind(".") + 1:].strip('()"`'))
            if not isinstance(field, pw.Field) or not getattr(field, "_coerce", True):
                plan = None  # an expression, or a column of no field: peewee's own path
                break
            assert plan is not None
            plan.append((field.name, field.python_value))
        if plan is not None and len({name for name, _ in plan}) != len(plan):
            plan = None  # the same field twice (a join): peewee's own path
        _ROW_PLANS[key] = plan
    return _ROW_PLANS[key]


def model_rows(model: type[M], sql: str, params: Sequence[Any]) -> list[M]:
    """`list(model.raw(sql, *params))`, the same instances, made without peewee's cursor
    wrapper: it worked out how to read the columns again for every query, which cost more
    than the query on the hot paths (every request resolves its link with one)."""
    cursor = database.execute_sql(sql, tuple(params))
    plan = _row_plan(model, tuple(column[0] for column in cursor.description))
    if plan is None:
        return list(pw.ModelObjectCursorWrapper(cursor, model, [], model))
    rows = []
    for values in cursor.fetchall():
        row = model(__no_default__=1)
        row.__data__ = {name: convert(value)
                        for (name, convert), value in zip(plan, values, strict=True)}
        rows.append(row)
    return rows


class _KeyWhenRead(pw.FieldAccessor):
    """The key of a row whose INSERT was held back (PostgreSQL: sent with the transaction's
    next statement, `FewerTripsPostgres.hold`), looked up by the row's unique `found_by`
    field the first time anyone reads it. A token is issued on many writes (every vote),
    an instance on every create, and their keys are seldom read: an INSERT ... RETURNING
    was a round trip of its own."""

    field: _KeyReadLater

    def __get__(self, instance: Any, instance_type: Any = None) -> Any:
        if instance is not None and instance.__dict__.pop("_key_unread", False):
            by = instance._meta.fields[self.field.found_by]
            found = database.execute_sql(
                f"SELECT {self.field.column_name} FROM {instance._meta.table_name} "
                f"WHERE {by.column_name} = {database.param}",
                (by.db_value(instance.__data__[by.name]),)).fetchone()
            instance.__data__[self.name] = found[0]
        return super().__get__(instance, instance_type)


class _KeyReadLater(pw.AutoField):
    """An auto-increment key whose row may be inserted without reading it back
    (`_KeyWhenRead`); `found_by` names a unique field that finds the row."""

    accessor_class = _KeyWhenRead

    def __init__(self, found_by: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.found_by = found_by


class _KeyOnUse(_KeyWhenRead):
    """An instance's `id`, which inserts the row when read before it exists and the row was
    made with `Instance.pending`: a tool's create that writes rows of its own (they need the
    key) gets it, one that only fills `data` leaves the kernel one INSERT of the whole row."""

    def __get__(self, instance: Any, instance_type: Any = None) -> Any:
        if (instance is not None and instance.__data__.get(self.name) is None
                and instance.__dict__.pop("_insert_on_use", False)):
            instance.save(force_insert=True)
        return super().__get__(instance, instance_type)


class _InstanceKey(_KeyReadLater):
    accessor_class = _KeyOnUse


class Instance(BaseModel):
    """One created tool instance. `data` holds what the tool stores from its create body."""

    id = _InstanceKey(found_by="slug")
    tool = pw.CharField(max_length=40, index=True)
    slug = pw.CharField(max_length=80, unique=True)
    edit_digest = pw.CharField(max_length=64, unique=True)
    title = pw.TextField(default="")
    data = JsonField(default=dict)
    version = pw.IntegerField(default=0)
    created = UTCDateTimeField(default=utcnow)
    #: What the group receives together (chat posts, emails, calendar text) speaks this
    #: language (`groupkit.core._i18n.for_group`); empty is English.
    language = pw.CharField(max_length=16, default="", constraints=[pw.SQL("DEFAULT ''")])

    @classmethod
    def pending(cls, **values: Any) -> Instance:
        """A new instance not yet stored: inserted the first time its `id` is read, or by
        its first `save()`."""
        instance = cls(**values)
        instance.__dict__["_insert_on_use"] = True
        return instance

    def save(self, force_insert: bool = False, only: Any = None) -> int:
        """While an operation that changes the instance runs (`hold_data_for_bump`), a save
        of `data` alone is held back and written by the version bump's own UPDATE
        (`take_held_data`): one statement, not two, inside the same transaction."""
        if (only is not None and self.__dict__.get("_hold_data")
                and [getattr(field, "name", field) for field in only] == ["data"]):
            self.__dict__["_data_held"] = True
            return 1
        return super().save(force_insert=force_insert, only=only)

    def hold_data_for_bump(self) -> None:
        self.__dict__["_hold_data"] = True

    def take_held_data(self) -> bool:
        """Whether a save of `data` was held back (see `save`); saves are not held after."""
        self.__dict__.pop("_hold_data", None)
        return bool(self.__dict__.pop("_data_held", False))


class Credential(BaseModel):
    """A participant token or claim secret, stored as a digest. `plain` is kept only for the
    rare token the spec shows again (e.g. on an organiser page)."""

    id = _KeyReadLater(found_by="digest")
    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE", index=True)
    kind = pw.CharField(max_length=40)
    digest = pw.CharField(max_length=64, unique=True)
    ref = pw.CharField(max_length=120)
    plain = pw.CharField(max_length=40, null=True)
    created = UTCDateTimeField(default=utcnow)

    class Meta:
        indexes = ((("instance", "kind", "ref"), False),)


class MigrationRecord(BaseModel):
    app = pw.CharField(max_length=60)
    name = pw.CharField(max_length=120)
    applied = UTCDateTimeField(default=utcnow)

    class Meta:
        table_name = "groupkit_migration"
        indexes = ((("app", "name"), True),)


class DatabaseUrlError(ValueError):
    """A database URL that names no usable database; the message says which part is wrong."""


def sqlite_path(url: str) -> str:
    """The file a `sqlite:///relative.db` or `sqlite:////absolute.db` URL names."""
    parts = urlsplit(url)
    path = unquote(parts.path[1:] if parts.path.startswith("/") else parts.path)
    if not path or path == ":memory:":
        raise DatabaseUrlError("groupkit needs a SQLite file, not an in-memory database")
    return path


def postgres_parameters(url: str) -> dict[str, Any]:
    """psycopg2 connection parameters from a `postgresql://` URL, read as libpq reads it:
    percent-decoded user, password and host (a host that starts with `/` is a Unix socket
    directory, e.g. `postgresql://%2Fvar%2Frun%2Fpostgresql/db`), several `host:port`
    pairs separated by commas, and query parameters (`?host=`, `?user=`, `?password=`,
    `?port=`, `?dbname=`, `?sslmode=`, ...) that override the parts before them."""
    parts = urlsplit(url)
    userinfo, at, hostinfo = parts.netloc.rpartition("@")
    if not at:
        userinfo, hostinfo = "", parts.netloc
    params: dict[str, Any] = {}
    if userinfo:
        user, colon, password = userinfo.partition(":")
        params["user"] = unquote(user)
        if colon:
            params["password"] = unquote(password)
    hosts, ports = [], []
    for item in hostinfo.split(",") if hostinfo else []:
        match = re.fullmatch(r"(\[[^\]]*\]|[^:]*)(?::(.*))?", item)
        if match is None:  # pragma: no cover - the pattern matches every string
            raise DatabaseUrlError(f"cannot read the host {item!r} of the database URL")
        host, port = unquote(match.group(1).strip("[]")), match.group(2)
        if port and not port.isdigit():
            raise DatabaseUrlError(f"the database URL's port {port!r} is not a number")
        hosts.append(host)
        ports.append(port or "")
    if any(hosts):
        params["host"] = ",".join(hosts)
    if any(ports):
        params["port"] = ",".join(ports)
    if parts.path.strip("/"):
        params["dbname"] = unquote(parts.path[1:])
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        params[key] = value
    params = {key: value for key, value in params.items() if value != ""}
    if not params.get("dbname"):
        raise DatabaseUrlError("the database URL names no database (postgresql://user:pass@"
                               "host/DATABASE)")
    return params


#: Transaction control that answers nothing and cannot fail on its own in a healthy
#: transaction: held back and sent with the next statement (peewee ends its with ";").
_HELD = re.compile(r"(SAVEPOINT|RELEASE SAVEPOINT) \"?\w+\"?;?")


#: How recently a pooled PostgreSQL connection must have been given back to be handed out
#: again without proving it alive (`FewerTripsPostgres._is_closed`).
FRESH_SECONDS = 1.0


class FewerTripsPostgres(PooledPostgresqlDatabase):
    """The PostgreSQL pool, with fewer round trips per transaction. `BEGIN`, `SAVEPOINT`
    and `RELEASE SAVEPOINT` are held back and sent in one simple query with the statement
    that follows them (`BEGIN; INSERT ...`), and so is a statement whose answer nobody reads
    (`hold`: a token's INSERT); statements left for the commit (`at_commit`: the version
    bump and its notification) go with `COMMIT`. The order of statements is
    unchanged, a query's results are those of its last statement (the caller's own), and an
    error in any part aborts the transaction as before. A write holds its instance's row
    lock from its first statements to its commit: the trips cut there are what lets writes
    to one instance from several workers go faster than from one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending = threading.local()
        #: When each pooled connection was last given back (`time.monotonic()`).
        self._returned: dict[int, float] = {}

    def _close(self, conn: Any, close_conn: bool = False) -> None:
        super()._close(conn, close_conn)
        if not close_conn and not conn.closed:
            self._returned[self.conn_key(conn)] = time.monotonic()

    def _is_closed(self, conn: Any) -> bool:
        """peewee's pool proves each connection alive with `SELECT 1` as it hands it out: a
        round trip on every unit of work, about a fifth of a write's. A connection given
        back less than `FRESH_SECONDS` ago, idle, is handed out without it (under load, that
        is every one); an older one is still proved, and replaced if the server ended it.
        A server that ends connections within the window costs the unit that drew one its
        answer, as an end during the unit would."""
        returned = self._returned.pop(self.conn_key(conn), None)
        if conn.closed:
            return True
        if returned is not None and time.monotonic() - returned < FRESH_SECONDS and \
                self._adapter.txn_status(conn) == self._adapter.txn_idle:
            return False
        return bool(super()._is_closed(conn))

    def _held(self) -> list[tuple[str, Sequence[Any]]]:
        held: list[tuple[str, Sequence[Any]]] | None = getattr(self._pending, "held", None)
        if held is None:
            held = self._pending.held = []
        return held

    def _closing(self) -> list[tuple[str, Sequence[Any]]]:
        closing: list[tuple[str, Sequence[Any]]] | None = getattr(self._pending, "closing",
                                                                   None)
        if closing is None:
            closing = self._pending.closing = []
        return closing

    def _forget(self) -> tuple[list[tuple[str, Sequence[Any]]],
                               list[tuple[str, Sequence[Any]]]]:
        held, closing = self._held(), self._closing()
        self._pending.held, self._pending.closing = [], []
        return held, closing

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Call `callback` once this thread's transaction has committed (never if it rolls
        back): what a worker learns from its own write, it knows before it answers."""
        after: list[Callable[[], None]] | None = getattr(self._pending, "after", None)
        if after is None:
            after = self._pending.after = []
        after.append(callback)

    def _committed(self) -> None:
        after: list[Callable[[], None]] = getattr(self._pending, "after", None) or []
        self._pending.after = []
        for callback in after:
            callback()

    def begin(self, isolation_level: Any = None) -> None:
        if isolation_level is not None or self._isolation_level:
            super().begin(isolation_level)
            return
        self._pending.held, self._pending.closing = [("BEGIN", ())], []

    def execute_sql(self, sql: str, params: Any = None) -> Any:
        if not self.in_transaction():
            return super().execute_sql(sql, params)
        if not params and _HELD.fullmatch(sql):
            self._held().append((sql.rstrip(";"), ()))
            return self.cursor()  # nothing to read from these
        held = self._held()
        if held:
            sql = "; ".join([*(statement for statement, _ in held), sql])
            params = [*(value for _, values in held for value in values), *(params or ())]
            self._pending.held = []
        return super().execute_sql(sql, params)

    def hold(self, sql: str, params: Sequence[Any]) -> bool:
        """Send `sql`, whose answer nobody reads, with this thread's next statement (or its
        COMMIT); False (nothing kept) outside a transaction, where the caller runs it."""
        if not self.in_transaction():
            return False
        self._held().append((sql, params))
        return True

    def at_commit(self, sql: str, params: Sequence[Any]) -> bool:
        """Send `sql` with this thread's COMMIT; False (nothing kept) outside a
        transaction, where the caller runs it itself."""
        if not self.in_transaction():
            return False
        self._closing().append((sql, params))
        return True

    def mark(self) -> tuple[int, int]:
        """Where this thread's commit-time work stands (see `undo_to`)."""
        return len(self._closing()), len(getattr(self._pending, "after", None) or [])

    def undo_to(self, mark: tuple[int, int]) -> None:
        """Forget the commit-time statements and callbacks added since `mark`: the write
        that added them was rolled back to its savepoint, so its version bump and notice
        must not go out with the others' COMMIT."""
        closing, after = mark
        del self._closing()[closing:]
        del (getattr(self._pending, "after", None) or [])[after:]

    def send_since(self, mark: tuple[int, int]) -> None:
        """Send the commit-time statements added since `mark` with this thread's next
        statement instead: a write done in a shared transaction, so the next one finds the
        instance's version and data it left (it would read them stale before the COMMIT)."""
        closing = self._closing()
        self._held().extend(closing[mark[0]:])
        del closing[mark[0]:]

    def commit(self) -> None:
        held, closing = self._forget()
        if held[:1] == [("BEGIN", ())] and not closing and all(
                _HELD.fullmatch(sql) for sql, _ in held[1:]):
            self._committed()
            return  # the transaction ran nothing: the server never saw it
        statements = [*held, *closing, ("COMMIT", ())]
        if len(statements) == 1:
            super().commit()
        else:
            super().execute_sql("; ".join(sql for sql, _ in statements),
                                [value for _, values in statements for value in values])
        self._committed()

    def rollback(self) -> None:
        held, _ = self._forget()
        self._pending.after = []
        if held[:1] == [("BEGIN", ())]:
            return  # nothing was sent: nothing to undo
        super().rollback()  # held savepoint statements die with the transaction


def open_database(url: str, threads: int = 8, *, create_directory: bool = False
                  ) -> pw.Database:
    """A pooled database from `sqlite:///relative.db`, `sqlite:////absolute.db` or a
    PostgreSQL URL (`postgres_parameters`). A SQLite file in a directory that does not exist
    is refused unless `create_directory`: a mistyped path must not quietly start an empty
    database."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = sqlite_path(url)
        folder = Path(path).parent
        if not folder.is_dir():
            if not create_directory:
                raise DatabaseUrlError(
                    f"the SQLite database's directory {folder} does not exist (create it, or "
                    "run `groupkit migrate --create`)")
            folder.mkdir(parents=True, exist_ok=True)
        return PooledSqliteDatabase(
            # The pool's threads, the writer thread, the event loop's thread (which keeps its
            # connection for the writes it runs) and one to spare for synchronous callers.
            path, max_connections=threads + 3, stale_timeout=600, check_same_thread=False,
            timeout=30, returning_clause=True,
            pragmas={"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 30000,
                     "synchronous": "normal"})
    if parts.scheme in ("postgresql", "postgres"):
        params = postgres_parameters(url)
        name = params.pop("dbname")
        return FewerTripsPostgres(name, max_connections=threads + 2, stale_timeout=300,
                                  timeout=30, **params)
    raise DatabaseUrlError(f"unsupported database URL scheme: {parts.scheme!r}")


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


#: How many more times the event loop goes round before a SQLite batch runs: the writes of
#: requests read in those turns join it. With 32 connections voting on one worker, batches
#: averaged 3.3 writes with none, 5.1 with one and 7.3 to 8.3 with two, each turn costing a
#: write only the loop's pass (microseconds) in latency.
BATCH_TURNS = 2
#: The most writes one SQLite transaction holds; a larger batch runs as several.
BATCH_MAX = 64
#: The savepoint each write of a shared transaction runs in.
_SAVEPOINT = "groupkit_write"


@dataclasses.dataclass(slots=True)
class _Pending:
    """One write waiting in this process's batch (SQLite) or its key's turn (PostgreSQL)."""

    context: contextvars.Context
    fn: Callable[..., Any]
    args: Sequence[Any]
    before: Callable[[], None] | None
    future: asyncio.Future[Any]


class _Turn:
    """The writes of one key waiting in this process (PostgreSQL), in order; the entry goes
    when none is left."""

    __slots__ = ("queue", "task")

    def __init__(self) -> None:
        self.queue: list[_Pending] = []
        self.task: asyncio.Task[None] | None = None


class Storage:
    """The database plus the threads that talk to it: a pool for reads, and for writes on
    SQLite the event loop's own thread when the turn is free, else one writer thread (whose
    writers queue anyway), or the same pool on PostgreSQL (whose row locks let writes to
    different instances run side by side)."""

    def __init__(self, db: pw.Database, threads: int = 8) -> None:
        self.db = db
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="groupkit-db")
        #: Told (write?, seconds) after each unit of work: the metrics' database time.
        self.observer: Callable[[bool, float], None] | None = None
        #: Told, in each write's own context, the thread CPU seconds it held the write lock
        #: (see `_holding`): the metrics' write-lock time and the lock-hold tests.
        self.lock_observer: Callable[[float], None] | None = None
        self.postgres = is_postgres(db)
        self._thread = threading.local()
        self.writer = self.executor if self.postgres else ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="groupkit-writer", initializer=self._keeps)
        self._lock_path = None if self.postgres else f"{db.database}-writer.lock"
        self._lock_fd: int | None = None
        self._lock_guard = threading.Lock()
        self._turns: dict[Hashable, _Turn] = {}
        #: Each event loop's pending batch: a loop that closed with one leaves it here, and
        #: never holds up the next loop's writes.
        self._batches: dict[asyncio.AbstractEventLoop, list[_Pending]] = {}
        #: Called first by `close`: what else holds a connection to this database (the
        #: worker's LISTEN connection).
        self.closing: list[Callable[[], None]] = []

    def bind(self) -> None:
        database.initialize(self.db)

    def _keeps(self) -> None:
        """Marks SQLite's one writer thread, which keeps its connection between writes:
        taking it from the pool and giving it back cost a write more than a statement."""
        self._thread.keeps = True

    def _lock_file(self) -> int:
        if self._lock_fd is None:
            assert self._lock_path is not None
            self._lock_fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        return self._lock_fd

    @contextlib.contextmanager
    def _writer_turn(self) -> Iterator[None]:
        """On SQLite, this process's turn at writing among every process on the file."""
        if self._lock_path is None:
            yield
            return
        with self._lock_guard:
            fd = self._lock_file()
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def _free_turn(self) -> bool:
        """Take the writing turn only if nobody holds it now (no wait): in this process
        (the writer thread) or in another (its flock)."""
        if self._lock_path is None or not self._lock_guard.acquire(blocking=False):
            return False
        try:
            fcntl.flock(self._lock_file(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock_guard.release()
            return False
        return True

    def _end_turn(self) -> None:
        try:
            fcntl.flock(self._lock_file(), fcntl.LOCK_UN)
        finally:
            self._lock_guard.release()

    def _unit(self, fn: Callable[..., T], write: bool, args: Sequence[Any],
              before: Callable[[], None] | None = None, held_turn: bool = False) -> T:
        if self.observer is None:
            return self._run_unit(fn, write, args, before, held_turn)
        started = time.perf_counter()
        try:
            return self._run_unit(fn, write, args, before, held_turn)
        finally:
            self.observer(write, time.perf_counter() - started)

    def _run_unit(self, fn: Callable[..., T], write: bool, args: Sequence[Any],
                  before: Callable[[], None] | None = None, held_turn: bool = False) -> T:
        self.db.connect(reuse_if_open=True)
        try:
            if not write:
                # Reads run in a plain (deferred) transaction too: a page built from several
                # queries sees one state of the database.
                with self.db.atomic():
                    return fn(*args)
            if held_turn:
                return self._write_unit(fn, args, before)
            with self._writer_turn():
                return self._write_unit(fn, args, before)
        finally:
            if not self.db.in_transaction() and not getattr(self._thread, "keeps", False):
                self.db.close()

    def _write_unit(self, fn: Callable[..., T], args: Sequence[Any],
                    before: Callable[[], None] | None) -> T:
        if before is not None and self.postgres:
            # On PostgreSQL the count is its own statement, committed at once. Inside the
            # transaction, its row (one per client and hour) stayed locked to the commit, so
            # every write from one address (an office behind one NAT, a proxy not declared
            # trusted) waited for the one before it, across all workers and instances.
            before()  # may refuse (429): then nothing else is done
            before = None
        if before is None:
            with self._holding(fn), transaction():
                return fn(*args)
        # `before` (a rate-limit count) shares the transaction, and must stand when `fn`
        # fails: then the whole transaction is rolled back and the count alone is made
        # again (in this writer's turn still). A savepoint around `fn` did the same for two
        # statements more on every write; failures are the rare case.
        counted = False
        try:
            with self._holding(fn), transaction():
                before()  # may refuse (429): then nothing is kept, as before
                counted = True
                return fn(*args)
        except Exception:
            if counted:
                with transaction(), contextlib.suppress(Exception):
                    before()  # counted again, kept even if it now says "over the limit"
            raise

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        ctx = contextvars.copy_context()
        return await loop.run_in_executor(self.executor, ctx.run, self._unit, fn, False, args)

    async def write(self, fn: Callable[..., T], *args: Any,
                    before: Callable[[], None] | None = None, key: Hashable = None) -> T:
        """Run `fn` in one write transaction (maybe in a savepoint of one shared with other
        writes: on SQLite those asked for together, see the module's docstring; on
        PostgreSQL those of one `key` that gathered while one ran); `before` (a count that
        may refuse), if given, first: in the same transaction, but just before it for a
        PostgreSQL write alone, and kept even when `fn` fails. The result comes after the COMMIT.

        `key` names what the write will lock (an instance's link). On PostgreSQL, writes of
        one key in this process take one database thread in turn: otherwise every thread of
        the pool could sit in the database's queue for one row lock, while writes to other
        instances waited for a thread. Those that gathered while one ran go next together,
        as SQLite's batches do (one transaction, each write in its own savepoint): a busy
        instance's writes pay one BEGIN, one COMMIT and one thread's turn between them."""
        if key is not None and self.postgres:
            loop = asyncio.get_running_loop()
            future: asyncio.Future[T] = loop.create_future()
            turn = self._turns.get(key)
            if turn is None:
                turn = self._turns[key] = _Turn()
                turn.task = loop.create_task(self._take_turns(key, turn))
            turn.queue.append(_Pending(contextvars.copy_context(), fn, args, before, future))
            return await future
        return await self._write(fn, args, before)

    async def _take_turns(self, key: Hashable, turn: _Turn) -> None:
        """Run `key`'s writes: those waiting, up to BATCH_MAX at a time, until none is."""
        loop = asyncio.get_running_loop()
        try:
            while turn.queue:
                batch = [pending for pending in turn.queue[:BATCH_MAX]
                         if not pending.future.done()]  # a requester gone before its turn
                del turn.queue[:BATCH_MAX]
                if not batch:
                    continue
                try:
                    outcomes = await loop.run_in_executor(self.writer, self._batch_unit,
                                                          batch, False)
                except BaseException as error:  # the loop is closing: nothing more runs
                    _settle(batch + turn.queue, error)
                    raise
                _settle(batch, outcomes)
        finally:
            del self._turns[key]

    async def _write(self, fn: Callable[..., T], args: Sequence[Any],
                     before: Callable[[], None] | None) -> T:
        ctx = contextvars.copy_context()
        loop = asyncio.get_running_loop()
        if self.postgres:
            return await loop.run_in_executor(self.writer, ctx.run, self._unit, fn, True, args,
                                              before)
        future: asyncio.Future[T] = loop.create_future()
        batch = self._batches.get(loop)
        if batch is None:
            batch = self._batches[loop] = []
            loop.call_soon(self._flush_after, BATCH_TURNS)
        batch.append(_Pending(ctx, fn, args, before, future))
        return await future

    def _flush_after(self, turns: int) -> None:
        loop = asyncio.get_running_loop()
        if turns:
            loop.call_soon(self._flush_after, turns - 1)
            return
        batch = self._batches.pop(loop)
        for start in range(0, len(batch), BATCH_MAX):
            self._run(batch[start:start + BATCH_MAX])

    def _run(self, batch: list[_Pending]) -> None:
        """Run `batch` here if the turn is free (no wait), else in the writer thread."""
        if self._free_turn():
            self._thread.keeps = True  # this thread's connection stays open for the next
            try:
                outcomes = self._batch_unit(batch, True)
            except BaseException as error:  # not a write's own failure: an interrupt
                _settle(batch, error)
                raise
            finally:
                self._end_turn()
            _settle(batch, outcomes)
            return
        done = asyncio.get_running_loop().run_in_executor(
            self.writer, self._batch_unit, batch, False)
        done.add_done_callback(lambda ran: _settle(batch, ran.exception() or ran.result()))

    def _batch_unit(self, batch: list[_Pending], held_turn: bool
                    ) -> list[tuple[bool, Any]]:
        """Each write's outcome: (True, its result) or (False, the exception it raised)."""
        started = time.perf_counter()
        try:
            if len(batch) == 1:
                pending = batch[0]
                try:
                    return [(True, pending.context.run(
                        self._run_unit, pending.fn, True, pending.args, pending.before,
                        held_turn))]
                except Exception as error:
                    return [(False, error)]
            try:
                return self._run_unit(self._shared, True, (batch,), None, held_turn)
            except Exception as error:  # the BEGIN or the COMMIT: nothing was kept
                return [(False, error)] * len(batch)
        finally:
            if self.observer is not None:
                share = (time.perf_counter() - started) / len(batch)
                for _ in batch:
                    self.observer(True, share)

    @contextlib.contextmanager
    def _holding(self, fn: Callable[..., Any]) -> Iterator[None]:
        """Tell `lock_observer` how long the block held the write lock, from the BEGIN
        (`BEGIN IMMEDIATE` on SQLite) to the COMMIT, in this thread's CPU time: a busy
        machine stretches wall time, not CPU time. A write sharing a transaction reports its
        own savepoint instead (`_savepoint_unit`); their BEGIN and COMMIT are paid once."""
        observer = self.lock_observer
        if observer is None or fn == self._shared:
            yield
            return
        started = time.thread_time()
        try:
            yield
        finally:
            observer(time.thread_time() - started)

    def _shared(self, batch: list[_Pending]) -> list[tuple[bool, Any]]:
        return [pending.context.run(self._held_savepoint, pending.fn, pending.args,
                                    pending.before) for pending in batch]

    def _held_savepoint(self, fn: Callable[..., Any], args: Sequence[Any],
                        before: Callable[[], None] | None) -> tuple[bool, Any]:
        with self._holding(fn):
            return self._savepoint_unit(fn, args, before)

    def _savepoint_unit(self, fn: Callable[..., Any], args: Sequence[Any],
                        before: Callable[[], None] | None) -> tuple[bool, Any]:
        """One write of a shared transaction, with `_write_unit`'s rules: `before` first,
        and kept when `fn` fails; a refusal by `before` keeps nothing."""
        execute = self.db.execute_sql
        execute(f"SAVEPOINT {_SAVEPOINT}")
        trips = self.db if isinstance(self.db, FewerTripsPostgres) else None
        mark = trips.mark() if trips is not None else (0, 0)
        counted = False
        try:
            if before is not None:
                before()
                counted = True
            result = fn(*args)
        except Exception as error:
            execute(f"ROLLBACK TO {_SAVEPOINT}")
            if trips is not None:
                trips.undo_to(mark)
            if counted:
                assert before is not None
                with contextlib.suppress(Exception):
                    before()  # counted again, kept even if it now says "over the limit"
            execute(f"RELEASE SAVEPOINT {_SAVEPOINT}")
            return False, error
        if trips is not None:
            trips.send_since(mark)
        execute(f"RELEASE SAVEPOINT {_SAVEPOINT}")
        return True, result

    def run_sync(self, fn: Callable[..., T], *args: Any, write: bool = True) -> T:
        """The same unit of work from synchronous code (CLI, migrations, tests)."""
        return self._unit(fn, write, args)

    def close(self) -> None:
        for stop in self.closing:
            stop()
        self.closing.clear()
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


def _settle(batch: list[_Pending], outcomes: list[tuple[bool, Any]] | BaseException) -> None:
    """Hand each write of a batch its result or its exception (every write gets the
    exception that ended the whole batch). A requester that went away meanwhile gets
    nothing: its write stands or fell as the others did."""
    if isinstance(outcomes, BaseException):
        outcomes = [(False, outcomes)] * len(batch)
    for pending, (ok, value) in zip(batch, outcomes, strict=True):
        if pending.future.done():
            continue
        if ok:
            pending.future.set_result(value)
        else:
            pending.future.set_exception(value)


Migration = tuple[str, Callable[[pw.Database], None]]

#: The PostgreSQL channel on which every change of an instance row is announced (its slug).
NOTIFY_CHANNEL = "groupkit_live"


def _announce_changes(db: pw.Database) -> None:
    """On PostgreSQL, every UPDATE or DELETE of an instance row notifies its slug, whoever
    makes it: an operation (whose own `pg_notify` is the same notification, sent once), a
    prune, another program. Workers serve cached pages on the strength of these
    notifications (`groupkit.core._live.Notices`), so none may be missed."""
    if not is_postgres(db):
        return
    db.execute_sql(f"""
        CREATE OR REPLACE FUNCTION groupkit_announce() RETURNS trigger AS $$
        BEGIN
            PERFORM pg_notify('{NOTIFY_CHANNEL}', OLD.slug);
            IF TG_OP = 'UPDATE' AND NEW.slug <> OLD.slug THEN
                PERFORM pg_notify('{NOTIFY_CHANNEL}', NEW.slug);
            END IF;
            RETURN NULL;
        END $$ LANGUAGE plpgsql""")
    db.execute_sql("DROP TRIGGER IF EXISTS groupkit_announce ON instance")
    db.execute_sql("CREATE TRIGGER groupkit_announce AFTER UPDATE OR DELETE ON instance "
                   "FOR EACH ROW EXECUTE FUNCTION groupkit_announce()")


def _add_language(db: pw.Database) -> None:
    # The columns as the connection sees the table (see `_outbox._add_channels`).
    cursor = db.execute_sql("SELECT * FROM instance WHERE 1 = 0")
    if "language" not in {column[0] for column in cursor.description}:
        db.execute_sql("ALTER TABLE instance ADD COLUMN language VARCHAR(16) NOT NULL "
                       "DEFAULT ''")


#: The kernel's seventh migration: each instance keeps the language its group is sent
#: messages in (existing instances: English).
LANGUAGE_MIGRATION: Migration = ("0007_instance_language", _add_language)
#: The kernel's migration that makes the database announce every change of an instance;
#: `apply_migrations` runs it after the kernel's others.
ANNOUNCE_MIGRATION: Migration = ("pg_announce_changes", _announce_changes)
#: The kernel's own migrations are applied under this name.
KERNEL_APP = "groupkit"

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
    if app_name == KERNEL_APP and ANNOUNCE_MIGRATION not in migrations:
        migrations = [*migrations, ANNOUNCE_MIGRATION]
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
