"""Sixty people join a forty-role Secret Role Dealer game at once, against two server
workers: exactly forty are dealt a role, every role slot is dealt exactly once, and the other
twenty are told every role is dealt. On SQLite always, on PostgreSQL when
$GROUPKIT_TEST_POSTGRES_URL is set.

Why the twenty hear `All the roles are dealt.` and not `Everyone grabbed at once — try
again.`: the kernel runs each join in one transaction holding the instance lock, so joins to
one game are serialised; each reads the free slots, picks one and inserts under the unique
(game, slot) index, and never loses that insert to another join. The three optimistic
retries (and their 409) are the guard for an insert that does lose; the plugin's own tests
drive that path."""

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

ROLES = 40
JOINERS = 60
ROUNDS = 3
ALL_DEALT = "All the roles are dealt."


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    # Rounds of sixty joins from one address would soon meet the 240 POSTs an hour limit.
    return live_server(workers=2, database=request.param, tools=("roles",),
                       limits={"post_per_hour": 100_000})


async def join_all(client: httpx.AsyncClient, slug: str, watch: Any = None
                   ) -> list[tuple[str, httpx.Response]]:
    start = asyncio.Event()

    async def join(i: int) -> tuple[str, httpx.Response]:
        name = f"Joiner {i:02d}"
        await start.wait()
        return name, await client.post("/api/roles/claim", json={"slug": slug, "name": name})

    tasks = [asyncio.create_task(join(i)) for i in range(JOINERS)]
    await asyncio.sleep(0)  # every task is waiting on the start line
    with watch.race() if watch is not None else contextlib.nullcontext():
        start.set()
        return await asyncio.gather(*tasks)


@pytest.mark.parametrize("round_number", range(1, ROUNDS + 1))
async def test_sixty_joiners_forty_roles(race_server: Any, round_number: int,
                                         overlap: Callable[..., Any]) -> None:
    limits = httpx.Limits(max_connections=JOINERS, max_keepalive_connections=0)
    async with race_server.async_client(limits=limits) as client:
        # Distinct role texts, so each slot can be followed by name.
        roles = [f"Role {n:02d}" for n in range(ROLES)]
        created = await client.post("/api/roles", json={
            "title": f"Race {round_number}", "roles": roles})
        assert created.status_code == 201, created.text
        slug, edit = created.json()["slug"], created.json()["editToken"]

        watch = overlap(race_server, "POST", "/api/roles/claim")
        results = await join_all(client, slug, watch)
        watch.assert_overlapped(JOINERS)

        statuses = Counter(response.status_code for _, response in results)
        assert statuses == {201: ROLES, 409: JOINERS - ROLES}, statuses
        winners = {name: response.json()["token"] for name, response in results
                   if response.status_code == 201}
        assert len(set(winners.values())) == ROLES
        assert all(len(token) == 22 for token in winners.values())
        for _, response in results:
            if response.status_code == 409:
                assert response.json() == {"error": ALL_DEALT}

        export = (await client.post(f"/api/roles/{edit}/export")).raise_for_status().json()
        players = export["data"]["players"]
        assert {player["name"] for player in players} == set(winners)
        assert sorted(player["role"] for player in players) == roles  # each slot dealt once
        view = (await client.get(f"/api/roles/{slug}")).raise_for_status().json()
        assert (view["total"], view["dealt"], view["left"]) == (ROLES, ROLES, 0)

        # Every winner's token holds a role; nobody else got one.
        for token in winners.values():
            held = await client.post("/api/roles/held", json={"slug": slug, "token": token})
            assert held.json() == {"held": True, "game": 1, "round": 1}
        late = await client.post("/api/roles/claim", json={"slug": slug, "name": "Late"})
        assert (late.status_code, late.json()) == (409, {"error": ALL_DEALT})
