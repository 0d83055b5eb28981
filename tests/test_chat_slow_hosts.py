"""Chat hosts that misbehave (groupkit.blocks._webhooks), each a local server on 127.0.0.1: one
that drips its answer a byte at a time, one that answers with 256 MiB. Each gets its post
exactly once, the delivery ends at the send's deadline (well inside the lease, so no other
process takes the post meanwhile), only the answer's head is read, and another team's post
goes out while the slow host still holds its own."""

from __future__ import annotations

import asyncio
import datetime as dt
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from chat_receiver import Misbehaving
from chat_receiver import Receiver
from chat_receiver import drip
from chat_receiver import flood

from groupkit.blocks import _webhooks as webhooks
from groupkit_testing import FakeClock as Clock
from groupkit_testing import create

#: Far more than any delivery here needs; only there so that a broken deadline fails the
#: test instead of hanging it (the dripping host would go on for hours).
GUARD = 60.0


@pytest.fixture
def app(make_app: Callable[..., Any], clock: Clock) -> Any:
    return make_app(tools=["kudos"], clock=clock, webhook_hosts=("127.0.0.1",),
                    webhook_allow_loopback=True)


async def deliver(app: Any, clock: Clock) -> int:
    return await webhooks.deliver_once(app.config["GROUPKIT_STORAGE"],
                                       app.config["GROUPKIT_SETTINGS"], clock)


async def wall(client: Any, url: str, team: str, notes: int = 1) -> dict[str, str]:
    made = await create(client, "kudos", {"team": team, "intro": ""})
    connected = await client.post(f"/api/kudos/{made['editToken']}/chat", json={"url": url})
    assert connected.status_code == 200, await connected.get_json()
    for _ in range(notes):
        response = await client.post("/api/kudos/note", json={
            "slug": made["slug"], "recipient": "Sam", "message": f"thanks, {team}",
            "sender": "Alex"})
        assert response.status_code == 201
    return made


async def log_of(client: Any, made: dict[str, str]) -> list[dict[str, Any]]:
    status = await (await client.get(f"/api/kudos/{made['editToken']}/chat/log")).get_json()
    return list(status["log"])


def test_a_send_ends_well_inside_the_lease() -> None:
    assert dt.timedelta(seconds=webhooks.DEADLINE) * 2 <= webhooks.LEASE


async def test_a_dripping_host_is_tried_once_and_holds_up_no_other_team(
        app: Any, clock: Clock, receiver: Receiver, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(webhooks, "DEADLINE", 3.0)
    monkeypatch.setattr(webhooks, "PARALLEL", 2)  # fewer than the slow team's posts
    slow_host = Misbehaving(drip)
    try:
        client = app.test_client()
        # Queued first, so due first: yet they take one sending slot, one after the other.
        slow = await wall(client, slow_host.url(), "Slow", notes=2)
        fast = await wall(client, receiver.url(), "Fast")
        delivery = asyncio.create_task(deliver(app, clock))
        async with asyncio.timeout(GUARD):
            while not receiver.received:
                await asyncio.sleep(0.02)
        # The other team's post is out while the slow host still holds the first of its
        # own: nothing recorded for either yet.
        pending = await log_of(client, slow)
        assert [(entry["state"], entry["outcome"]) for entry in pending] == [
            ("pending", ""), ("pending", "")]
        assert await asyncio.wait_for(delivery, GUARD) == 1
        assert receiver.texts() == ["Kudos for Sam from Alex:\nthanks, Fast\nThe wall: "
                                    f"http://localhost/s/{fast['slug']}"]
        late = await log_of(client, slow)
        assert [(entry["state"], entry["attempts"], entry["outcome"]) for entry in late] == [
            ("failed", 1, webhooks.LATE)] * 2
        clock.advance(hours=2)  # long past any retry's wait: neither is tried again
        assert await asyncio.wait_for(deliver(app, clock), GUARD) == 0
        assert len(slow_host.requests) == 2  # each post once
    finally:
        slow_host.close()


async def test_a_huge_answer_is_not_read(app: Any, clock: Clock) -> None:
    flooding = Misbehaving(flood)
    try:
        client = app.test_client()
        made = await wall(client, flooding.url(), "Flooded")
        # The worker's own memory, not just the bytes the host managed to send: every
        # allocation in this process during the delivery is traced (the host's own 1 MiB
        # chunk included), and the peak stays far below the 256 MiB answer.
        tracemalloc.start()
        try:
            assert await asyncio.wait_for(deliver(app, clock), GUARD) == 1
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < 4 * 1024 * 1024, f"the delivery peaked at {peak} bytes"
        async with asyncio.timeout(GUARD):  # the host stops once the client hangs up
            while not flooding.answered:
                await asyncio.sleep(0.02)
        assert len(flooding.requests) == 1
        # Only what the loopback's socket buffers took before the hang-up (a few MiB at
        # most), not the 256 MiB a client reading the answer would have taken.
        assert flooding.answered[0] < 32 * 1024 * 1024
        [sent] = await log_of(client, made)
        assert (sent["state"], sent["attempts"]) == ("sent", 1)
    finally:
        flooding.close()
