"""Meal Train under concurrent requests against two server workers: fifty cooks claiming the
same day get one winner, and fifty coordinators' addDays at the 60-day edge never take the
roster past 60 days. On SQLite always, on PostgreSQL when $GROUPKIT_TEST_POSTGRES_URL is
set."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
from collections import Counter
from collections.abc import Awaitable
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

CLIENTS = 50
ROUNDS = 3
DAY_TAKEN = "Someone's already got that day — pick another."
TOO_MANY = "Sixty days is the limit — start a second roster if it runs longer."
START_AFTER = "Start the new days after "


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    return live_server(workers=2, database=request.param, tools=["meal"],
                       limits={"post_per_hour": 100_000})


def iso_days(first: str, count: int) -> list[str]:
    start = dt.date.fromisoformat(first)
    return [(start + dt.timedelta(days=i)).isoformat() for i in range(count)]


async def at_once(requests: list[Callable[[], Awaitable[httpx.Response]]],
                  watch: Any = None) -> list[httpx.Response]:
    """Send every request together, released from one start line; `watch` (the `overlap`
    fixture's), if given, times the race."""
    start = asyncio.Event()

    async def run(send: Callable[[], Awaitable[httpx.Response]]) -> httpx.Response:
        await start.wait()
        return await send()

    tasks = [asyncio.create_task(run(send)) for send in requests]
    await asyncio.sleep(0)
    with watch.race() if watch is not None else contextlib.nullcontext():
        start.set()
        return list(await asyncio.gather(*tasks))


def client_of(server: Any) -> httpx.AsyncClient:
    return server.async_client(limits=httpx.Limits(max_connections=CLIENTS,
                                                   max_keepalive_connections=0))


async def export_of(client: httpx.AsyncClient, edit: str) -> dict[str, Any]:
    response = await client.post(f"/api/meal/{edit}/export")
    return dict(response.raise_for_status().json()["data"])


@pytest.mark.parametrize("round_number", range(1, ROUNDS + 1))
async def test_fifty_cooks_one_day(race_server: Any, round_number: int,
                                   overlap: Callable[..., Any]) -> None:
    async with client_of(race_server) as client:
        created = await client.post("/api/meal", json={
            "forWhom": f"Race {round_number}", "startDate": "2026-03-02", "days": 3,
            "capacityPerDay": 2, "dropoff": "1 Private Rd"})
        made = created.raise_for_status().json()
        slug = made["slug"]
        slot_id = ("d0-1", "d2-2", "d1-1")[round_number - 1]

        def claim(i: int) -> Callable[[], Awaitable[httpx.Response]]:
            return lambda: client.post("/api/meal/claim", json={
                "slug": slug, "slotId": slot_id, "name": f"Cook {i:02d}", "dish": f"Dish {i:02d}"})

        watch = overlap(race_server, "POST", "/api/meal/claim")
        results = await at_once([claim(i) for i in range(CLIENTS)], watch)
        watch.assert_overlapped(CLIENTS)
        assert Counter(r.status_code for r in results) == {201: 1, 409: CLIENTS - 1}
        assert all(r.json() == {"error": DAY_TAKEN} for r in results if r.status_code == 409)
        (winner,) = [i for i, r in enumerate(results) if r.status_code == 201]
        secret = results[winner].json()["secret"]

        board = (await client.get(f"/api/meal/{slug}")).raise_for_status().json()
        taken = [spot for day in board["days"] for spot in day["spots"] if spot["taken"]]
        assert [(s["slotId"], s["name"], s["dish"]) for s in taken] == [
            (slot_id, f"Cook {winner:02d}", f"Dish {winner:02d}")]

        released = await client.post("/api/meal/uncook", json={
            "slug": slug, "slotId": slot_id, "secret": secret})
        assert released.status_code == 200, released.text
        board = (await client.get(f"/api/meal/{slug}")).raise_for_status().json()
        assert not any(s["taken"] for day in board["days"] for s in day["spots"])


@pytest.mark.parametrize("existing,each", [(59, 1), (58, 2), (1, 59)])
async def test_add_days_at_the_sixty_day_edge(race_server: Any, existing: int,
                                              each: int) -> None:
    """Every request would fit alone; together only one may land, and the rest are told
    the roster is full."""
    async with client_of(race_server) as client:
        created = await client.post("/api/meal", json={
            "forWhom": "Edge", "dates": iso_days("2026-01-01", existing)})
        edit = created.raise_for_status().json()["editToken"]
        body = {"startDate": "2026-06-01", "days": each}
        results = await at_once([
            lambda: client.post(f"/api/meal/{edit}/addDays", json=body)
            for _ in range(CLIENTS)])
        assert Counter(r.status_code for r in results) == {200: 1, 409: CLIENTS - 1}
        assert all(r.json() == {"error": TOO_MANY} for r in results if r.status_code == 409)
        (landed,) = [r.json() for r in results if r.status_code == 200]
        assert landed["totalDays"] == existing + each == 60
        days = [day["date"] for day in (await export_of(client, edit))["days"]]
        assert days == [*iso_days("2026-01-01", existing), *iso_days("2026-06-01", each)]


async def test_add_days_racing_with_different_starts(race_server: Any) -> None:
    """Fifty appends of one day each, every one starting on a different later day, onto a
    roster of 55: however they interleave, at most five land, the stored days are exactly
    the original ones plus those that landed, in order, and never more than 60."""
    async with client_of(race_server) as client:
        created = await client.post("/api/meal", json={
            "forWhom": "Spread", "dates": iso_days("2026-01-01", 55)})
        edit = created.raise_for_status().json()["editToken"]
        starts = iso_days("2026-04-01", CLIENTS)

        def add(start: str) -> Callable[[], Awaitable[httpx.Response]]:
            return lambda: client.post(f"/api/meal/{edit}/addDays",
                                       json={"startDate": start, "days": 1})

        results = await at_once([add(start) for start in starts])
        landed = sorted(r.json()["added"][0] for r in results if r.status_code == 200)
        assert 1 <= len(landed) <= 5
        for r in results:
            if r.status_code != 200:
                assert r.status_code == 409, r.text
                error = r.json()["error"]
                assert error == TOO_MANY or error.startswith(START_AFTER), error
        days = [day["date"] for day in (await export_of(client, edit))["days"]]
        assert days == [*iso_days("2026-01-01", 55), *landed]
        assert len(days) <= 60
        assert days == sorted(set(days))
