"""ASGI entry point for hypercorn workers: `hypercorn groupkit.asgi:app`.

Settings come from $GROUPKIT_CONFIG (and $GROUPKIT_DATABASE_URL); `groupkit serve` sets them.
Migrations ran once in `groupkit serve` before the workers started.
"""

from __future__ import annotations

import gc
import json
import logging
import os
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import MutableMapping
from typing import Any

from groupkit.core import _logs as logs
from groupkit.core._config import load_settings
from groupkit.ops import _metrics as metrics
from groupkit.ops._app import HTTP_MESSAGES
from groupkit.ops._app import create_app

#: Young objects allocated between two collections of the youngest generation.
GC_THRESHOLD = 20_000
#: Most of an oversized body read (and dropped) before the 413; more is not waited for.
DRAIN_LIMIT = 16 * 1024 * 1024

Scope = MutableMapping[str, Any]
ASGIApp = Callable[..., Awaitable[None]]


class DrainOversized:
    """Answer a request whose Content-Length is over the limit with the JSON 413 only after
    reading its body: a reverse proxy still sending the body when the connection closes
    would answer 502 (nginx: "writev() failed") instead of passing our 413 on."""

    def __init__(self, inner: ASGIApp, limit: int) -> None:
        self.inner, self.limit = inner, limit
        self.body = json.dumps({"error": HTTP_MESSAGES[413]}, ensure_ascii=False).encode()
        self.access = logging.getLogger("groupkit.access")

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        length = -1
        if scope["type"] == "http":
            header = next((v for k, v in scope["headers"] if k == b"content-length"), b"")
            length = int(header) if header.isdigit() else -1
        if length <= self.limit:
            await self.inner(scope, receive, send)
            return
        read = 0
        while read <= DRAIN_LIMIT:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            read += len(message.get("body", b""))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 413, "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(self.body)).encode())]})
        await send({"type": "http.response.body", "body": self.body})
        path = logs.redact(scope["path"])
        self.access.info("%s %s 413", scope["method"], path, extra={
            "method": scope["method"], "path": path, "status": 413, "ms": 0.0})


# JSON lines on stderr: one per request (credentials redacted) and every unexpected failure.
logs.configure()

settings = load_settings()
app = create_app(settings, run_migrations=os.environ.get("GROUPKIT_MIGRATED") != "1")
setattr(app, "asgi_app", DrainOversized(app.asgi_app, settings.max_body_bytes))  # noqa: B010
# GET /metrics and request, database and live-stream counts, when [metrics] enables them.
metrics.install(app, settings)

# What start-up built (plugins, schemas, templates, routes) lives as long as the worker:
# moved out of the collector's sight, a full collection no longer walks it, and collections
# run less often (a write allocates a few thousand objects; the default ran one or two per
# request). Cycles are still collected.
gc.collect()
gc.freeze()
gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
