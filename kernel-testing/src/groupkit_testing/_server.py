"""The kit's live-server fixture: real `groupkit serve` processes on loopback.

    def test_something(live_server):
        server = live_server(workers=2, mode="production")
        response = httpx.get(server.url("/healthz"))

`live_server` is a module-scoped factory: every call starts a fresh server (its own temp
config TOML and its own empty database) on a free 127.0.0.1 port, waits until `/healthz`
answers in every worker, and the server's whole process group is terminated when the module
finishes (or earlier, with `server.stop()`). A server that answered a 500 fails the module.

The database is a SQLite file in a temp directory, or, when $GROUPKIT_TEST_POSTGRES_URL is set,
a fresh schema in that PostgreSQL database (`database="sqlite"` / `"postgres"` pick one
explicitly; asking for PostgreSQL without the URL skips, or fails under
$GROUPKIT_REQUIRE_EXTERNAL=1).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from groupkit_testing._external import PostgresSchema
from groupkit_testing._external import external_missing
from groupkit_testing._external import postgres_url

START_TIMEOUT = 60.0
#: How the supervisor's JSON line that every worker serves begins (`groupkit serve`).
SERVING = '"message": "serving '
POLL_SECONDS = 0.05
STOP_TIMEOUT = 10.0
# The server must see only the config file we write, whatever the caller's environment says.
SCRUBBED_ENV = ("GROUPKIT_CONFIG", "GROUPKIT_DATABASE_URL", "GROUPKIT_MODE", "GROUPKIT_MIGRATED")


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a valid TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def write_config(path: Path, *, mode: str, database_url: str, limits: Mapping[str, int],
                 trusted_proxies: Sequence[str], tools: Sequence[str],
                 extra_toml: str = "", webhooks: Mapping[str, Any] | None = None,
                 base_url: str = "") -> Path:
    lines = [f"mode = {_toml(mode)}", *([f"base_url = {_toml(base_url)}"] if base_url else []),
             "",
             "[database]", f"url = {_toml(database_url)}", "threads = 4", "",
             "[tools]", f"enabled = {_toml(list(tools))}", "",
             "[limits]", *(f"{key} = {_toml(value)}" for key, value in limits.items()), "",
             "[proxy]", f"trusted = {_toml(list(trusted_proxies))}", "", extra_toml]
    if webhooks:
        lines += ["", "[webhooks]",
                  *(f"{key} = {_toml(value)}" for key, value in webhooks.items()), ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerFailed(RuntimeError):
    """The server exited or never became ready; its log tail is in the message."""


class LiveServer:
    """One running `groupkit serve`: `base_url`, `url(path)`, `client()`, `log()`, `stop()`."""

    def __init__(self, directory: Path, *, workers: int, mode: str, database: str | LiveServer,
                 limits: Mapping[str, int], trusted_proxies: Sequence[str],
                 tools: Sequence[str], extra_toml: str = "",
                 python: str = sys.executable,
                 webhooks: Mapping[str, Any] | None = None, base_url: str = "",
                 env: Mapping[str, str] | None = None) -> None:
        self.directory = directory
        self.env = dict(env or {})  # more environment for the process
        self.python = python  # the interpreter whose installed groupkit serves
        self.workers = workers
        self.mode = mode
        self.schema: PostgresSchema | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.backend, self.database_url = self._database(database)
        self.config_path = write_config(
            directory / "groupkit.toml", mode=mode, database_url=self.database_url,
            limits=limits, trusted_proxies=trusted_proxies, tools=tools, extra_toml=extra_toml,
            webhooks=webhooks, base_url=base_url)
        self.log_path = directory / "server.log"
        self.port = 0
        self.base_url = ""

    def _database(self, choice: str | LiveServer) -> tuple[str, str]:
        if isinstance(choice, LiveServer):  # share another server's database (it owns it)
            return choice.backend, choice.database_url
        url = postgres_url()
        if choice == "default":
            choice = "postgres" if url else "sqlite"
        if choice == "sqlite":
            return "sqlite", f"sqlite:///{self.directory / 'groupkit.db'}"
        if choice == "postgres":
            if url is None:
                external_missing("PostgreSQL")
            assert url is not None
            self.schema = PostgresSchema(url)
            return "postgres", self.schema.database_url
        raise ValueError(f"unknown database choice {choice!r}")

    # --- life cycle -------------------------------------------------------------------------

    def start(self) -> LiveServer:
        return self.launch().wait()

    def launch(self) -> LiveServer:
        """Start the process without waiting for it (see `wait`)."""
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        env = {key: value for key, value in os.environ.items() if key not in SCRUBBED_ENV}
        env["PYTHONUNBUFFERED"] = "1"
        env.update(self.env)
        command = [self.python, "-m", "groupkit", "--config", str(self.config_path),
                   "serve", "--host", "127.0.0.1", "--port", str(self.port),
                   "--workers", str(self.workers)]
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                command, cwd=self.directory, env=env, stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True)
        return self

    def wait(self) -> LiveServer:
        """Block until every worker serves; relaunch if the port was taken meanwhile."""
        for attempt in range(3):
            try:
                self._wait_until_ready()
                return self
            except ServerFailed:
                self._kill()
                if attempt == 2 or "address already in use" not in self.log().lower():
                    self._drop_schema()
                    raise
                self.log_path.write_bytes(b"")
                self.launch()
        raise AssertionError("unreachable")

    def _wait_until_ready(self) -> None:
        if self.process is None:
            raise ServerFailed("the server is not running")
        deadline = time.monotonic() + START_TIMEOUT
        healthy = False
        with httpx.Client(timeout=2.0) as client:
            while time.monotonic() < deadline:
                if self._exited(self.process):
                    raise ServerFailed(f"groupkit serve exited:\n{self.log()[-3000:]}")
                if not healthy:
                    with contextlib.suppress(httpx.TransportError):
                        healthy = client.get(self.url("/healthz")).status_code == 200
                # /healthz answers as soon as one worker listens; wait for all of them to
                # listen (hypercorn's lines) and for the supervisor to have seen every one
                # ready (its one "serving" line, written a moment later by another process).
                log = self.log()
                if (healthy and log.count("Running on http://") >= self.workers
                        and SERVING in log):
                    return
                time.sleep(POLL_SECONDS)
        raise ServerFailed(f"groupkit serve not ready after {START_TIMEOUT}s:\n"
                           f"{self.log()[-3000:]}")

    @staticmethod
    def _exited(process: subprocess.Popen[bytes]) -> bool:
        """Whether the server process has exited, without reaping it: until it is reaped its
        PID, which is also its process group's id, cannot pass to any other process."""
        if process.returncode is not None:
            return True
        try:
            flags = os.WEXITED | os.WNOHANG | os.WNOWAIT
            return os.waitid(os.P_PID, process.pid, flags) is not None
        except ChildProcessError:
            return True

    def crash(self) -> None:
        """SIGKILL the whole server at once, as a power cut would; the database stays, and
        `start()` brings the server back on it."""
        process, self.process = self.process, None
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=STOP_TIMEOUT)

    def _kill(self) -> None:
        """Terminate the process group this server started, and only that group."""
        process, self.process = self.process, None
        if process is None or process.returncode is not None:
            return
        pgid = process.pid  # start_new_session: the server leads its own process group
        if not self._exited(process):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pgid, signal.SIGTERM)
            deadline = time.monotonic() + STOP_TIMEOUT
            while not self._exited(process) and time.monotonic() < deadline:
                time.sleep(POLL_SECONDS)
        # Still ours (the leader is not reaped yet): whatever outlived SIGTERM goes now.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)
        process.wait(timeout=STOP_TIMEOUT)

    def _drop_schema(self) -> None:
        if self.schema is not None:
            schema, self.schema = self.schema, None
            schema.drop()

    def stop(self) -> None:
        self._kill()
        self._drop_schema()

    # --- use ----------------------------------------------------------------------------------

    def url(self, path: str) -> str:
        return self.base_url + path

    def client(self, local_address: str | None = None, **options: Any) -> httpx.Client:
        """A client for this server; `local_address="127.0.0.2"` makes requests come from
        another loopback address (another client IP as far as rate limits go)."""
        options.setdefault("timeout", 30.0)
        if local_address is not None:
            options["transport"] = httpx.HTTPTransport(local_address=local_address)
        return httpx.Client(base_url=self.base_url, **options)

    def async_client(self, **options: Any) -> httpx.AsyncClient:
        options.setdefault("timeout", 60.0)
        return httpx.AsyncClient(base_url=self.base_url, **options)

    def post_many(self, path: str, bodies: Sequence[Any], *, at_once: int = 16
                  ) -> list[tuple[int, Any]]:
        """POST each JSON body to `path`, `at_once` at a time on kept-alive connections:
        (status, JSON reply) in the order of `bodies`. For filling an instance up before a
        race: a request costs the test process about a tenth of the CPU that httpx's async
        client spends on it (0.23 against 2.7 ms), CPU the server under test then has."""
        host = urlsplit(self.base_url)
        replies: list[tuple[int, Any]] = [(0, None)] * len(bodies)

        def send(indices: range) -> None:
            connection = http.client.HTTPConnection(host.hostname or "127.0.0.1", host.port,
                                                    timeout=60)
            try:
                for n in indices:
                    connection.request("POST", path, body=json.dumps(bodies[n]).encode(),
                                       headers={"Content-Type": "application/json"})
                    response = connection.getresponse()
                    data = response.read()
                    replies[n] = (response.status, json.loads(data) if data else None)
            finally:
                connection.close()

        lanes = max(1, min(at_once, len(bodies)))
        with ThreadPoolExecutor(lanes) as pool:
            list(pool.map(send, [range(lane, len(bodies), lanes) for lane in range(lanes)]))
        return replies

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def __repr__(self) -> str:
        return (f"<LiveServer {self.base_url} mode={self.mode} workers={self.workers} "
                f"db={self.backend}>")


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., LiveServer]]:
    """Factory: `live_server(workers=1, mode="development", database="default", limits={},
    trusted_proxies=(), tools=("*",), extra_toml="", webhooks=None, base_url="")` starts a
    fresh server and waits until it serves (`extra_toml`: more sections for its config file,
    such as `[metrics]` or `[email]`; `webhooks`: the `[webhooks]` config table; `base_url`:
    the config's, which links in email need; `env`: more environment variables for the
    process, such as `GROUPKIT_LOCALE_PATH`) (`database`: "default",
    "sqlite", "postgres", or another LiveServer to share its database; `python`: another
    environment's interpreter, to serve what is installed there); with `wait=False` it only
    launches it (call `.wait()` later, e.g. to start several at once). All stop at module
    end."""
    started: list[LiveServer] = []

    def start(*, workers: int = 1, mode: str = "development",
              database: str | LiveServer = "default",
              limits: Mapping[str, int] | None = None, trusted_proxies: Sequence[str] = (),
              tools: Sequence[str] = ("*",), extra_toml: str = "",
              wait: bool = True, python: str = sys.executable,
              webhooks: Mapping[str, Any] | None = None, base_url: str = "",
              env: Mapping[str, str] | None = None) -> LiveServer:
        if workers not in (1, 2):
            raise ValueError("workers is 1 or 2")
        server = LiveServer(tmp_path_factory.mktemp("server"), workers=workers, mode=mode,
                            database=database, limits=dict(limits or {}),
                            trusted_proxies=trusted_proxies, tools=tools,
                            extra_toml=extra_toml, python=python, webhooks=webhooks,
                            base_url=base_url, env=env)
        started.append(server)
        server.launch()
        return server.wait() if wait else server

    yield start
    for server in reversed(started):
        server.stop()
    # The kernel logs every unhandled exception (a 500) with this phrase.
    failures = [server for server in started if "unexpected failure" in server.log()]
    if failures:
        pytest.fail("server answered 500: see " + ", ".join(str(s.log_path) for s in failures))
