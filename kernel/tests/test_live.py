"""The version every live page watches: bumped by each successful change, and by nothing
else (the streams themselves are tested against real servers in tests/test_live.py)."""

from __future__ import annotations

from typing import Any

from groupkit import Instance
from groupkit_testing import create


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


class _Hub:
    """What a stream needs of its hub: to be let go of when it ends."""

    def __init__(self) -> None:
        self.closed = 0

    def close(self, slug: str, queue: Any) -> None:
        self.closed += 1

    def _hold(self, client: str, delta: int) -> None:
        """The per-client stream count is the limits tests' concern, not these."""


async def test_streams_opened_together_keep_alive_and_end_spread_out(monkeypatch: Any) -> None:
    """A thousand pages opened within a second must not all wake in the same instant (that
    held up every other request of the worker): each stream's keep-alives keep their own
    phase, at most a period apart, and each ends somewhere in the last fifth of its span."""
    import asyncio
    import itertools

    from groupkit.core import _live as live

    monkeypatch.setattr(live, "KEEPALIVE_SECONDS", 0.5)
    monkeypatch.setattr(live, "STREAM_SECONDS", 1.5)
    hub = _Hub()
    loop = asyncio.get_running_loop()
    started = loop.time()

    async def watch() -> list[tuple[float, str]]:
        queue: asyncio.Queue[int | None] = asyncio.Queue()
        events = live._events(hub, "slug", 3, queue, "client", None)  # type: ignore[arg-type]
        chunks = [(loop.time() - started, chunk) async for chunk in events]
        return [*chunks, (loop.time() - started, "")]  # when it ended

    streams = await asyncio.gather(*(watch() for _ in range(40)))
    assert hub.closed == 40
    firsts, ends = [], []
    for chunks in streams:
        assert chunks[0][1] == "retry: 1000\nevent: version\ndata: 3\n\n"
        assert {chunk for _, chunk in chunks[1:-1]} == {": keep-alive\n\n"}
        times = [when for when, _ in chunks]
        # at most a period apart (with room for a loaded machine), and never in a burst
        assert all(0 < later - earlier < 0.5 + 0.4
                   for earlier, later in itertools.pairwise(times[1:]))
        assert times[1] < 0.5 + 0.4
        firsts.append(times[1])
        ends.append(times[-1])
    assert max(firsts) - min(firsts) > 0.15, firsts  # spread over the period (~0.5 s)
    assert all(1.5 * 0.8 - 0.05 < end < 1.5 + 0.4 for end in ends), ends
    assert max(ends) - min(ends) > 0.05, ends  # spread over the last fifth (0.3 s)


async def test_a_page_deleted_before_its_parts_are_read_is_told_gone(caplog: Any) -> None:
    """A change wakes a public page's stream, and the instance is deleted before its page is
    read for the parts: the stream says `gone`, not `version` (which sent the page to fetch
    itself, meet a 404 and reload into another). A render that fails still says `version`,
    so the page fetches itself."""
    import asyncio

    from groupkit.core import _live as live

    async def deleted() -> None:
        return None

    async def failing() -> tuple[int, str]:
        raise RuntimeError("the render broke")

    for render, last in ((deleted, "event: gone\ndata: {}\n\n"),
                         (failing, "event: version\ndata: 4\n\n")):
        hub = live.LiveHub(None)  # type: ignore[arg-type]  # (no storage: the page is given)
        queue: asyncio.Queue[int | None] = asyncio.Queue()
        queue.put_nowait(4)
        queue.put_nowait(live.END)
        chunks = [chunk async for chunk in live._events(hub, "slug", 3, queue, "client",
                                                        render)]
        assert chunks == ["retry: 1000\nevent: version\ndata: 3\n\n", last]
    assert "rendering the page failed" in caplog.text
