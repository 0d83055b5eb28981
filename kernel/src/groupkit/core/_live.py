"""Live updates: one Server-Sent Events stream per instance, `GET /api/<tool>/{slug}/events`,
that tells open pages the instance changed, so a reveal shows without a refresh.

Every successful write operation bumps `instance.version` inside its own transaction
(`changed`). How the other processes hear of it:

- PostgreSQL (several workers, several hosts): `pg_notify('groupkit_live', slug)` in the same
  transaction, so it is delivered on commit, and only then, to every worker on every host.
  (The database also announces every other change of an instance row the same way: see
  `_storage.ANNOUNCE_MIGRATION`.) Each worker holds one LISTEN connection, read on its
  event loop (`Notices`); a notification for a watched slug wakes that worker's streams,
  which re-read the versions they watch in one query. The same notifications let the
  render cache serve a page with no database round trip (`groupkit.core._rendered`).
- SQLite (one host by definition): each worker reads the versions of the instances its open
  streams watch, in one indexed query every quarter second, and only while a stream is open.

Both end in the same comparison (version now vs. version last sent), so a missed or
duplicated wake-up can never send a page a wrong state; at worst it refreshes once more.
The stream sends `event: version` with the version number on connect and on every change,
`event: gone` when the instance is deleted, a comment at least every 15 s to keep proxies
open, and ends after four to five minutes (the browser reconnects on its own,
`retry: 1000`).

A public page asks for `?page=public`: then each change arrives as `event: parts` whose data
is the version, a newline and the parts of the page's live regions that changed since what
this stream sent last (`groupkit.core._parts`: a claimed spot's row and its group's count, not the
board), each an element with an id; every region whole in a stream's first such event. The
page is rendered (or taken from the render cache) once per version per worker, and each
event is made once for every stream that needs it, so a change seen by a hundred open pages
costs one render and a hundred small sends, not a hundred requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import re
import select
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Hashable
from typing import Any

from groupkit.core import _resolve as resolve
from groupkit.core._parts import Snapshot
from groupkit.core._parts import changed_parts
from groupkit.core._parts import snapshot
from groupkit.core._storage import NOTIFY_CHANNEL
from groupkit.core._storage import Instance
from groupkit.core._storage import Storage
from groupkit.core._storage import database
from groupkit.core._storage import is_postgres

CHANNEL = NOTIFY_CHANNEL
END = -1  # queued on shutdown: end the stream quietly (the browser reconnects elsewhere)
POLL_SECONDS = 0.25
KEEPALIVE_SECONDS = 15.0
STREAM_SECONDS = 300.0
#: Each stream ends between (1 - STREAM_SPREAD) x STREAM_SECONDS and STREAM_SECONDS.
STREAM_SPREAD = 0.2

log = logging.getLogger("groupkit.live")
#: Renders the public page of the stream's instance as it is now: (version, html), or None
#: when it cannot (deleted meanwhile).
PageRenderer = Callable[[], Awaitable[tuple[int, str] | None]]
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def parts_event(version: int, parts: list[str]) -> bytes:
    """An SSE event carrying the version and the changed parts (every line its own
    `data:`), encoded once for every stream that sends it."""
    lines = "\ndata: ".join(_LINE_BREAK.split("\n".join(parts)))
    return f"event: parts\ndata: {version}\ndata: {lines}\n\n".encode()


def changed(instance: Instance) -> None:
    """Record that `instance` changed; call inside the write transaction that changed it.
    On PostgreSQL the version bump and the notification are one statement, sent with the
    transaction's COMMIT (one round trip for the three, see `FewerTripsPostgres`). A save of
    the instance's `data` that the operation made is written by the same statement
    (`Instance.hold_data_for_bump`)."""
    held = instance.take_held_data()
    data = (Instance.data.db_value(instance.data),) if held else ()
    if is_postgres():
        sets = "data = %s, version = version + 1" if held else "version = version + 1"
        sql = f"UPDATE instance SET {sets} WHERE id = %s RETURNING pg_notify(%s, slug)"
        params: tuple[Any, ...] = (*data, instance.id, CHANNEL)
        at_commit = getattr(database.obj, "at_commit", None)
        if at_commit is None or not at_commit(sql, params):
            database.execute_sql(sql, params)
        _counted_at_commit(instance.slug)
        return
    sets = "data = ?, version = version + 1" if held else "version = version + 1"
    database.execute_sql(f"UPDATE instance SET {sets} WHERE id = ?", (*data, instance.id))


def removed(instance: Instance) -> None:
    """Record that `instance` is being deleted; call inside the deleting transaction. On
    PostgreSQL the notification goes with the COMMIT (the version bump of `changed` finds no
    row then, so its `pg_notify` never ran, and open pages heard of the delete only from the
    listener's five-second guard); SQLite's polling sees the row gone."""
    if not is_postgres():
        return
    sql, params = "SELECT pg_notify(%s, %s)", (CHANNEL, instance.slug)
    at_commit = getattr(database.obj, "at_commit", None)
    if at_commit is None or not at_commit(sql, params):
        database.execute_sql(sql, params)
    _counted_at_commit(instance.slug)


def _counted_at_commit(slug: str) -> None:
    """Once this transaction commits, this worker's `Notices` count the change at once:
    the writer's next request (the page it reloads) must not wait for the notification."""
    db = database.obj
    found = _NOTICES.get(db)
    after_commit = getattr(db, "after_commit", None)
    if found is not None and after_commit is not None:
        after_commit(functools.partial(found.touch_soon, slug))


def _versions(slugs: list[str]) -> dict[str, int]:
    rows = Instance.select(Instance.slug, Instance.version).where(Instance.slug.in_(slugs))
    return {row.slug: row.version for row in rows}


class Gone:
    """What `LiveHub.page_at` gives for an instance deleted before its page was read."""


GONE = Gone()


class LiveHub:
    """One per worker process: the open streams by slug, and what wakes them."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.queues: dict[str, set[asyncio.Queue[int | None]]] = {}
        self.sent: dict[str, int | None] = {}
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._notices: Notices | None = None
        #: Open streams by client address, for the per-client cap (`streams_per_client`).
        self.clients: dict[str, int] = {}
        #: The page read for a slug's latest version, shared by its streams.
        self.pages: dict[str, tuple[int, asyncio.Task[Snapshot | Gone]]] = {}
        #: The parts events made for a slug's latest page, by the page they start from.
        self.events: dict[str, tuple[Snapshot, dict[Snapshot | None, bytes]]] = {}

    async def page_at(self, slug: str, version: int, render: PageRenderer
                      ) -> Snapshot | Gone | None:
        """The public page of `slug` at `version` or later, read for its parts: rendered
        once for every stream of this worker that waits on it; `GONE` once it is gone,
        None if it could not be rendered."""
        made = self.pages.get(slug)
        if made is None or made[0] < version:
            async def make() -> Snapshot | Gone:
                rendered = await render()
                return GONE if rendered is None else snapshot(*rendered)
            made = (version, asyncio.get_running_loop().create_task(make()))
            self.pages[slug] = made
        try:
            return await asyncio.shield(made[1])
        except Exception:
            log.exception("live: rendering the page failed")
            return None

    def parts_for(self, slug: str, sent: Snapshot | None, page: Snapshot) -> bytes:
        """The `parts` event that brings a page showing `sent` (None: unknown) to `page`:
        made once for every stream of this worker that needs the same."""
        target, made = self.events.get(slug, (None, {}))
        if target is not page:
            made = {}
            self.events[slug] = (page, made)
        event = made.get(sent)
        if event is None:
            event = made[sent] = parts_event(page.version, changed_parts(sent, page))
        return event

    def streams_of(self, client: str) -> int:
        return self.clients.get(client, 0)

    def _hold(self, client: str, delta: int) -> None:
        count = self.clients.get(client, 0) + delta
        if count > 0:
            self.clients[client] = count
        else:
            self.clients.pop(client, None)

    async def open(self, tool: str, slug: str) -> tuple[int, asyncio.Queue[int | None]]:
        """Start watching; 404 (`ApiError`) for anything `by_slug` would refuse."""
        instance = await self.storage.read(resolve.by_slug, tool, slug)
        queue: asyncio.Queue[int | None] = asyncio.Queue()
        self.queues.setdefault(instance.slug, set()).add(queue)
        self.sent.setdefault(instance.slug, instance.version)
        self._ensure_running()
        return instance.version, queue

    def close(self, slug: str, queue: asyncio.Queue[int | None]) -> None:
        watchers = self.queues.get(slug)
        if watchers is not None:
            watchers.discard(queue)
            if not watchers:
                del self.queues[slug]
                self.sent.pop(slug, None)
                self.pages.pop(slug, None)
                self.events.pop(slug, None)

    def _ensure_running(self) -> None:
        if self._wake is None:
            self._wake = asyncio.Event()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        if is_postgres(self.storage.db):
            found = notices(self.storage)
            if self._heard not in found.subscribers:
                found.subscribers.append(self._heard)
            self._notices = found

    def _heard(self, slugs: set[str] | None) -> None:
        """Notifications read (None: a new connection, after which anything may have
        changed): wake the streams if any of theirs is among them."""
        if slugs is None or not slugs.isdisjoint(self.queues):
            self.wake()

    def wake(self) -> None:
        if self._wake is not None:
            self._wake.set()

    async def _run(self) -> None:
        assert self._wake is not None
        while self.queues:
            if self._notices is not None:
                # Notifications wake us; the timeout only guards against a lost listener.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), 5.0)
            else:
                await asyncio.sleep(POLL_SECONDS)
            self._wake.clear()
            slugs = list(self.queues)
            if not slugs:
                break
            try:
                versions = await self.storage.read(_versions, slugs)
            except Exception:  # a database hiccup must not kill every stream
                log.exception("live: reading versions failed")
                await asyncio.sleep(1.0)
                continue
            for slug in slugs:
                version = versions.get(slug)
                if slug in self.sent and version != self.sent[slug]:
                    self.sent[slug] = version
                    for queue in self.queues.get(slug, ()):
                        queue.put_nowait(version)

    def shutdown(self) -> None:
        for watchers in self.queues.values():
            for queue in watchers:
                queue.put_nowait(END)
        if self._notices is not None:
            stop_notices(self.storage)
        if self._task is not None:
            self._task.cancel()


#: How many slugs `Notices` remembers a change for; an older change counts as made at the
#: oldest one kept (so forgetting is always on the safe side).
NOTICES_KEPT = 4096


class Notices:
    """One LISTEN connection per worker (PostgreSQL), read on the event loop: it wakes the
    live streams, and it tells the render cache which instances changed since a moment, so
    a cached page is served with no database round trip.

    A moment (`mark`) is the connection's generation and the count of notifications read
    so far. An instance is unchanged since a mark if the connection that made the mark
    still listens, and no notification for its slug (nor any change made through this
    worker, `touch`) came after the mark. While the connection is down, nothing is known
    (`mark` is None); a new connection is a new generation, so what was known before it
    (notifications may have been lost meanwhile) is forgotten.

    Each question first reads whatever the server has sent (a non-blocking read of the
    socket; a dropped connection shows there as end of file), so a notification or a drop
    that reached the worker's socket is never missed. A notification is sent when its
    transaction commits; it reaches the other workers' sockets a moment after the writer
    hears its COMMIT (the database server signals each listening session in turn), so a
    request to another worker in that moment may still get the page as it was. A write
    made through this worker counts at once (`touch`, after its COMMIT)."""

    channel = CHANNEL

    def __init__(self, db: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.db, self.loop = db, loop
        self.conn: Any = None
        self._fd: int | None = None
        self.generation = 0
        self.seq = 0
        self._floor = 0
        self._changed: OrderedDict[str, int] = OrderedDict()
        #: Told the slugs of each batch of notifications read, or None on a new connection
        #: (anything may have changed while there was none).
        self.subscribers: list[Callable[[set[str] | None], None]] = []
        self.listening = asyncio.Event()
        self._lost = asyncio.Event()
        self.stopping = False
        self._task = loop.create_task(self._run())

    # -- what the render cache asks ---------------------------------------------------------

    def mark(self) -> tuple[int, int] | None:
        """Now, as a moment to compare later ones with; None while not listening."""
        if not self._current():
            return None
        return self.generation, self.seq

    def unchanged(self, slug: str, since: Hashable) -> bool:
        """Whether no change of `slug` can have been committed after `since` (a `mark`)."""
        if not isinstance(since, tuple) or not self._current():
            return False
        generation, seq = since
        return generation == self.generation and self._changed.get(slug, self._floor) <= seq

    def touch(self, slug: str) -> None:
        """Count a change of `slug` now (on the loop's thread: see `touch_soon`)."""
        self.seq += 1
        self._changed[slug] = self.seq
        self._changed.move_to_end(slug)
        while len(self._changed) > NOTICES_KEPT:
            _, oldest = self._changed.popitem(last=False)
            self._floor = max(self._floor, oldest)

    def touch_soon(self, slug: str) -> None:
        """`touch` from any thread: done before anything the caller schedules after it."""
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody left to tell
            self.loop.call_soon_threadsafe(self.touch, slug)

    def _current(self) -> bool:
        """Listening, with everything the server sent so far read."""
        if self.conn is None:
            return False
        self._read()
        if self._fd is None:
            return False
        # Still readable after a read: the rest of a message, or the end of the connection
        # after the server's last word: not known yet.
        return not select.select([self._fd], [], [], 0)[0]

    # -- the connection ---------------------------------------------------------------------

    def _connect(self) -> Any:
        import psycopg2
        import psycopg2.extensions

        # Keep-alives: a connection the network silently dropped (while the worker trusts
        # it) is found out within about ten seconds, not the system's two hours.
        params = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
                  "keepalives_count": 3, **self.db.connect_params}
        conn = psycopg2.connect(database=self.db.database, **params)
        conn.set_isolation_level(psycopg2.extensions.ISOLATION_LEVEL_AUTOCOMMIT)
        with conn.cursor() as cursor:
            cursor.execute(f"LISTEN {self.channel}")
        return conn

    @property
    def backend_pid(self) -> int | None:
        """The server process of the listening connection (None while there is none)."""
        return None if self.conn is None else int(self.conn.get_backend_pid())

    async def _run(self) -> None:
        while not self.stopping:
            try:
                conn = await asyncio.to_thread(self._connect)
            except Exception:
                log.exception("live: cannot LISTEN; retrying")
                await asyncio.sleep(2.0)
                continue
            if self.stopping:
                conn.close()
                return
            self.generation += 1
            self._lost.clear()
            self.conn, self._fd = conn, conn.fileno()
            self.loop.add_reader(self._fd, self._read)
            self.listening.set()
            self._tell(None)  # anything committed while there was no connection
            self._read()
            await self._lost.wait()
            if not self.stopping:
                await asyncio.sleep(0.2)  # a server that is restarting: not a tight loop

    def _read(self) -> None:
        """Read what the server sent (never waits); a failure ends the connection."""
        conn = self.conn
        if conn is None:
            return
        try:
            conn.poll()
            failed = bool(conn.closed)
        except Exception:
            failed = True
        if failed:
            if not self.stopping:
                log.warning("live: LISTEN connection lost; reconnecting")
            self._drop()
            return
        if conn.notifies:
            slugs = {note.payload for note in conn.notifies}
            conn.notifies.clear()
            for slug in slugs:
                self.touch(slug)
            self._tell(slugs)

    def _drop(self) -> None:
        conn, self.conn = self.conn, None
        self.listening.clear()
        self.generation += 1
        self._changed.clear()
        self._floor = self.seq
        if self._fd is not None:
            # (by the number it had: a broken connection no longer tells it, and the next
            # connection's socket may get the same number)
            self.loop.remove_reader(self._fd)
            self._fd = None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()
        self._lost.set()

    def _tell(self, slugs: set[str] | None) -> None:
        for subscriber in self.subscribers:
            subscriber(slugs)

    def stop(self) -> None:
        self.stopping = True
        if not self.loop.is_closed():
            self._drop()
            self._task.cancel()
        elif self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.close()
            self.conn = None


_NOTICES: weakref.WeakKeyDictionary[Any, Notices] = weakref.WeakKeyDictionary()


def notices(storage: Storage) -> Notices:
    """This worker's `Notices` for the PostgreSQL database of `storage`, listening from the
    running event loop (started on first use; a new loop, as in tests, gets a new one; the
    storage's `close` stops it)."""
    loop = asyncio.get_running_loop()
    found = _NOTICES.get(storage.db)
    if found is None or found.loop is not loop or found.stopping:
        if found is not None:
            found.stop()
        found = _NOTICES[storage.db] = Notices(storage.db, loop)
        storage.closing.append(found.stop)
    return found


def stop_notices(storage: Storage) -> None:
    """Stop listening on `storage`'s database (the app's shutdown)."""
    found = _NOTICES.pop(storage.db, None)
    if found is not None:
        found.stop()


async def stream(hub: LiveHub, tool: str, slug: str, client: str = "",
                 page: PageRenderer | None = None) -> AsyncIterator[str | bytes]:
    """The text of one SSE stream; raises the usual 404 before any byte is sent. The stream
    counts against `client`'s cap from now until it ends; with `page`, changes arrive as
    `page` events."""
    hub._hold(client, 1)
    try:
        version, queue = await hub.open(tool, slug)
    except BaseException:
        hub._hold(client, -1)
        raise
    return _events(hub, slug, version, queue, client, page)


async def _events(hub: LiveHub, slug: str, version: int, queue: asyncio.Queue[int | None],
                  client: str, page: PageRenderer | None) -> AsyncIterator[str | bytes]:
    loop = asyncio.get_running_loop()
    # Streams open together (a link dropped in a chat, a server restart): their keep-alives
    # and their ends are spread out, not all due in the same instant, when a thousand of
    # them waking at once held up every other request of the worker.
    started = loop.time()
    deadline = started + STREAM_SECONDS * (1 - STREAM_SPREAD * random.random())
    ping = started + KEEPALIVE_SECONDS * random.random()
    try:
        yield f"retry: 1000\nevent: version\ndata: {version}\n\n"
        # What the page shows, as far as this stream knows: nothing until it sends its first
        # parts (every region whole), then what it sent. Never the render of the version
        # the page was served at: a render at the same version can differ on another day
        # (a view that depends on the date), and a part left out would stay stale.
        shown: Snapshot | None = None
        announced = version
        while loop.time() < deadline:
            try:
                # (asyncio.timeout, not wait_for: no task of its own for every wait)
                async with asyncio.timeout(max(min(ping, deadline) - loop.time(), 0)):
                    current = await queue.get()
            except TimeoutError:
                if loop.time() >= deadline:
                    return
                ping = max(ping + KEEPALIVE_SECONDS, loop.time())
                yield ": keep-alive\n\n"
                continue
            if current == END:
                return
            if current is None:
                yield "event: gone\ndata: {}\n\n"
                return
            if current == announced:
                continue  # a wake-up for the version this stream opened at: nothing new
            announced = current
            fresh = await hub.page_at(slug, current, page) if page is not None else None
            if isinstance(fresh, Gone):
                # Deleted between the change and the read: a `version` event would send the
                # page to fetch itself, meet a 404 and reload into another; the deletion's
                # own wake-up would say `gone` a moment later anyway.
                yield "event: gone\ndata: {}\n\n"
                return
            if fresh is None:
                yield f"event: version\ndata: {current}\n\n"
            elif fresh is not shown:  # (already sent when a render was newer than asked)
                yield hub.parts_for(slug, shown, fresh)
                shown = fresh
    finally:
        hub.close(slug, queue)
        hub._hold(client, -1)
