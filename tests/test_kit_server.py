"""The kit's `LiveServer.post_many`, which the race tests fill instances up with."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = pytest.mark.server


def test_post_many_answers_each_body_in_the_order_given(
        live_server: Callable[..., Any]) -> None:
    server = live_server(tools=["poll"], limits={"post_per_hour": 100_000})
    with server.client() as client:
        made = client.post("/api/poll", json={"question": "Lunch?",
                                              "options": ["Thai", "Pub"]}).json()
        option = client.get(f"/api/poll/{made['slug']}").json()["tally"][0]["id"]
    bodies = [{"slug": made["slug"], "choices": [option], "voterName": f"Voter {n}"}
              if n % 4 else {"slug": made["slug"], "choices": []} for n in range(30)]
    replies = server.post_many("/api/poll/vote", bodies, at_once=3)
    assert [status for status, _ in replies] == [400 if n % 4 == 0 else 201
                                                 for n in range(30)]
    assert all(set(reply) == {"error"} for status, reply in replies if status == 400)
    tokens = {reply["token"] for status, reply in replies if status == 201}
    assert len(tokens) == 22
    with server.client() as client:
        assert client.get(f"/api/poll/{made['slug']}").json()["ballots"] == 22
