"""Hostile input against every POST operation of every installed tool (create, public,
participant, organiser and delete), from a body that works: each tool takes part through its
scenario (tests/browser/participation.py, or the `Walkthrough` it declares) as the kit's
hostile-input suite does, and each example changes one place of that operation's working
body (a field, an item of a list, a key of an object inside one, or the whole body) to a
near-miss of its value or to arbitrary JSON. The slug and the credential in the path stay
the real ones unless the slug is the place changed.

Every answer is 200, 201, 400, 404 or 409, never a 5xx, and every refusal one JSON
`{"error"}`; and every operation lets at least MIN_SUCCESS of its examples through (2xx), so
the bodies reach the code behind the first check. An operation whose success uses up what
it needs (a claim takes its spot, a removal spends its token) gets a fresh instance, with
the participation before it done, after each success (up to REBUILDS).

The app runs in this process (Quart's test client behind an httpx transport), so a request
costs no network or second process."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import itertools
import json
import os
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from participation import SCENARIOS

from groupkit.core._config import Settings
from groupkit.ops._app import create_app
from groupkit_testing import PostgresSchema
from groupkit_testing import Session
from groupkit_testing import postgres_url
from groupkit_testing._hostile import ALLOWED
from groupkit_testing._hostile import Blanks
from groupkit_testing._hostile import Endpoint
from groupkit_testing._hostile import placed
from groupkit_testing._hostile import plain
from groupkit_testing._hostile import positions
from groupkit_testing._hostile import tool_endpoints
from groupkit_testing._hostile import verdict
from groupkit_testing._participation import Made
from groupkit_testing._participation import create_instance
from groupkit_testing._privacy import installed_tools

INSTALLED = installed_tools()
#: The share of each operation's examples that must succeed (2xx). Changing one place of a
#: working body leaves it working more often than not (a near miss of a value is often
#: still good); an operation whose every field is an id or a credential refuses every near
#: miss of them, and lets through little more than the unknown field it must ignore, hence
#: a tenth.
MIN_SUCCESS = 0.1
#: Bodies per operation: two in three near misses (the same each run), one in three any
#: JSON (drawn anew). `nox -s fuzz` raises the count; the test run keeps it bounded.
EXAMPLES = int(os.environ.get("GROUPKIT_FUZZ_EXAMPLES_PER_TOOL", "30"))
#: Fresh instances an operation whose success uses up what it needs may have: beyond them its
#: examples go on against what is left (the answers still judged), which keeps the cost of an
#: instance and its participation per success within bounds.
REBUILDS = EXAMPLES // 3

HUGE = "9" * 5000
#: Markers swapped for bare 5,000-digit JSON numbers when a body is sent (json.dumps cannot
#: write an int that long): numbers past Python's integer-string conversion limit.
BARE_HUGE = {"\u2063+huge\u2063": HUGE, "\u2063-huge\u2063": "-" + HUGE}
huge_numbers = st.sampled_from([HUGE, "-" + HUGE, "0" * 5000 + "1", *BARE_HUGE])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=30) | huge_numbers,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12)


def near_misses(value: Any) -> list[Any]:
    """Values close to a working one, those the spec converts or trims first: a number as
    text, padded text, a zero-width tail; then text far over its limit, empty, one item
    less or more."""
    if isinstance(value, bool):
        return [str(value).lower(), int(value), not value]
    if isinstance(value, int | float):
        return [str(value), f" {value} ", value + 1, float(value) + 0.5, value - 1, -value]
    if isinstance(value, str):
        return [f"  {value}\n ", f"{value}\u200b", value.upper(), value * 40, "", value[:1],
                f"{value} \U0001f600"]
    if isinstance(value, list):
        return [list(reversed(value)), value + value[:1], value[:1], value[1:]]
    if isinstance(value, dict):
        return [{key: value[key] for key in list(value)[:1]}, {}]
    return ["", None, 0, "x", [], {}]  # a field the body leaves out


def value_at(body: Any, at: tuple[Any, ...]) -> Any:
    for step in at:
        if isinstance(body, dict):
            body = body.get(step)
        elif isinstance(body, list) and isinstance(step, int) and step < len(body):
            body = body[step]
        else:
            return None
    return body


def places(base: dict[str, Any], fields: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """Every place in the working body, every documented field (present or not), a field
    no operation knows (to be ignored), and the body itself."""
    return list(dict.fromkeys([*positions(base), *((field,) for field in fields),
                               ("unexpected",), ()]))


def near_miss_bodies(base: dict[str, Any], fields: tuple[str, ...], count: int) -> list[Any]:
    """`count` bodies with one place changed to a near miss of its value, place by place:
    the first near miss of every place, then the second, and so on."""
    turns = itertools.zip_longest(*([placed(base, at, value)
                                     for value in near_misses(value_at(base, at))]
                                    for at in places(base, fields)), fillvalue=SKIP)
    return list(itertools.islice((body for turn in turns for body in turn
                                  if body is not SKIP), count))


SKIP = object()


class AppTransport(httpx.BaseTransport):
    """An httpx transport answered by the app in this process (Quart's test client) on one
    event loop: the kit's participation driver, written for httpx, drives it unchanged."""

    def __init__(self, app: Any) -> None:
        self.client = app.test_client()
        self.loop = asyncio.new_event_loop()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self.loop.run_until_complete(self._answer(request))

    async def _answer(self, request: httpx.Request) -> httpx.Response:
        response = await self.client.open(
            request.url.raw_path.decode("ascii"), method=request.method,
            data=request.read(), headers={"Content-Type": "application/json"})
        return httpx.Response(response.status_code, headers=list(response.headers.items()),
                              content=await response.get_data(), request=request)

    def close(self) -> None:
        self.loop.close()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """On this run's database (PostgreSQL when configured), with a POST limit no module of
    examples reaches."""
    url = postgres_url()
    schema = PostgresSchema(url) if url else None
    database = schema.database_url if schema else \
        f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'groupkit.db'}"
    app = create_app(Settings(database_url=database, database_threads=4,
                              post_per_hour=10_000_000))
    try:
        with httpx.Client(transport=AppTransport(app), base_url="http://127.0.0.1") as http:
            yield http
    finally:
        app.config["GROUPKIT_STORAGE"].close()
        if schema is not None:
            schema.drop()


class Reached(Exception):
    """The participation came to the operation under test: what it was about to send."""

    def __init__(self, url: str, body: Any) -> None:
        super().__init__(url)
        self.url, self.body = url, body


class Until(Session):
    """The participation up to (not including) the first call of one operation, whose body
    is rendered as the whole participation sent it (`fallen`: the texts it had to give a
    fallback, such as a link)."""

    def __init__(self, client: httpx.Client, made: Made, template: str,
                 fallen: set[str]) -> None:
        super().__init__(client, made, plain)
        self.template, self.fallen = template, fallen

    def _call(self, method: str, path: str, body: Any, **params: str) -> Any:
        template = f"/api/{self.tool}/{path}"
        if template == self.template:
            url = template.format(editToken=self.edit, **params)
            raise Reached(url, self._render(body, self.fallen))
        return super()._call(method, path, body, **params)


@functools.cache
def fallbacks(client: httpx.Client, tool: str) -> frozenset[str]:
    """The labels of the texts the tool's whole participation had to send as their fallback
    (a link field refusing ordinary words)."""
    session = Session(client, create_instance(client, tool, creating(tool), plain), plain)
    take_part = SCENARIOS.get(tool)
    if take_part is not None:
        take_part(session)
    return frozenset(label for sent in session.sent for label in sent.refused)


#: Create bodies beyond the tool's example, so that every operation has something to act on.
CREATE_EXTRA: dict[str, dict[str, Any]] = {"kringle": {"questions": True}}

HOOK = "https://hooks.slack.com/services/T000/B000/XXXX"


def _chat_connected(s: Session) -> dict[str, Any]:
    s.organiser("chat", {"url": HOOK, "format": "slack"})
    return {}


def _organiser_seated(s: Session) -> dict[str, Any]:
    s.organiser("seat", {"name": "Organiser"})
    return {"card": s.read()["cards"][1]}


def _asking(s: Session) -> dict[str, Any]:
    return {"to": "giftee", "text": "Any allergies?"}


#: Operations the participation does not make and the instance's own values cannot fill:
#: the steps before (sent) and the body that then works.
STEPS: dict[str, Callable[[Session], dict[str, Any]]] = {
    **{f"/api/{tool}/{{editToken}}/chat/test": _chat_connected
       for tool in ("coffee", "kudos", "poker", "pulse", "qotd")},
    **{f"/api/{tool}/{{editToken}}/language": lambda s: {"language": "de"}
       for tool in INSTALLED},
    "/api/poker/{editToken}/seat": lambda s: {"name": "Organiser"},
    "/api/poker/{editToken}/vote": _organiser_seated,
    "/api/kringle/p/{token}/ask": _asking,
    # After the example's fortnight.
    "/api/meal/{editToken}/addDays": lambda s: {"startDate": "2026-04-01", "days": 2,
                                                "spacing": 1},
}


def creating(tool: str) -> dict[str, Any]:
    return {**INSTALLED[tool].example, **CREATE_EXTRA.get(tool, {})}


@dataclasses.dataclass
class Start:
    """Where an example starts: the operation's path and a body that works there."""

    path: str
    body: dict[str, Any]


def start(client: httpx.Client, endpoint: Endpoint) -> Start:
    """A fresh instance of the tool, its participation done up to this operation, and the
    body the participation sends it; for an operation the participation does not make, all
    of it with the credentials it handed out and the slug as the body (public operations)."""
    tool = endpoint.tool
    if endpoint.is_create:
        return Start(endpoint.template, creating(tool))
    made = create_instance(client, tool, creating(tool), plain)
    session = Until(client, made, endpoint.template, set(fallbacks(client, tool)))
    take_part = SCENARIOS.get(tool)
    try:
        if take_part is not None:
            take_part(session)
    except Reached as reached:
        return Start(reached.url, dict(reached.body or {}))
    tokens = [token for _, token in session.tokens] or ["x" * 22]
    spends = endpoint.template.endswith("/remove")
    path = endpoint.template.format_map(Blanks({
        "slug": made.slug, "editToken": made.edit,
        "token": tokens[-1] if spends else tokens[0], **session.params}))
    if endpoint.template in STEPS:
        return Start(path, STEPS[endpoint.template](session))
    # Each documented field takes a value the instance already holds under that name (or,
    # for `somethingId`, as `id`): what it was created with, what the participation sent or
    # was answered, or what the public read and the export show.
    seen = [made.body, *(sent.body for sent in session.sent),
            *(sent.reply for sent in session.sent),
            client.get(f"/api/{tool}/{made.slug}").json(),
            client.post(f"/api/{tool}/{made.edit}/export").json()]
    known = harvest(seen)
    body = {field: known.get(field, known.get("id") if field.endswith("Id") else None)
            for field in endpoint.fields}
    body = {field: value for field, value in body.items() if value is not None}
    if "slug" in endpoint.fields:
        body["slug"] = made.slug
    return Start(path, body)


def harvest(values: list[Any]) -> dict[str, Any]:
    """name -> the first value held under that name anywhere in `values` (objects within
    lists included): a text, number, flag, or a list."""
    found: dict[str, Any] = {}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, str | int | float | bool) or (
                        isinstance(item, list) and item):
                    found.setdefault(key, item)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for value in values:
        walk(value)
    return found


def send(client: httpx.Client, path: str, body: Any) -> httpx.Response:
    data = json.dumps(body, ensure_ascii=False)
    for marker, digits in BARE_HUGE.items():
        data = data.replace(json.dumps(marker, ensure_ascii=False), digits)
    return client.post(path, content=data.encode(),
                       headers={"Content-Type": "application/json"})


FUZZ = settings(max_examples=max(EXAMPLES // 3, 1), deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


#: endpoint name -> its answers' statuses, printed at the end of the module (`-s`).
ANSWERS: dict[str, Counter[int]] = {}


@pytest.fixture(scope="module", autouse=True)
def _summary() -> Iterator[None]:
    yield
    if ANSWERS:
        total = sum((counts for counts in ANSWERS.values()), Counter[int]())
        ok = sum(count for status, count in total.items() if status < 300)
        lowest = min(ANSWERS, key=lambda name: success_share(ANSWERS[name]))
        print(f"\nfuzz: {total.total()} bodies over {len(ANSWERS)} operations, {ok} (2xx) "
              f"got through; lowest share {success_share(ANSWERS[lowest]):.0%} ({lowest})")


def success_share(statuses: Counter[int]) -> float:
    return sum(count for status, count in statuses.items() if status < 300) / statuses.total()


ENDPOINTS = [endpoint for tool in sorted(INSTALLED) for endpoint in tool_endpoints(tool)]


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[e.name for e in ENDPOINTS])
def test_every_operation_answers_well_and_lets_working_bodies_through(
        endpoint: Endpoint, client: httpx.Client) -> None:
    begin = start(client, endpoint)
    # Does a success use up what it needs? Send the working body twice to see.
    first, again = (send(client, begin.path, begin.body) for _ in range(2))
    spent = first.is_success and not again.is_success
    for response in (first, again):
        assert verdict(response, ALLOWED) is None, (endpoint.name, verdict(response, ALLOWED))
    statuses: Counter[int] = Counter()  # of the changed bodies only
    current: list[Start] = [start(client, endpoint) if spent else begin]
    rebuilt: Counter[str] = Counter()

    def check(body: Any) -> None:
        # The working body is rebuilt on each fresh instance (its ids and names may differ):
        # the same place changed the same way.
        response = send(client, current[0].path, rebased(body, begin, current[0]))
        problem = verdict(response, ALLOWED)
        assert problem is None, (endpoint.name, body, problem)
        statuses[response.status_code] += 1
        if spent and response.is_success and rebuilt.total() < REBUILDS:
            rebuilt["fresh"] += 1
            current[0] = start(client, endpoint)

    # Two in three: near misses, place by place, the same each run.
    for body in near_miss_bodies(begin.body, endpoint.fields, EXAMPLES - EXAMPLES // 3):
        check(body)

    # One in three: any JSON in one place, new each run.
    @FUZZ
    @given(at=st.sampled_from(places(begin.body, endpoint.fields)), value=json_values)
    def any_json(at: tuple[Any, ...], value: Any) -> None:
        check(placed(begin.body, at, value))

    any_json()
    ANSWERS[endpoint.name] = statuses
    if endpoint.name.endswith(NEEDS_EMAIL):
        # Email is off on this app: these answer the documented 409 (checked above to be a
        # well-formed refusal, never a 5xx); their successes are tests/test_email*.py's.
        assert set(statuses) <= {400, 404, 409}, (endpoint.name, dict(statuses))
        return
    assert success_share(statuses) >= MIN_SUCCESS, (endpoint.name, dict(statuses))


#: Operations that send email, which this app has off.
NEEDS_EMAIL = ("/remind", "/invite")


def rebased(body: Any, begin: Start, now: Start) -> Any:
    """`body`, made from the first working body, for the instance `now` works on: every value
    the first body held that this one holds differently (a slug, an id) takes the new one."""
    if now is begin:
        return body
    swaps = {json.dumps(old): json.dumps(new) for at in positions(begin.body)
             if isinstance(old := value_at(begin.body, at), str)
             and isinstance(new := value_at(now.body, at), str) and old != new}
    text = json.dumps(body)
    for old, new in swaps.items():
        text = text.replace(old, new)
    return json.loads(text)


def test_every_operation_is_fuzzed() -> None:
    """Participant, organiser and delete operations included."""
    names = [endpoint.name for endpoint in ENDPOINTS]
    assert any("{token}" in name for name in names)
    assert any(name.endswith("/delete") for name in names)
    assert len(names) == len(set(names))
    assert {endpoint.tool for endpoint in ENDPOINTS} == set(INSTALLED)

