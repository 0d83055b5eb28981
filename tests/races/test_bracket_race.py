"""Fifty results for one bracket land at once, against two server workers, all based on the
same read: exactly one is recorded, every other one is told `Two results landed at once`,
and the stored bracket holds the winner's result and nothing else. Then everyone re-reads
and tries again: exactly one more lands. On SQLite always, on PostgreSQL when
$GROUPKIT_TEST_POSTGRES_URL is set."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

SENDERS = 50
ROUNDS = 3
TWO_AT_ONCE = "Two results landed at once — refresh and tap again."
#: Eight listed entrants: first round S1 v S8, S4 v S5, S2 v S7, S3 v S6.
ENTRANTS = ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"]


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    # Rounds of 50 results from one address would soon meet the 240 POSTs an hour limit.
    return live_server(workers=2, database=request.param,
                       limits={"post_per_hour": 100_000})


async def read(client: httpx.AsyncClient, slug: str) -> dict[str, Any]:
    response = await client.get(f"/api/bracket/{slug}")
    response.raise_for_status()
    return dict(response.json())


async def send_all(client: httpx.AsyncClient, edit: str, bodies: list[dict[str, Any]],
                   watch: Any = None) -> list[httpx.Response]:
    start = asyncio.Event()

    async def send(body: dict[str, Any]) -> httpx.Response:
        await start.wait()
        return await client.post(f"/api/bracket/{edit}/result", json=body)

    tasks = [asyncio.create_task(send(body)) for body in bodies]
    await asyncio.sleep(0)  # every task is waiting on the start line
    with watch.race() if watch is not None else contextlib.nullcontext():
        start.set()
        return await asyncio.gather(*tasks)


def first_round_results(view: dict[str, Any]) -> list[str | None]:
    return [match["winner"] for match in view["rounds"][0]["matches"]]


@pytest.mark.parametrize("round_number", range(1, ROUNDS + 1))
async def test_fifty_results_at_once_one_lands(race_server: Any, round_number: int,
                                               overlap: Callable[..., Any]) -> None:
    limits = httpx.Limits(max_connections=SENDERS, max_keepalive_connections=0)
    async with race_server.async_client(limits=limits) as client:
        created = await client.post("/api/bracket", json={
            "title": f"Race {round_number}", "seeding": "listed", "entrants": ENTRANTS})
        assert created.status_code == 201, created.text
        slug, edit = created.json()["slug"], created.json()["editToken"]
        expected: list[str | None] = [None] * 4

        for wave in (1, 2):
            view = await read(client, slug)
            version = view["version"]
            assert version == wave - 1
            # Every sender picks a first-round match and a side of it, all from one read.
            bodies = []
            for i in range(SENDERS):
                match = (i + round_number) % 4
                sides = view["rounds"][0]["matches"][match]["sides"]
                bodies.append({"round": 0, "match": match,
                               "winner": sides[(i // 4) % 2]["name"], "version": version})

            watch = overlap(race_server, "POST", f"/api/bracket/{edit}/result")
            responses = await send_all(client, edit, bodies, watch)
            watch.assert_overlapped(len(bodies))

            statuses = Counter(response.status_code for response in responses)
            assert statuses == {200: 1, 409: SENDERS - 1}, statuses
            for response in responses:
                if response.status_code == 409:
                    assert response.json() == {"error": TWO_AT_ONCE}
            (winner,) = [(body, response.json()) for body, response in zip(bodies, responses,
                                                                          strict=True)
                         if response.status_code == 200]
            body, reply = winner
            assert reply["version"] == version + 1
            assert (reply["round"], reply["match"], reply["winner"]) == (
                0, body["match"], body["winner"])
            expected[body["match"]] = body["winner"]

            stored = await read(client, slug)
            assert stored["version"] == version + 1
            assert first_round_results(stored) == expected
            assert all(match["winner"] is None for rnd in stored["rounds"][1:]
                       for match in rnd["matches"])

        # The export (the organiser's full read) holds the same two results.
        export = (await client.post(f"/api/bracket/{edit}/export")).raise_for_status().json()
        assert first_round_results(export["data"]) == expected
