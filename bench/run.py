"""groupkit's benchmark: the real server on loopback, a load generator, and every figure as
a ratio to a bare Quart JSON route on the same server, same workers, same run.

    uv run nox -s bench                         # everything, results in bench/results.json
    uv run python bench/run.py --quick          # fewer requests, SQLite 1 worker only

For each scenario: requests per second, p50 and p99 latency, server CPU ms per request
(read from /proc for the server's whole process tree, so the client's own CPU does not
count), and each as a ratio to the bare route. Then: vote latency at 1,999 existing votes
against the first vote, page render time against content size, start-up time and memory per
worker with every tool loaded. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
CONCURRENCY = 10
Request = Callable[[httpx.AsyncClient, int], Awaitable[httpx.Response]]


# --- the server ---------------------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree(parent: int) -> list[int]:
    found, pending = [], [parent]
    while pending:
        pid = pending.pop()
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                pending += [int(c) for c in (task / "children").read_text().split()]
        except FileNotFoundError:
            continue
        found.append(pid)
    return found


def tree_cpu(parent: int) -> float:
    total = 0.0
    for pid in tree(parent):
        try:
            total += cpu_seconds(pid)
        except FileNotFoundError:
            continue
    return total


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    def __init__(self, database_url: str, workers: int, workdir: Path) -> None:
        self.workers, self.port = workers, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        config = workdir / f"groupkit-{workers}-{self.port}.toml"
        config.write_text(f'mode = "development"\n[database]\nurl = "{database_url}"\n'
                          "[limits]\npost_per_hour = 1000000000\n[retention]\nevery_minutes = 0\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("GROUPKIT_")}
        env.update(GROUPKIT_CONFIG=str(config), PYTHONPATH=str(ROOT))
        subprocess.run([sys.executable, "-m", "groupkit.cli", "--config", str(config),
                        "migrate"], env=env, check=True, stdout=subprocess.DEVNULL)
        env["GROUPKIT_MIGRATED"] = "1"
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hypercorn", "bench.app:app", "--bind",
             f"127.0.0.1:{self.port}", "--workers", str(workers), "--worker-class", "uvloop"],
            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        self.startup_seconds = self._wait()

    def _wait(self) -> float:
        deadline = time.monotonic() + 60
        with httpx.Client(base_url=self.base, timeout=2) as client:
            while time.monotonic() < deadline:
                try:
                    if client.get("/bench/bare").status_code == 200:
                        return time.perf_counter() - self.started
                except httpx.TransportError:
                    time.sleep(0.02)
        raise RuntimeError("server did not start")

    def worker_rss(self) -> list[float]:
        return [rss_mib(pid) for pid in tree(self.process.pid)[1:]] or \
            [rss_mib(self.process.pid)]

    def stop(self) -> None:
        os.killpg(self.process.pid, 15)
        self.process.wait(timeout=15)


# --- load ---------------------------------------------------------------------------------

async def drive(server: Server, count: int, request: Request, start: int = 0
                ) -> dict[str, float]:
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=CONCURRENCY)
    async with httpx.AsyncClient(base_url=server.base, timeout=60, limits=limits) as client:
        queue = iter(range(start, start + count))

        async def runner() -> None:
            for i in queue:
                started = time.perf_counter()
                response = await request(client, i)
                latencies.append(time.perf_counter() - started)
                if response.status_code >= 400:
                    raise RuntimeError(f"{response.status_code}: {response.text[:200]}")

        cpu_before, started = tree_cpu(server.process.pid), time.perf_counter()
        await asyncio.gather(*(runner() for _ in range(CONCURRENCY)))
        wall = time.perf_counter() - started
        cpu = tree_cpu(server.process.pid) - cpu_before
    latencies.sort()
    return {"rps": count / wall, "p50_ms": 1000 * latencies[len(latencies) // 2],
            "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
            "cpu_ms": 1000 * cpu / count}


def names(n: int, prefix: str = "Person") -> list[str]:
    return [f"{prefix} {i}" for i in range(n)]


async def setup(server: Server, tools: set[str]) -> dict[str, Any]:
    """Instances the scenarios read and write."""
    made: dict[str, Any] = {}
    async with httpx.AsyncClient(base_url=server.base, timeout=120) as c:
        async def create(tool: str, body: dict[str, Any]) -> dict[str, str]:
            response = await c.post(f"/api/{tool}", json=body)
            response.raise_for_status()
            return dict(response.json())

        made["plate_small"] = await create("plate", {"title": "Lunch", "categories": [
            {"name": f"Course {i}", "capacity": 4} for i in range(5)]})
        made["plate_large"] = await create("plate", {"title": "Street party", "categories": [
            {"name": f"Course {i}", "capacity": 20} for i in range(12)]})
        for i in range(12 * 20):
            await c.post("/api/plate/claim", json={
                "slug": made["plate_large"]["slug"], "slotId": f"c{i // 20}-{i % 20 + 1}",
                "name": f"Cook {i}", "dish": f"Dish {i} with a longer description"})
        made["claim_boards"] = [await create("plate", {"title": "Claims", "categories": [
            {"name": f"C{i}", "capacity": 20} for i in range(12)]}) for _ in range(40)]
        if "poll" in tools:
            made["polls"] = [await create("poll", {"question": "Lunch?", "options": [
                "Pizza", "Sushi", "Tacos", "Salad"], "allowSuggestions": True}) for _ in range(8)]
        if "card" in tools:
            for size in (100, 200, 400):
                card = await create("card", {"recipient": "Sam", "note": "Farewell!"})
                for i in range(size):
                    response = await c.post("/api/card/sign", json={
                        "slug": card["slug"], "name": f"Colleague {i}",
                        "message": f"All the best, Sam — it was great working with you. {i}"})
                    response.raise_for_status()
                made[f"card_{size}"] = card
        if "registry" in tools:
            document = (await c.get("/openapi.json")).json()
            example = document["paths"]["/api/registry"]["post"]["requestBody"]["content"][
                "application/json"]["example"]
            made["registry"] = await create("registry", example)
    return made


def scenarios(made: dict[str, Any], tools: set[str]) -> dict[str, Request]:
    boards = made["claim_boards"]
    cases: dict[str, Request] = {
        "bare Quart JSON route": lambda c, i: c.get("/bench/bare"),
        "create (sweep, 20 names)": lambda c, i: c.post("/api/sweeps", json={
            "outcomes": names(20, "Team"), "names": names(20)}),
        "claim (plate)": lambda c, i: c.post("/api/plate/claim", json={
            "slug": boards[i // 240 % len(boards)]["slug"],
            "slotId": f"c{i % 240 // 20}-{i % 20 + 1}", "name": "Ann", "dish": "Soup"}),
        "public page (plate 5x4)": lambda c, i: c.get(f"/s/{made['plate_small']['slug']}"),
        "public page (plate 12x20, all claimed)":
            lambda c, i: c.get(f"/s/{made['plate_large']['slug']}"),
        "organiser page (plate 5x4)":
            lambda c, i: c.get(f"/e/{made['plate_small']['editToken']}"),
    }
    if "polls" in made:
        polls = made["polls"]
        cases["vote (poll)"] = lambda c, i: c.post("/api/poll/vote", json={
            "slug": polls[i % len(polls)]["slug"], "choices": [], "suggestion": "Pizza",
            "voterName": f"Voter {i}"})
    if "card_400" in made:
        cases["public page (card, 400 messages)"] = \
            lambda c, i: c.get(f"/s/{made['card_400']['slug']}")
    if "registry" in made:
        cases["public page (registry, 126 parts)"] = \
            lambda c, i: c.get(f"/s/{made['registry']['slug']}")
    return cases


async def vote_latency(server: Server) -> dict[str, float] | None:
    """Mean latency of votes on an empty poll vs. votes 1,950-1,999 of a full one."""
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as c:
        async def poll() -> str:
            response = await c.post("/api/poll", json={"question": "Big?", "options": ["A", "B"],
                                                       "allowSuggestions": True})
            return str(response.json()["slug"])

        async def timed(slug: str, count: int) -> float:
            spent = 0.0
            for i in range(count):
                started = time.perf_counter()
                response = await c.post("/api/poll/vote", json={
                    "slug": slug, "choices": [], "suggestion": "A", "voterName": f"V{i}"})
                spent += time.perf_counter() - started
                response.raise_for_status()
            return spent / count

        fresh = [await poll() for _ in range(50)]
        first = statistics.mean([await timed(slug, 1) for slug in fresh])
        full = await poll()
        limits = httpx.Limits(max_connections=CONCURRENCY)
        async with httpx.AsyncClient(base_url=server.base, timeout=60, limits=limits) as bulk:
            for start in range(0, 1949, 50):
                await asyncio.gather(*(bulk.post("/api/poll/vote", json={
                    "slug": full, "choices": [], "suggestion": "B", "voterName": f"F{i}"})
                    for i in range(start, min(start + 50, 1949))))
        late = await timed(full, 50)
    return {"first_vote_ms": first * 1000, "votes_1950_to_1999_ms": late * 1000,
            "ratio": late / first}


async def render_growth(server: Server, made: dict[str, Any]) -> dict[str, float] | None:
    if "card_100" not in made:
        return None
    out: dict[str, float] = {}
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as c:
        for size in (100, 200, 400):
            slug = made[f"card_{size}"]["slug"]
            for _ in range(5):
                await c.get(f"/s/{slug}")
            started = time.perf_counter()
            for _ in range(40):
                (await c.get(f"/s/{slug}")).raise_for_status()
            out[f"card_{size}_ms"] = (time.perf_counter() - started) / 40 * 1000
    out["ratio_400_to_100"] = out["card_400_ms"] / out["card_100_ms"]
    return out


async def run_config(label: str, database_url: str, workers: int, count: int,
                     workdir: Path, extras: bool) -> dict[str, Any]:
    server = Server(database_url, workers, workdir)
    try:
        async with httpx.AsyncClient(base_url=server.base) as c:
            tools = {tag["name"] for tag in (await c.get("/openapi.json")).json()["tags"]}
        made = await setup(server, tools)
        results: dict[str, Any] = {}
        for name, request in scenarios(made, tools).items():
            warm = min(100, count)
            await drive(server, warm, request)  # warm up (its writes are not reused)
            results[name] = await drive(server, count, request, start=warm)
        bare = results["bare Quart JSON route"]
        for figures in results.values():
            figures["rps_ratio"] = figures["rps"] / bare["rps"]
            figures["cpu_ratio"] = figures["cpu_ms"] / bare["cpu_ms"]
            figures["p99_ratio"] = figures["p99_ms"] / bare["p99_ms"]
        report: dict[str, Any] = {"config": label, "workers": workers, "requests": count,
                                  "concurrency": CONCURRENCY, "scenarios": results,
                                  "startup_seconds": server.startup_seconds,
                                  "worker_rss_mib": server.worker_rss(),
                                  "tools_loaded": len(tools)}
        if extras:
            if "poll" in tools:
                report["vote_latency"] = await vote_latency(server)
            report["render_growth"] = await render_growth(server, made)
        return report
    finally:
        server.stop()


def markdown(reports: list[dict[str, Any]], command: str) -> str:
    lines = ["# Performance", "",
             "Measured by `nox -s bench` (`bench/run.py`): the real server on loopback, a "
             "load generator with", f"{CONCURRENCY} concurrent connections, and every figure "
             "as a ratio to a bare Quart JSON route", "on the same server, same workers, same "
             "run. Regenerate with:", "", f"    {command}", ""]
    for report in reports:
        lines += [f"## {report['config']}", "",
                  f"{report['requests']} requests per scenario; start-up "
                  f"{report['startup_seconds']:.2f} s with {report['tools_loaded']} tools; "
                  "worker memory " + ", ".join(f"{m:.0f} MiB" for m in report["worker_rss_mib"])
                  + ".", "",
                  "| Scenario | req/s | × bare | p50 ms | p99 ms | p99 × bare | CPU ms/req |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for name, f in report["scenarios"].items():
            lines.append(f"| {name} | {f['rps']:.0f} | {f['rps_ratio']:.2f} | "
                         f"{f['p50_ms']:.1f} | {f['p99_ms']:.1f} | {f['p99_ratio']:.2f} | "
                         f"{f['cpu_ms']:.2f} |")
        if report.get("vote_latency"):
            v = report["vote_latency"]
            lines += ["", f"Vote latency: first vote {v['first_vote_ms']:.1f} ms, votes "
                          f"1,950–1,999 {v['votes_1950_to_1999_ms']:.1f} ms "
                          f"(ratio {v['ratio']:.2f})."]
        if report.get("render_growth"):
            g = report["render_growth"]
            lines += ["", f"Card page render: 100 messages {g['card_100_ms']:.1f} ms, 200 "
                          f"{g['card_200_ms']:.1f} ms, 400 {g['card_400_ms']:.1f} ms "
                          f"(400/100 = {g['ratio_400_to_100']:.2f}; linear is 4)."]
        lines.append("")
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="SQLite, 1 worker, 300 requests")
    parser.add_argument("--requests", type=int, default=1500)
    parser.add_argument("--postgres", default=os.environ.get("GROUPKIT_BENCH_POSTGRES_URL"),
                        help="postgresql:// URL of an empty database for the PostgreSQL run")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="groupkit-bench-"))
    count = 300 if args.quick else args.requests
    plan = [("SQLite, 1 worker", f"sqlite:///{workdir / 'one.db'}", 1, True)]
    if not args.quick:
        plan.append(("SQLite, 2 workers", f"sqlite:///{workdir / 'two.db'}", 2, False))
        if args.postgres:
            plan.append(("PostgreSQL, 2 workers", args.postgres, 2, False))
    reports = []
    for label, url, workers, extras in plan:
        print(f"running {label} ...", flush=True)
        reports.append(await run_config(label, url, workers, count, workdir, extras))
    out = ROOT / "bench" / "results.json"
    out.write_text(json.dumps(reports, indent=2))
    text = markdown(reports, "uv run nox -s bench -- --postgres postgresql://…/empty_db")
    print(text)
    if not args.quick:
        (ROOT / "docs" / "performance.md").write_text(text)
    print(f"results: {out}" + ("" if args.quick else ", docs/performance.md"))


if __name__ == "__main__":
    asyncio.run(main())
