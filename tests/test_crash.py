"""Crash safety: a mixed write load (boards created, spots claimed, spots released) runs
against a two-worker server that is killed with SIGKILL mid-load, several times. After each
restart, every write acknowledged with a 2xx before the kill is present and consistent, and
nothing unacknowledged shows up half-done. On SQLite and PostgreSQL.

The count of acknowledged writes checked is printed and written to
artifacts/crash-report.json."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

KILLS = 3
CONCURRENCY = 16
REPORT = Path(__file__).resolve().parents[1] / "artifacts" / "crash-report.json"


class Ledger:
    """What the server acknowledged: boards, and each spot's last acknowledged state."""

    def __init__(self) -> None:
        self.boards: dict[str, int] = {}  # slug -> spots
        self.spots: dict[tuple[str, str], str | None] = {}  # (slug, slotId) -> name or free
        self.secrets: dict[tuple[str, str], str] = {}
        self.pending: set[tuple[str, str]] = set()  # a request in flight: state unknown
        self.acknowledged = 0


async def worker(client: httpx.AsyncClient, ledger: Ledger, rng: random.Random,
                 stop: asyncio.Event) -> None:
    while not stop.is_set():
        try:
            if not ledger.boards or rng.random() < 0.15:
                response = await client.post("/api/plate", json={
                    "title": "Crash lunch", "categories": [{"name": "Mains", "capacity": 4},
                                                           {"name": "Sweets", "capacity": 4}]})
                if response.status_code == 201:
                    ledger.boards[response.json()["slug"]] = 8
                    ledger.acknowledged += 1
                continue
            slug = rng.choice(list(ledger.boards))
            slot = f"c{rng.randrange(2)}-{rng.randrange(1, 5)}"
            key = (slug, slot)
            if key in ledger.pending or (ledger.spots.get(key) is not None
                                         and key not in ledger.secrets):
                continue  # in flight elsewhere, or taken by a claim whose reply was lost
            ledger.pending.add(key)
            if ledger.spots.get(key) is None:
                name = f"Cook {rng.randrange(10**6)}"
                response = await client.post("/api/plate/claim", json={
                    "slug": slug, "slotId": slot, "name": name, "dish": "Soup"})
                if response.status_code == 201:
                    ledger.spots[key] = name
                    ledger.secrets[key] = response.json()["secret"]
                    ledger.acknowledged += 1
            else:
                response = await client.post("/api/plate/unclaim", json={
                    "slug": slug, "slotId": slot, "secret": ledger.secrets[key]})
                if response.status_code == 200:
                    ledger.spots[key] = None
                    ledger.acknowledged += 1
            ledger.pending.discard(key)
        except httpx.TransportError:
            return  # the server died under us: this request's fate is unknown


def check(client: httpx.Client, ledger: Ledger) -> int:
    """Every acknowledged write is there; returns how many were checked."""
    checked = 0
    for slug in ledger.boards:
        response = client.get(f"/api/plate/{slug}")
        assert response.status_code == 200, slug
        checked += 1
        spots = {spot["slotId"]: spot for category in response.json()["categories"]
                 for spot in category["spots"]}
        for (board, slot), name in ledger.spots.items():
            if board != slug:
                continue
            spot = spots[slot]
            if (board, slot) in ledger.pending:
                # In flight at the kill: either outcome, but never half of one.
                assert spot["taken"] == bool(spot.get("name"))
                after = spot["name"] if spot["taken"] else None
                if after != name:
                    ledger.secrets.pop((board, slot), None)
                ledger.spots[(board, slot)] = after
                continue
            checked += 1
            if name is None:
                assert not spot["taken"], (slug, slot)
            else:
                assert spot["taken"] and spot["name"] == name, (slug, slot, spot)
    ledger.pending.clear()
    return checked


def record_report(backend: str, figures: dict[str, int]) -> None:
    """Add one backend's figures to the report; the backends may run in parallel test
    processes (pytest-xdist), so the read-modify-write holds a lock."""
    REPORT.parent.mkdir(exist_ok=True)
    with open(REPORT.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        report = json.loads(REPORT.read_text()) if REPORT.exists() else {}
        report[backend] = figures
        partial = REPORT.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(report, indent=2))
        os.replace(partial, REPORT)


@pytest.mark.parametrize("backend", server_backends())
async def test_acknowledged_writes_survive_sigkill(backend: str,
                                                   live_server: Callable[..., Any]) -> None:
    server = live_server(workers=2, database=backend, limits={"post_per_hour": 1_000_000})
    ledger, rng, checked = Ledger(), random.Random(20261122), 0
    for _ in range(KILLS):
        stop = asyncio.Event()
        limits = httpx.Limits(max_connections=CONCURRENCY)
        async with server.async_client(limits=limits, timeout=10.0) as client:
            tasks = [asyncio.create_task(worker(client, ledger, rng, stop))
                     for _ in range(CONCURRENCY)]
            await asyncio.sleep(rng.uniform(0.8, 1.6))
            server.crash()  # mid-load: requests are in flight
            stop.set()
            await asyncio.gather(*tasks)
        server.start()
        with server.client() as reader:
            checked += check(reader, ledger)
    assert ledger.acknowledged > 50, "the load never got going"
    assert checked >= ledger.acknowledged // 4
    record_report(backend, {"kills": KILLS, "acknowledged_writes": ledger.acknowledged,
                            "records_checked": checked})
    print(f"\ncrash safety ({backend}): {KILLS} SIGKILLs survived, "
          f"{ledger.acknowledged} acknowledged writes, {checked} records checked")
