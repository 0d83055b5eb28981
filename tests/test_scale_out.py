"""Scale-out is real: two separate `groupkit serve` processes on different loopback ports
share one database (PostgreSQL, as across hosts; and SQLite, as on one host) and behave as
one service. A claim race split across both has one
winner; the create limit counts across both (20, then 429); a change made through one
reaches a live-update stream held open on the other."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

CLAIMERS = 50
LIMITS = {"create_per_hour": 20, "post_per_hour": 100_000}
BOARD = {"title": "Two hosts", "categories": [{"name": "Mains", "capacity": 2}]}


@pytest.fixture(scope="module", params=server_backends())
def pair(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> tuple[Any, Any]:
    # Chat webhooks off: production starts with them only given a base_url.
    first = live_server(database=request.param, mode="production", limits=LIMITS,
                        webhooks={"hosts": []}, wait=False)
    second = live_server(database=first, mode="production", limits=LIMITS,
                         webhooks={"hosts": []}, wait=False)
    return first.wait(), second.wait()


async def test_a_claim_race_split_across_two_servers_has_one_winner(pair: tuple[Any, Any]
                                                                     ) -> None:
    first, second = pair
    limits = httpx.Limits(max_connections=CLAIMERS, max_keepalive_connections=0)
    async with first.async_client(limits=limits) as one, \
            second.async_client(limits=limits) as two:
        slug = (await one.post("/api/plate", json=BOARD)).json()["slug"]
        start = asyncio.Event()

        async def claim(i: int) -> httpx.Response:
            await start.wait()
            return await (one if i % 2 else two).post("/api/plate/claim", json={
                "slug": slug, "slotId": "c0-1", "name": f"Cook {i}", "dish": "Pie"})

        tasks = [asyncio.create_task(claim(i)) for i in range(CLAIMERS)]
        await asyncio.sleep(0)
        start.set()
        responses = await asyncio.gather(*tasks)
        assert Counter(r.status_code for r in responses) == {201: 1, 409: CLAIMERS - 1}
        winner = next(i for i, r in enumerate(responses) if r.status_code == 201)
        for client in (one, two):
            board = (await client.get(f"/api/plate/{slug}")).json()
            spot = board["categories"][0]["spots"][0]
            assert spot["taken"] and spot["name"] == f"Cook {winner}"


async def test_the_create_limit_counts_across_both_servers(pair: tuple[Any, Any],
                                                          same_clock_hour: None) -> None:
    first, second = pair
    # From an address no other test uses, so the hour's count starts at zero.
    fresh = {"transport": httpx.AsyncHTTPTransport(local_address="127.0.0.7")}
    again = {"transport": httpx.AsyncHTTPTransport(local_address="127.0.0.7")}
    async with first.async_client(**fresh) as one, second.async_client(**again) as two:
        statuses = []
        for i in range(25):
            response = await (one if i % 2 else two).post("/api/sweeps", json={
                "outcomes": ["A", "B"], "names": ["X", "Y"]})
            statuses.append(response.status_code)
        assert statuses[:20] == [201] * 20 and statuses[20:] == [429] * 5


async def test_a_change_through_one_server_reaches_a_stream_on_the_other(
        pair: tuple[Any, Any]) -> None:
    first, second = pair
    async with first.async_client() as one, second.async_client() as two:
        created = await two.post("/api/plate", json=BOARD)
        slug = created.json()["slug"]
        async with one.stream("GET", f"/api/plate/{slug}/events") as stream:
            lines = stream.aiter_lines()

            async def next_data() -> str:
                while True:
                    line = await asyncio.wait_for(anext(lines), 5)
                    if line.startswith("data:"):
                        return line[5:].strip()

            assert await next_data() == "0"
            claimed = await two.post("/api/plate/claim", json={
                "slug": slug, "slotId": "c0-2", "name": "Bo", "dish": "Soup"})
            assert claimed.status_code == 201
            assert await asyncio.wait_for(next_data(), 1.0) == "1"


async def test_two_edits_racing_from_one_version_one_wins_one_hears(pair: tuple[Any, Any]
                                                                     ) -> None:
    """Two organiser tabs save the same field from the same version through different
    servers at once: one is applied, the other is a 409 naming both values, never a silent
    overwrite (the edit stamps are read under the instance's lock)."""
    first, second = pair
    async with first.async_client() as one, second.async_client() as two:
        made = (await one.post("/api/card", json={"recipient": "Margret"})).json()
        token = made["editToken"]
        base = (await one.post(f"/api/card/{token}/export")).headers["ETag"]
        start = asyncio.Event()

        async def save(client: httpx.AsyncClient, name: str) -> httpx.Response:
            await start.wait()
            return await client.post(f"/api/card/{token}/edit", json={"recipient": name},
                                     headers={"If-Match": base})

        tasks = [asyncio.create_task(save(one, "Margaret")),
                 asyncio.create_task(save(two, "Maggie"))]
        await asyncio.sleep(0)
        start.set()
        answers = await asyncio.gather(*tasks)
        assert sorted(a.status_code for a in answers) == [200, 409]
        won = "Margaret" if answers[0].status_code == 200 else "Maggie"
        lost = next(a for a in answers if a.status_code == 409).json()
        assert lost["conflicts"][0]["theirs"] == won
        assert (await two.get(f"/api/card/{made['slug']}")).json()["recipient"] == won
