"""Hens & Shower Planner spots under contention, against two server workers on SQLite and
PostgreSQL: fifty people claim one spot at once, several rounds; exactly one wins, the rest
are told it was grabbed, and the board shows only the winner."""

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
TAKEN = "Someone grabbed that spot seconds ago — pick another."


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    return live_server(workers=2, database=request.param, limits={"post_per_hour": 100_000})


@pytest.mark.parametrize("slot_id", ["c0-1", "c0-3", "c1-2"])
async def test_fifty_claims_on_one_spot_have_one_winner(race_server: Any, slot_id: str,
                                                        overlap: Callable[..., Any]) -> None:
    limits = httpx.Limits(max_connections=CLAIMERS, max_keepalive_connections=0)
    async with race_server.async_client(limits=limits) as client:
        created = await client.post("/api/hens", json={
            "title": "Race hens", "categories": [{"name": "Food", "capacity": 3},
                                                 {"name": "Games", "capacity": 2}]})
        assert created.status_code == 201, created.text
        slug = created.json()["slug"]
        start = asyncio.Event()

        async def claim(i: int) -> httpx.Response:
            await start.wait()
            return await client.post("/api/hens/claim", json={
                "slug": slug, "slotId": slot_id, "name": f"Guest {i:02d}"})

        tasks = [asyncio.create_task(claim(i)) for i in range(CLAIMERS)]
        await asyncio.sleep(0)
        watch = overlap(race_server, "POST", "/api/hens/claim")
        with watch.race():
            start.set()
            responses = await asyncio.gather(*tasks)
        watch.assert_overlapped(CLAIMERS)
        assert Counter(r.status_code for r in responses) == {201: 1, 409: CLAIMERS - 1}
        assert {r.json()["error"] for r in responses if r.status_code == 409} == {TAKEN}
        winner = next(i for i, r in enumerate(responses) if r.status_code == 201)
        board = (await client.get(f"/api/hens/{slug}")).raise_for_status().json()
        taken = [s for c in board["categories"] for s in c["spots"] if s["taken"]]
        assert [(s["slotId"], s["name"]) for s in taken] == [(slot_id, f"Guest {winner:02d}")]
