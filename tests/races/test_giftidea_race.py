"""Gift Idea Board under concurrent requests against two server workers, on SQLite and
PostgreSQL: the 200-idea cap is never overshot, a hundred simultaneous upvotes land as
exactly a hundred, and an idea is claimed once. Stored rows are read straight from the
database afterwards, not only through the API."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections import Counter
from collections.abc import Awaitable
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

CAP = 200
RACERS = 60
UPVOTES = 100
CLAIMERS = 50
PREFILL_AT_ONCE = 20
FULL = "This board's full — 200 ideas is the limit. Upvote one that's already here."
TAKEN = "Someone's already getting that one."


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    # Each round sends a few hundred POSTs from one address: far past 240 an hour.
    return live_server(workers=2, database=request.param, tools=["giftidea"],
                       limits={"post_per_hour": 100_000})


def rows(server: Any, sql: str, *params: object) -> list[tuple[Any, ...]]:
    """Run a read-only query on the server's own database (`?` placeholders)."""
    if server.backend == "sqlite":
        path = server.database_url.removeprefix("sqlite:///")
        with contextlib.closing(sqlite3.connect(path)) as db:
            return list(db.execute(sql, params).fetchall())
    import psycopg2

    conn = psycopg2.connect(server.database_url)
    try:
        with conn.cursor() as cursor:
            cursor.execute(sql.replace("?", "%s"), params)
            return list(cursor.fetchall())
    finally:
        conn.close()


def stored_ideas(server: Any, slug: str) -> dict[str, int]:
    """Idea id -> votes, as stored for the board with this slug."""
    found = rows(server, "SELECT i.code, i.votes FROM giftidea_idea i "
                         "JOIN instance n ON i.instance_id = n.id WHERE n.slug = ?", slug)
    return {code: votes for code, votes in found}


def stored_claims(server: Any, slug: str) -> list[str]:
    found = rows(server, "SELECT c.name FROM slot_claim c "
                         "JOIN instance n ON c.instance_id = n.id WHERE n.slug = ?", slug)
    return [name for (name,) in found]


async def all_at_once(count: int, send: Callable[[int], Awaitable[httpx.Response]],
                      watch: Any = None) -> list[httpx.Response]:
    """`count` requests released together from a start line; `watch` (the `overlap`
    fixture's), if given, times the race."""
    start = asyncio.Event()

    async def one(i: int) -> httpx.Response:
        await start.wait()
        return await send(i)

    tasks = [asyncio.create_task(one(i)) for i in range(count)]
    await asyncio.sleep(0)
    with watch.race() if watch is not None else contextlib.nullcontext():
        start.set()
        return list(await asyncio.gather(*tasks))


async def new_board(client: httpx.AsyncClient, recipient: str) -> str:
    created = await client.post("/api/giftidea", json={"recipient": recipient})
    assert created.status_code == 201, created.text
    return str(created.json()["slug"])


async def suggest(client: httpx.AsyncClient, slug: str, idea: str) -> httpx.Response:
    return await client.post("/api/giftidea/suggest", json={"slug": slug, "idea": idea})


def async_client(server: Any, connections: int) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=0)
    return server.async_client(limits=limits)  # type: ignore[no-any-return]


@pytest.mark.parametrize("room", [1, 10, 30])
async def test_suggestions_at_the_cap_never_overshoot(race_server: Any, room: int) -> None:
    """With `room` places left, 60 simultaneous suggestions: exactly `room` get in."""
    async with async_client(race_server, RACERS) as client:
        slug = await new_board(client, f"Cap {room}")
        replies = race_server.post_many("/api/giftidea/suggest", [
            {"slug": slug, "idea": f"Early idea {n}"} for n in range(CAP - room)],
            at_once=PREFILL_AT_ONCE)
        assert {status for status, _ in replies} == {201}, replies[:3]
        assert len(stored_ideas(race_server, slug)) == CAP - room

        results = await all_at_once(
            RACERS, lambda i: suggest(client, slug, f"Racing idea {i}"))

        statuses = Counter(response.status_code for response in results)
        assert statuses == {201: room, 409: RACERS - room}, statuses
        for response in results:
            if response.status_code == 409:
                assert response.json() == {"error": FULL}
        winners = {response.json()["id"] for response in results
                   if response.status_code == 201}
        stored = stored_ideas(race_server, slug)
        assert len(stored) == CAP
        assert winners <= set(stored)
        board = (await client.get(f"/api/giftidea/{slug}")).raise_for_status().json()
        assert {idea["id"] for idea in board["ideas"]} == set(stored)
        assert sum(idea["idea"].startswith("Racing idea") for idea in board["ideas"]) == room


@pytest.mark.parametrize("round_number", [1, 2, 3])
async def test_a_hundred_upvotes_land_as_a_hundred(race_server: Any, round_number: int) -> None:
    async with async_client(race_server, UPVOTES) as client:
        slug = await new_board(client, f"Votes {round_number}")
        idea_id = (await suggest(client, slug, "Hiking socks")).raise_for_status().json()["id"]
        other_id = (await suggest(client, slug, "Camp mug")).raise_for_status().json()["id"]

        results = await all_at_once(UPVOTES, lambda i: client.post(
            "/api/giftidea/upvote", json={"slug": slug, "ideaId": idea_id}))

        assert Counter(response.status_code for response in results) == {200: UPVOTES}
        # An atomic increment: each vote saw its own new total, 1 to 100, no two the same.
        assert sorted(response.json()["votes"] for response in results) == list(
            range(1, UPVOTES + 1))
        assert stored_ideas(race_server, slug) == {idea_id: UPVOTES, other_id: 0}
        board = (await client.get(f"/api/giftidea/{slug}")).raise_for_status().json()
        assert [(idea["id"], idea["votes"]) for idea in board["ideas"]] == [
            (idea_id, UPVOTES), (other_id, 0)]


@pytest.mark.parametrize("round_number", [1, 2, 3])
async def test_fifty_claims_one_winner(race_server: Any, round_number: int,
                                       overlap: Callable[..., Any]) -> None:
    async with async_client(race_server, CLAIMERS) as client:
        slug = await new_board(client, f"Claims {round_number}")
        idea_id = (await suggest(client, slug, "Hiking socks")).raise_for_status().json()["id"]

        watch = overlap(race_server, "POST", "/api/giftidea/claim")
        results = await all_at_once(CLAIMERS, lambda i: client.post(
            "/api/giftidea/claim", json={"slug": slug, "ideaId": idea_id,
                                         "name": f"Claimer {i:02d}"}), watch)
        watch.assert_overlapped(CLAIMERS)

        statuses = Counter(response.status_code for response in results)
        assert statuses == {201: 1, 409: CLAIMERS - 1}, statuses
        for response in results:
            if response.status_code == 409:
                assert response.json() == {"error": TAKEN}
        (winner,) = [i for i, response in enumerate(results) if response.status_code == 201]
        assert stored_claims(race_server, slug) == [f"Claimer {winner:02d}"]
        board = (await client.get(f"/api/giftidea/{slug}")).raise_for_status().json()
        assert board["ideas"][0]["claimedBy"] == f"Claimer {winner:02d}"
