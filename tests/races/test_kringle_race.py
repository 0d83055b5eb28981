"""The 40-message cap of a Kris Kringle conversation under fire: a Kris Kringle and their
giftee a few messages short of the cap send twenty at once, from both sides, against two
server workers. Exactly the messages that fit get in, the rest are told the conversation is
full, and both private pages then hold exactly 40. On SQLite always, on PostgreSQL when
$GROUPKIT_TEST_POSTGRES_URL is set."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

CAP = 40
RACERS = 20
FULL = "This conversation is full: 40 messages is the most."
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]
#: Messages already in before the race: the race decides the last 12, 5 and 1 places.
ALREADY_IN = {1: 28, 2: 35, 3: 39}
#: One connection per racer, none kept alive: every message arrives on its own.
LIMITS = httpx.Limits(max_connections=RACERS, max_keepalive_connections=0)


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    return live_server(workers=2, database=request.param, tools=("kringle",),
                       limits={"post_per_hour": 100_000})


@pytest.mark.parametrize("round_number", sorted(ALREADY_IN))
async def test_twenty_messages_at_the_edge_of_the_cap(race_server: Any, overlap: Callable[..., Any],
                                                      round_number: int) -> None:
    already = ALREADY_IN[round_number]
    async with race_server.async_client(limits=LIMITS) as client:
        created = await client.post("/api/kringle", json={"names": NAMES, "questions": True})
        assert created.status_code == 201, created.text
        slug = created.json()["slug"]
        tokens = {}
        for name in NAMES:
            reply = await client.post("/api/kringle/claim", json={"slug": slug, "name": name})
            tokens[name] = reply.raise_for_status().json()["token"]
        santa = tokens["Ann"]
        giftee_name = (await client.get(f"/api/kringle/p/{santa}")).json()["giftee"]
        giftee = tokens[giftee_name]
        for n in range(already):
            sent = await client.post(f"/api/kringle/p/{santa}/ask",
                                     json={"to": "giftee", "text": f"early {n}"})
            assert sent.status_code == 200, sent.text

        start = asyncio.Event()

        async def racer(i: int) -> httpx.Response:
            token, to = (santa, "giftee") if i % 2 else (giftee, "santa")
            await start.wait()
            return await client.post(f"/api/kringle/p/{token}/ask",
                                     json={"to": to, "text": f"racer {i:02d}"})

        tasks = [asyncio.create_task(racer(i)) for i in range(RACERS)]
        await asyncio.sleep(0)
        watch = overlap(race_server, "POST", f"/api/kringle/p/{santa}/ask")  # either token
        with watch.race():
            start.set()
            results = await asyncio.gather(*tasks)
        watch.assert_overlapped(RACERS)

        statuses = Counter(response.status_code for response in results)
        places = CAP - already
        assert statuses == {200: places, 409: RACERS - places}, statuses
        for response in results:
            if response.status_code == 409:
                assert response.json() == {"error": FULL}
        winners = {f"racer {i:02d}" for i, response in enumerate(results)
                   if response.status_code == 200}
        # Both sides see the same 40 messages, each from their own point of view.
        mine = (await client.get(f"/api/kringle/p/{santa}")).json()["questions"]["withGiftee"]
        theirs = (await client.get(f"/api/kringle/p/{giftee}")).json()["questions"][
            "withSanta"]
        assert len(mine) == len(theirs) == CAP
        assert [m["text"] for m in mine] == [m["text"] for m in theirs]
        assert [m["mine"] for m in mine] == [not m["mine"] for m in theirs]
        assert {m["text"] for m in mine if m["text"].startswith("racer")} == winners
        late = await client.post(f"/api/kringle/p/{giftee}/ask",
                                 json={"to": "santa", "text": "late"})
        assert late.status_code == 409
