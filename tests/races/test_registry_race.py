"""Pixel Gift Registry under fire, against two server workers: fifty guests grab the same
part at once (one gets it); sixty grab twenty parts three apiece (each part goes once); fifty
chip in to an overflow patch a few places short of its 400 (exactly the places left are
taken). Stored rows are read straight from the database. On SQLite always, on PostgreSQL when
$GROUPKIT_TEST_POSTGRES_URL is set."""

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

RACERS = 50
CAP = 400
TAKEN = "Someone beat you to that one by a whisker."
FULL = "The overflow patch is chockers — give your gift to the couple directly."
#: Contributions already in before the race: it decides the last 30, 10 and 1 places.
ALREADY_IN = {1: 370, 2: 390, 3: 399}
PART = {1: "p001", 2: "p064", 3: "p126"}


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    return live_server(workers=2, database=request.param, tools=("registry",),
                       limits={"post_per_hour": 100_000})


def stored(server: Any, slug: str, where: str = "TRUE") -> list[tuple[Any, ...]]:
    """(part_id, name, reference, amount_cents) of this registry's claim rows, read straight
    from the server's database."""
    query = ("SELECT part_id, name, reference, amount_cents FROM registry_claim JOIN instance "
             "ON registry_claim.instance_id = instance.id WHERE instance.slug = {} AND "
             + where.replace("TRUE", "1 = 1"))
    if server.backend == "sqlite":
        path = server.database_url.removeprefix("sqlite:///")
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            return list(conn.execute(query.format("?"), (slug,)).fetchall())
    import psycopg2

    conn = psycopg2.connect(server.database_url)
    try:
        with conn.cursor() as cursor:
            cursor.execute(query.format("%s"), (slug,))
            return list(cursor.fetchall())
    finally:
        conn.close()


async def at_once(calls: list[Callable[[], Awaitable[httpx.Response]]],
                  watch: Any = None) -> list[httpx.Response]:
    """Every call released at once; `watch` (the `overlap` fixture's), if given, times it."""
    start = asyncio.Event()

    async def run(call: Callable[[], Awaitable[httpx.Response]]) -> httpx.Response:
        await start.wait()
        return await call()

    tasks = [asyncio.create_task(run(call)) for call in calls]
    await asyncio.sleep(0)
    with watch.race() if watch is not None else contextlib.nullcontext():
        start.set()
        return list(await asyncio.gather(*tasks))


async def new_registry(client: httpx.AsyncClient, round_number: int) -> tuple[str, str]:
    created = await client.post("/api/registry", json={
        "coupleNames": f"Race {round_number}", "payment": {"aliasId": "race@example.com"}})
    assert created.status_code == 201, created.text
    return created.json()["slug"], created.json()["editToken"]


def client_for(server: Any) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=60, max_keepalive_connections=0)
    return server.async_client(limits=limits)  # type: ignore[no-any-return]


@pytest.mark.parametrize("round_number", [1, 2, 3])
async def test_fifty_claims_on_one_part(race_server: Any, round_number: int,
                                        overlap: Callable[..., Any]) -> None:
    part_id = PART[round_number]
    async with client_for(race_server) as client:
        slug, edit = await new_registry(client, round_number)

        def claim(i: int) -> Callable[[], Awaitable[httpx.Response]]:
            return lambda: client.post("/api/registry/claim", json={
                "slug": slug, "partId": part_id, "name": f"Guest {i:02d}"})

        watch = overlap(race_server, "POST", "/api/registry/claim")
        results = await at_once([claim(i) for i in range(RACERS)], watch)
        watch.assert_overlapped(RACERS)
        statuses = Counter(response.status_code for response in results)
        assert statuses == {201: 1, 409: RACERS - 1}, statuses
        (winner,) = [response.json() for response in results if response.status_code == 201]
        assert all(response.json() == {"error": TAKEN} for response in results
                   if response.status_code == 409)
        assert winner["payment"]["aliasId"] == "race@example.com"

        rows = stored(race_server, slug)
        assert len(rows) == 1
        row_part, name, reference, cents = rows[0]
        assert (row_part, reference, cents) == (part_id, winner["reference"],
                                                winner["amountCents"])
        listed = (await client.get(f"/api/registry/{edit}/claims")).json()["claims"]
        assert [(c["partId"], c["name"]) for c in listed] == [(part_id, name)]


@pytest.mark.parametrize("round_number", [1, 2, 3])
async def test_sixty_claims_on_twenty_parts(race_server: Any, round_number: int) -> None:
    parts = [f"p{n:03d}" for n in range(round_number * 20 - 19, round_number * 20 + 1)]
    async with client_for(race_server) as client:
        slug, _ = await new_registry(client, round_number)

        def claim(i: int) -> Callable[[], Awaitable[httpx.Response]]:
            return lambda: client.post("/api/registry/claim", json={
                "slug": slug, "partId": parts[i % 20], "name": f"Guest {i:02d}"})

        results = await at_once([claim(i) for i in range(60)])
        assert Counter(r.status_code for r in results) == {201: 20, 409: 40}
        won = sorted(r.json()["partId"] for r in results if r.status_code == 201)
        assert won == parts
        rows = stored(race_server, slug)
        assert sorted(row[0] for row in rows) == parts
        assert len({row[2] for row in rows}) == 20
        view = (await client.get(f"/api/registry/{slug}")).json()
        assert view["partsClaimed"] == 20


@pytest.mark.parametrize("round_number", sorted(ALREADY_IN))
async def test_fifty_contributions_at_the_edge_of_the_cap(race_server: Any,
                                                          round_number: int) -> None:
    already = ALREADY_IN[round_number]
    places = CAP - already
    async with client_for(race_server) as client:
        slug, edit = await new_registry(client, round_number)
        replies = race_server.post_many("/api/registry/overflow", [
            {"slug": slug, "amountCents": 500, "name": f"Early {n}"} for n in range(already)])
        assert {status for status, _ in replies} == {201}, replies[:3]
        assert len(stored(race_server, slug, "part_id IS NULL")) == already

        def chip_in(i: int) -> Callable[[], Awaitable[httpx.Response]]:
            return lambda: client.post("/api/registry/overflow", json={
                "slug": slug, "amountCents": 1000 + i, "name": f"Racer {i:02d}"})

        results = await at_once([chip_in(i) for i in range(RACERS)])
        statuses = Counter(response.status_code for response in results)
        assert statuses == {201: places, 409: RACERS - places}, statuses
        assert all(response.json() == {"error": FULL} for response in results
                   if response.status_code == 409)
        winners = {r.json()["reference"]: r.json()["amountCents"] for r in results
                   if r.status_code == 201}

        rows = stored(race_server, slug, "part_id IS NULL")
        assert len(rows) == CAP
        racers = {row[2]: row[3] for row in rows if row[1].startswith("Racer")}
        assert racers == winners
        view = (await client.get(f"/api/registry/{slug}")).json()
        assert view["overflow"]["count"] == CAP and view["overflow"]["open"] is False
        # Parts are not limited by the overflow cap.
        part = await client.post("/api/registry/claim", json={
            "slug": slug, "partId": "p002", "name": "Still welcome"})
        assert part.status_code == 201
        listed = (await client.get(f"/api/registry/{edit}/claims")).json()["claims"]
        assert len(listed) == CAP + 1
