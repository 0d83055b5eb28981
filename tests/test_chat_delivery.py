"""Chat posts on real servers: two `groupkit serve` processes with two workers each share one
database (PostgreSQL, as across hosts; SQLite, as on one host). Every worker runs the
delivery loop, yet a scheduled post (today's question) and each kudos note reach the chat
exactly once; posts queued while the chat was down survive both servers being killed and
go out once when they come back."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from chat_receiver import Receiver
from waiting import wait_for

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

NOTES = 8
#: What the organiser's test post says (`chat/test`).
MARKER = "groupkit is connected:"


@pytest.mark.parametrize("backend", server_backends())
def test_posts_go_out_once_across_two_servers_and_survive_a_restart(
        backend: str, live_server: Callable[..., Any]) -> None:
    down = Receiver()  # only to pick a free port; the chat stays down until the restart
    port = down.port
    down.close()
    webhooks = {"hosts": ["127.0.0.1"], "allow_loopback": True, "every_seconds": 1}
    first = live_server(database=backend, workers=2, webhooks=webhooks, wait=False)
    second = live_server(database=first, workers=2, webhooks=webhooks, wait=False)
    first.wait(), second.wait()
    hook = f"http://127.0.0.1:{port}/hook"
    with first.client() as one, second.client() as two:
        qotd = one.post("/api/qotd", json={"teamName": "Platform"}).json()
        wall = two.post("/api/kudos", json={"team": "Support", "intro": ""}).json()
        assert one.post(f"/api/qotd/{qotd['editToken']}/chat",
                        json={"url": hook, "hour": 0, "format": "slack"}).status_code == 200
        assert two.post(f"/api/kudos/{wall['editToken']}/chat",
                        json={"url": hook, "format": "slack"}).status_code == 200
        for index in range(NOTES):
            response = (one if index % 2 else two).post("/api/kudos/note", json={
                "slug": wall["slug"], "recipient": f"Person {index}",
                "message": f"note number {index}", "sender": "Team"})
            assert response.status_code == 201

        def tried(client: Any, made: dict[str, str], tool: str) -> bool:
            log = client.get(f"/api/{tool}/{made['editToken']}/chat/log").json()["log"]
            return bool(log) and all(entry["outcome"] for entry in log)

        # The chat is down: every post is tried, fails and waits in the database.
        assert wait_for(lambda: tried(one, qotd, "qotd") and tried(two, wall, "kudos"))
        log = two.get(f"/api/kudos/{wall['editToken']}/chat/log").json()["log"]
        assert {entry["state"] for entry in log} == {"pending"}
        assert all(entry["outcome"].startswith("connection failed") for entry in log)

    first.crash()
    second.crash()
    receiver = Receiver(port)
    try:
        first.start()
        second.start()
        assert wait_for(lambda: len(receiver.received) >= NOTES + 1), receiver.texts()
        # A marker on each channel, queued after everything arrived: a channel's posts go
        # out in the order they were queued, so once both markers are in, any second copy
        # of a post (taken twice, or the question queued again) would have come before them.
        with first.client() as one, second.client() as two:
            for client, made, tool in ((one, qotd, "qotd"), (two, wall, "kudos")):
                queued = client.post(f"/api/{tool}/{made['editToken']}/chat/test")
                assert queued.status_code == 200, queued.text
        assert wait_for(lambda: sum(MARKER in text for text in receiver.texts()) == 2), \
            receiver.texts()
        texts = [text for text in receiver.texts() if MARKER not in text]
        counts = Counter(texts)
        assert len(texts) == NOTES + 1 and set(counts.values()) == {1}, counts
        assert sum(text.startswith("Question of the day:") for text in texts) == 1
        for index in range(NOTES):
            assert sum(f"note number {index}\n" in text for text in texts) == 1
        with first.client() as one:
            log = one.get(f"/api/kudos/{wall['editToken']}/chat/log").json()["log"]
            assert {entry["state"] for entry in log} == {"sent"}
    finally:
        receiver.close()
