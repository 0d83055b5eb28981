"""Render once per change: pages and public JSON come from each worker's memory while the
instance's version (and the clock value its tool declares) stands, and never once it moved:
after a write, a delete, a prune, a new day, or a write made by another process."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import demo_plugin
from conftest import FakeClock
from groupkit import Instance
from groupkit import Operations
from groupkit import Schema
from groupkit import Tool
from groupkit import hookimpl
from groupkit import request_time
from groupkit.core._live import changed
from groupkit.core._live import notices
from groupkit.core._rendered import RenderCache
from groupkit.ops._retention import prune_all
from groupkit_testing import create


@contextlib.contextmanager
def statements_of(db: Any) -> Iterator[list[str]]:
    """Every statement `db` sends while the block runs, from any thread."""
    sent: list[str] = []
    cursor = db.cursor

    class Counting:
        def __init__(self, real: Any) -> None:
            self.real = real

        def execute(self, sql: str, *args: Any) -> Any:
            sent.append(sql)
            return self.real.execute(sql, *args)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.real, name)

    db.cursor = lambda *args, **kwargs: Counting(cursor(*args, **kwargs))
    try:
        yield sent
    finally:
        del db.cursor


def cache_of(client: Any) -> RenderCache:
    cache: RenderCache = client.app.config["GROUPKIT_RENDERED"]
    return cache


async def note(client: Any, slug: str, text: str) -> None:
    response = await client.post("/api/demo/note", json={"slug": slug, "text": text})
    assert response.status_code == 201


async def text_of(client: Any, path: str, status: int = 200) -> str:
    response = await client.get(path)
    assert response.status_code == status, path
    return str(await response.get_data(as_text=True))


async def test_a_second_read_is_not_rendered_again_and_a_write_shows_at_once(
        client: Any) -> None:
    made = await create(client, "demo", {"title": "Lunch", "names": ["A"]})
    slug, edit = made["slug"], made["editToken"]
    paths = [f"/s/{slug}", f"/e/{edit}", f"/api/demo/{slug}"]
    for path in paths:
        await text_of(client, path)
    renders = cache_of(client).renders
    for path in paths:
        assert "soup" not in await text_of(client, path)
    assert cache_of(client).renders == renders  # all three from memory

    await note(client, slug, "soup")
    for path in paths:
        assert "soup" in await text_of(client, path)
    assert cache_of(client).renders == renders + 3


async def test_etag_answers_304_until_the_instance_changes(client: Any) -> None:
    slug = (await create(client, "demo", {"title": "Lunch", "names": ["A"]}))["slug"]
    for path in (f"/s/{slug}", f"/api/demo/{slug}"):
        first = await client.get(path)
        etag = first.headers["ETag"]
        again = await client.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304
        assert await again.get_data() == b""
        assert again.headers["ETag"] == etag
    await note(client, slug, "soup")
    for path in (f"/s/{slug}", f"/api/demo/{slug}"):
        changed_page = await client.get(path, headers={"If-None-Match": etag})
        assert changed_page.status_code == 200


async def test_a_deleted_instance_is_never_served_from_memory(client: Any) -> None:
    made = await create(client, "demo", {"title": "Lunch", "names": ["A"]})
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}", f"/api/demo/{made['slug']}"):
        await text_of(client, path)
    assert (await client.post(f"/api/demo/{made['editToken']}/delete")).status_code == 200
    await text_of(client, f"/s/{made['slug']}", 404)
    await text_of(client, f"/e/{made['editToken']}", 404)
    await text_of(client, f"/api/demo/{made['slug']}", 404)


async def test_a_new_instance_never_gets_a_deleted_ones_pages(client: Any) -> None:
    """SQLite may hand a deleted instance's id to the next one, at the same version."""
    for title in ("First", "Second", "Third"):
        made = await create(client, "demo", {"title": title, "names": ["A"]})
        assert title in await text_of(client, f"/s/{made['slug']}")
        assert title in await text_of(client, f"/e/{made['editToken']}")
        assert title in await text_of(client, f"/api/demo/{made['slug']}")
        assert (await client.post(f"/api/demo/{made['editToken']}/delete")).status_code == 200


async def test_a_write_made_by_another_process_is_seen(client: Any) -> None:
    """Another worker shares only the database: its write bumps the version there."""
    slug = (await create(client, "demo", {"title": "Lunch", "names": ["A"]}))["slug"]
    assert "pie" not in await text_of(client, f"/s/{slug}")

    def elsewhere() -> None:
        instance = Instance.get(Instance.slug == slug)
        demo_plugin.Note.create(instance=instance, text="pie")
        changed(instance)

    client.app.config["GROUPKIT_STORAGE"].run_sync(elsewhere)
    assert "pie" in await text_of(client, f"/s/{slug}")
    assert "pie" in await text_of(client, f"/api/demo/{slug}")


async def test_what_a_prune_removes_leaves_every_cached_page(client: Any,
                                                            clock: FakeClock) -> None:
    slug = (await create(client, "demo", {"title": "Lunch", "names": ["A"]}))["slug"]
    await note(client, slug, "stale soup")
    assert "stale soup" in await text_of(client, f"/s/{slug}")
    clock.advance(days=demo_plugin.KEEP_DAYS + 1)
    prune_all(client.app.config["GROUPKIT_STORAGE"], client.app.config["GROUPKIT_TOOLS"],
              clock())
    assert "stale soup" not in await text_of(client, f"/s/{slug}")


async def test_pages_for_different_links_and_queries_are_kept_apart(client: Any) -> None:
    made = await create(client, "demo", {"title": "Lunch", "names": ["A"]})
    public = await text_of(client, f"/s/{made['slug']}")
    organiser = await text_of(client, f"/e/{made['editToken']}")
    assert made["editToken"] not in public and made["editToken"] in organiser
    fresh = await text_of(client, f"/e/{made['editToken']}?new=1")
    assert fresh != organiser
    assert await text_of(client, f"/e/{made['editToken']}") == organiser


async def test_a_participant_page_is_never_anyone_elses(client: Any) -> None:
    slug = (await create(client, "demo", {"title": "Lunch", "names": ["A"]}))["slug"]
    tokens = {}
    for name in ("Alice", "Bob"):
        joined = await client.post("/api/demo/join", json={"slug": slug, "text": name})
        tokens[name] = (await joined.get_json())["token"]
    for _ in range(2):
        for name, token in tokens.items():
            page = await text_of(client, f"/p/{token}")
            other = "Bob" if name == "Alice" else "Alice"
            assert f"Hello {name}" in page and other not in page
            response = await client.get(f"/p/{token}")
            assert response.headers["Cache-Control"] == "no-store"


# --- time -----------------------------------------------------------------------------------

def _stamp_view(instance: Instance) -> dict[str, Any]:
    return {"day": request_time().date().isoformat()}


class _Empty(Schema):
    """A create body with no fields: these tools need none."""


def _clock_tool(name: str, declared: bool, templates: Path) -> object:
    for page in ("create", "public", "organiser"):
        (templates / name).mkdir(parents=True, exist_ok=True)
        (templates / name / f"{page}.html").write_text(
            '{% extends "groupkit/base.html" %}{% block content %}{{ view }}{% endblock %}')

    def groupkit_tool() -> Tool:
        return Tool(name=name, title=name, version="1", create_schema=_Empty,
                    create=lambda instance, data: None, public_view=_stamp_view,
                    organiser_view=_stamp_view, operations=Operations(), templates=templates,
                    view_time=(lambda instance, now: now.date()) if declared else None,
                    plugin_api=(1, 1))

    return type(f"{name.title()}Plugin", (), {"groupkit_tool": staticmethod(
        hookimpl(groupkit_tool))})


async def test_views_that_read_the_clock_follow_the_day(make_app: Any, clock: FakeClock,
                                                        tmp_path: Path) -> None:
    plugins = [_clock_tool("daily", True, tmp_path), _clock_tool("undeclared", False, tmp_path)]
    app = make_app(tools=["daily", "undeclared"], entry_points=False, clock=clock,
                   extra_plugins=plugins)
    client = app.test_client()
    for tool in ("daily", "undeclared"):
        clock.now = dt.datetime(2026, 11, 22, 23, 59, tzinfo=dt.UTC)
        slug = (await create(client, tool, {}))["slug"]
        assert await (await client.get(f"/api/{tool}/{slug}")).get_json() == {
            "day": "2026-11-22"}
        assert await (await client.get(f"/api/{tool}/{slug}")).get_json() == {
            "day": "2026-11-22"}
        clock.advance(minutes=2)  # a new day, and no write at all
        assert await (await client.get(f"/api/{tool}/{slug}")).get_json() == {
            "day": "2026-11-23"}
        assert "2026-11-23" in await text_of(client, f"/s/{slug}")
    cache = app.config["GROUPKIT_RENDERED"]
    assert ("undeclared", "json:public") in cache.clock_bound
    assert ("daily", "json:public") not in cache.clock_bound


# --- answered from memory -------------------------------------------------------------------

ELSEWHERE = """
import sys
from groupkit.core._storage import open_database
db = open_database(sys.argv[1], 1)
db.connect()
with db.atomic():
    db.execute_sql(sys.argv[2].replace("?", db.param), (sys.argv[3],))
db.close()
"""


def _in_another_process(client: Any, sql: str, slug: str) -> None:
    url = client.app.config["GROUPKIT_SETTINGS"].database_url
    subprocess.run([sys.executable, "-c", ELSEWHERE, url, sql, slug], check=True)


async def test_another_process_writing_to_the_database_is_seen_at_once(client: Any) -> None:
    """Nothing but the database is shared: a title changed, then the instance deleted, by a
    process of its own, each seen by the very next request for every cached view."""
    made = await create(client, "demo", {"title": "Lunch", "names": ["A"]})
    slug = made["slug"]
    paths = [f"/s/{slug}", f"/e/{made['editToken']}", f"/api/demo/{slug}"]
    for _ in range(2):
        for path in paths:
            assert "Supper" not in await text_of(client, path)
    _in_another_process(client, "UPDATE instance SET title = 'Supper', version = version + 1 "
                                "WHERE slug = ?", slug)
    for path in paths:
        assert "Supper" in await text_of(client, path)
    _in_another_process(client, "DELETE FROM instance WHERE slug = ?", slug)
    for path in paths:
        await text_of(client, path, 404)


async def test_a_cached_read_takes_no_database_trip(client: Any) -> None:
    """SQLite's change counter, or PostgreSQL's notifications, stand in for the query: a
    cached page, organiser page or public JSON sends not one statement to the database, and
    takes no database thread; any write sends reads back to the database."""
    made = await create(client, "demo", {"title": "Lunch", "names": ["A"]})
    slug = made["slug"]
    paths = [f"/s/{slug}", f"/e/{made['editToken']}", f"/api/demo/{slug}"]
    storage = client.app.config["GROUPKIT_STORAGE"]
    if storage.postgres:
        await asyncio.wait_for(notices(storage).listening.wait(), 30)
    for path in paths:
        await text_of(client, path)
    trips: list[object] = []
    read = storage.read

    async def counted(fn: Any, *args: Any) -> Any:
        trips.append(fn)
        return await read(fn, *args)

    storage.read = counted
    with statements_of(storage.db) as sent:
        for path in paths:
            await text_of(client, path)
    assert trips == [] and sent == []
    await note(client, slug, "soup")
    for path in paths:
        assert "soup" in await text_of(client, path)
    assert len(trips) >= len(paths)


async def test_a_link_is_only_ever_answered_by_its_own_tool(make_app: Any, clock: FakeClock,
                                                             tmp_path: Path) -> None:
    """What a slug resolved to for one tool's JSON is never remembered for another's."""
    app = make_app(tools=["demo", "daily"], entry_points=False, clock=clock,
                   extra_plugins=[demo_plugin, _clock_tool("daily", True, tmp_path)])
    client = app.test_client()
    slug = (await create(client, "demo", {"title": "Lunch", "names": ["A"]}))["slug"]
    for _ in range(2):
        assert "Lunch" in await text_of(client, f"/api/demo/{slug}")
    await text_of(client, f"/api/daily/{slug}", 404)
    daily = (await create(client, "daily", {}))["slug"]
    await text_of(client, f"/api/daily/{daily}")
    await text_of(client, f"/api/demo/{daily}", 404)


async def test_if_none_match_is_read_as_http_says(client: Any) -> None:
    """A list of tags holding ours, and `*`, match; another tag, or none, does not."""
    slug = (await create(client, "demo", {"title": "Lunch", "names": ["A"]}))["slug"]
    for path in (f"/s/{slug}", f"/api/demo/{slug}"):
        etag = (await client.get(path)).headers["ETag"]
        assert etag.startswith('"') and etag.endswith('"')
        for given, status in ((f'"other", {etag}', 304), ("*", 304),
                              ('"other"', 200), ("", 200)):
            response = await client.get(path, headers={"If-None-Match": given})
            assert response.status_code == status, (path, given)
            assert response.headers["ETag"] == etag
