"""Fifty volunteers claim the same Volunteer Roster spot at once, against two server workers:
exactly one wins, everyone else is told the shift was grabbed, and the roster, the
coordinator's export and the CSV all show the one winner. On SQLite always, on PostgreSQL
when $GROUPKIT_TEST_POSTGRES_URL is set."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

CLAIMERS = 50
ROUNDS = 3
TAKEN = "Someone just grabbed that shift — pick another."


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    # Rounds of 50 claims from one address would soon meet the 240 POSTs an hour limit.
    return live_server(workers=2, database=request.param, tools=["roster"],
                       limits={"post_per_hour": 100_000})


def spots(roster: dict[str, Any]) -> list[dict[str, Any]]:
    return [spot for shift in roster["shifts"] for spot in shift["spots"]]


async def claim_all(client: httpx.AsyncClient, slug: str, slot_id: str, watch: Any = None
                    ) -> list[tuple[int, httpx.Response]]:
    start = asyncio.Event()

    async def claim(i: int) -> tuple[int, httpx.Response]:
        await start.wait()
        response = await client.post("/api/roster/claim", json={
            "slug": slug, "slotId": slot_id, "name": f"Volunteer {i:02d}",
            "message": f"note {i:02d}"})
        return i, response

    tasks = [asyncio.create_task(claim(i)) for i in range(CLAIMERS)]
    await asyncio.sleep(0)  # every task is waiting on the start line
    with watch.race() if watch is not None else contextlib.nullcontext():
        start.set()
        return await asyncio.gather(*tasks)


@pytest.mark.parametrize("round_number", range(1, ROUNDS + 1))
async def test_fifty_claims_one_winner(race_server: Any, round_number: int,
                                       overlap: Callable[..., Any]) -> None:
    limits = httpx.Limits(max_connections=CLAIMERS, max_keepalive_connections=0)
    async with race_server.async_client(limits=limits) as client:
        created = await client.post("/api/roster", json={
            "title": f"Race {round_number}", "eventDate": "Saturday 14 March 2026",
            "shifts": [{"label": "Setup 7-9am", "capacity": 3},
                       {"label": "Pack down", "capacity": 2}]})
        assert created.status_code == 201, created.text
        slug, edit = created.json()["slug"], created.json()["editToken"]
        slot_id = ("s0-1", "s1-2", "s0-3")[round_number - 1]

        watch = overlap(race_server, "POST", "/api/roster/claim")
        results = await claim_all(client, slug, slot_id, watch)
        watch.assert_overlapped(CLAIMERS)

        statuses = Counter(response.status_code for _, response in results)
        assert statuses == {201: 1, 409: CLAIMERS - 1}, statuses
        (winner, reply), = [(i, response.json()) for i, response in results
                            if response.status_code == 201]
        assert set(reply) == {"secret"} and len(reply["secret"]) == 16
        for _, response in results:
            if response.status_code == 409:
                assert response.json() == {"error": TAKEN}

        roster = (await client.get(f"/api/roster/{slug}")).raise_for_status().json()
        taken = [spot for spot in spots(roster) if spot["taken"]]
        assert taken == [{"slotId": slot_id, "taken": True, "name": f"Volunteer {winner:02d}"}]
        export = (await client.post(f"/api/roster/{edit}/export")).raise_for_status().json()
        (stored,) = [spot for spot in spots(export["data"]) if spot["taken"]]
        assert (stored["slotId"], stored["message"]) == (slot_id, f"note {winner:02d}")
        sheet = (await client.get(f"/api/roster/{edit}/admin")).raise_for_status().text
        rows = list(csv.reader(io.StringIO(sheet, newline="")))[1:]
        assert [row[4] for row in rows if row[4]] == [f"Volunteer {winner:02d}"]

        # The winner's secret, and only it, hands the spot back.
        wrong = await client.post("/api/roster/unclaim", json={
            "slug": slug, "slotId": slot_id, "secret": "x" * 16})
        assert wrong.status_code == 404
        released = await client.post("/api/roster/unclaim", json={
            "slug": slug, "slotId": slot_id, "secret": reply["secret"]})
        assert released.status_code == 200, released.text
        roster = (await client.get(f"/api/roster/{slug}")).raise_for_status().json()
        assert not any(spot["taken"] for spot in spots(roster))


async def test_everyone_claiming_every_spot_fills_each_once(race_server: Any) -> None:
    """Fifty claims spread over five spots, ten per spot: each spot gets exactly one."""
    limits = httpx.Limits(max_connections=CLAIMERS, max_keepalive_connections=0)
    async with race_server.async_client(limits=limits) as client:
        created = await client.post("/api/roster", json={
            "shifts": [{"label": "Setup", "capacity": 3}, {"label": "Pack down", "capacity": 2}]})
        slug = created.raise_for_status().json()["slug"]
        slot_ids = ["s0-1", "s0-2", "s0-3", "s1-1", "s1-2"]
        start = asyncio.Event()

        async def claim(i: int) -> tuple[str, httpx.Response]:
            await start.wait()
            slot_id = slot_ids[i % len(slot_ids)]
            return slot_id, await client.post("/api/roster/claim", json={
                "slug": slug, "slotId": slot_id, "name": f"Volunteer {i:02d}"})

        tasks = [asyncio.create_task(claim(i)) for i in range(CLAIMERS)]
        await asyncio.sleep(0)
        start.set()
        results = await asyncio.gather(*tasks)
        winners = Counter(slot_id for slot_id, response in results
                          if response.status_code == 201)
        assert winners == dict.fromkeys(slot_ids, 1)
        assert Counter(response.status_code for _, response in results) == {
            201: 5, 409: CLAIMERS - 5}
        roster = (await client.get(f"/api/roster/{slug}")).raise_for_status().json()
        assert all(spot["taken"] for spot in spots(roster))
