"""Running groupkit as a service people depend on: a worker killed with SIGKILL is replaced
while the others answer and no acknowledged write is lost; a service that cannot start says
why in one JSON line and exits non-zero; every log line is JSON."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from groupkit_testing import server_backends
from plugin_dist import NOT_IMPORTED
from plugin_dist import OTHER_API
from plugin_dist import install_plugin

pytestmark = pytest.mark.server

SWEEP = {"outcomes": ["A", "B"], "names": ["X", "Y"]}
REPLACED_WITHIN = 60.0  # a fresh worker imports every plugin: slow on a loaded machine


def worker_pids(log: str) -> list[int]:
    """The workers that announced they serve, in order (hypercorn's "Running on" lines)."""
    return [json.loads(line)["pid"] for line in log.splitlines()
            if "Running on http://" in line]


def json_lines(log: str) -> list[dict[str, Any]]:
    """Every line of a server log, each of which must be one JSON object."""
    entries = []
    for line in log.splitlines():
        if line.strip():
            entries.append(json.loads(line))  # fails the test on any plain line
    return entries


class Writer(threading.Thread):
    """Light load: one create after another, remembering every acknowledged slug."""

    def __init__(self, base_url: str) -> None:
        super().__init__(daemon=True)
        self.base_url = base_url
        self.acknowledged: list[str] = []
        self.answered_at: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        limits = httpx.Limits(max_keepalive_connections=0)
        with httpx.Client(base_url=self.base_url, timeout=30.0, limits=limits) as client:
            while not self.stop.is_set():
                try:
                    response = client.post("/api/sweeps", json=SWEEP)
                except httpx.TransportError:
                    continue  # in flight on the killed worker: never acknowledged
                if response.status_code == 201:
                    self.acknowledged.append(response.json()["slug"])
                    self.answered_at.append(time.monotonic())
                time.sleep(0.05)


@pytest.fixture(params=server_backends())
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("workers", [2, 1])
def test_a_killed_worker_is_replaced_and_no_acknowledged_write_is_lost(
        live_server: Callable[..., Any], backend: str, workers: int) -> None:
    server = live_server(workers=workers, database=backend)
    victim = worker_pids(server.log())[0]
    writer = Writer(server.base_url)
    writer.start()
    try:
        deadline = time.monotonic() + 30
        while len(writer.acknowledged) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(writer.acknowledged) >= 5, server.log()[-2000:]
        os.kill(victim, signal.SIGKILL)
        killed_at = time.monotonic()
        # With two workers the other one answers at once; with one, the listening socket
        # (held by the master) queues requests until the replacement serves.
        deadline = killed_at + REPLACED_WITHIN
        while time.monotonic() < deadline and not any(
                moment > killed_at + 0.5 for moment in writer.answered_at):
            time.sleep(0.1)
        assert any(moment > killed_at + 0.5 for moment in writer.answered_at), \
            server.log()[-3000:]
        if workers == 2:
            first_answer = min(m for m in writer.answered_at if m > killed_at + 0.5)
            assert first_answer - killed_at < 5.0
        while time.monotonic() < deadline and len(worker_pids(server.log())) <= workers:
            time.sleep(0.1)
        pids = worker_pids(server.log())
        assert len(pids) == workers + 1 and victim not in pids[workers:], server.log()[-3000:]
        os.kill(pids[-1], 0)  # the replacement is alive
        time.sleep(0.5)
    finally:
        writer.stop.set()
        writer.join(timeout=60)
    assert server.process is not None and server.process.poll() is None  # master still up
    entries = json_lines(server.log())
    died = [e for e in entries if e["logger"] == "groupkit.supervisor" and "died" in e["message"]]
    assert len(died) == 1 and "SIGKILL" in died[0]["message"] and died[0]["worker_pid"] == victim
    with server.client() as client:
        for slug in writer.acknowledged:
            assert client.get(f"/api/sweeps/{slug}").status_code == 200, slug


def test_every_log_line_is_json_and_serving_is_logged_once_all_workers_serve(
        live_server: Callable[..., Any]) -> None:
    server = live_server(workers=2, database="sqlite")
    with server.client() as client:
        assert client.get("/healthz").status_code == 200
    entries = json_lines(server.log())
    serving = [i for i, e in enumerate(entries) if e["message"].startswith("serving ")]
    assert len(serving) == 1
    assert entries[serving[0]]["logger"] == "groupkit"
    assert any(e["logger"] == "hypercorn.error" for e in entries)


def serve_once(tmp_path: Path, config_text: str, env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "groupkit.toml"
    config.write_text(config_text, encoding="utf-8")
    environment = {k: v for k, v in os.environ.items() if not k.startswith("GROUPKIT_")}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "groupkit", "--config", str(config), "serve", "--port",
         "0", "--workers", "2"], cwd=tmp_path, env=environment, capture_output=True, text=True,
        timeout=120)


def closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again when this returns


@pytest.mark.parametrize(("config", "env", "summary"), [
    ('[proxy]\ntrusted = ["10.0.0.300"]\n', {}, "proxy.trusted: '10.0.0.300'"),
    ('base_url = "groups.example.org"\n', {}, "base_url must be an origin"),
    ("", {"GROUPKIT_DATABASE_URL": "postgresql://u:p@127.0.0.1:{port}/groupkit"},
     "cannot use the database: connection to server"),
    ("", {"GROUPKIT_DATABASE_URL": "postgresql://u:p@127.0.0.1:5432"}, "names no database"),
    ('mode = "production"\n[database]\nurl = "sqlite:///missing/dir/groupkit.db"\n', {},
     "does not exist"),
    ('mode = "production"\n[database]\nurl = "sqlite:///groupkit.db"\n', {},
     "base_url must be set in production while chat webhooks are on"),
])
def test_a_service_that_cannot_start_exits_non_zero_with_one_json_line(
        tmp_path: Path, config: str, env: dict[str, str], summary: str) -> None:
    env = {key: value.format(port=closed_port()) for key, value in env.items()}
    result = serve_once(tmp_path, config, env)
    assert result.returncode == 1
    lines = (result.stdout + result.stderr).strip().splitlines()
    assert len(lines) == 1, lines
    entry = json.loads(lines[0])
    assert entry["level"] == "critical" and summary in entry["message"]
    assert entry["message"].startswith("groupkit cannot start: ")
    assert "\n" not in entry["message"] and entry["hint"] and "Traceback" in entry["traceback"]
    assert not re.search(r":p@|password", entry["message"])


KERNEL_TESTS = Path(__file__).resolve().parents[1] / "kernel" / "tests"


@pytest.mark.parametrize(("enabled", "plugin", "requires", "problem"), [
    ('["plate", "karaoke"]', None, (), "tools.enabled names 'karaoke', which is not installed"),
    (None, OTHER_API, ("groupkit>=0.1",), "tool plugin 'karaoke' is refused: tool 'karaoke' 9.9 "
                                          "supports groupkit plugin API 2 to 3"),
    ('["plate", "karaoke"]', NOT_IMPORTED, ("groupkit>=2,<3",),
     "tool plugin 'karaoke' is refused: groupkit-karaoke 0.1.0 requires groupkit<3,>=2"),
], ids=["not-installed", "other-plugin-api", "other-groupkit"])
def test_serve_refuses_to_start_with_the_line_check_prints(
        tmp_path: Path, enabled: str | None, plugin: str | None, requires: tuple[str, ...],
        problem: str) -> None:
    """One verdict on the enabled tools: an unknown name, a plugin refused by its declaration
    (here under the default "*") or by the groupkit range it requires (installed with
    --no-deps, so pip never checked it) stop both, with the same line."""
    site = tmp_path / "site"
    site.mkdir()
    if plugin is not None:
        install_plugin(site, "karaoke", plugin, requires)
    text = f'[database]\nurl = "sqlite:///{tmp_path}/g.db"\n'
    if enabled is not None:
        text += f"[tools]\nenabled = {enabled}\n"
    env = {"PYTHONPATH": os.pathsep.join([str(site), str(KERNEL_TESTS)])}
    served = serve_once(tmp_path, text, env)
    checked = subprocess.run(
        [sys.executable, "-m", "groupkit", "--config", str(tmp_path / "groupkit.toml"),
         "check"], cwd=tmp_path, env={**os.environ, **env}, capture_output=True, text=True,
        timeout=120)
    assert checked.returncode == 1 and checked.stderr == "", checked.stderr
    [line] = checked.stdout.splitlines()
    assert problem in line and line.startswith(str(tmp_path / "groupkit.toml"))
    assert served.returncode == 1
    [logged] = (served.stdout + served.stderr).strip().splitlines()
    assert json.loads(logged)["message"] == f"groupkit cannot start: {line}"
    assert not (tmp_path / "g.db").exists()  # refused before it migrated anything
