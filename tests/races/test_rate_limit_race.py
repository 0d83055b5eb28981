"""The rate limits are counted in the database, so two server workers share one count:
sixty creates fired at once from one address give exactly twenty 201s, and the post limit
admits exactly its number, however the requests are split between the workers."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.server

CREATE_LIMIT = "Steady on — too many requests from this connection. Give it a few minutes."
SWEEP = {"outcomes": ["Red", "Blue"], "names": ["Ann", "Bo"]}


@pytest.fixture(scope="module")
def two_workers(live_server: Callable[..., Any]) -> Any:
    # Chat webhooks off: production starts with them only given a base_url.
    return live_server(workers=2, mode="production", limits={"post_per_hour": 30},
                       webhooks={"hosts": []})


async def fire(server: Any, requests: list[tuple[str, Any]], local_address: str
               ) -> list[httpx.Response]:
    """All `requests` at once, each on its own connection (so both workers get some)."""
    limits = httpx.Limits(max_connections=len(requests), max_keepalive_connections=0)
    transport = httpx.AsyncHTTPTransport(local_address=local_address, limits=limits)
    async with server.async_client(transport=transport) as client:
        start = asyncio.Event()

        async def send(path: str, body: Any) -> httpx.Response:
            await start.wait()
            return await client.post(path, json=body)

        tasks = [asyncio.create_task(send(path, body)) for path, body in requests]
        await asyncio.sleep(0)
        start.set()
        return list(await asyncio.gather(*tasks))


def wait_for_a_fresh_window() -> None:
    import time

    into_hour = time.time() % 3600
    if into_hour > 3600 - 30:
        time.sleep(3600 - into_hour + 1)


async def test_creates_share_one_count_across_workers(two_workers: Any) -> None:
    wait_for_a_fresh_window()
    responses = await fire(two_workers, [("/api/sweeps", SWEEP)] * 60, "127.0.0.6")
    statuses = Counter(response.status_code for response in responses)
    assert statuses == {201: 20, 429: 40}, statuses
    for response in responses:
        if response.status_code == 429:
            assert response.json() == {"error": CREATE_LIMIT}


async def test_other_posts_share_one_count_across_workers(two_workers: Any) -> None:
    wait_for_a_fresh_window()
    with two_workers.client(local_address="127.0.0.8") as client:
        created = client.post("/api/sweeps", json=SWEEP).json()
    redraw = f"/api/sweeps/{created['editToken']}/redraw"
    responses = await fire(two_workers, [(redraw, {})] * 50, "127.0.0.7")
    statuses = Counter(response.status_code for response in responses)
    assert statuses == {200: 30, 429: 20}, statuses
