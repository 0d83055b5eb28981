"""Hostile request bodies against every installed tool's create endpoint and every operation
in the OpenAPI document, on a real server.

- A body above `limits.max_body_bytes` (declared, chunked, or a 10 MB string) is a 413 with
  a JSON `{"error"}`, and nothing happens.
- JSON nested 100,000 levels deep is read like an unreadable body, as `{}`: the answer is the
  one an empty object gets.
- Every field given every wrong JSON type, and every awkward corner of Unicode (NUL, lone
  surrogates written as JSON escapes, direction overrides, noncharacters...) is a 400, a
  normal success where the spec converts or truncates, or the tool's usual 404 / 409: never
  a 5xx, and every refusal is one JSON `{"error": "..."}`.
- With a body limit that allows them, 10 MB strings in every field get the same treatment.

Each operation starts from a body that works (the participation the other security suites
use, with plain words), with one field replaced at a time, so later checks are reached too.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from participation import SCENARIOS, Session, create_instance

from groupkit.config import Settings
from groupkit.openapi import openapi_document
from groupkit.plugins import load_tools

pytestmark = pytest.mark.server

INSTALLED = load_tools(Settings()).tools
DOCUMENT = openapi_document(INSTALLED)
BODY_LIMIT = Settings().max_body_bytes
#: Refusals a hostile body may meet: validation, an unknown credential or record, a state or
#: capacity conflict; and the normal successes where the spec converts or truncates.
ALLOWED = {200, 201, 400, 404, 409}
TEN_MB = 10 * 1024 * 1024
#: Drop an idle connection well before the server's keep-alive timeout (5 s) closes it, so a
#: request never goes out on a connection the server is closing.
KEEP_ALIVE = httpx.Limits(keepalive_expiry=1.0)
DEEP = 100_000

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
        found: Any = DOCUMENT
        for part in ref.lstrip("#/").split("/"):
            found = found[part]
        return dict(found)
    return node


def endpoints(tool: str) -> list[Endpoint]:
    """Every operation of `tool` in the OpenAPI document, except its live-update stream."""
    found = []
    for template, operations in DOCUMENT["paths"].items():
        if template.split("/")[2:3] != [tool] or template.endswith("/events"):
            continue
        for method, operation in operations.items():
            if method not in ("get", "post"):
                continue
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            fields = tuple(_schema(body["schema"]).get("properties", {})) if body else ()
            found.append(Endpoint(tool, method.upper(), template, fields, body is not None))
    return sorted(found, key=Endpoint.order)


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
            values["editToken"] = client.post(
                f"/api/{self.tool}", json=dict(INSTALLED[self.tool].example)).json()["editToken"]
        return endpoint.template.format_map(_Missing(values))

    def base(self, endpoint: Endpoint) -> dict[str, Any]:
        """A body that works for this operation: the participation's own, else the slug for
        a public operation, else nothing."""
        if endpoint.is_create:
            return dict(INSTALLED[self.tool].example)
        if endpoint.template in self.bases:
            return dict(self.bases[endpoint.template])
        return {"slug": self.session.slug} if "slug" in endpoint.fields else {}


class _Missing(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "x"


def build_places(client: httpx.Client) -> dict[str, Place]:
    places = {}
    for tool_name, tool in INSTALLED.items():
        made = create_instance(client, tool_name, tool.example, plain)
        session = Session(client, made, plain)
        SCENARIOS[tool_name](session)
        bases = {sent.template: sent.body for sent in session.sent
                 if isinstance(sent.body, dict)}
        places[tool_name] = Place(tool_name, session, bases)
    return places


# --- judging an answer -----------------------------------------------------------------------

def send(client: httpx.Client, method: str, path: str, body: Any = None, *,
         raw: bytes | None = None) -> httpx.Response:
    content = raw if raw is not None else json.dumps(body, ensure_ascii=True).encode()
    try:
        return client.request(method, path, content=content,
                              headers={"Content-Type": "application/json"})
    except httpx.RemoteProtocolError:
        # The server closes a connection after its 1,000th request (hypercorn's
        # keep_alive_max_requests); a request sent on it as it closes goes unanswered and
        # unread. Sent again on a fresh connection, it gets its answer.
        return client.request(method, path, content=content,
                              headers={"Content-Type": "application/json"})


def verdict(response: httpx.Response, allowed: set[int]) -> str | None:
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
    extras = ({"field", "confirm"} if response.request.url.path.endswith("/edit")
              else set())
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

    def judge(self, what: str, response: httpx.Response, allowed: set[int] = ALLOWED) -> None:
        SENT["requests"] += 1
        problem = verdict(response, allowed)
        if problem:
            self.items.append(f"{what}: {problem}")

    def report(self, tool: str, case: str) -> str:
        shown = self.items[:25]
        more = f" (and {len(self.items) - len(shown)} more)" if len(self.items) > 25 else ""
        return f"{tool} {case}: " + "; ".join(shown) + more


# --- fixtures ----------------------------------------------------------------------------------

@pytest.fixture(scope="module", autouse=True)
def _count() -> Iterator[None]:
    yield
    print(f"\nhostile input: {SENT['requests']} requests judged")


@pytest.fixture(scope="module")
def strict(live_server: Callable[..., Any]) -> Any:
    """The default body limit; a POST limit no test here can reach."""
    return live_server(limits={"post_per_hour": 10_000_000})


@pytest.fixture(scope="module")
def strict_client(strict: Any) -> Iterator[httpx.Client]:
    with strict.client(timeout=120.0, limits=KEEP_ALIVE) as client:
        yield client


@pytest.fixture(scope="module")
def places(strict_client: httpx.Client) -> dict[str, Place]:
    return build_places(strict_client)


def tool_endpoints(tool: str, posts_only: bool = True) -> list[Endpoint]:
    return [e for e in endpoints(tool) if e.method == "POST" or not posts_only]


TOOLS = sorted(INSTALLED)


def test_document_lists_every_operation_served(strict_client: httpx.Client) -> None:
    """The operations below come from the document the server itself publishes."""
    served = strict_client.get("/openapi.json").json()
    assert sorted(served["paths"]) == sorted(DOCUMENT["paths"])
    for tool in TOOLS:
        assert any(e.is_create for e in endpoints(tool)), tool


# --- size ---------------------------------------------------------------------------------------

UPLOAD_TRIES = 5


def chunks(body: Any) -> Iterator[bytes]:
    """A body sent chunked, with no Content-Length to refuse it by."""
    data = json.dumps(body).encode()
    for start in range(0, len(data), 65536):
        yield data[start:start + 65536]


def refused_upload(make: Callable[[], httpx.Response]) -> httpx.Response | None:
    """The answer to an oversized upload. The server answers 413 as soon as the body passes
    the limit and closes the connection while the client may still be sending; the client
    then sometimes sees the reset before the answer (a race in TCP, not the server's
    choice), so a reset is retried: what counts is that the 413 does arrive."""
    for _ in range(UPLOAD_TRIES):
        try:
            return make()
        except (httpx.RemoteProtocolError, httpx.WriteError, httpx.ReadError):
            continue
    return None


@pytest.mark.parametrize("tool_name", TOOLS)
def test_oversized_bodies_are_413(tool_name: str, strict_client: httpx.Client,
                                  places: dict[str, Place]) -> None:
    place, findings = places[tool_name], Findings()
    padding = "x" * (BODY_LIMIT + 1)
    ten_mb = "y" * TEN_MB
    for endpoint in tool_endpoints(tool_name):
        field = (endpoint.fields or ("pad",))[0]

        for label, make in (
                ("declared length", lambda e=endpoint, f=field: send(
                    strict_client, e.method, place.path(e, strict_client), {f: padding})),
                ("chunked", lambda e=endpoint, f=field: strict_client.request(
                    e.method, place.path(e, strict_client), content=chunks({f: padding}),
                    headers={"Content-Type": "application/json"})),
                ("10 MB string", lambda e=endpoint, f=field: send(
                    strict_client, e.method, place.path(e, strict_client),
                    {**place.base(e), f: ten_mb}))):
            response = refused_upload(make)
            if response is None:
                findings.items.append(f"{endpoint.name} ({label}): the connection closed "
                                      f"without an answer {UPLOAD_TRIES} times in a row")
                continue
            findings.judge(f"{endpoint.name} ({label})", response, {413})
    # Nothing was deleted by a refused body.
    assert strict_client.get(f"/api/{tool_name}/{place.session.slug}").status_code == 200
    assert findings.items == [], findings.report(tool_name, "oversized bodies")


# --- nesting ------------------------------------------------------------------------------------

DEEP_BODIES = {
    "arrays": b"[" * DEEP + b"]" * DEEP,
    # As deep as the body limit allows for objects: five bytes a level.
    "objects": b'{"":' * (DEEP * 2 // 5) + b"1" + b"}" * (DEEP * 2 // 5),
    "unclosed": b"[" * DEEP,
}


@pytest.mark.parametrize("tool_name", TOOLS)
def test_deep_nesting_reads_as_an_empty_object(tool_name: str, strict_client: httpx.Client,
                                               places: dict[str, Place]) -> None:
    place, findings = places[tool_name], Findings()
    for endpoint in tool_endpoints(tool_name):
        for label, raw in DEEP_BODIES.items():
            inside = b'{"' + (endpoint.fields or ("x",))[0].encode() + b'":' + raw + b"}"
            for shape, body in ((label, raw), (f"{label} inside a field", inside)):
                path = place.path(endpoint, strict_client)
                response = send(strict_client, endpoint.method, path, raw=body)
                findings.judge(f"{endpoint.name} ({shape})", response)
                if endpoint.has_body and not endpoint.is_delete:
                    empty = send(strict_client, endpoint.method, path, {})
                    if empty.status_code != response.status_code:
                        findings.items.append(
                            f"{endpoint.name} ({shape}): answered {response.status_code}, "
                            f"an empty object {empty.status_code}")
    assert findings.items == [], findings.report(tool_name, "deep nesting")


# --- types --------------------------------------------------------------------------------------

@pytest.mark.parametrize("tool_name", TOOLS)
def test_wrong_types_in_every_field(tool_name: str, strict_client: httpx.Client,
                                    places: dict[str, Place]) -> None:
    place, findings = places[tool_name], Findings()
    for endpoint in tool_endpoints(tool_name):
        base = place.base(endpoint)
        for body in NON_OBJECTS:
            response = send(strict_client, endpoint.method, place.path(endpoint, strict_client),
                            body)
            findings.judge(f"{endpoint.name} body {json.dumps(body)}", response)
        for field in dict.fromkeys([*endpoint.fields, *base]):
            for label, value in WRONG_TYPES.items():
                response = send(strict_client, endpoint.method,
                                place.path(endpoint, strict_client), {**base, field: value})
                findings.judge(f"{endpoint.name} {field}={label}", response)
    assert findings.items == [], findings.report(tool_name, "wrong types")


# --- Unicode ------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", sorted(UNICODE))
@pytest.mark.parametrize("tool_name", TOOLS)
def test_awkward_unicode_in_every_field(tool_name: str, case: str,
                                        strict_client: httpx.Client,
                                        places: dict[str, Place]) -> None:
    place, findings = places[tool_name], Findings()
    text = UNICODE[case]
    for endpoint in tool_endpoints(tool_name):
        base = place.base(endpoint)
        for field in dict.fromkeys([*endpoint.fields, *base]):
            original = base.get(field)
            value = [text, text + "2"] if isinstance(original, list) and original and \
                isinstance(original[0], str) else text
            response = send(strict_client, endpoint.method, place.path(endpoint, strict_client),
                            {**base, field: value})
            findings.judge(f"{endpoint.name} {field}", response)
    assert findings.items == [], findings.report(tool_name, f"{case} text")


# --- read paths ---------------------------------------------------------------------------------

HOSTILE_SEGMENTS = ["x" * 4000, "%00", "%ED%A0%80", "%E2%80%AE", "..%2F..%2Fetc%2Fpasswd",
                    "%FF%FE", "d0-1%0D%0AX-Injected:%201", "%F0%9F%98%80"]


@pytest.mark.parametrize("tool_name", TOOLS)
def test_hostile_path_segments(tool_name: str, strict_client: httpx.Client,
                               places: dict[str, Place]) -> None:
    """Every placeholder of every path (credentials, slot ids) given junk: the usual 404 (or
    400), as JSON, never a 5xx and never an echoed header."""
    place, findings = places[tool_name], Findings()
    for endpoint in endpoints(tool_name):
        if endpoint.is_create or endpoint.is_delete:
            continue
        for segment in HOSTILE_SEGMENTS:
            for name in ("slug", "editToken", "token", "slotId", "shiftId"):
                if f"{{{name}}}" not in endpoint.template:
                    continue
                path = endpoint.template.format_map(_Missing({
                    "slug": place.session.slug, "editToken": place.session.edit,
                    "token": (place.session.tokens or [("", "x")])[0][1],
                    **place.session.params, name: segment}))
                response = send(strict_client, endpoint.method, path, place.base(endpoint))
                findings.judge(f"{endpoint.method} {path[:90]}", response, {400, 404, 409})
                if "x-injected" in response.headers:
                    findings.items.append(f"{path[:90]}: echoed a header")
    assert findings.items == [], findings.report(tool_name, "path segments")


# --- 10 MB strings where the limit allows them ------------------------------------------------

@pytest.fixture(scope="module")
def roomy(live_server: Callable[..., Any]) -> Any:
    """A server whose body limit takes a 10 MB string."""
    return live_server(limits={"post_per_hour": 10_000_000, "max_body_bytes": TEN_MB + 65536})


@pytest.fixture(scope="module")
def roomy_places(roomy: Any) -> Iterator[tuple[httpx.Client, dict[str, Place]]]:
    with roomy.client(timeout=300.0, limits=KEEP_ALIVE) as client:
        yield client, build_places(client)


@pytest.mark.parametrize("tool_name", TOOLS)
def test_ten_megabyte_strings(tool_name: str,
                              roomy_places: tuple[httpx.Client, dict[str, Place]]) -> None:
    client, places = roomy_places
    place, findings = places[tool_name], Findings()
    huge = ("Ann Bo " * (TEN_MB // 7 + 1))[:TEN_MB]
    for endpoint in tool_endpoints(tool_name):
        base = place.base(endpoint)
        for field in dict.fromkeys([*endpoint.fields, *base]):
            response = send(client, endpoint.method, place.path(endpoint, client),
                            {**base, field: huge})
            findings.judge(f"{endpoint.name} {field}", response)
    assert findings.items == [], findings.report(tool_name, "10 MB strings")


# --- huge numbers -------------------------------------------------------------------------------

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


@pytest.mark.parametrize("tool_name", TOOLS)
def test_five_thousand_digit_numbers_in_every_position(tool_name: str,
                                                       strict_client: httpx.Client,
                                                       places: dict[str, Place]) -> None:
    """Every field and every value nested in a working body, given a 5,000-digit number as a
    string (positive, negative, zero-padded) and as a bare JSON number: the field's own
    message or a normal answer, never a 500 (issue: they overflowed `int()`)."""
    place, findings = places[tool_name], Findings()
    tried = 0
    for endpoint in tool_endpoints(tool_name):
        for what, raw in huge_bodies(place.base(endpoint), endpoint.fields):
            tried += 1
            response = send(strict_client, endpoint.method,
                            place.path(endpoint, strict_client), raw=raw)
            findings.judge(f"{endpoint.name} {what}", response)
    assert tried > 0
    assert findings.items == [], findings.report(tool_name, "5,000-digit numbers")


# --- invisible-only text ------------------------------------------------------------------------

INVISIBLE_ONLY = "\u200b\u2060\ufeff\u200d\u202e\u2066 \u200c"


def text_positions(body: Any) -> Iterator[Position]:
    """Every place a non-empty string sits in a body."""
    for at in positions(body):
        value: Any = body
        for step in at:
            value = value[step]
        if isinstance(value, str) and value.strip():
            yield at


@pytest.mark.parametrize("tool_name", TOOLS)
def test_invisible_only_text_is_empty_text(tool_name: str, strict_client: httpx.Client,
                                           places: dict[str, Place]) -> None:
    """Wherever an empty string is refused (a card's recipient, a plate category, a name),
    a string of only zero-width, joiner, BOM and bidi characters gets the same answer,
    message and all: it shows nothing, so it is nothing."""
    place, findings = places[tool_name], Findings()
    compared = 0
    for endpoint in tool_endpoints(tool_name):
        if endpoint.is_delete:
            continue
        base = place.base(endpoint)
        for at in text_positions(base):
            path = place.path(endpoint, strict_client)
            empty = send(strict_client, endpoint.method, path, placed(base, at, ""))
            if empty.status_code < 400:
                continue  # optional text: nothing to compare without changing state
            invisible = send(strict_client, endpoint.method, path,
                             placed(base, at, INVISIBLE_ONLY))
            compared += 1
            if (invisible.status_code, invisible.text) != (empty.status_code, empty.text):
                findings.items.append(
                    f"{endpoint.name} {'.'.join(map(str, at))}: empty answered "
                    f"{empty.status_code} {empty.text[:80]}, invisible-only "
                    f"{invisible.status_code} {invisible.text[:80]}")
    assert findings.items == [], findings.report(tool_name, "invisible-only text")
    if tool_name in ("card", "giftidea", "plate", "kringle", "baby"):
        assert compared > 0  # the examples: each has a required text to compare
