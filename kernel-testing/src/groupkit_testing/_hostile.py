"""The kit's hostile-input machinery: every operation of a tool in the OpenAPI document,
a body that works for each (from the tool's participation), and the judge of an answer
(an allowed status, and every refusal one JSON `{"error": "..."}`). The tests that use it
are `HostileInputSuite`'s (groupkit_testing).
"""

from __future__ import annotations

import dataclasses
import http.client
import json
import time
import weakref
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from typing import Any

import httpx

from groupkit.core._config import Settings
from groupkit_testing._participation import Session
from groupkit_testing._participation import create_instance
from groupkit_testing._privacy import api_document
from groupkit_testing._privacy import installed_tools

BODY_LIMIT = Settings().max_body_bytes
TEN_MB = 10 * 1024 * 1024
#: Drop an idle connection well before the server's keep-alive timeout (5 s) closes it, so a
#: request never goes out on a connection the server is closing.
KEEP_ALIVE = httpx.Limits(keepalive_expiry=1.0)
DEEP = 100_000

#: Refusals a hostile body may meet: validation, an unknown credential or record, a state or
#: capacity conflict; and the normal successes where the spec converts or truncates.
ALLOWED = {200, 201, 400, 404, 409}

WRONG_TYPES: dict[str, Any] = {
    "zero": 0, "negative": -1, "fraction": 1.5, "huge-int": 10**40, "huge-float": 1e308,
    "empty-array": [], "array": ["Ann", 1, None], "nested-array": [[["Ann"]]],
    "empty-object": {}, "object": {"text": "Ann", "name": {"a": 1}}, "null": None,
    "true": True, "false": False, "empty-string": "", "blank": " \t\n ",
    "deep-array": json.loads("[" * 400 + '"Ann"' + "]" * 400),
}
NON_OBJECTS: list[Any] = [[], ["slug"], "text", 42, None, True, [{"slug": "x"}]]

UNICODE: dict[str, str] = {
    "nul": "Ann\x00Bo",
    "lone-high-surrogate": "Ann\ud800",
    "lone-low-surrogate": "\udfffAnn",
    "rtl-override": "\u202eAnn\u202c\u2066Bo\u2069",
    "zero-width": "\u200b\u200c\u200dAnn\u2060\ufeff",
    "noncharacters": "\ufffe\uffffAnn\U0010ffff",
    "astral": "😀👩‍👩‍👧𝕏 Ann",
    "combining": "Ann" + "\u0301" * 400,
    "line-separators": "Ann\u2028Bo\u2029Cy\u0085Di\r\nEd\x0b\x0c",
    "controls": "".join(chr(code) for code in range(1, 32)) + "\x7fAnn",
}


# --- the operations ----------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Endpoint:
    tool: str
    method: str
    template: str
    fields: tuple[str, ...]
    has_body: bool

    @property
    def name(self) -> str:
        return f"{self.method} {self.template}"

    @property
    def is_create(self) -> bool:
        return self.template == f"/api/{self.tool}"

    @property
    def is_delete(self) -> bool:
        return self.template == f"/api/{self.tool}/{{editToken}}/delete"

    def order(self) -> tuple[int, str]:
        """Participant calls first, the organiser's last, anything that removes its own
        credential after them: the earlier ones still find the state they need."""
        if self.is_delete:
            rank = 5
        elif "{token}" in self.template and self.template.endswith("/remove"):
            rank = 4
        elif "{editToken}" in self.template:
            rank = 3
        elif "{token}" in self.template:
            rank = 1
        else:
            rank = 2
        return rank, self.template


def _schema(node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if ref:
        found: Any = api_document()
        for part in ref.lstrip("#/").split("/"):
            found = found[part]
        return dict(found)
    return node


def endpoints(tool: str) -> list[Endpoint]:
    """Every operation of `tool` in the OpenAPI document, except its live-update stream."""
    found = []
    for template, operations in api_document()["paths"].items():
        if template.split("/")[2:3] != [tool] or template.endswith("/events"):
            continue
        for method, operation in operations.items():
            if method not in ("get", "post"):
                continue
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            fields = tuple(_schema(body["schema"]).get("properties", {})) if body else ()
            found.append(Endpoint(tool, method.upper(), template, fields, body is not None))
    return sorted(found, key=Endpoint.order)


def tool_endpoints(tool: str, posts_only: bool = True) -> list[Endpoint]:
    """`endpoints(tool)`, only the POSTs unless `posts_only` is False."""
    return [e for e in endpoints(tool) if e.method == "POST" or not posts_only]


def plain(label: str) -> str:
    """Ordinary words, different for every field: `claim name 1`."""
    return label.replace(".", " ")


@dataclasses.dataclass
class Place:
    """One tool's instance with its participation done: what a path and a body need."""

    tool: str
    session: Session
    bases: dict[str, Any]

    def path(self, endpoint: Endpoint, client: httpx.Client) -> str:
        # A call that removes its own record spends its token: it gets the last one, every
        # other participant call the first, so they keep working in every test here.
        spends = endpoint.template.endswith("/remove")
        tokens = [token for _, token in self.session.tokens] or ["x" * 22]
        values = {"slug": self.session.slug, "editToken": self.session.edit,
                  "token": tokens[-1] if spends else tokens[0], **self.session.params}
        if endpoint.is_delete:  # a fresh instance each time: deleting is the point
            example = dict(installed_tools()[self.tool].example)
            values["editToken"] = client.post(f"/api/{self.tool}",
                                              json=example).json()["editToken"]
        return endpoint.template.format_map(Blanks(values))

    def base(self, endpoint: Endpoint) -> dict[str, Any]:
        """A body that works for this operation: the participation's own, else the slug for
        a public operation, else nothing."""
        if endpoint.is_create:
            return dict(installed_tools()[self.tool].example)
        if endpoint.template in self.bases:
            return dict(self.bases[endpoint.template])
        return {"slug": self.session.slug} if "slug" in endpoint.fields else {}


class Blanks(dict[str, str]):
    """Path values for `str.format_map`: any placeholder not given is "x"."""

    def __missing__(self, key: str) -> str:
        return "x"


def build_places(client: httpx.Client, tools: Sequence[str],
                 scenario: Callable[[str], Callable[[Session], None] | None]
                 ) -> dict[str, Place]:
    """One instance of each tool in `tools`, with its participation (`scenario(tool)`, if
    any) done in plain words."""
    places = {}
    for tool_name in tools:
        made = create_instance(client, tool_name, installed_tools()[tool_name].example, plain)
        session = Session(client, made, plain)
        take_part = scenario(tool_name)
        if take_part is not None:
            take_part(session)
        bases = {sent.template: sent.body for sent in session.sent
                 if isinstance(sent.body, dict)}
        places[tool_name] = Place(tool_name, session, bases)
    return places


# --- judging an answer -----------------------------------------------------------------------

class Answer:
    """A server's answer as `verdict` reads it: what `httpx.Response` offers, made for a
    tenth of its cost (the suite judges some 18,000 of them)."""

    def __init__(self, method: str, path: str, status: int,
                 headers: list[tuple[str, str]], content: bytes) -> None:
        self.method, self.path, self.status_code, self.content = method, path, status, content
        self.headers = {name.lower(): value for name, value in headers}

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return json.loads(self.content)


class Wire:
    """One kept-alive HTTP/1.1 connection to a client's server, for bodies sent as they are:
    Python's own `http.client` costs the test process a third of what httpx does per
    request, CPU the server under test then has."""

    def __init__(self, base_url: httpx.URL, timeout: float | None) -> None:
        self.host, self.port = base_url.host, base_url.port or 80
        self.timeout = timeout
        self.connection: http.client.HTTPConnection | None = None
        self.used = 0.0

    def _open(self) -> tuple[http.client.HTTPConnection, bool]:
        """The kept connection, else a new one (then True). One idle for a second is
        dropped, well before the server's keep-alive timeout (5 s) could close it under a
        request (as `KEEP_ALIVE` does for httpx)."""
        if self.connection is not None and time.monotonic() - self.used <= KEEP_ALIVE_SECONDS:
            return self.connection, False
        self.close()
        self.connection = http.client.HTTPConnection(self.host, self.port,
                                                     timeout=self.timeout)
        return self.connection, True

    def request(self, method: str, path: str, content: bytes) -> Answer:
        headers = {"Content-Type": "application/json"}
        while True:
            connection, fresh = self._open()
            try:
                connection.request(method, path, body=content, headers=headers)
                response = connection.getresponse()
                data = response.read()
            except ConnectionError:
                self.close()
                if fresh:
                    raise
                # The server closes a connection after its 1,000th request (hypercorn's
                # keep_alive_max_requests); a request sent on it as it closes goes
                # unanswered. Sent again on a fresh connection, it gets its answer.
                continue
            self.used = time.monotonic()
            if response.will_close:
                self.close()
            return Answer(method, path, response.status, response.getheaders(), data)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


KEEP_ALIVE_SECONDS = 1.0
#: The wire of each client `send` was given (closed with the client's own connections).
_WIRES: weakref.WeakKeyDictionary[httpx.Client, Wire] = weakref.WeakKeyDictionary()


def send(client: httpx.Client, method: str, path: str, body: Any = None, *,
         raw: bytes | None = None) -> Answer:
    """`body` as JSON (or the bytes `raw`) to the client's server, on a wire of its own."""
    content = raw if raw is not None else json.dumps(body, ensure_ascii=True).encode()
    wire = _WIRES.get(client)
    if wire is None:
        wire = _WIRES[client] = Wire(client.base_url, client.timeout.read)
        weakref.finalize(client, wire.close)
    return wire.request(method, path, content)


def verdict(response: httpx.Response | Answer, allowed: set[int]) -> str | None:
    """What is wrong with an answer, or None."""
    status = response.status_code
    if status not in allowed:
        return f"answered {status} {response.text[:120]!r}"
    if status < 400:
        return None
    if not response.headers.get("content-type", "").startswith("application/json"):
        return f"answered {status} as {response.headers.get('content-type')!r}"
    try:
        body = response.json()
    except ValueError:
        return f"answered {status} with a body that is not JSON: {response.text[:80]!r}"
    # The organiser's edit documents two extra members (`FieldError`): the field the
    # message is about and whether a confirmed resend goes ahead.
    path = response.path if isinstance(response, Answer) else response.request.url.path
    extras = {"field", "confirm"} if path.endswith("/edit") else set()
    if not (isinstance(body, dict) and "error" in body and set(body) - {"error"} <= extras
            and isinstance(body["error"], str) and body["error"].strip()
            and isinstance(body.get("field", ""), str) and body.get("confirm", True) is True):
        return f"answered {status} with {body!r} instead of one error string"
    return None


#: Requests judged in this run, printed at the end (`-s`).
SENT = {"requests": 0}


class Findings:
    def __init__(self) -> None:
        self.items: list[str] = []

    def judge(self, what: str, response: httpx.Response | Answer,
              allowed: set[int] = ALLOWED) -> None:
        SENT["requests"] += 1
        problem = verdict(response, allowed)
        if problem:
            self.items.append(f"{what}: {problem}")

    def report(self, tool: str, case: str) -> str:
        shown = self.items[:25]
        more = f" (and {len(self.items) - len(shown)} more)" if len(self.items) > 25 else ""
        return f"{tool} {case}: " + "; ".join(shown) + more


UPLOAD_TRIES = 5


def chunks(body: Any) -> Iterator[bytes]:
    """A body sent chunked, with no Content-Length to refuse it by."""
    data = json.dumps(body).encode()
    for start in range(0, len(data), 65536):
        yield data[start:start + 65536]


def refused_upload(make: Callable[[], httpx.Response | Answer]
                   ) -> httpx.Response | Answer | None:
    """The answer to an oversized upload. The server answers 413 as soon as the body passes
    the limit and closes the connection while the client may still be sending; the client
    then sometimes sees the reset before the answer (a race in TCP, not the server's
    choice), so a reset is retried: what counts is that the 413 does arrive."""
    for _ in range(UPLOAD_TRIES):
        try:
            return make()
        except (httpx.RemoteProtocolError, httpx.WriteError, httpx.ReadError,
                ConnectionError):
            continue
    return None


DEEP_BODIES = {
    "arrays": b"[" * DEEP + b"]" * DEEP,
    # As deep as the body limit allows for objects: five bytes a level.
    "objects": b'{"":' * (DEEP * 2 // 5) + b"1" + b"}" * (DEEP * 2 // 5),
    "unclosed": b"[" * DEEP,
}


HOSTILE_SEGMENTS = ["x" * 4000, "%00", "%ED%A0%80", "%E2%80%AE", "..%2F..%2Fetc%2Fpasswd",
                    "%FF%FE", "d0-1%0D%0AX-Injected:%201", "%F0%9F%98%80"]


HUGE_DIGITS = "9" * 5000
#: 5,000 digits, past Python's integer-string conversion limit (4,300): as strings and as raw
#: JSON numbers (a placeholder string in the body is swapped for the bare digits).
HUGE_NUMBERS: dict[str, str] = {
    "string": json.dumps(HUGE_DIGITS), "negative-string": json.dumps("-" + HUGE_DIGITS),
    "zero-padded-string": json.dumps("0" * 5000 + "7"),
    "json-number": HUGE_DIGITS, "negative-json-number": "-" + HUGE_DIGITS,
    "json-fraction": HUGE_DIGITS + ".5", "json-exponent": "1" + "0" * 4999 + "e-4999",
}
PLACEHOLDER = "\u2063huge\u2063"

Position = tuple[Any, ...]


def positions(body: Any, at: Position = ()) -> Iterator[Position]:
    """Every place in a body a value sits: each key, each list item, each key of an object
    inside a list, recursively (the capacities in a list of spots, a day's count...)."""
    if isinstance(body, dict):
        for key, value in body.items():
            yield (*at, key)
            yield from positions(value, (*at, key))
    elif isinstance(body, list):
        for index, value in enumerate(body[:3]):
            yield (*at, index)
            yield from positions(value, (*at, index))


def placed(body: Any, at: Position, value: Any) -> Any:
    if not at:
        return value
    head, rest = at[0], at[1:]
    if isinstance(body, dict):
        return {**body, head: placed(body.get(head), rest, value)}
    copy = list(body)
    copy[head] = placed(copy[head], rest, value)
    return copy


def huge_bodies(base: dict[str, Any], fields: tuple[str, ...]) -> Iterator[tuple[str, bytes]]:
    spots = dict.fromkeys([*positions(base), *((field,) for field in fields)])
    for at in spots:
        text = json.dumps(placed(base, at, PLACEHOLDER), ensure_ascii=False)
        for label, raw in HUGE_NUMBERS.items():
            yield f"{'.'.join(map(str, at))}={label}", \
                text.replace(json.dumps(PLACEHOLDER, ensure_ascii=False), raw).encode()


INVISIBLE_ONLY = "\u200b\u2060\ufeff\u200d\u202e\u2066 \u200c"


def text_positions(body: Any) -> Iterator[Position]:
    """Every place a non-empty string sits in a body."""
    for at in positions(body):
        value: Any = body
        for step in at:
            value = value[step]
        if isinstance(value, str) and value.strip():
            yield at
