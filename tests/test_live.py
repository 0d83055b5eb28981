"""Live updates against a real two-worker server: a change made through one connection
reaches an event stream held open on another within a second, on SQLite (version polling)
and on PostgreSQL (LISTEN/NOTIFY); deleting the instance ends the stream with `gone`."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from groupkit.core._parts import changed_parts
from groupkit.core._parts import snapshot
from groupkit_testing import server_backends

pytestmark = pytest.mark.server

BOARD = {"title": "Live lunch", "categories": [{"name": "Mains", "capacity": 3}]}


@pytest.fixture(scope="module", params=server_backends())
def server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    return live_server(workers=2, database=request.param)


async def events(client: httpx.AsyncClient, path: str) -> AsyncIterator[tuple[str, str]]:
    """(event, data) pairs of one SSE stream."""
    async with client.stream("GET", path) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        name, data = "message", ""
        async for line in response.aiter_lines():
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                value = line[6:] if line.startswith("data: ") else line[5:]
                data = f"{data}\n{value}" if data else value
            elif line == "" and data:
                yield name, data
                name, data = "message", ""


def same_lines(one: str, other: str) -> bool:
    """Equal but for line breaks (an event's data has its lines split and rejoined)."""
    def lines(text: str) -> list[str]:
        return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines(one) == lines(other)


async def next_event(stream: AsyncIterator[tuple[str, str]]) -> tuple[str, str]:
    return await asyncio.wait_for(anext(stream), 5)


async def watched_board(watcher: httpx.AsyncClient, actor: httpx.AsyncClient, query: str = ""
                        ) -> tuple[dict[str, str], AsyncIterator[tuple[str, str]]]:
    """A fresh board made by `actor`, and `watcher`'s stream of it (first event read)."""
    created = (await actor.post("/api/plate", json=BOARD)).json()
    stream = events(watcher, f"/api/plate/{created['slug']}/events{query}")
    assert await next_event(stream) == ("version", "0")
    return created, stream


async def test_a_claim_reaches_an_open_stream_within_a_second(server: Any) -> None:
    # Separate connections, so with two workers the stream and the writes are often served
    # by different processes; the test runs several changes to cross over both ways.
    async with server.async_client() as watcher, server.async_client() as actor:
        created, stream = await watched_board(watcher, actor)
        slug = created["slug"]
        for number in range(1, 4):
            started = time.monotonic()
            claimed = await actor.post("/api/plate/claim", json={
                "slug": slug, "slotId": f"c0-{number}", "name": f"Cook {number}",
                "dish": "Soup"})
            assert claimed.status_code == 201
            assert await next_event(stream) == ("version", str(number))
            assert time.monotonic() - started < 1.0
        started = time.monotonic()
        deleted = await actor.post(f"/api/plate/{created['editToken']}/delete")
        assert deleted.status_code == 200
        assert await next_event(stream) == ("gone", "{}")
        assert time.monotonic() - started < 1.0


async def test_a_failed_write_changes_nothing_and_unknown_slugs_are_the_usual_404(
        server: Any) -> None:
    async with server.async_client() as client:
        slug = (await client.post("/api/plate", json=BOARD)).json()["slug"]
        refused = await client.post("/api/plate/claim", json={"slug": slug, "slotId": "c9-9",
                                                               "name": "A", "dish": "B"})
        assert refused.status_code == 400
        stream = events(client, f"/api/plate/{slug}/events")
        assert await next_event(stream) == ("version", "0")
        missing = await client.get(f"/api/plate/{slug[:-3]}zzz/events")
        assert missing.status_code == 404
        assert missing.json() == {"error": "Nothing here — check the link you were given."}
        wrong_tool = await client.get(f"/api/sweeps/{slug}/events")
        assert wrong_tool.status_code == 404


async def test_pages_cached_in_each_worker_are_never_stale_after_a_write_elsewhere(
        server: Any) -> None:
    # Many connections, so both workers serve (and cache) the page and the JSON; each change
    # is made through yet another connection, often by the other worker.
    async with server.async_client() as actor:
        created = (await actor.post("/api/plate", json=BOARD)).json()
        slug = created["slug"]
        readers = [server.async_client() for _ in range(6)]
        try:
            for number in range(1, 4):
                for reader in readers:
                    page = await reader.get(f"/s/{slug}")
                    assert f"Cook {number}" not in page.text
                claimed = await actor.post("/api/plate/claim", json={
                    "slug": slug, "slotId": f"c0-{number}", "name": f"Cook {number}",
                    "dish": "Soup"})
                assert claimed.status_code == 201
                for reader in readers:
                    page = await reader.get(f"/s/{slug}")
                    assert f"Cook {number}" in page.text
                    board = (await reader.get(f"/api/plate/{slug}")).text
                    assert f"Cook {number}" in board
            assert (await actor.post(f"/api/plate/{created['editToken']}/delete")).status_code \
                == 200
            for reader in readers:
                assert (await reader.get(f"/s/{slug}")).status_code == 404
                assert (await reader.get(f"/api/plate/{slug}")).status_code == 404
        finally:
            for reader in readers:
                await reader.aclose()


def from_address(server: Any, address: str) -> httpx.AsyncClient:
    return server.async_client(transport=httpx.AsyncHTTPTransport(local_address=address))


async def test_one_client_is_refused_beyond_its_stream_cap_while_others_are_served(
        live_server: Callable[..., Any]) -> None:
    capped = live_server(workers=1, limits={"streams_per_client": 3})
    async with from_address(capped, "127.0.0.1") as greedy, \
            from_address(capped, "127.0.0.2") as other:
        slug = (await greedy.post("/api/plate", json=BOARD)).json()["slug"]
        held = [events(greedy, f"/api/plate/{slug}/events") for _ in range(3)]
        for stream in held:
            assert await next_event(stream) == ("version", "0")
        refused = await greedy.get(f"/api/plate/{slug}/events")
        assert refused.status_code == 429
        assert refused.json() == {
            "error": "Too many live pages open from this connection — close a few and try "
                     "again."}
        assert refused.headers["Retry-After"]
        assert (await greedy.get(f"/s/{slug}")).status_code == 200  # pages still served
        stream = events(other, f"/api/plate/{slug}/events")
        assert await next_event(stream) == ("version", "0")
        await stream.aclose()
        # A stream that ends gives its place back.
        await held.pop().aclose()
        await asyncio.sleep(0.3)
        again = events(greedy, f"/api/plate/{slug}/events")
        assert await next_event(again) == ("version", "0")
        for open_stream in [*held, again]:
            await open_stream.aclose()


async def test_a_public_page_stream_carries_the_changed_parts(server: Any) -> None:
    """The first change sends every live region whole, as a visitor fetching the page now
    would see it; the next sends only what changed: the claimed spot's row and the counts."""
    async with server.async_client() as watcher, server.async_client() as actor:
        created, stream = await watched_board(watcher, actor, "?page=public")
        slug = created["slug"]
        claimed = await actor.post("/api/plate/claim", json={
            "slug": slug, "slotId": "c0-1", "name": "Cook <b>", "dish": "Soup"})
        assert claimed.status_code == 201
        name, data = await next_event(stream)
        assert name == "parts"
        version, html = data.split("\n", 1)
        assert version == "1"
        assert "Cook &lt;b&gt;" in html and "Cook <b>" not in html
        first = snapshot(1, (await actor.get(f"/s/{slug}")).text)
        assert same_lines(html, "\n".join(first.outer(r) for r in first.regions))

        claimed = await actor.post("/api/plate/claim", json={
            "slug": slug, "slotId": "c0-3", "name": "Ann", "dish": "Pie"})
        assert claimed.status_code == 201
        name, data = await next_event(stream)
        version, html = data.split("\n", 1)
        assert (name, version) == ("parts", "2")
        second = snapshot(2, (await actor.get(f"/s/{slug}")).text)
        assert same_lines(html, "\n".join(changed_parts(first, second)))
        assert 'id="spot-c0-3"' in html and "Ann" in html and "2 of 3 taken" in html
        assert 'id="spot-c0-1"' not in html and 'id="spot-c0-2"' not in html
        assert len(html) * 4 < len(second.html)
        deleted = await actor.post(f"/api/plate/{created['editToken']}/delete")
        assert deleted.status_code == 200
        assert await next_event(stream) == ("gone", "{}")
