"""Retention: `Tool.prune` runs from `prune_all` (the `groupkit prune` command) and from the
server's own task at start-up, with the app's clock, whether or not anyone visits."""

from __future__ import annotations

import asyncio
from typing import Any

from demo_plugin import KEEP_DAYS
from demo_plugin import Note
from groupkit.ops._retention import prune_all
from groupkit_testing import create


async def add_notes(client: Any, slug: str, *texts: str) -> None:
    for text in texts:
        response = await client.post("/api/demo/note", json={"slug": slug, "text": text})
        assert response.status_code == 201


async def notes(client: Any, slug: str) -> list[str]:
    return list((await (await client.get(f"/api/demo/{slug}")).get_json())["notes"])


async def test_prune_all_drops_only_what_is_past_retention(demo_app: Any, client: Any,
                                                           clock: Any) -> None:
    slug = (await create(client, "demo", {"title": "Wall", "names": ["A"]}))["slug"]
    await add_notes(client, slug, "old")
    clock.advance(days=KEEP_DAYS - 1)
    await add_notes(client, slug, "recent")
    clock.advance(days=1, seconds=1)
    storage = demo_app.config["GROUPKIT_STORAGE"]
    assert prune_all(storage, demo_app.config["GROUPKIT_TOOLS"], clock()) == {"demo": 1}
    assert await notes(client, slug) == ["recent"]
    assert prune_all(storage, demo_app.config["GROUPKIT_TOOLS"], clock()) == {"demo": 0}


async def test_the_server_prunes_at_start_up_without_any_visit(demo_app: Any, client: Any,
                                                               clock: Any) -> None:
    slug = (await create(client, "demo", {"title": "Wall", "names": ["A"]}))["slug"]
    await add_notes(client, slug, "old", "older")
    clock.advance(days=KEEP_DAYS + 1)
    async with demo_app.test_app():  # runs before_serving: the retention task starts
        storage = demo_app.config["GROUPKIT_STORAGE"]
        for _ in range(100):
            left = await storage.read(lambda: Note.select().count())
            if left == 0:
                break
            await asyncio.sleep(0.02)
        assert left == 0


async def test_a_path_placeholder_reaches_the_operation(client: Any) -> None:
    slug = (await create(client, "demo", {"title": "Picnic", "names": ["A"]}))["slug"]
    response = await client.get(f"/api/demo/{slug}/ics/2026-12-24")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/calendar")
    assert 'filename="2026-12-24.ics"' in response.headers["Content-Disposition"]
    text = (await response.get_data()).decode()
    assert "BEGIN:VEVENT" in text and "SUMMARY:Picnic" in text
    assert "DTSTART;VALUE=DATE:20261224" in text and "DTEND;VALUE=DATE:20261225" in text
    unknown = await client.get(f"/api/demo/{slug}x/ics/2026-12-24")
    assert unknown.status_code == 404

