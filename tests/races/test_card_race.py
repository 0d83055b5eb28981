"""Group Card signers racing for the last places on a card, against two server workers, on
SQLite and PostgreSQL: the 400-message cap is never overshot and every 201 is a stored
message. Stored rows are read straight from the database afterwards."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

CAP = 400
SIGNERS = 60
PREFILL_AT_ONCE = 20
FULL = "This card is chockers — 400 messages is the limit."


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    # Each round sends over 400 POSTs from one address: far past 240 an hour.
    return live_server(workers=2, database=request.param, tools=["card"],
                       limits={"post_per_hour": 100_000})


def stored_messages(server: Any, slug: str) -> dict[str, str]:
    """Message id -> signer, read from the server's own database."""
    sql = ("SELECT m.code, m.name FROM card_message m "
           "JOIN instance n ON m.instance_id = n.id WHERE n.slug = ?")
    if server.backend == "sqlite":
        path = server.database_url.removeprefix("sqlite:///")
        with contextlib.closing(sqlite3.connect(path)) as db:
            return dict(db.execute(sql, (slug,)).fetchall())
    import psycopg2

    conn = psycopg2.connect(server.database_url)
    try:
        with conn.cursor() as cursor:
            cursor.execute(sql.replace("?", "%s"), (slug,))
            return dict(cursor.fetchall())
    finally:
        conn.close()


def signed(slug: str, name: str) -> dict[str, str]:
    return {"slug": slug, "name": name, "message": f"From {name}"}


async def sign(client: httpx.AsyncClient, slug: str, name: str) -> httpx.Response:
    return await client.post("/api/card/sign", json=signed(slug, name))


@pytest.mark.parametrize("room", [1, 10, 30])
async def test_signing_at_the_cap_never_overshoots(race_server: Any, room: int,
                                                   overlap: Callable[..., Any]) -> None:
    """With `room` places left on the card, 60 people sign at the same moment."""
    limits = httpx.Limits(max_connections=SIGNERS, max_keepalive_connections=0)
    async with race_server.async_client(limits=limits) as client:
        created = await client.post("/api/card", json={"recipient": f"Room {room}"})
        assert created.status_code == 201, created.text
        slug = created.json()["slug"]
        replies = race_server.post_many("/api/card/sign", [
            signed(slug, f"Early {n}") for n in range(CAP - room)], at_once=PREFILL_AT_ONCE)
        assert {status for status, _ in replies} == {201}, replies[:3]
        assert len(stored_messages(race_server, slug)) == CAP - room

        start = asyncio.Event()

        async def racer(i: int) -> httpx.Response:
            await start.wait()
            return await sign(client, slug, f"Racer {i:02d}")

        tasks = [asyncio.create_task(racer(i)) for i in range(SIGNERS)]
        await asyncio.sleep(0)
        watch = overlap(race_server, "POST", "/api/card/sign")
        with watch.race():
            start.set()
            results = await asyncio.gather(*tasks)
        watch.assert_overlapped(SIGNERS)

        statuses = Counter(response.status_code for response in results)
        assert statuses == {201: room, 409: SIGNERS - room}, statuses
        for response in results:
            if response.status_code == 409:
                assert response.json() == {"error": FULL}
        stored = stored_messages(race_server, slug)
        assert len(stored) == CAP
        # Every 201 is a stored message under the winner's own name, and no loser got in.
        winners = {response.json()["id"]: f"Racer {i:02d}" for i, response in enumerate(results)
                   if response.status_code == 201}
        assert {code: stored[code] for code in winners} == winners
        assert sum(name.startswith("Racer") for name in stored.values()) == room
        card = (await client.get(f"/api/card/{slug}")).raise_for_status().json()
        assert {message["id"] for message in card["messages"]} == set(stored)
        # Each winner's token is the live handle on its message.
        token = next(response.json()["token"] for response in results
                     if response.status_code == 201)
        removed = await client.post(f"/api/card/m/{token}/remove")
        assert removed.status_code == 200, removed.text
        assert len(stored_messages(race_server, slug)) == CAP - 1
