"""Render once per change: the public page, the organiser page and the public JSON of an
instance are pure functions of (instance, version, view, request shape, and the part of the
clock a tool's views declare), so each worker keeps the finished bytes and serves them until
the version moves.

Every hit is still checked against the database's changes, so a write through another
worker, a delete or a new day can never be answered from memory; while no change can have
happened, the link resolves to the instance it resolved to last time, and the request is
answered without a database thread or query (the clock part of the key, `Tool.view_time`,
is still computed for each request). How a worker knows that nothing changed:

- SQLite: `PRAGMA data_version` on a connection of the cache's own, which changes whenever
  any other connection, of any process, commits to the file.
- PostgreSQL: the notifications every change of an instance row sends (LISTEN/NOTIFY, on
  commit), read on the event loop (`groupkit.core._live.Notices`): the link's instance had
  none since it was resolved, on the same listening connection. While that connection is
  down every request asks the database; a new one forgets what was known before it. A
  view that shows what changes without a notification (a `stamp`: the chat delivery log)
  always asks the database there.

Misses for one key are rendered once however many requests wait
for them (the many pages that re-fetch after one live update).
A view that reads the clock (`request_time()`) without its tool declaring `Tool.view_time`
is never kept. Participants' private pages are not cached.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import hashlib
import sqlite3
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Hashable

from quart import Response
from quart import request
from werkzeug.http import parse_etags

from groupkit.core import _live as live
from groupkit.core._clock import watching_clock
from groupkit.core._storage import Instance
from groupkit.core._storage import Storage
from groupkit.core._tool import Tool

Key = tuple[Hashable, ...]
#: Finds the instance (and its tool) from the request's link; raises ApiError when it cannot.
Locate = Callable[[], tuple[Tool, Instance]]
#: Builds the body and its content type from the instance (inside the read transaction).
Make = Callable[[Tool, Instance], tuple[str, str]]
#: What a view shows that changes without a version bump (read in the same transaction).
Stamp = Callable[[Tool, Instance], Hashable]


@dataclasses.dataclass(frozen=True)
class _Resolved:
    """What a link resolved to, as of `seen` (a `_Watch.mark` or `Notices.mark`)."""

    seen: Hashable
    tool: Tool
    instance: Instance
    marked: Hashable


class _Watch:
    """A SQLite connection of its own that only asks `PRAGMA data_version`: a few
    microseconds on the event loop, never a wait (no busy timeout: a locked file answers
    None, and the request takes the database path)."""

    def __init__(self, path: str) -> None:
        self.connection: sqlite3.Connection | None = None
        # Should it not open, every request asks the database, as on PostgreSQL.
        with contextlib.suppress(sqlite3.Error):
            self.connection = sqlite3.connect(path, timeout=0, isolation_level=None,
                                              check_same_thread=False)
        self._closer = weakref.finalize(self, self.connection.close) \
            if self.connection is not None else None

    def mark(self) -> int | None:
        """The file's change counter as this connection sees it (None: unknown)."""
        if self.connection is None:
            return None
        try:
            row = self.connection.execute("PRAGMA data_version").fetchone()
        except sqlite3.Error:
            return None
        return int(row[0])

    def unchanged(self, slug: str, since: Hashable) -> bool:
        """Whether nothing at all was committed to the file since `since`."""
        return since is not None and self.mark() == since

    def close(self) -> None:
        if self._closer is not None:
            self._closer()
        self.connection = None


@dataclasses.dataclass(frozen=True)
class Rendered:
    body: bytes
    etag: str
    content_type: str
    version: int = 0


class RenderCache:
    """One per worker: a bounded LRU of rendered views, plus the renders in flight, plus
    (on SQLite) what each link resolved to."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._entries: OrderedDict[Key, Rendered] = OrderedDict()
        self._lock = threading.Lock()
        self._pending: dict[Key, asyncio.Task[Rendered]] = {}
        #: (view, link, extra) -> what the link resolved to; read and written on the loop.
        self._resolved: OrderedDict[Key, _Resolved] = OrderedDict()
        self._watch: _Watch | None = None
        self._watched: Storage | None = None
        #: (tool, view) pairs seen reading the clock undeclared: never cached again.
        self.clock_bound: set[tuple[str, str]] = set()
        self.renders = 0  # how many views were actually computed (tests and the benchmark)

    def key(self, tool: Tool, instance: Instance, view: str, now: dt.datetime,
            extra: Key, stamp: Stamp | None = None) -> Key | None:
        marked = stamp(tool, instance) if stamp is not None else None
        return self._key(tool, instance, view, now, extra, marked)

    def _key(self, tool: Tool, instance: Instance, view: str, now: dt.datetime,
             extra: Key, marked: Hashable) -> Key | None:
        if (tool.name, view) in self.clock_bound:
            return None
        when = tool.view_time(instance, now) if tool.view_time is not None else None
        # The slug, not the id: SQLite may give a deleted instance's id to the next one.
        return (view, instance.slug, instance.version, when, marked, *extra)

    def get(self, key: Key) -> Rendered | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: Key, value: Rendered) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
        self._resolved.clear()

    def close(self) -> None:
        """Close the watching connection, or stop listening (the app's shutdown)."""
        if self._watch is not None:
            self._watch.close()
            self._watch = None
        if self._watched is not None and self._watched.postgres:
            live.stop_notices(self._watched)
        self._watched = None

    def _watcher(self, storage: Storage) -> _Watch | live.Notices:
        """What tells this worker whether the database changed (see the module's
        docstring)."""
        if storage.postgres:
            self._watched = storage
            return live.notices(storage)
        if self._watched is not storage or self._watch is None:
            self.close()
            self._watch, self._watched = _Watch(storage.db.database), storage
        return self._watch

    def _remembered(self, link: Key, watch: _Watch | live.Notices, view: str,
                    now: dt.datetime, extra: Key) -> Rendered | None:
        resolved = self._resolved.get(link)
        if resolved is None or not watch.unchanged(resolved.instance.slug, resolved.seen):
            return None
        key = self._key(resolved.tool, resolved.instance, view, now, extra, resolved.marked)
        return self.get(key) if key is not None else None

    def _remember(self, link: Key, resolved: _Resolved) -> None:
        self._resolved[link] = resolved
        self._resolved.move_to_end(link)
        while len(self._resolved) > self.size:
            self._resolved.popitem(last=False)

    async def serve(self, storage: Storage, locate: Locate, view: str, now: dt.datetime,
                    extra: Key, make: Make, stamp: Stamp | None = None,
                    link: Hashable = None) -> Rendered:
        """The rendered view for the request: from memory when the instance's version (and
        declared time, and `stamp`) is the one it was rendered at, else rendered once.
        `link` names what `locate` resolves (the same `link` must always resolve the same
        way while the database is unchanged); without it every request resolves in the
        database."""
        remembered = (view, link, *extra) if link is not None else None
        seen: Hashable = None
        stamps_seen = not storage.postgres  # (no notification tells of a stamp's change)
        if remembered is not None:
            watch = self._watcher(storage)
            hit = self._remembered(remembered, watch, view, now, extra)
            if hit is not None:
                return hit
            seen = watch.mark()

        def probe() -> tuple[Key | None, Rendered | None, _Resolved | None]:
            tool, instance = locate()
            marked = stamp(tool, instance) if stamp is not None else None
            key = self._key(tool, instance, view, now, extra, marked)
            # Marked before this snapshot began: should anything commit after it, the mark
            # is out of date and the next request comes here again.
            resolved = None if seen is None or (marked is not None and not stamps_seen) \
                else _Resolved(seen, tool, instance, marked)
            return key, (self.get(key) if key is not None else None), resolved

        key, hit, resolved = await storage.read(probe)
        if key is not None and remembered is not None and resolved is not None:
            self._remember(remembered, resolved)
        if hit is not None:
            return hit
        if key is None:
            return await storage.read(self._build, locate, view, now, extra, make, stamp)
        # One render per key, in a task of its own so that a waiter who goes away (a
        # closed tab) cancels nobody else's answer.
        task = self._pending.get(key)
        if task is None:
            task = asyncio.get_running_loop().create_task(
                storage.read(self._build, locate, view, now, extra, make, stamp))
            self._pending[key] = task
            task.add_done_callback(lambda done: self._settled(key, done))
        return await asyncio.shield(task)

    def _settled(self, key: Key, task: asyncio.Task[Rendered]) -> None:
        if self._pending.get(key) is task:
            del self._pending[key]
        if not task.cancelled():
            task.exception()  # an error reaches its waiters; never "never retrieved"

    def _build(self, locate: Locate, view: str, now: dt.datetime, extra: Key,
               make: Make, stamp: Stamp | None = None) -> Rendered:
        tool, instance = locate()
        key = self.key(tool, instance, view, now, extra, stamp)
        with watching_clock() as clock_read:
            text, content_type = make(tool, instance)
        self.renders += 1
        body = text.encode("utf-8")
        rendered = Rendered(body, hashlib.blake2b(body, digest_size=12).hexdigest(),
                            content_type, instance.version)
        if clock_read and tool.view_time is None:
            self.clock_bound.add((tool.name, view))
        elif key is not None:
            self.put(key, rendered)
        return rendered


def respond(rendered: Rendered, headers: dict[str, str] | None = None) -> Response:
    """The response, or 304 when the browser already holds these bytes. (The header is
    parsed only when sent: `request.if_none_match` parsed it for every request, and cost as
    much as building the response.)"""
    given = request.headers.get("If-None-Match")
    if given and parse_etags(given).contains(rendered.etag):
        response = Response(b"", status=304)
    else:
        response = Response(rendered.body, content_type=rendered.content_type)
    response.headers.add("ETag", f'"{rendered.etag}"')  # a hex digest: nothing to escape
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response
