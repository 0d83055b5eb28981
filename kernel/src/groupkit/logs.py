"""Structured logs: one JSON object per line, and one access record per request (method,
path with every capability code redacted, status, duration). Logs are read by more people
than links are shared with, so a credential never reaches them."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from quart import Quart, Response, request

REDACTED = "…"
#: Attributes every LogRecord has; anything else was passed as `extra` and is a field.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


def redact(path: str) -> str:
    """The path with capability codes (slugs, editTokens, participant tokens: every segment
    of 16 or more characters after the tool name) replaced by `…`."""
    parts = path.split("/")
    return "/".join(REDACTED if len(part) >= 16 and i >= 2 else part
                    for i, part in enumerate(parts))


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(), "logger": record.name,
            "pid": record.process, "message": record.getMessage()}
        entry.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def configure() -> None:
    """JSON lines on stderr, unless the host application configured logging itself."""
    root = logging.getLogger()
    if root.handlers:
        return
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    root.setLevel(logging.INFO)


def install_request_log(app: Quart) -> None:
    access = logging.getLogger("groupkit.access")

    @app.before_request
    async def start_timer() -> None:
        request.groupkit_started = time.perf_counter()  # type: ignore[attr-defined]

    @app.after_request
    async def log_request(response: Response) -> Response:
        started = getattr(request, "groupkit_started", None)
        duration = (time.perf_counter() - started) * 1000 if started else 0.0
        path = redact(request.path)
        access.info("%s %s %s", request.method, path, response.status_code, extra={
            "method": request.method, "path": path, "status": response.status_code,
            "ms": round(duration, 2)})
        return response
