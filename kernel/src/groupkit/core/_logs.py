"""Structured logs: one JSON object per line, and one access record per request (method,
path with every capability code redacted, status, duration). Logs are read by more people
than links are shared with, so a credential never reaches them, not even a piece of one
from a mangled link."""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import traceback
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import MutableMapping
from typing import Any

from quart import Quart

from groupkit.core._credentials import ALPHABET

REDACTED = "…"
#: Attributes every LogRecord has; anything else was passed as `extra` and is a field.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}
#: Six or more characters of the credential alphabet in a row: a slug tail, an editToken,
#: a participant token or a claim secret, whole, cut short or run into other text.
_TOKEN_RUN = re.compile(f"[{ALPHABET}]{{6,}}", re.IGNORECASE)
#: Words of the service's own routes (tool names, `events`, `export`, ...) that merely look
#: like a run of the alphabet; learnt from each app's URL map (`learn_route_words`).
_ROUTE_WORDS: set[str] = set()


def learn_route_words(app: Quart) -> None:
    """Remember the literal words of `app`'s routes, which `redact` leaves readable."""
    for rule in app.url_map.iter_rules():
        literal = re.sub(r"<[^>]*>", "/", rule.rule)
        _ROUTE_WORDS.update(_TOKEN_RUN.findall(literal))


def _redact_runs(part: str) -> str:
    return _TOKEN_RUN.sub(lambda m: m.group(0) if m.group(0) in _ROUTE_WORDS else REDACTED, part)


def redact(path: str) -> str:
    """The path with capability codes replaced by `…`: every segment of 16 or more
    characters after the first, and anywhere in the path every run of six or more characters
    of the credential alphabet that is not a word of a route (a token pasted whole, cut
    short, glued to `/e` or to another link)."""
    parts = path.split("/")
    return "/".join(REDACTED if len(part) >= 16 and i >= 2 else _redact_runs(part)
                    for i, part in enumerate(parts))


class JsonFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__()
        self._second: tuple[int, str] = (-1, "")

    def _time(self, record: logging.LogRecord) -> str:
        """The record's time to the second, formatted once per second (every request writes
        a record, and formatting the time was a fifth of writing it)."""
        second = int(record.created)
        if self._second[0] != second:
            self._second = (second, self.formatTime(record, "%Y-%m-%dT%H:%M:%S"))
        return self._second[1]

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self._time(record),
            "level": record.levelname.lower(), "logger": record.name,
            "pid": record.process, "message": record.getMessage()}
        entry.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def configure() -> None:
    """JSON lines on stderr, unless the host application configured logging itself; Python
    warnings become records too, so nothing plain reaches the log."""
    root = logging.getLogger()
    if root.handlers:
        return
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.captureWarnings(True)


def describe(error: BaseException) -> tuple[str, str]:
    """A one-line summary and a hint for an error that stops the service from starting."""
    from groupkit.core._config import ConfigError
    from groupkit.core._storage import DatabaseUrlError

    first = (str(error).strip().splitlines() or [""])[0]
    if isinstance(error, (ConfigError, DatabaseUrlError)):
        return first, "run `groupkit check` to see every problem of the configuration"
    if type(error).__name__ == "OperationalError":  # peewee's and psycopg2's
        return (f"cannot use the database: {first}",
                "is the database server running, and are database.url (or "
                "$GROUPKIT_DATABASE_URL) and its password right? `groupkit check` tries it")
    if isinstance(error, PermissionError):
        return (f"permission denied: {error.filename or first}",
                "the service user must be able to read the config file and write the "
                "database's directory")
    if isinstance(error, OSError) and error.errno == 98:
        return (f"address already in use: {first}",
                "another process listens on that --host/--port; stop it or choose another")
    return (f"{type(error).__name__}: {first}",
            "the traceback field says where; if it is not the configuration, report it")


def fatal(error: BaseException, summary: str | None = None) -> None:
    """The one JSON line a process that cannot start leaves: summary, hint, traceback."""
    configure()
    described, hint = describe(error)
    logging.getLogger("groupkit").critical(
        "groupkit cannot start: %s", summary or described, extra={
            "hint": hint, "traceback": "".join(traceback.format_exception(error)).rstrip()})
    for handler in logging.getLogger().handlers:
        handler.flush()
    sys.stderr.flush()


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[..., Awaitable[None]]


def request_path(scope: Scope) -> str:
    """The request's path as Quart's `request.path` gives it (without the root path), read
    from the ASGI scope by code that runs around the app rather than in a request."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root:
        return path.removeprefix(root) if path != root and path.startswith(root) else " "
    return path


class AccessLog:
    """One access record per HTTP response, written when its status goes out. An ASGI
    middleware rather than a pair of request hooks: every request paid for the hooks'
    machinery and the request object's lookups, which cost more than the record."""

    def __init__(self, inner: ASGIApp) -> None:
        self.inner = inner
        self.access = logging.getLogger("groupkit.access")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        started, arrived = time.perf_counter(), time.time()

        async def logged(message: Message) -> None:
            if message["type"] == "http.response.start" and self.access.isEnabledFor(
                    logging.INFO):
                duration = (time.perf_counter() - started) * 1000
                method, path, status = scope["method"], redact(request_path(scope)), \
                    message["status"]
                self.access.info("%s %s %s", method, path, status, extra={
                    "method": method, "path": path, "status": status,
                    "start": round(arrived, 4), "ms": round(duration, 2)})
            await send(message)

        await self.inner(scope, receive, logged)


def install_request_log(app: Quart) -> None:
    """Log every response of `app` (call after the routes are added: their words are
    learnt for `redact`)."""
    learn_route_words(app)
    setattr(app, "asgi_app", AccessLog(app.asgi_app))  # noqa: B010
