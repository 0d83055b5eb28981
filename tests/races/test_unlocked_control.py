"""The race tests' negative control: under the same harness (fifty clients released at once
against two server workers), a path that checks in one transaction and writes in another
(unlocked_tool.py: read the room left, then take it) lets more than one through, and the
server's log shows the requests in it at the same time. A harness whose requests never met
would pass every race test here without proving anything; this one shows they meet."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from groupkit_testing import server_backends
from plugin_dist import install_plugin

pytestmark = pytest.mark.server

RACERS = 50
TOOL = Path(__file__).with_name("unlocked_tool.py")
#: The pages a tool must have, as bare as they come.
PAGES = {"create": ("create", "fields", "<input name=\"title\">"),
         "public": ("public", "content", "<h1>{{ view.title }}</h1>"),
         "organiser": ("organiser", "organiser", "{{ view.taken | length }} taken")}


@pytest.fixture(scope="module", params=server_backends())
def unlocked_server(request: pytest.FixtureRequest, live_server: Callable[..., Any],
                    tmp_path_factory: pytest.TempPathFactory) -> Any:
    site = install_plugin(tmp_path_factory.mktemp("site"), "unlocked",
                          TOOL.read_text(encoding="utf-8"))
    pages = site / "groupkit_unlocked" / "templates" / "unlocked"
    pages.mkdir(parents=True)
    for name, (base, block, content) in PAGES.items():
        (pages / f"{name}.html").write_text(
            f'{{% extends "groupkit/{base}.html" %}}'
            f"{{% block {block} %}}{content}{{% endblock %}}\n", encoding="utf-8")
    path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", path)  # the server started now is the only one to see it
        return live_server(workers=2, database=request.param, tools=("unlocked",),
                           limits={"post_per_hour": 100_000})


async def test_check_then_write_in_two_transactions_lets_several_win(
        unlocked_server: Any, overlap: Callable[..., Any]) -> None:
    limits = httpx.Limits(max_connections=RACERS, max_keepalive_connections=0)
    async with unlocked_server.async_client(limits=limits) as client:
        made = await client.post("/api/unlocked", json={"title": "One place"})
        assert made.status_code == 201, made.text
        slug = made.json()["slug"]
        start = asyncio.Event()

        async def racer(i: int) -> bool:
            await start.wait()
            room = (await client.get(f"/api/unlocked/{slug}/room")).raise_for_status()
            if room.json()["room"] < 1:
                return False
            taken = await client.post("/api/unlocked/take", json={"slug": slug,
                                                                 "name": f"Racer {i}"})
            assert taken.status_code == 201, taken.text
            return True

        tasks = [asyncio.create_task(racer(i)) for i in range(RACERS)]
        await asyncio.sleep(0)
        checks = overlap(unlocked_server, "GET", f"/api/unlocked/{slug}/room")
        with checks.race():
            start.set()
            won = await asyncio.gather(*tasks)
        board = (await client.get(f"/api/unlocked/{slug}")).raise_for_status().json()
    print(f"\ncontrol: {sum(won)} of {RACERS} racers took the one place")
    assert sum(won) > 1, "the harness never let two racers check before either wrote"
    assert len(board["taken"]) == sum(won) > 1
    checks.assert_overlapped(RACERS)
