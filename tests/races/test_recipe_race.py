"""Recipe Collection contributors racing for the last pages of a book, against two server
workers, on SQLite and PostgreSQL: the 200-recipe cap is never overshot and every 201 is a
stored recipe. Stored rows are read straight from the database afterwards."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

CAP = 200
COOKS = 60
PREFILL_AT_ONCE = 20
FULL = "This book's full — 200 recipes is the limit."


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    # Each round sends a few hundred POSTs from one address: past 240 an hour.
    return live_server(workers=2, database=request.param, tools=["recipe"],
                       limits={"post_per_hour": 100_000})


def stored_recipes(server: Any, slug: str) -> dict[str, str]:
    """Recipe id -> dish, read from the server's own database."""
    sql = ("SELECT r.code, r.dish FROM recipe_recipe r "
           "JOIN instance n ON r.instance_id = n.id WHERE n.slug = ?")
    if server.backend == "sqlite":
        path = server.database_url.removeprefix("sqlite:///")
        with contextlib.closing(sqlite3.connect(path)) as db:
            return dict(db.execute(sql, (slug,)).fetchall())
    import psycopg2

    conn = psycopg2.connect(server.database_url)
    try:
        with conn.cursor() as cursor:
            cursor.execute(sql.replace("?", "%s"), (slug,))
            return dict(cursor.fetchall())
    finally:
        conn.close()


def recipe(slug: str, dish: str) -> dict[str, str]:
    return {"slug": slug, "cook": "Cook", "dish": dish, "ingredients": "Flour\nWater",
            "method": "Mix and bake."}


async def add(client: httpx.AsyncClient, slug: str, dish: str) -> httpx.Response:
    return await client.post("/api/recipe/add", json=recipe(slug, dish))


@pytest.mark.parametrize("room", [1, 10, 30])
async def test_adding_at_the_cap_never_overshoots(race_server: Any, room: int,
                                                  overlap: Callable[..., Any]) -> None:
    """With `room` pages left in the book, 60 cooks add a recipe at the same moment."""
    limits = httpx.Limits(max_connections=COOKS, max_keepalive_connections=0)
    async with race_server.async_client(limits=limits) as client:
        created = await client.post("/api/recipe", json={"title": f"Room {room}"})
        assert created.status_code == 201, created.text
        slug = created.json()["slug"]
        replies = race_server.post_many("/api/recipe/add", [
            recipe(slug, f"Early dish {n}") for n in range(CAP - room)],
            at_once=PREFILL_AT_ONCE)
        assert {status for status, _ in replies} == {201}, replies[:3]
        assert len(stored_recipes(race_server, slug)) == CAP - room

        start = asyncio.Event()

        async def racer(i: int) -> httpx.Response:
            await start.wait()
            return await add(client, slug, f"Racing dish {i:02d}")

        tasks = [asyncio.create_task(racer(i)) for i in range(COOKS)]
        await asyncio.sleep(0)
        watch = overlap(race_server, "POST", "/api/recipe/add")
        with watch.race():
            start.set()
            results = await asyncio.gather(*tasks)
        watch.assert_overlapped(COOKS)

        statuses = Counter(response.status_code for response in results)
        assert statuses == {201: room, 409: COOKS - room}, statuses
        for response in results:
            if response.status_code == 409:
                assert response.json() == {"error": FULL}
        stored = stored_recipes(race_server, slug)
        assert len(stored) == CAP
        winners = {response.json()["id"]: f"Racing dish {i:02d}"
                   for i, response in enumerate(results) if response.status_code == 201}
        assert {code: stored[code] for code in winners} == winners
        assert sum(dish.startswith("Racing dish") for dish in stored.values()) == room
        book = (await client.get(f"/api/recipe/{slug}")).raise_for_status().json()
        assert {recipe["id"] for recipe in book["recipes"]} == set(stored)
        # A winner's token edits its own recipe; the book stays at the cap.
        token = next(response.json()["token"] for response in results
                     if response.status_code == 201)
        saved = await client.post(f"/api/recipe/r/{token}/save", json={
            "cook": "Cook", "dish": "Renamed", "ingredients": "Flour", "method": "Bake."})
        assert saved.status_code == 200, saved.text
        assert len(stored_recipes(race_server, slug)) == CAP
