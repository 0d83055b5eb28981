"""groupkit's benchmark: the real server on loopback, driven by wrk (a native load generator,
so the client is not what is measured), every figure as a ratio to a bare Quart JSON route
on the same server, same workers, same run.

    uv run nox -s bench                         # everything; bench/results.json and
                                                # docs/performance.md
    uv run nox -s bench -- --quick              # SQLite 1 worker, shorter runs, no docs
                                                # (and PostgreSQL 2 workers with --postgres)
    uv run nox -s bench -- --postgres postgresql://…/empty_db   # adds the PostgreSQL runs

For each scenario (wrk, 32 connections, 8 s in four parts of 2 s): requests per second, p50
and p99 latency, and server CPU per request read from /proc for the server's whole process
tree (the client's own CPU does not count); each as a ratio to the bare route, measured for
1 s before and after each part, so that each scenario is compared with the bare runs between
its parts (`together`). The bare route must reach
`BARE_FLOOR` requests/s on one worker in at least one of its runs, or the run fails: a client
that never drives it that fast is the bottleneck, and no ratio means anything. It also fails
when any scenario gets a non-2xx answer: a write refused (a spot taken, a poll full) is
cheaper than a write, and would be counted as one.

Then: the fan-out (one claim on a board that N viewers hold open live, each re-fetching the
page on every change as groupkit.js does), server CPU per write against the same write with
no viewer; 1,000 open event streams on one worker (memory, and the p99 of other requests
meanwhile); claims per second with 1 and 2 workers; every scenario again on PostgreSQL with
2 workers (the scale-out path); the database statements each write sends
(`bench/roundtrips.py`); an unrelated write beside a busy ranked poll (`bench/bystander.py`,
which fails the run over its target). Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import bystander
import httpx
import roundtrips

ROOT = Path(__file__).resolve().parents[1]
CONNECTIONS = 32
SECONDS = 8
#: Each scenario runs in this many parts of SECONDS / ROUNDS, the bare route between them.
ROUNDS = 4
BARE_FLOOR = 2000.0
VIEWERS = 100
STREAMS = 1000
#: Seconds of reads measured with and without the open streams: longer than a stream's
#: keep-alive period (15 s), so every stream's keep-alive falls inside the window.
STREAM_WINDOW = 16


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


def load_average() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def machine_ticks() -> tuple[int, int]:
    """(busy, all) clock ticks of every core since boot, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = values[3] + values[4]  # idle and iowait
    return sum(values) - idle, sum(values)


def database_server(database_url: str) -> int | None:
    """The PostgreSQL server's main process when it runs on this machine (its backends and
    helpers are its children), else None: its CPU is the database's share of a write."""
    if not database_url.startswith("postgresql://"):
        return None
    import psycopg2

    with contextlib.closing(psycopg2.connect(database_url)) as conn, conn.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = int(cursor.fetchone()[0])
    try:
        parent = int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError):
        return None  # another machine's (or a container's) process
    return parent


class Server:
    def __init__(self, database_url: str, workers: int, workdir: Path) -> None:
        self.workers, self.port = workers, free_port()
        self.host = f"127.0.0.1:{self.port}"
        self.base = f"http://{self.host}"
        config = workdir / f"groupkit-{workers}-{self.port}.toml"
        config.write_text(f'mode = "development"\n[database]\nurl = "{database_url}"\n'
                          "[limits]\npost_per_hour = 1000000000\nstreams_per_client = 100000\n"
                          "[retention]\nevery_minutes = 0\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("GROUPKIT_")}
        env.update(GROUPKIT_CONFIG=str(config),
                   PYTHONPATH=os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"),
                                                            str(ROOT)])))
        subprocess.run([sys.executable, "-m", "groupkit", "--config", str(config),
                        "migrate"], env=env, check=True, stdout=subprocess.DEVNULL)
        env["GROUPKIT_MIGRATED"] = "1"
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hypercorn", "bench.app:app", "--bind", self.host,
             "--workers", str(workers), "--worker-class", "uvloop",
             "--keep-alive", "600"],
            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        self.startup_seconds = self._wait()
        self.database_pid = database_server(database_url)

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

    def cpu(self) -> float:
        return tree_cpu(self.process.pid)

    def database_cpu(self) -> float:
        """CPU-seconds the local PostgreSQL server has spent (0 on SQLite: its work is the
        server's own)."""
        return 0.0 if self.database_pid is None else tree_cpu(self.database_pid)

    def stop(self) -> None:
        os.killpg(self.process.pid, 15)
        self.process.wait(timeout=15)


# --- wrk ----------------------------------------------------------------------------------

#: Where a script's request counter starts: a scenario run in parts goes on from where its
#: last part stopped (a claim must not take a spot an earlier part took).
START = "GROUPKIT_BENCH_START"


def lua_post(path_bodies: str) -> str:
    """A wrk script whose `request()` posts `body(i)` for i = start, start + 1, ... (one wrk
    thread); `wrk(..., start=)` sets the start."""
    return ('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
            f"local i = {START}\n" + path_bodies +
            "request = function()\n  local path, body = make(i)\n  i = i + 1\n"
            "  return wrk.format(nil, path, nil, body)\nend\n")


def lua_list(values: list[str]) -> str:
    return "{" + ",".join(json.dumps(v) for v in values) + "}"


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def wrk(server: Server, path: str, script: str | None, workdir: Path,
        seconds: int = SECONDS, connections: int = CONNECTIONS, start: int = 0
        ) -> dict[str, float]:
    args = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    if script is not None:
        script = script.replace(START, str(start))
        lua = workdir / f"s{abs(hash(script))}.lua"
        lua.write_text(script)
        args += ["-s", str(lua)]
    settle(server)
    before, database_before, ticks_before = server.cpu(), server.database_cpu(), machine_ticks()
    out = subprocess.run([*args, server.base + path], capture_output=True, text=True,
                         check=True).stdout
    cpu = server.cpu() - before
    database_cpu = server.database_cpu() - database_before
    busy, ticks = (after - was for after, was in zip(machine_ticks(), ticks_before, strict=True))
    count = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),  # type: ignore[union-attr]
            "p50_ms": _ms(re.search(r"^\s*50%\s+(\S+)", out, re.M).group(1)),  # type: ignore[union-attr]
            "p99_ms": _ms(re.search(r"^\s*99%\s+(\S+)", out, re.M).group(1)),  # type: ignore[union-attr]
            "cpu_ms": 1000 * cpu / max(count, 1), "requests": count,
            "database_cpu_ms": 1000 * database_cpu / max(count, 1),
            "busy": busy / max(ticks, 1),
            "errors": int(bad.group(1)) if bad else 0}


# --- data ---------------------------------------------------------------------------------

def settle(server: Server, limit: float = 3.0) -> None:
    """Wait until the server spends at most one clock tick (10 ms) of CPU in 200 ms, so that
    a run is not charged for the last one's tail (the writes still in flight when wrk
    stopped, a checkpoint)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = server.cpu()
        time.sleep(0.2)
        if server.cpu() - before < 0.015:
            return


def names(n: int, prefix: str = "Person") -> list[str]:
    return [f"{prefix} {i}" for i in range(n)]


BIG_BOARD = {"title": "Claims", "categories": [{"name": f"C{i}", "capacity": 20}
                                               for i in range(12)]}


async def setup(server: Server, tools: set[str], boards: int) -> dict[str, Any]:
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
        made["claim_boards"] = [await create("plate", BIG_BOARD) for _ in range(boards)]
        if "poll" in tools:
            made["polls"] = [await create("poll", {"question": "Lunch?", "options": [
                "Pizza", "Sushi", "Tacos", "Salad"], "allowSuggestions": True})
                for _ in range(POLLS)]
        if "giftidea" in tools:
            board = await create("giftidea", {"recipient": "Sam"})
            ideas = []
            for i in range(5):
                response = await c.post("/api/giftidea/suggest", json={
                    "slug": board["slug"], "idea": f"Idea {i}"})
                response.raise_for_status()
                ideas.append(response.json()["id"])
            made["giftidea"] = {**board, "ideas": ideas}
        if "card" in tools:
            card = await create("card", {"recipient": "Sam", "note": "Farewell!"})
            for i in range(400):
                response = await c.post("/api/card/sign", json={
                    "slug": card["slug"], "name": f"Colleague {i}",
                    "message": f"All the best, Sam — it was great working with you. {i}"})
                response.raise_for_status()
            made["card_400"] = card
        if "registry" in tools:
            document = (await c.get("/openapi.json")).json()
            example = document["paths"]["/api/registry"]["post"]["requestBody"]["content"][
                "application/json"]["example"]
            made["registry"] = await create("registry", example)
    return made


#: Polls the votes go round: a poll takes 2,000 ballots, so 24 take 48,000, more than 8 s of
#: votes at 4,000/s. (With 8, a run at 2,000 votes/s filled them, and the refusals, cheaper
#: than a vote, were counted as votes.)
POLLS = 24


def claim_script(boards: list[dict[str, str]]) -> str:
    return lua_post(
        f"local boards = {lua_list([b['slug'] for b in boards])}\n"
        "make = function(n)\n"
        "  local slug = boards[math.floor(n / 240) % #boards + 1]\n"
        "  local slot = string.format('c%d-%d', math.floor((n % 240) / 20), n % 20 + 1)\n"
        "  return '/api/plate/claim', string.format("
        "'{\"slug\":\"%s\",\"slotId\":\"%s\",\"name\":\"Ann\",\"dish\":\"Soup\"}', slug, slot)\n"
        "end\n")


#: The spread claims take the last boards, "claim (plate)" the others: each has 48,000
#: spots, more than 8 s of claims at 6,000/s, so neither scenario runs out or overlaps.
#: (With 12,000 each, a faster machine's two SQLite workers ran out at 2,262 claims/s; with
#: 24,000, at 4,148 once writes shared their commits. A refusal as taken is cheaper than a
#: claim, and was counted as one.)
SPREAD_BOARDS = 200
CLAIM_BOARDS = 200
SPREAD = f"claim (plate), each on the next of {SPREAD_BOARDS} boards"
BARE = "bare Quart JSON route"


def spread_claim_script(boards: list[dict[str, str]]) -> str:
    """Claims as `claim_script` makes them, but each one on the next board: concurrent claims
    on different instances, where `claim_script`'s all wait for one instance's lock."""
    return lua_post(
        f"local boards = {lua_list([b['slug'] for b in boards])}\n"
        "make = function(n)\n"
        "  local slug = boards[n % #boards + 1]\n"
        "  local k = math.floor(n / #boards) % 240\n"
        "  local slot = string.format('c%d-%d', math.floor(k / 20), k % 20 + 1)\n"
        "  return '/api/plate/claim', string.format("
        "'{\"slug\":\"%s\",\"slotId\":\"%s\",\"name\":\"Ann\",\"dish\":\"Soup\"}', slug, slot)\n"
        "end\n")


def scenarios(made: dict[str, Any]) -> dict[str, tuple[str, str | None]]:
    """name -> (path, wrk script or None for a plain GET)."""
    small, large = made["plate_small"], made["plate_large"]
    cases: dict[str, tuple[str, str | None]] = {
        BARE: ("/bench/bare", None),
        "public JSON read (plate 5x4)": (f"/api/plate/{small['slug']}", None),
        "public page (plate 5x4)": (f"/s/{small['slug']}", None),
        "organiser page (plate 5x4)": (f"/e/{small['editToken']}", None),
        "public page (plate 12x20, all claimed)": (f"/s/{large['slug']}", None),
        "claim (plate)": ("/", claim_script(made["claim_boards"][:-SPREAD_BOARDS])),
        SPREAD: ("/", spread_claim_script(made["claim_boards"][-SPREAD_BOARDS:])),
        "create (sweep, 20 names)": ("/", lua_post(
            "local body = " + json.dumps(json.dumps(
                {"outcomes": names(20, "Team"), "names": names(20)})) + "\n"
            "make = function(n) return '/api/sweeps', body end\n")),
    }
    if "polls" in made:
        cases["vote (poll)"] = ("/", lua_post(
            f"local polls = {lua_list([p['slug'] for p in made['polls']])}\n"
            "make = function(n)\n  return '/api/poll/vote', string.format("
            "'{\"slug\":\"%s\",\"choices\":[],\"suggestion\":\"Pizza\","
            "\"voterName\":\"Voter %d\"}', polls[n % #polls + 1], n)\nend\n"))
    if "giftidea" in made:
        gift = made["giftidea"]
        cases["upvote (gift idea)"] = ("/", lua_post(
            f"local ideas = {lua_list(gift['ideas'])}\n"
            "make = function(n)\n  return '/api/giftidea/upvote', string.format("
            f"'{{\"slug\":\"{gift['slug']}\",\"ideaId\":\"%s\"}}', ideas[n % #ideas + 1])\n"
            "end\n"))
    if "card_400" in made:
        cases["public page (card, 400 messages)"] = (f"/s/{made['card_400']['slug']}", None)
    if "registry" in made:
        cases["public page (registry, 126 parts)"] = (f"/s/{made['registry']['slug']}", None)
    return cases


# --- live pages: a minimal HTTP/1.1 client, so thousands of streams stay cheap -------------

class Viewer:
    """One open page: holds the event stream and, on each new version, re-fetches the page
    over its own keep-alive connection, as groupkit.js does."""

    def __init__(self, server: Server, slug: str, page: str) -> None:
        self.server, self.slug, self.page = server, slug, page
        self.version = -1
        self.fetched = -1
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def start(self, refetch: bool = True) -> None:
        ready = asyncio.Event()
        self.task = asyncio.create_task(self._run(ready, refetch))
        await ready.wait()

    async def _run(self, ready: asyncio.Event, refetch: bool) -> None:
        host, port = self.server.host.split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        # A public page asks for the changed parts in each event, as groupkit.js does.
        query = "?page=public" if self.page.startswith("/s/") else ""
        writer.write(f"GET /api/plate/{self.slug}/events{query} HTTP/1.1\r\n"
                     f"Host: {self.server.host}"
                     "\r\nAccept: text/event-stream\r\n\r\n".encode())
        page = None
        if refetch:
            page = await asyncio.open_connection(host, int(port))
        buffer = b""
        try:
            while True:
                chunk = await reader.read(65536)
                if not chunk:
                    return
                buffer += chunk
                found = re.findall(rb"event: (version|parts)\ndata: (\d+)", buffer)
                buffer = buffer[-64:]
                if not found:
                    continue
                kind, version = found[-1]
                if int(version) == self.version:
                    continue
                self.version = int(version)
                ready.set()
                if page is not None and kind == b"version":
                    await self._fetch(*page)
                self.fetched = self.version
                self.changed.set()
        finally:
            writer.close()
            if page is not None:
                page[1].close()

    async def _fetch(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(f"GET {self.page} HTTP/1.1\r\nHost: {self.server.host}\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(re.search(rb"content-length: (\d+)", head.lower()).group(1))  # type: ignore[union-attr]
        await reader.readexactly(length)

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()


async def fanout(server: Server, viewers: int, writes: int = 20) -> dict[str, float]:
    """Server CPU per claim on a board that `viewers` pages hold open live."""
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as c:
        slug = (await c.post("/api/plate", json=BIG_BOARD)).json()["slug"]
        watching = [Viewer(server, slug, f"/s/{slug}") for _ in range(viewers)]
        for viewer in watching:
            await viewer.start()
        await c.get(f"/s/{slug}")
        spent = 0.0
        try:
            for n in range(writes):
                before = server.cpu()
                response = await c.post("/api/plate/claim", json={
                    "slug": slug, "slotId": f"c{n // 20}-{n % 20 + 1}", "name": "Ann",
                    "dish": "Soup"})
                response.raise_for_status()
                deadline = time.monotonic() + 30
                while any(v.fetched < n + 1 for v in watching) and time.monotonic() < deadline:
                    await asyncio.sleep(0.005)
                await asyncio.sleep(0.05)
                spent += server.cpu() - before
        finally:
            for viewer in watching:
                viewer.stop()
    return {"viewers": viewers, "cpu_ms_per_write": 1000 * spent / writes}


async def open_streams(server: Server, made: dict[str, Any], workdir: Path) -> dict[str, Any]:
    """Memory and the p99 of other requests with `STREAMS` event streams held open."""
    slug = made["plate_small"]["slug"]
    quiet = wrk(server, f"/api/plate/{slug}", None, workdir, seconds=STREAM_WINDOW)
    rss_before = server.worker_rss()[0]
    boards = made["claim_boards"][:10]
    viewers = [Viewer(server, boards[i % len(boards)]["slug"], "") for i in range(STREAMS)]
    for start in range(0, STREAMS, 100):
        await asyncio.gather(*(v.start(refetch=False) for v in viewers[start:start + 100]))
    await asyncio.sleep(1.0)
    rss_open = server.worker_rss()[0]
    loaded = await asyncio.to_thread(wrk, server, f"/api/plate/{slug}", None, workdir,
                                     STREAM_WINDOW)
    held = sum(1 for v in viewers if v.version >= 0 and v.task is not None and not v.task.done())
    for viewer in viewers:
        viewer.stop()
    return {"streams": held, "rss_before_mib": rss_before, "rss_open_mib": rss_open,
            "rss_added_mib": rss_open - rss_before, "p99_quiet_ms": quiet["p99_ms"],
            "p99_with_streams_ms": loaded["p99_ms"], "rps_with_streams": loaded["rps"]}


# --- runs ---------------------------------------------------------------------------------

async def run_config(label: str, database_url: str, workers: int, workdir: Path,
                     scope: str, seconds: int) -> dict[str, Any]:
    """One server's run. `scope`: "all" (every scenario, the fan-out and the open streams),
    "scenarios" (every scenario) or "claims" (the claims, for two workers against one)."""
    server = Server(database_url, workers, workdir)
    try:
        async with httpx.AsyncClient(base_url=server.base) as c:
            tools = {tag["name"] for tag in (await c.get("/openapi.json")).json()["tags"]}
        made = await setup(server, tools, boards=SPREAD_BOARDS + CLAIM_BOARDS)
        cases = scenarios(made)
        if scope == "claims":
            cases = {k: v for k, v in cases.items()
                     if k in (BARE, "claim (plate)", SPREAD)}
        results: dict[str, Any] = {}
        bare_path = cases.pop(BARE)[0]
        wrk(server, bare_path, None, workdir, seconds=1)  # warm up
        results[BARE] = first = wrk(server, bare_path, None, workdir, seconds=seconds)
        references = {BARE: first}
        bare_rates = [first["rps"]]
        rounds = ROUNDS if seconds >= 2 * ROUNDS else 1
        # Each bare run beside a scenario's parts is as long as the others: the first full
        # one would outweigh them for the first scenario.
        before = wrk(server, bare_path, None, workdir, seconds=max(1, seconds // (2 * rounds)))
        bare_rates.append(before["rps"])
        for name, (path, script) in cases.items():
            if script is None:
                wrk(server, path, None, workdir, seconds=1)  # warm up
            runs: list[dict[str, float]] = []
            bares = [before]
            for _ in range(rounds):
                start = int(sum(run["requests"] + CONNECTIONS for run in runs))
                runs.append(wrk(server, path, script, workdir, seconds=seconds // rounds,
                                start=start))
                bares.append(wrk(server, bare_path, None, workdir,
                                 seconds=max(1, seconds // (2 * rounds))))
            results[name] = together(runs)
            references[name] = together(bares)
            bare_rates += [run["rps"] for run in bares[1:]]
            before = bares[-1]
        for name, figures in results.items():
            bare = references[name]
            figures["bare_cpu_ms"] = bare["cpu_ms"]
            figures["rps_ratio"] = figures["rps"] / bare["rps"]
            figures["cpu_ratio"] = bare["cpu_ms"] / figures["cpu_ms"]
            figures["cpu_ratio_first"] = first["cpu_ms"] / figures["cpu_ms"]
            figures["p99_ratio"] = figures["p99_ms"] / bare["p99_ms"]
        report: dict[str, Any] = {"config": label, "workers": workers, "scenarios": results,
                                  "bare_best_rps": max(bare_rates),
                                  "startup_seconds": server.startup_seconds,
                                  "worker_rss_mib": server.worker_rss(),
                                  "tools_loaded": len(tools), "load_average": load_average()}
        if scope == "all":
            # CPU is read in clock ticks (10 ms): the claim alone costs a few ms, so it
            # is measured over ten times as many claims as the watched one.
            alone = await fanout(server, 0, writes=200)
            watched = await fanout(server, VIEWERS)
            report["fanout"] = {**watched, "cpu_ms_per_write_alone": alone["cpu_ms_per_write"],
                                "ratio": watched["cpu_ms_per_write"]
                                / max(alone["cpu_ms_per_write"], 0.001)}
            report["streams"] = await open_streams(server, made, workdir)
        return report
    finally:
        server.stop()


def together(runs: list[dict[str, float]]) -> dict[str, float]:
    """Several wrk runs of one path as one: CPU per request over all their requests, the sum
    of requests and errors, and the mean of their rates and percentiles.

    Over one server's life the machine's speed drifts (the bare route alone went from 0.55
    to 0.73 ms of CPU a request within a minute on a quiet machine, and from 0.50 to 0.65 ms
    between two back-to-back runs), so a scenario is run in `ROUNDS` parts with the bare
    route measured between them, and compared with those bare runs together."""
    requests = sum(run["requests"] for run in runs)
    return {**{key: sum(run[key] * run["requests"] for run in runs) / max(requests, 1)
               for key in ("cpu_ms", "database_cpu_ms")},
            "requests": requests, "errors": sum(run["errors"] for run in runs),
            **{key: sum(run[key] for run in runs) / len(runs)
               for key in ("rps", "p50_ms", "p99_ms", "busy")}}


def roundtrip_lines(counts: dict[str, dict[str, list[str]]]) -> list[str]:
    """The statements each write sends (`bench/roundtrips.py`), per database: on PostgreSQL
    each is a round trip. Deterministic, unlike every other figure here."""
    if not counts:
        return []
    names = list(next(iter(counts.values())))
    lines = ["## Database statements per write", "",
             *textwrap.wrap("Counted by `bench/roundtrips.py` (every statement the server "
                            "sends for one write through the whole kernel, BEGIN and COMMIT "
                            "included; on PostgreSQL each is a round trip, several joined in "
                            "one where nothing waits for their answers). A cached read sends "
                            "none on either database.", 92), "",
             "| Write | " + " | ".join(counts) + " |",
             "| --- |" + " ---: |" * len(counts)]
    lines += [f"| {name} | " + " | ".join(str(len(found[name])) for found in counts.values())
              + " |" for name in names]
    return [*lines, ""]


def markdown(reports: list[dict[str, Any]], command: str, conditions: str,
             trips: dict[str, dict[str, list[str]]] | None = None,
             beside: dict[str, float] | None = None) -> str:
    intro = (
        "Measured by `nox -s bench` (`bench/run.py`): the real server (hypercorn, uvloop) on "
        f"loopback, driven by wrk with {CONNECTIONS} connections for {SECONDS} s per scenario, "
        f"in {ROUNDS} parts of {SECONDS // ROUNDS} s. Every figure is also given as a ratio to "
        "a bare Quart JSON route on the same server, same workers, same run: **CPU × bare** is "
        "the bare route's server CPU per request divided by the scenario's (higher is better; "
        "1.0 is as cheap as a request that does nothing). The bare route is measured for "
        f"{SECONDS // (2 * ROUNDS)} s before and after each part of a scenario, and each "
        "scenario is compared with those bare runs (their requests and CPU together; the mean "
        "of their rates and percentiles): over one run the machine's speed drifts within a "
        "minute, and a scenario measured in a slow stretch was compared with a bare route "
        "measured in a fast one. **CPU × first bare** compares it with the run's first bare "
        "route instead, as earlier runs did. **Database CPU** is what the PostgreSQL server "
        "on the same machine spent per request (its backends included; SQLite's work is part "
        "of the server's own CPU), and **cores busy** the share of all the machine's "
        f"{os.cpu_count()} cores that were busy meanwhile (the server, the database, wrk and "
        "anything else). Regenerate with:")
    lines = ["# Performance", "", *textwrap.wrap(intro, 92), "", f"    {command}", "",
             f"Load during this run: {conditions}", ""]
    for report in reports:
        lines += [f"## {report['config']}", "",
                  f"Start-up {report['startup_seconds']:.2f} s with {report['tools_loaded']} "
                  "tools; worker memory " + ", ".join(
                      f"{m:.0f} MiB" for m in report["worker_rss_mib"])
                  + f"; load average {report['load_average']} at the end.", "",
                  "| Scenario | req/s | CPU ms/req | CPU × bare | CPU × first bare | p50 ms "
                  "| p99 ms | p99 × bare | non-2xx | database CPU ms/req | cores busy |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for name, f in report["scenarios"].items():
            database = (f"{f['database_cpu_ms']:.2f}" if report["config"].startswith("Postgre")
                        else "(in the server's)")
            lines.append(f"| {name} | {f['rps']:.0f} | {f['cpu_ms']:.2f} | "
                         f"{f['cpu_ratio']:.2f} | {f['cpu_ratio_first']:.2f} | "
                         f"{f['p50_ms']:.1f} | {f['p99_ms']:.1f} | "
                         f"{f['p99_ratio']:.2f} | {f['errors']} | {database} | "
                         f"{100 * f['busy']:.0f}% |")
        if report.get("fanout"):
            f = report["fanout"]
            lines += ["", f"Fan-out: one claim on a 12x20 board that {f['viewers']} pages hold "
                          "open live (each taking the changed parts from its event stream, as "
                          "groupkit.js does on a public page) costs "
                          f"{f['cpu_ms_per_write']:.1f} ms of server CPU, against "
                          f"{f['cpu_ms_per_write_alone']:.1f} ms for the same claim with no "
                          f"viewer ({f['ratio']:.1f}×)."]
        if report.get("streams"):
            s = report["streams"]
            lines += ["", f"Open streams: {s['streams']} event streams held on one worker add "
                          f"{s['rss_added_mib']:.0f} MiB ({s['rss_before_mib']:.0f} → "
                          f"{s['rss_open_mib']:.0f} MiB); the p99 of public JSON reads "
                          f"over {STREAM_WINDOW} s meanwhile is {s['p99_with_streams_ms']:.1f} "
                          f"ms (without them {s['p99_quiet_ms']:.1f} ms)."]
        lines.append("")
    lines += scaling(reports)
    if beside:
        lines += [*textwrap.wrap(bystander.line(beside), 92), ""]
    lines += roundtrip_lines(trips or {})
    return "\n".join(lines)


def scaling(reports: list[dict[str, Any]]) -> list[str]:
    """Claims per second on two workers over one, per database: the multi-worker case."""
    by_config = {(r["config"].split(",")[0], r["workers"]): r["scenarios"] for r in reports}
    lines = []
    for database in ("SQLite", "PostgreSQL"):
        one, two = by_config.get((database, 1)), by_config.get((database, 2))
        if one is None or two is None:
            continue
        parts = [f"{name}: {two[name]['rps']:.0f} against {one[name]['rps']:.0f} "
                 f"({two[name]['rps'] / one[name]['rps']:.2f}×; cores busy "
                 f"{100 * two[name]['busy']:.0f}% against {100 * one[name]['busy']:.0f}%)"
                 for name in ("claim (plate)", SPREAD) if name in one and name in two]
        lines += [f"{database}, claims per second on two workers against one: "
                  + "; ".join(parts) + ".", ""]
    return lines


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="SQLite, 1 worker (and PostgreSQL, 2 workers, with --postgres), "
                             "3 s per scenario, no docs")
    parser.add_argument("--postgres", default=os.environ.get("GROUPKIT_BENCH_POSTGRES_URL"),
                        help="postgresql:// URL of an empty database for the PostgreSQL runs")
    parser.add_argument("--loaded", action="store_true",
                        help="record the figures even when the bare route misses the floor "
                             "(a shared, loaded machine); the docs say so")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="groupkit-bench-"))
    seconds = 3 if args.quick else SECONDS
    plan = [("SQLite, 1 worker", f"sqlite:///{workdir / 'one.db'}", 1, "all")]
    if not args.quick:
        plan.append(("SQLite, 2 workers", f"sqlite:///{workdir / 'two.db'}", 2, "claims"))
        if args.postgres:
            plan.append(("PostgreSQL, 1 worker", args.postgres, 1, "claims"))
    if args.postgres:
        # Every scenario: several workers on PostgreSQL is the scale-out path.
        plan.append(("PostgreSQL, 2 workers", args.postgres, 2, "scenarios"))
    load_before = load_average()
    reports = []
    for label, url, workers, scope in plan:
        print(f"running {label} ...", flush=True)
        reports.append(await run_config(label, url, workers, workdir, scope, seconds))
        if label == "SQLite, 1 worker":
            bare = reports[0]["bare_best_rps"]
            if bare < BARE_FLOOR and not args.loaded:
                print(markdown(reports, "(not recorded)", "under the floor"))
                sys.exit(f"FAILED: the bare route reached {bare:.0f} requests/s at best on one "
                         f"worker, under the {BARE_FLOOR:.0f} floor: the machine or the client "
                         "is the bottleneck, so no figure of this run means anything. Run it on a "
                         "quieter machine (or pass --loaded to record it anyway, marked).")
    refused = [f"{report['config']}: {name} ({figures['errors']})"
               for report in reports for name, figures in report["scenarios"].items()
               if figures["errors"]]
    if refused:
        print(markdown(reports, "(not recorded)", "some requests failed"))
        sys.exit("FAILED: non-2xx answers in " + "; ".join(refused) + ". A refused write "
                 "(a spot taken, a poll full) is cheaper than a write, so its figures are too "
                 "good: give the scenario more to write to.")
    print("running a write beside a busy ranked poll ...", flush=True)
    beside = bystander.run(workdir)
    if beside["ratio"] > bystander.TARGET:
        print(bystander.line(beside))
        sys.exit("FAILED: a write beside a busy ranked poll is over its target: a ballot "
                 "change holds the write lock too long.")
    trips = {"SQLite": await roundtrips.count_writes(f"sqlite:///{workdir / 'trips.db'}")}
    if args.postgres:
        trips["PostgreSQL"] = await roundtrips.count_writes(args.postgres)
    out = ROOT / "bench" / "results.json"
    out.write_text(json.dumps({"configs": reports, "beside_busy_poll": beside}, indent=2))
    bare = reports[0]["bare_best_rps"]
    first = reports[0]["scenarios"][BARE]["rps"]
    conditions = (f"load average {load_before} (1 min) when it started, on 2 cores. ")
    if bare < BARE_FLOOR:
        conditions += (f"**The bare route reached only {bare:.0f} requests/s, under the "
                       f"{BARE_FLOOR:.0f} floor: the machine was shared and loaded, so "
                       "absolute rates and p99 are not representative; read the ratios, which "
                       "compare scenarios run back to back on the same server.**")
    else:
        conditions += (f"The bare route reached {bare:.0f} requests/s at best (floor "
                       f"{BARE_FLOOR:.0f}), {first:.0f} in its first run.")
    command = "uv run nox -s bench -- --postgres postgresql://…/empty_db" + (
        " --loaded" if args.loaded else "")
    text = markdown(reports, command, conditions, trips, beside)
    print(text)
    if not args.quick:
        (ROOT / "docs" / "performance.md").write_text(text)
    print(f"results: {out}" + ("" if args.quick else ", docs/performance.md"))


if __name__ == "__main__":
    asyncio.run(main())
