"""contrib/deploy/ works as written: its nginx.conf, run by Debian's nginx with a self-signed
certificate, in front of two groupkit processes on one database (as two hosts would be),
serves TLS with HTTP/2, gives each client its own rate limit, replaces a spoofed
X-Forwarded-For, streams live updates from either process, lets groupkit answer an
oversized body with its JSON 413, and keeps every token out of nginx's own logs (access and
error, with the app hosts up and down). groupkit.service passes `systemd-analyze verify`.

Everything listens on loopback ports; nginx is started and stopped here by its PID. Without
nginx the nginx tests skip, or fail under $GROUPKIT_REQUIRE_EXTERNAL=1 (CI installs it)."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from groupkit_testing import external_missing
from groupkit_testing import server_backends

pytestmark = pytest.mark.server

REPO = Path(__file__).resolve().parents[1]
DEPLOY = REPO / "contrib" / "deploy"
LIMITS = {"create_per_hour": 3, "post_per_hour": 1000}
SWEEP = {"outcomes": ["A", "B"], "names": ["X", "Y"]}
BOARD = {"title": "Two hosts", "categories": [{"name": "Mains", "capacity": 3}]}
# On, so that the nginx test proves the recipe hides /metrics rather than groupkit's default.
METRICS_ON = "[metrics]\nenabled = true\n"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def swap(text: str, old: str, new: str) -> str:
    """Replace `old`, which the recipe must contain (so the test follows the recipe)."""
    assert old in text, f"contrib/deploy/nginx.conf no longer has {old!r}"
    return text.replace(old, new)


class Nginx:
    """The recipe's nginx.conf with loopback ports, upstreams and a self-signed cert."""

    def __init__(self, directory: Path, upstreams: tuple[int, int]) -> None:
        self.directory = directory
        self.http_port, self.https_port = free_port(), free_port()
        self.cert, self.key = directory / "cert.pem", directory / "key.pem"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-subj", "/CN=groups.example.org", "-addext",
             "subjectAltName=DNS:groups.example.org,IP:127.0.0.1",
             "-keyout", str(self.key), "-out", str(self.cert)],
            check=True, capture_output=True)
        site = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
        site = swap(site, "server 127.0.0.1:8000;", f"server 127.0.0.1:{upstreams[0]};")
        site = swap(site, "server 10.0.0.12:8000;", f"server 127.0.0.1:{upstreams[1]};")
        site = swap(site, "listen 80;", f"listen 127.0.0.1:{self.http_port};")
        site = swap(site, "listen 443 ssl http2;",
                    f"listen 127.0.0.1:{self.https_port} ssl http2;")
        site = swap(site, "/etc/letsencrypt/live/groups.example.org/fullchain.pem",
                    str(self.cert))
        site = swap(site, "/etc/letsencrypt/live/groups.example.org/privkey.pem",
                    str(self.key))
        site = site.replace("/var/log/nginx/", f"{directory}/")  # its own logs, if it names any
        (directory / "groupkit.conf").write_text(site, encoding="utf-8")
        temp = "\n".join(f"    {kind}_temp_path {directory / kind};"
                         for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        # As root the workers would run as nobody, who cannot read pytest's directories.
        user = "user root;\n" if os.geteuid() == 0 else ""
        # Logging as Debian's /etc/nginx/nginx.conf sets it, for the site to override: an
        # error log at level error, an access log of every request.
        (directory / "nginx.conf").write_text(
            f"{user}worker_processes 1;\npid {directory / 'nginx.pid'};\n"
            f"error_log {directory / 'error.log'};\nevents {{ worker_connections 256; }}\n"
            f"http {{\n{temp}\n    access_log {directory / 'access.log'};\n"
            f"    include {directory / 'groupkit.conf'};\n}}\n", encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None

    def command(self, *extra: str) -> list[str]:
        return [NGINX, "-p", str(self.directory), "-e", str(self.directory / "error.log"),
                "-c", str(self.directory / "nginx.conf"), *extra]

    def start(self) -> Nginx:
        test = subprocess.run(self.command("-t"), capture_output=True, text=True)
        assert test.returncode == 0, test.stderr
        self.process = subprocess.Popen(self.command("-g", "daemon off;"),
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log()
            try:
                socket.create_connection(("127.0.0.1", self.https_port), 1).close()
                return self
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"nginx did not listen:\n{self.log()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # its own session: master and worker
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)

    def log(self) -> str:
        path = self.directory / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def logs(self) -> dict[str, str]:
        """Every log nginx wrote here (Debian's two, and any the site names)."""
        return {path.name: path.read_text(errors="replace")
                for path in sorted(self.directory.glob("*.log"))}

    def tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cert))

    def client(self, local_address: str = "127.0.0.1", **options: Any) -> httpx.Client:
        return httpx.Client(base_url=f"https://127.0.0.1:{self.https_port}", verify=self.tls(),
                            transport=httpx.HTTPTransport(local_address=local_address,
                                                          verify=self.tls()),
                            timeout=30.0, **options)


NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


@pytest.fixture(scope="module", params=server_backends())
def deployment(request: pytest.FixtureRequest, live_server: Callable[..., Any],
               tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any, Nginx]]:
    if not os.path.exists(NGINX):
        external_missing("nginx")
    # Host A and host B: the recipe's settings (production, nginx trusted), one database.
    # The recipe sets base_url; the kit's servers have none, so their chat webhooks are off.
    first = live_server(database=request.param, mode="production", limits=LIMITS,
                        trusted_proxies=["127.0.0.1"], webhooks={"hosts": []},
                        extra_toml=METRICS_ON, wait=False)
    second = live_server(database=first, mode="production", limits=LIMITS,
                         trusted_proxies=["127.0.0.1"], webhooks={"hosts": []},
                         extra_toml=METRICS_ON, wait=False)
    first.wait()
    second.wait()
    nginx = Nginx(tmp_path_factory.mktemp("nginx"), (first.port, second.port)).start()
    try:
        yield first, second, nginx
    finally:
        nginx.stop()


def test_tls_with_http2_and_a_redirect_from_http(deployment: tuple[Any, Any, Nginx]) -> None:
    _, _, nginx = deployment
    with nginx.client() as client:
        assert client.get("/healthz").json() == {"ok": True}
    context = nginx.tls()
    context.set_alpn_protocols(["h2", "http/1.1"])
    with socket.create_connection(("127.0.0.1", nginx.https_port)) as raw, \
            context.wrap_socket(raw, server_hostname="groups.example.org") as tls:
        assert tls.selected_alpn_protocol() == "h2"
    plain = httpx.get(f"http://127.0.0.1:{nginx.http_port}/s/x", follow_redirects=False)
    assert plain.status_code == 301 and plain.headers["location"].startswith("https://")


def test_each_client_has_its_own_rate_limit_and_a_spoofed_header_is_replaced(
        deployment: tuple[Any, Any, Nginx], same_clock_hour: None) -> None:
    _, _, nginx = deployment
    with nginx.client("127.0.0.2") as first:
        statuses = [first.post("/api/sweeps", json=SWEEP).status_code for _ in range(4)]
        assert statuses == [201, 201, 201, 429]
        # Claiming to be someone else does not reset the count: nginx replaces the header.
        spoofed = first.post("/api/sweeps", json=SWEEP,
                             headers={"X-Forwarded-For": "203.0.113.9"})
        assert spoofed.status_code == 429
        assert "Retry-After" in spoofed.headers
    with nginx.client("127.0.0.3") as other:  # another visitor through the same proxy
        assert other.post("/api/sweeps", json=SWEEP).status_code == 201
    with nginx.client("127.0.0.4") as framer:  # and nobody can spend someone else's limit
        framed = framer.post("/api/sweeps", json=SWEEP, headers={"X-Forwarded-For": "127.0.0.5"})
        assert framed.status_code == 201
    with nginx.client("127.0.0.5") as victim:
        assert victim.post("/api/sweeps", json=SWEEP).status_code == 201


def test_live_updates_from_either_host_reach_a_stream_through_nginx(
        deployment: tuple[Any, Any, Nginx]) -> None:
    first, second, nginx = deployment

    async def run() -> None:
        async with httpx.AsyncClient(base_url=f"https://127.0.0.1:{nginx.https_port}",
                                     verify=nginx.tls(), timeout=30.0) as proxied, \
                first.async_client() as one, second.async_client() as two:
            slug = (await two.post("/api/plate", json=BOARD)).json()["slug"]
            async with proxied.stream("GET", f"/api/plate/{slug}/events") as stream:
                assert stream.status_code == 200
                lines = stream.aiter_lines()

                async def next_data() -> str:
                    while True:
                        line = await asyncio.wait_for(anext(lines), 10)
                        if line.startswith("data:"):
                            return line[5:].strip()

                assert await next_data() == "0"
                # Whichever process holds the stream, one of these writes crosses over.
                for number, host in enumerate((one, two), start=1):
                    claimed = await host.post("/api/plate/claim", json={
                        "slug": slug, "slotId": f"c0-{number}", "name": f"Cook {number}",
                        "dish": "Pie"})
                    assert claimed.status_code == 201
                    assert await next_data() == str(number)

    asyncio.run(run())


def test_an_oversized_body_gets_groupkits_json_413(deployment: tuple[Any, Any, Nginx]) -> None:
    _, _, nginx = deployment
    body = b'{"outcomes": ["' + b"x" * 300_000 + b'"]}'
    with nginx.client("127.0.0.6") as client:
        response = client.post("/api/sweeps", content=body,
                               headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.json() == {"error": "That request is too large."}


def test_nginx_keeps_no_capability_url_in_its_own_logs(
        deployment: tuple[Any, Any, Nginx], tmp_path: Path) -> None:
    """groupkit logs requests with credentials redacted; nginx must not undo that with its
    access log (in either server block) or its error log, which names the request of every
    error: a body over its own limit, an upstream that is down."""
    _, _, nginx = deployment
    with nginx.client("127.0.0.7") as client:
        board = client.post("/api/poker", json={"team": "Logs", "story": "One"})
        assert board.status_code == 201, board.text
        edit, slug = board.json()["editToken"], board.json()["slug"]
        joined = client.post("/api/poker/join", json={"slug": slug, "name": "Ann"})
        assert joined.status_code == 201, joined.text
        voter = joined.json()["token"]
        paths = [f"/e/{edit}", f"/p/{voter}", f"/api/poker/{edit}", f"/api/poker/v/{voter}",
                 f"/api/poker/{edit}/events"]
        for path in paths[:2]:
            assert client.get(path).status_code == 200
        too_large = client.post(f"/api/poker/{edit}/next", content=b"x" * (2 << 20),
                                headers={"Content-Type": "application/json"})
        assert too_large.status_code == 413  # nginx's own answer: over client_max_body_size
    for path in paths:
        plain = httpx.get(f"http://127.0.0.1:{nginx.http_port}{path}", follow_redirects=False)
        assert plain.status_code == 301
    down = Nginx(tmp_path, (free_port(), free_port())).start()  # both hosts down
    try:
        with down.client() as client:
            for path in paths:
                assert client.get(path).status_code == 502
    finally:
        down.stop()
    for proxy in (nginx, down):
        for name, text in proxy.logs().items():
            for token in (edit, voter):
                assert token not in text, f"{name}:\n{text}"


def test_metrics_stay_private_behind_nginx(deployment: tuple[Any, Any, Nginx]) -> None:
    """Both hosts serve /metrics to a scraper on 127.0.0.1; the same address through nginx
    (which groupkit would allow, as X-Forwarded-For names 127.0.0.1) gets nginx's 404."""
    first, second, nginx = deployment
    for host in (first, second):
        with host.client() as direct:
            scraped = direct.get("/metrics")
            assert scraped.status_code == 200, scraped.text
            assert "# TYPE" in scraped.text
    with nginx.client() as client:
        hidden = client.get("/metrics")
        assert hidden.status_code == 404
        assert "# TYPE" not in hidden.text


def test_the_systemd_unit_verifies(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        external_missing("systemd-analyze")
        return
    unit = (DEPLOY / "groupkit.service").read_text(encoding="utf-8")
    # The unit names /opt/groupkit, as installed by the recipe; verify it against this one.
    groupkit = Path(sys.executable).parent / "groupkit"
    (tmp_path / "groupkit.service").write_text(
        swap(unit, "/opt/groupkit/bin/groupkit", str(groupkit)), encoding="utf-8")
    result = subprocess.run([analyze, "verify", str(tmp_path / "groupkit.service")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "groupkit.service" not in result.stdout + result.stderr, \
        result.stdout + result.stderr
    assert "--host 127.0.0.1" in unit and "Restart=on-failure" in unit


def test_the_recipe_config_trusts_host_as_proxy_and_passes_check(capsys: Any) -> None:
    from groupkit.ops._cli import main

    assert main(["check", "--offline", "--config", str(DEPLOY / "groupkit.toml")]) == 0
    from groupkit.core._config import load_settings

    settings = load_settings(DEPLOY / "groupkit.toml", {})
    assert "127.0.0.1" in settings.trusted_proxies  # nginx on host A reaches it on loopback
