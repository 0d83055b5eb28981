"""The version every live page watches: bumped by each successful change, and by nothing
else (the streams themselves are tested against real servers in tests/test_live.py)."""

from __future__ import annotations

from typing import Any

from groupkit import Instance
from groupkit.testing import create


async def add_notes(client: Any, slug: str, *texts: str) -> None:
    for text in texts:
        response = await client.post("/api/demo/note", json={"slug": slug, "text": text})
        assert response.status_code == 201


async def test_an_export_changes_nothing_so_live_pages_stay_put(client: Any) -> None:
    made = await create(client, "demo", {"title": "Quiet", "names": ["A"]})

    async def version() -> int:
        instance = await client.app.config["GROUPKIT_STORAGE"].read(
            lambda: Instance.get(Instance.slug == made["slug"]))
        return int(instance.version)

    await client.post(f"/api/demo/{made['editToken']}/export")
    assert await version() == 0
    await add_notes(client, made["slug"], "hello")
    assert await version() == 1

    refused = await client.post("/api/demo/note", json={"slug": made["slug"], "text": ""})
    assert refused.status_code == 400
    assert await version() == 1
