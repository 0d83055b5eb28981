"""Server CPU per request, as ratios to a request that never touches the database.

Starts `groupkit serve` (one worker, SQLite in a temp dir, or $GROUPKIT_DATABASE_URL) on
loopback, drives it with concurrent clients and reads the worker's CPU time from /proc, so
the figures do not depend on how busy the client side is:

    uv run nox -s bench          # or: uv run python bench/request_cost.py [requests]
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

CONCURRENCY = 10


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(parent: int) -> float:
    """CPU of the server and every process under it (hypercorn runs workers as children)."""
    total, pending = 0.0, [parent]
    while pending:
        pid = pending.pop()
        try:
            total += cpu_seconds(pid)
            for task in Path(f"/proc/{pid}/task").iterdir():
                pending += [int(c) for c in (task / "children").read_text().split()]
        except FileNotFoundError:
            continue
    return total


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def drive(base: str, count: int, request: Callable[[httpx.AsyncClient, int], Any]
                ) -> float:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        queue = iter(range(count))

        async def runner() -> None:
            for i in queue:
                response = await request(client, i)
                assert response.status_code < 500, response.text

        started = time.perf_counter()
        await asyncio.gather(*(runner() for _ in range(CONCURRENCY)))
        return time.perf_counter() - started


async def main(count: int) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="groupkit-bench-"))
    config = workdir / "groupkit.toml"
    url = os.environ.get("GROUPKIT_DATABASE_URL") or f"sqlite:///{workdir / 'bench.db'}"
    config.write_text(f'mode = "development"\n[database]\nurl = "{url}"\n'
                      "[limits]\npost_per_hour = 100000000\n")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GROUPKIT_")}
    server = subprocess.Popen([sys.executable, "-m", "groupkit.cli", "--config", str(config),
                               "serve", "--port", str(port)], env=env, cwd=workdir,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base) as client:
            for _ in range(400):
                try:
                    if (await client.get("/healthz")).status_code == 200:
                        break
                except httpx.TransportError:
                    await asyncio.sleep(0.05)
            sweep = (await client.post("/api/sweeps", json={
                "outcomes": ["a", "b"], "names": ["x", "y"]})).json()
            plate = (await client.post("/api/plate", json={"categories": [
                {"name": f"c{i}", "capacity": 20} for i in range(12)]})).json()
        cases: dict[str, Callable[[httpx.AsyncClient, int], Any]] = {
            "GET /robots.txt (no database)": lambda c, i: c.get("/robots.txt"),
            "GET /api/sweeps/{slug} (one read)": lambda c, i: c.get(
                f"/api/sweeps/{sweep['slug']}"),
            "POST /api/sweeps (create)": lambda c, i: c.post("/api/sweeps", json={
                "outcomes": ["a", "b"], "names": ["x", "y"]}),
            "POST /api/plate/claim (limit + claim)": lambda c, i: c.post(
                "/api/plate/claim", json={"slug": plate["slug"],
                                          "slotId": f"c{i % 12}-{1 + (i // 12) % 20}",
                                          "name": "n", "dish": "d"}),
        }
        results = {}
        for name, request in cases.items():
            await drive(base, 100, request)  # warm up
            before = tree_cpu_seconds(server.pid)
            wall = await drive(base, count, request)
            results[name] = ((tree_cpu_seconds(server.pid) - before) / count * 1000,
                             count / wall)
        baseline = next(iter(results.values()))[0]
        print(f"{count} requests each, {CONCURRENCY} concurrent, one worker, {url.split(':')[0]}")
        for name, (cpu_ms, rps) in results.items():
            print(f"{name:<40} {cpu_ms:6.2f} ms CPU/request  x{cpu_ms / baseline:4.1f}"
                  f"  {rps:7.0f} req/s")
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=10)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000))
