"""The 300-guess cap under fire: a Baby Guess Pool a few guesses short of full takes fifty
guesses at once, against two server workers. Exactly the guesses that fit get in, everyone
else is told the pool is chockers, and the database holds exactly 300 rows. On SQLite always,
on PostgreSQL when $GROUPKIT_TEST_POSTGRES_URL is set."""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

CAP = 300
RACERS = 50
FULL = "This pool's chockers — that's the limit on guesses."
#: Guesses already in before the race: the race decides the last 30, 15 and 1 places.
ALREADY_IN = {1: 270, 2: 285, 3: 299}


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    # Hundreds of guesses from one address would soon meet the 240 POSTs an hour limit.
    return live_server(workers=2, database=request.param, tools=("baby",),
                       limits={"post_per_hour": 100_000})


def stored_guesses(server: Any, slug: str) -> int:
    """Rows in the guess table for this pool, read straight from the server's database."""
    query = ("SELECT COUNT(*) FROM baby_guess JOIN instance "
             "ON baby_guess.instance_id = instance.id WHERE instance.slug = {}")
    if server.backend == "sqlite":
        path = server.database_url.removeprefix("sqlite:///")
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            return int(conn.execute(query.format("?"), (slug,)).fetchone()[0])
    import psycopg2

    conn = psycopg2.connect(server.database_url)
    try:
        with conn.cursor() as cursor:
            cursor.execute(query.format("%s"), (slug,))
            return int(cursor.fetchone()[0])
    finally:
        conn.close()


def body(slug: str, name: str, n: int) -> dict[str, Any]:
    day = dt.date.today() + dt.timedelta(days=30 + n % 200)
    return {"slug": slug, "guesser": name, "date": day.isoformat(), "weightGrams": 2500 + n}


def fill(server: Any, slug: str, count: int) -> None:
    replies = server.post_many("/api/baby/guess", [
        body(slug, f"Early {n}", n) for n in range(count)])
    assert {status for status, _ in replies} == {201}, replies[:3]


@pytest.mark.parametrize("round_number", sorted(ALREADY_IN))
async def test_fifty_guesses_at_the_edge_of_the_cap(race_server: Any, overlap: Callable[..., Any],
                                                    round_number: int) -> None:
    already = ALREADY_IN[round_number]
    places = CAP - already
    limits = httpx.Limits(max_connections=RACERS, max_keepalive_connections=0)
    async with race_server.async_client(limits=limits) as client:
        created = await client.post("/api/baby", json={"parents": f"Race {round_number}"})
        assert created.status_code == 201, created.text
        slug, edit = created.json()["slug"], created.json()["editToken"]
        fill(race_server, slug, already)
        assert stored_guesses(race_server, slug) == already

        start = asyncio.Event()

        async def racer(i: int) -> tuple[str, httpx.Response]:
            name = f"Racer {i:02d}"
            await start.wait()
            return name, await client.post("/api/baby/guess",
                                           json=body(slug, name, 1000 + i))

        tasks = [asyncio.create_task(racer(i)) for i in range(RACERS)]
        await asyncio.sleep(0)
        watch = overlap(race_server, "POST", "/api/baby/guess")
        with watch.race():
            start.set()
            results = await asyncio.gather(*tasks)
        watch.assert_overlapped(RACERS)

        statuses = Counter(response.status_code for _, response in results)
        assert statuses == {201: places, 409: RACERS - places}, statuses
        winners = {name: response.json() for name, response in results
                   if response.status_code == 201}
        for _, response in results:
            if response.status_code == 409:
                assert response.json() == {"error": FULL}
        assert all(len(reply["token"]) == 22 for reply in winners.values())
        assert len({reply["token"] for reply in winners.values()}) == places

        # What is stored: exactly 300 rows, the winners among them, nobody else.
        assert stored_guesses(race_server, slug) == CAP
        pool = (await client.get(f"/api/baby/{slug}")).raise_for_status().json()
        assert pool["guessCount"] == CAP and len(pool["guesses"]) == CAP
        assert len({guess["id"] for guess in pool["guesses"]}) == CAP
        racers_in = {guess["guesser"]: guess["id"] for guess in pool["guesses"]
                     if guess["guesser"].startswith("Racer")}
        assert racers_in == {name: reply["id"] for name, reply in winners.items()}

        # Still full afterwards; a winner's token makes room for exactly one more.
        late = await client.post("/api/baby/guess", json=body(slug, "Late", 7))
        assert late.status_code == 409
        token = next(iter(winners.values()))["token"]
        removed = await client.post(f"/api/baby/g/{token}/remove")
        assert removed.status_code == 200, removed.text
        assert stored_guesses(race_server, slug) == CAP - 1
        export = await client.post(f"/api/baby/{edit}/export")
        assert len(export.json()["data"]["guesses"]) == CAP - 1
