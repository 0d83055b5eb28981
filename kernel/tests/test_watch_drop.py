"""A worker serves cached pages without asking the database only while it can tell that
nothing changed: PostgreSQL's LISTEN connection (`Notices`), SQLite's watching connection.
Here that connection is lost mid-run, again and again, while another connection writes, and
no page, organiser page or public JSON served is ever stale."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from typing import Any

from test_render_cache import cache_of
from test_render_cache import note
from test_render_cache import statements_of
from test_render_cache import text_of

from groupkit.core._live import Notices
from groupkit.core._live import notices
from groupkit.core._storage import Storage
from groupkit.core._storage import postgres_parameters
from groupkit.core._storage import sqlite_path
from groupkit_testing import create

UPDATE = "UPDATE instance SET title = {p}, version = version + 1 WHERE slug = {p}"


class Elsewhere:
    """Another worker: a connection of its own that writes, and a way to take away the
    served worker's watching connection (PostgreSQL: `pg_terminate_backend` from here)."""

    def __init__(self, storage: Storage, url: str) -> None:
        self.storage = storage
        self.postgres = storage.postgres
        if self.postgres:
            import psycopg2

            self.conn: Any = psycopg2.connect(**postgres_parameters(url))
            self.conn.autocommit = True
        else:
            self.conn = sqlite3.connect(sqlite_path(url), isolation_level=None, timeout=30)

    def write(self, slug: str, title: str) -> None:
        """A committed write, made while the served worker's event loop waits."""
        self.conn.cursor().execute(UPDATE.format(p="%s" if self.postgres else "?"),
                                   (title, slug))

    def drop(self, cache: Any) -> int | None:
        """End the watching connection; its PostgreSQL server process, if any."""
        if not self.postgres:
            cache._watch.connection.close()  # every later question fails
            return None
        pid = notices(self.storage).backend_pid
        cursor = self.conn.cursor()
        cursor.execute("SELECT pg_terminate_backend(%s, 10000)", (pid,))
        assert cursor.fetchone() == (True,)
        return pid

    def close(self) -> None:
        self.conn.close()


async def until(ready: Callable[[], bool]) -> None:
    """Let the event loop run until `ready()` (the event itself, not a guess at its time)."""
    async with asyncio.timeout(30):
        while not ready():
            await asyncio.sleep(0.005)


def changed_since(heard: Notices, slug: str, mark: tuple[int, int]) -> Callable[[], bool]:
    return lambda: not heard.unchanged(slug, mark)


async def test_no_page_is_stale_while_the_watching_connection_drops(client: Any) -> None:
    app = client.app
    storage: Storage = app.config["GROUPKIT_STORAGE"]
    made = await create(client, "demo", {"title": "Lunch 0", "names": ["A"]})
    slug = made["slug"]
    paths = [f"/s/{slug}", f"/e/{made['editToken']}", f"/api/demo/{slug}"]
    elsewhere = Elsewhere(storage, app.config["GROUPKIT_SETTINGS"].database_url)
    heard: Notices | None = notices(storage) if storage.postgres else None
    if heard is not None:
        await asyncio.wait_for(heard.listening.wait(), 30)
    title, served, from_memory, drops = "Lunch 0", 0, 0, []

    async def all_current() -> None:
        nonlocal served
        for path in paths:
            page = await text_of(client, path)
            assert title in page, (title, path)  # never an earlier title
            served += 1

    try:
        for turn in range(1, 13):
            await all_current()
            renders = cache_of(client).renders
            with statements_of(storage.db) as sent:
                await all_current()  # from memory: nothing changed since
            if cache_of(client).renders == renders and not sent:
                from_memory += 1
            title = f"Lunch {turn}"
            if turn % 4 == 2:
                # Dropped, and written to at once: a notification that will never come.
                drops.append(elsewhere.drop(cache_of(client)))
                elsewhere.write(slug, title)
                if heard is not None and turn % 8 == 2:
                    # Wait for the new connection before asking: what the worker knew
                    # before it must be forgotten, not trusted again.
                    await until(lambda: heard.backend_pid not in (None, *drops))
                await all_current()
                if heard is not None:
                    await until(lambda: heard.backend_pid not in (None, *drops))
            else:
                mark = heard.mark() if heard is not None else None
                elsewhere.write(slug, title)
                if heard is not None and mark is not None:
                    # The notification is delivered on commit; once this worker read it
                    # (or lost its connection meanwhile), nothing older may be served.
                    await until(changed_since(heard, slug, mark))
                await all_current()
    finally:
        elsewhere.close()
    assert served == 12 * 9 and len(drops) == 3
    if heard is not None:
        assert from_memory == 12  # it came back each time, and answered from memory again
    else:
        assert from_memory >= 1  # until the first drop; then every request asks the file


async def test_a_write_through_this_worker_shows_before_its_notification(
        client: Any, monkeypatch: Any) -> None:
    """The writer's next request (the page it reloads) must not depend on when the
    notification of its own write arrives: here none ever does (the worker listens on a
    channel nobody uses), yet each write through the worker shows at once; one made
    elsewhere, the control, stays unseen on PostgreSQL (it is what notifications are for)."""
    monkeypatch.setattr(Notices, "channel", "groupkit_nobody")
    app = client.app
    storage: Storage = app.config["GROUPKIT_STORAGE"]
    made = await create(client, "demo", {"title": "Lunch", "names": ["A"]})
    slug = made["slug"]
    paths = [f"/s/{slug}", f"/e/{made['editToken']}", f"/api/demo/{slug}"]
    if storage.postgres:
        await asyncio.wait_for(notices(storage).listening.wait(), 30)
    for text in ("soup", "pie", "cake"):
        for path in paths:
            await text_of(client, path)
            await text_of(client, path)  # from memory
        await note(client, slug, text)
        for path in paths:
            assert text in await text_of(client, path), (text, path)
    elsewhere = Elsewhere(storage, app.config["GROUPKIT_SETTINGS"].database_url)
    try:
        elsewhere.write(slug, "Supper")
    finally:
        elsewhere.close()
    seen = ["Supper" in await text_of(client, path) for path in paths]
    assert seen == [not storage.postgres] * len(paths)
