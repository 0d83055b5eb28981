"""Fifty people claim the same Bring a Plate spot at once, against two server workers:
exactly one wins, everyone else is told the spot was snapped up, and the board shows the
winner; the server's log shows the claims in it at the same time (tests/races/conftest.py;
test_unlocked_control.py shows this harness letting several win an unlocked path). On
SQLite always, on PostgreSQL when $GROUPKIT_TEST_POSTGRES_URL is set."""

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
ROUNDS = 3
TAKEN = "Someone snapped that spot up seconds ago — pick another."


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    # Rounds of 50 claims from one address would soon meet the 240 POSTs an hour limit.
    return live_server(workers=2, database=request.param,
                       limits={"post_per_hour": 100_000})


def spot(board: dict[str, Any], slot_id: str) -> dict[str, Any]:
    found = [spot for category in board["categories"] for spot in category["spots"]
             if spot["slotId"] == slot_id]
    assert len(found) == 1, (slot_id, board)
    return found[0]


async def claim_all(client: httpx.AsyncClient, slug: str, slot_id: str, watch: Any
                    ) -> list[tuple[str, httpx.Response]]:
    """Every claim released at once; `watch` (the `overlap` fixture's) times the race."""
    start = asyncio.Event()

    async def claim(i: int) -> tuple[str, httpx.Response]:
        name = f"Claimer {i:02d}"
        await start.wait()
        response = await client.post("/api/plate/claim", json={
            "slug": slug, "slotId": slot_id, "name": name, "dish": f"Dish {i}"})
        return name, response

    tasks = [asyncio.create_task(claim(i)) for i in range(CLAIMERS)]
    await asyncio.sleep(0)  # every task is waiting on the start line
    with watch.race():
        start.set()
        return await asyncio.gather(*tasks)


@pytest.mark.parametrize("round_number", range(1, ROUNDS + 1))
async def test_fifty_claims_one_winner(race_server: Any, round_number: int,
                                       overlap: Callable[..., Any]) -> None:
    limits = httpx.Limits(max_connections=CLAIMERS, max_keepalive_connections=0)
    async with race_server.async_client(limits=limits) as client:
        created = await client.post("/api/plate", json={
            "title": f"Race {round_number}",
            "categories": [{"name": "Mains", "capacity": 3}, {"name": "Sweets", "capacity": 2}]})
        assert created.status_code == 201, created.text
        slug = created.json()["slug"]
        slot_id = ("c0-1", "c1-2", "c0-3")[round_number - 1]

        watch = overlap(race_server, "POST", "/api/plate/claim")
        results = await claim_all(client, slug, slot_id, watch)
        watch.assert_overlapped(CLAIMERS)  # the claims were in the server together

        statuses = Counter(response.status_code for _, response in results)
        assert statuses == {201: 1, 409: CLAIMERS - 1}, statuses
        winners = [(name, response.json()) for name, response in results
                   if response.status_code == 201]
        (winner, reply), = winners
        assert set(reply) == {"secret"} and len(reply["secret"]) == 16
        for _, response in results:
            if response.status_code == 409:
                assert response.json() == {"error": TAKEN}

        board = (await client.get(f"/api/plate/{slug}")).raise_for_status().json()
        taken = spot(board, slot_id)
        assert taken["taken"] is True
        assert taken["name"] == winner
        assert taken["dish"] == f"Dish {int(winner.split()[-1])}"
        others = [s for category in board["categories"] for s in category["spots"]
                  if s["slotId"] != slot_id]
        assert not any(s["taken"] for s in others)
        assert sum(category["taken"] for category in board["categories"]) == 1

        # The winner's secret, and only it, lets the spot go again.
        wrong = await client.post("/api/plate/unclaim", json={
            "slug": slug, "slotId": slot_id, "secret": "x" * 16})
        assert wrong.status_code == 404
        released = await client.post("/api/plate/unclaim", json={
            "slug": slug, "slotId": slot_id, "secret": reply["secret"]})
        assert released.status_code == 200, released.text
        board = (await client.get(f"/api/plate/{slug}")).raise_for_status().json()
        assert spot(board, slot_id)["taken"] is False
