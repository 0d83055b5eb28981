"""Prometheus metrics at `GET /metrics`, off unless `[metrics] enabled = true`, and then only
for clients in `metrics.allow` (the client as rate limits see it, so a visitor coming through
a trusted proxy is never mistaken for the proxy's loopback address).

Requests are counted by route template (`/api/sweeps/<slug:slug>`), never by path, so no
credential becomes a label. Under `groupkit serve` every worker writes its samples to
$PROMETHEUS_MULTIPROC_DIR (prometheus-client's multiprocess mode, which `serve` sets up) and
a scrape answered by any worker adds up all of them. Installed as an ASGI middleware around
the Quart app: it sees the status of every response, errors included, and how long a live
stream stays open. A scrape may ask for some samples only (`?name[]=<sample name>`,
repeated), as prometheus-client's own exporters allow.
"""

from __future__ import annotations

import ipaddress
import os
import time
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import MutableMapping
from typing import Any
from urllib.parse import parse_qs

from prometheus_client import CONTENT_TYPE_LATEST
from prometheus_client import REGISTRY
from prometheus_client import CollectorRegistry
from prometheus_client import Counter
from prometheus_client import Gauge
from prometheus_client import Histogram
from prometheus_client import generate_latest
from prometheus_client import multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.core import Metric
from quart import Quart
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from groupkit.core import _limits as limits
from groupkit.core._api import WRITING
from groupkit.core._config import Settings
from groupkit.core._storage import Instance
from groupkit.core._storage import Storage

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[..., Awaitable[None]]

METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
UNMATCHED = "<unmatched>"
NOT_FOUND = b'{"error":"Nothing here \xe2\x80\x94 check the link you were given."}'

REQUESTS = Counter("groupkit_http_requests", "HTTP requests answered, by route template and "
                   "status", ["method", "route", "status"])
LATENCY = Histogram("groupkit_http_request_duration_seconds", "Time to answer a request (live "
                    "streams excluded), by route template", ["method", "route"],
                    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0))
DATABASE = Histogram("groupkit_database_seconds", "Time of each database unit of work in its "
                     "thread, by kind", ["kind"],
                     buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0))
WRITE_LOCK = Histogram("groupkit_write_lock_seconds", "Thread CPU time each write held the "
                       "database's write lock (BEGIN to COMMIT; its own savepoint when it "
                       "shared a transaction), by tool and operation (its OpenAPI path)",
                       ["tool", "operation"],
                       buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                1.0))
STREAMS = Gauge("groupkit_live_streams_open", "Live-update streams open now",
                multiprocess_mode="livesum")
REFUSALS = Counter("groupkit_rate_limit_refusals", "Requests refused with 429 by the rate "
                   "limits, by route template", ["route"])


class _Instances:
    """Instances per tool, read from the database at scrape time (shared by every worker)."""

    def __init__(self, counts: dict[str, int]) -> None:
        self.counts = counts

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily("groupkit_instances", "Tool instances in the database",
                                   labels=["tool"])
        for tool, count in sorted(self.counts.items()):
            family.add_metric([tool], count)
        yield family


def _instance_counts() -> dict[str, int]:
    from peewee import fn

    query = Instance.select(Instance.tool, fn.COUNT(Instance.id)).group_by(Instance.tool)
    rows: list[Any] = list(query.tuples())
    return {str(tool): int(count) for tool, count in rows}


def observe_database(write: bool, seconds: float) -> None:
    DATABASE.labels("write" if write else "read").observe(seconds)


def observe_write_lock(seconds: float) -> None:
    """Called in the write's own context, which names its tool and operation (writes
    outside an API operation, such as retention or webhook delivery, read as "kernel")."""
    tool, operation = WRITING.get()
    WRITE_LOCK.labels(tool or "kernel", operation or "other").observe(seconds)


class MetricsMiddleware:
    """Counts every HTTP request of `inner` and answers `GET /metrics`."""

    def __init__(self, app: Quart, inner: ASGIApp, settings: Settings) -> None:
        self.app, self.inner = app, inner
        self.trusted = limits.parse_networks(settings.trusted_proxies)
        self.allowed = limits.parse_networks(settings.metrics_allow)
        self.tools = set(app.config["GROUPKIT_TOOLS"])

    def route(self, path: str, method: str) -> str:
        """The matched rule's template: the same label for every slug and token."""
        try:
            rule, _ = self.app.url_map.bind("groupkit").match(path, method, return_rule=True)
        except RequestRedirect:
            return "<redirect>"
        except HTTPException:
            return UNMATCHED
        return str(rule.rule)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        method = scope["method"] if scope["method"] in METHODS else "OTHER"
        if scope["path"] == "/metrics" and method in ("GET", "HEAD"):
            await self.scrape(scope, send)
            return
        route = self.route(scope["path"], scope["method"])
        stream = route.endswith("/events")
        status, opened, started = 500, False, time.perf_counter()

        async def counted_send(message: Message) -> None:
            nonlocal status, opened
            if message["type"] == "http.response.start":
                status = int(message["status"])
                if stream and status == 200:
                    opened = True
                    STREAMS.inc()
            await send(message)

        try:
            await self.inner(scope, receive, counted_send)
        finally:
            if opened:
                STREAMS.dec()
            else:
                LATENCY.labels(method, route).observe(time.perf_counter() - started)
            REQUESTS.labels(method, route, str(status)).inc()
            if status == 429:
                REFUSALS.labels(route).inc()

    def _client(self, scope: Scope) -> str:
        peer = (scope.get("client") or ("", 0))[0]
        forwarded = next((value.decode("latin-1") for name, value in scope["headers"]
                          if name == b"x-forwarded-for"), None)
        return limits.client_address(peer, forwarded, self.trusted)

    async def scrape(self, scope: Scope, send: Send) -> None:
        if not _within(self._client(scope), self.allowed):
            await _answer(send, 404, b"application/json", NOT_FOUND)
            return
        storage: Storage = self.app.config["GROUPKIT_STORAGE"]
        counts = await storage.read(_instance_counts)
        counts = {tool: count for tool, count in counts.items() if tool in self.tools}
        # `?name[]=...` asks for some samples only, as Prometheus's own client libraries
        # offer: a watcher polling one histogram need not have every route's rendered. A
        # registry knows its collectors' names only when it asks them on registering.
        names = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("name[]")
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            registry = CollectorRegistry(auto_describe=bool(names))
            multiprocess.MultiProcessCollector(registry)
        else:
            registry = REGISTRY
        instances = CollectorRegistry(auto_describe=bool(names))
        instances.register(_Instances(counts))
        chosen: list[Any] = [registry, instances]
        if names:
            chosen = [each.restricted_registry(names) for each in chosen]
        body = b"".join(generate_latest(each) for each in chosen)
        await _answer(send, 200, CONTENT_TYPE_LATEST.encode(), body)


def _within(address: str, networks: tuple[limits.Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


async def _answer(send: Send, status: int, content_type: bytes, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", content_type), (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})


def install(app: Quart, settings: Settings) -> None:
    """Serve /metrics and count requests and database time, if the settings ask for it."""
    if not settings.metrics_enabled:
        return
    app.config["GROUPKIT_STORAGE"].observer = observe_database
    app.config["GROUPKIT_STORAGE"].lock_observer = observe_write_lock
    setattr(app, "asgi_app", MetricsMiddleware(app, app.asgi_app, settings))  # noqa: B010
