"""Scrum Poker's 60-voter cap under fire, against two server workers: many people join one
board at once, right at the edge of the cap, and the board never holds a 61st voter. The
stored rows are read straight from the database afterwards. On SQLite always, on PostgreSQL
when $GROUPKIT_TEST_POSTGRES_URL is set."""

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

MAX_VOTERS = 60
FULL = "Sixty voters is the limit for one game."
SAME_NAME = "Someone's already in with that name — add a surname initial."


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    # Rounds of many joins from one address would soon meet the 240 POSTs an hour limit.
    return live_server(workers=2, database=request.param, tools=["poker"],
                       limits={"post_per_hour": 100_000})


def stored(server: Any, sql: str, slug: str) -> list[tuple[Any, ...]]:
    """Rows the server wrote, read from its database directly (`?` marks the slug)."""
    if server.backend == "sqlite":
        path = server.database_url.removeprefix("sqlite:///")
        with sqlite3.connect(path) as conn:
            return list(conn.execute(sql, (slug,)).fetchall())
    import psycopg2

    conn = psycopg2.connect(server.database_url)
    try:
        with conn.cursor() as cursor:
            cursor.execute(sql.replace("?", "%s"), (slug,))
            return list(cursor.fetchall())
    finally:
        conn.close()


VOTER_NAMES = ("SELECT v.name FROM poker_voter v JOIN instance i ON v.instance_id = i.id "
               "WHERE i.slug = ? ORDER BY v.name")
VOTER_TOKENS = ("SELECT c.ref FROM credential c JOIN instance i ON c.instance_id = i.id "
                "WHERE i.slug = ? AND c.kind = 'voter'")


async def all_at_once(client: httpx.AsyncClient, slug: str, names: list[str],
                      watch: Any = None) -> list[tuple[str, httpx.Response]]:
    start = asyncio.Event()

    async def join(name: str) -> tuple[str, httpx.Response]:
        await start.wait()
        response = await client.post("/api/poker/join", json={"slug": slug, "name": name})
        return name, response

    tasks = [asyncio.create_task(join(name)) for name in names]
    await asyncio.sleep(0)  # every task is waiting on the start line
    with watch.race() if watch is not None else contextlib.nullcontext():
        start.set()
        return await asyncio.gather(*tasks)


@pytest.mark.parametrize(("seated", "joining"), [(35, 50), (59, 50), (0, 61), (10, 60)])
async def test_the_cap_holds_at_the_edge(race_server: Any, seated: int, joining: int,
                                         overlap: Callable[..., Any]) -> None:
    limits = httpx.Limits(max_connections=joining, max_keepalive_connections=0)
    async with race_server.async_client(limits=limits) as client:
        created = await client.post("/api/poker", json={"team": f"Race {seated}"})
        assert created.status_code == 201, created.text
        slug, edit = created.json()["slug"], created.json()["editToken"]
        for number in range(seated):
            response = await client.post("/api/poker/join",
                                         json={"slug": slug, "name": f"Seated {number}"})
            assert response.status_code == 201, response.text

        names = [f"Racer {number:02d}" for number in range(joining)]
        watch = overlap(race_server, "POST", "/api/poker/join")
        results = await all_at_once(client, slug, names, watch)
        watch.assert_overlapped(len(names))

        room = MAX_VOTERS - seated
        statuses = Counter(response.status_code for _, response in results)
        assert statuses == ({201: room, 409: joining - room} if joining > room
                            else {201: joining}), statuses
        for _, response in results:
            if response.status_code == 409:
                assert response.json() == {"error": FULL}
        winners = sorted(name for name, response in results if response.status_code == 201)

        # The database holds exactly the seated and the winners, each with one token.
        expected = sorted([f"Seated {n}" for n in range(seated)] + winners)
        assert [row[0] for row in stored(race_server, VOTER_NAMES, slug)] == expected
        assert len(stored(race_server, VOTER_TOKENS, slug)) == len(expected) <= MAX_VOTERS
        board = (await client.get(f"/api/poker/{slug}")).raise_for_status().json()
        assert sorted(voter["name"] for voter in board["voters"]) == expected

        # Every winner's token votes, all at once too, and the reveal counts every card.
        tokens = [response.json()["token"] for _, response in results
                  if response.status_code == 201]
        votes = await asyncio.gather(*(client.post(f"/api/poker/v/{token}/vote",
                                                   json={"card": "5"}) for token in tokens))
        assert all(vote.status_code == 200 for vote in votes)
        revealed = (await client.post(f"/api/poker/{edit}/reveal")).json()
        assert revealed["summary"]["votes"] == len(tokens)


async def test_one_name_joined_by_fifty_at_once(race_server: Any) -> None:
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=0)
    async with race_server.async_client(limits=limits) as client:
        slug = (await client.post("/api/poker", json={"team": "Same name"})).json()["slug"]
        results = await all_at_once(client, slug, ["Sam"] * 25 + ["SAM"] * 25)
        statuses = Counter(response.status_code for _, response in results)
        assert statuses == {201: 1, 409: 49}, statuses
        assert all(response.json() == {"error": SAME_NAME} for _, response in results
                   if response.status_code == 409)
        assert len(stored(race_server, VOTER_NAMES, slug)) == 1
        assert len(stored(race_server, VOTER_TOKENS, slug)) == 1
