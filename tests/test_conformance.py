"""Spec conformance of a running service: headers, robots, 404 sameness, well-known documents,
the OpenAPI document, body parsing and size, and the create rate limit. The development
server's checks run twice, the second time asking for German (`Accept-Language` and the
language cookie): the API's answers are the specification's English whatever is asked.

One development-mode server serves most of the module; the rate-limit tests share one
production-mode server, each from its own loopback address (so each is its own client IP).
"""

from __future__ import annotations

import re
import urllib.robotparser
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from openapi_spec_validator import OpenAPIV31SpecValidator
from openapi_spec_validator import validate

from groupkit import Settings
from groupkit import create_app
from groupkit.core._i18n import COOKIE
from groupkit_testing._suites import capability_headers

pytestmark = pytest.mark.server

MAX_BODY = 8192
NOT_FOUND_API = {"error": "Nothing here — check the link you were given."}
CREATE_LIMIT = "Steady on — too many requests from this connection. Give it a few minutes."
FIRST_REQUIRED = {"sweeps": "Add at least two outcomes.", "plate": "Add at least one category."}
# Well-formed credentials that were never issued.
UNKNOWN_SLUG = "nobody-home-" + "a" * 14
UNKNOWN_EDIT_TOKEN = "b" * 26
UNKNOWN_TOKEN = "c" * 22


def sweep_body(**extra: Any) -> dict[str, Any]:
    return {"title": "Grand final", "outcomes": ["Cats", "Swans"], "names": ["Ann", "Bo"],
            **extra}


def plate_body(**extra: Any) -> dict[str, Any]:
    return {"title": "Team lunch", "categories": [{"name": "Mains", "capacity": 2},
                                                  {"name": "Desserts", "capacity": 1}],
            **extra}


CREATE_BODIES: dict[str, Callable[..., dict[str, Any]]] = {"sweeps": sweep_body,
                                                          "plate": plate_body}


def create(client: httpx.Client, tool: str, **headers: str) -> dict[str, str]:
    response = client.post(f"/api/{tool}", json=CREATE_BODIES[tool](), headers=headers)
    assert response.status_code == 201, response.text
    created = response.json()
    assert set(created) == {"slug", "editToken"}
    return dict(created)


TRUSTED_PROXY = "127.0.0.4"


@pytest.fixture(scope="module")
def servers(live_server: Callable[..., Any]) -> dict[str, Any]:
    """Both of the module's servers, started side by side."""
    launched = {
        "development": live_server(mode="development", limits={"max_body_bytes": MAX_BODY},
                                   wait=False),
        # Chat webhooks off: production starts with them only given a base_url.
        "production": live_server(mode="production", trusted_proxies=[f"{TRUSTED_PROXY}/32"],
                                  webhooks={"hosts": []}, wait=False)}
    return {mode: server.wait() for mode, server in launched.items()}


@pytest.fixture(scope="module")
def server(servers: dict[str, Any]) -> Any:
    return servers["development"]


#: What a reader who chose German sends: the API's answers must not move for it.
GERMAN = {"Accept-Language": "de", "Cookie": f"{COOKIE}=de"}


@pytest.fixture(scope="module", params=["en", "de"])
def language(request: pytest.FixtureRequest) -> str:
    """The language the module's client asks for."""
    return str(request.param)


@pytest.fixture(scope="module")
def http(server: Any, language: str) -> Iterator[httpx.Client]:
    """A client of the development server, once plain and once asking for German on every
    request: every test of it passes unchanged either way."""
    with server.client(headers=GERMAN if language == "de" else {}) as client:
        yield client


def test_the_client_asks_for_its_language(http: httpx.Client, language: str) -> None:
    """The German pass does ask for German: its pages speak it."""
    assert f'<html lang="{language}"' in http.get("/").text


@pytest.fixture(scope="module")
def sweep(http: httpx.Client) -> dict[str, str]:
    return create(http, "sweeps")


@pytest.fixture(scope="module")
def plate(http: httpx.Client) -> dict[str, str]:
    return create(http, "plate")


# --- page headers ---------------------------------------------------------------------------


def assert_capability_page_headers(response: httpx.Response, private: bool) -> None:
    """The kit's check (the one its contract suite applies to every tool's pages)."""
    capability_headers(response.headers, private=private, what=str(response.url))


@pytest.mark.parametrize("tool", ["sweeps", "plate"])
@pytest.mark.parametrize("kind", ["s", "e"])
def test_capability_pages_carry_headers(http: httpx.Client, sweep: dict[str, str],
                                        plate: dict[str, str], tool: str, kind: str) -> None:
    created = {"sweeps": sweep, "plate": plate}[tool]
    code = created["slug"] if kind == "s" else created["editToken"]
    response = http.get(f"/{kind}/{code}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert_capability_page_headers(response, private=kind == "e")


@pytest.mark.parametrize("tool", ["sweeps", "plate"])
def test_public_views_never_show_the_edit_token(http: httpx.Client, sweep: dict[str, str],
                                                plate: dict[str, str], tool: str) -> None:
    created = {"sweeps": sweep, "plate": plate}[tool]
    for path in (f"/s/{created['slug']}", f"/api/{tool}/{created['slug']}"):
        response = http.get(path)
        assert response.status_code == 200
        assert created["editToken"] not in response.text, path


@pytest.mark.parametrize("path", [f"/s/{UNKNOWN_SLUG}", f"/e/{UNKNOWN_EDIT_TOKEN}",
                                  f"/p/{UNKNOWN_TOKEN}"])
def test_capability_404_pages_carry_headers(http: httpx.Client, path: str) -> None:
    response = http.get(path)
    assert response.status_code == 404
    assert_capability_page_headers(response, private=not path.startswith("/s/"))


def test_robots_txt_disallows_capability_paths(server: Any, http: httpx.Client) -> None:
    response = http.get("/robots.txt")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    groups: dict[str, set[str]] = {}  # user agent -> its Disallow paths
    agents: list[str] = []
    in_rules = False
    for line in response.text.splitlines():
        key, _, value = line.split("#", 1)[0].partition(":")
        key, value = key.strip().lower(), value.strip()
        if key == "user-agent":
            if in_rules:  # a User-agent line after rules starts the next group
                agents, in_rules = [], False
            agents.append(value)
            groups.setdefault(value, set())
        elif key in ("allow", "disallow"):
            in_rules = True
            if key == "disallow":
                for agent in agents:
                    groups[agent].add(value)
    assert {"/s/", "/e/", "/p/"} <= groups.get("*", set())
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(response.text.splitlines())
    for agent in ("*", "SomeBot/1.0", "Googlebot"):
        for prefix in ("s", "e", "p"):
            assert not parser.can_fetch(agent, server.url(f"/{prefix}/anything"))
    assert parser.can_fetch("*", server.url("/"))


# --- 404 sameness ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def deleted(http: httpx.Client) -> dict[str, str]:
    """A plate that had a claim, then was deleted; with the claim's secret."""
    created = create(http, "plate")
    claimed = http.post("/api/plate/claim", json={"slug": created["slug"], "slotId": "c0-1",
                                                  "name": "Ann", "dish": "Pavlova"})
    assert claimed.status_code == 201, claimed.text
    gone = http.post(f"/api/plate/{created['editToken']}/delete")
    assert gone.status_code == 200, gone.text
    assert gone.json().get("ok") is True
    return {**created, "secret": claimed.json()["secret"]}


def api_404_requests(sweep: dict[str, str], deleted: dict[str, str]
                     ) -> list[tuple[str, str, dict[str, Any] | None]]:
    slug, token = sweep["slug"], sweep["editToken"]
    gone_slug, gone_token = deleted["slug"], deleted["editToken"]
    claim = {"slotId": "c0-1", "name": "Bo", "dish": "Salad"}
    return [
        # unknown slug / editToken
        ("GET", f"/api/sweeps/{UNKNOWN_SLUG}", None),
        ("GET", f"/api/plate/{UNKNOWN_SLUG}", None),
        ("POST", "/api/plate/claim", {"slug": UNKNOWN_SLUG, **claim}),
        ("POST", "/api/plate/claim", {**claim}),
        ("POST", f"/api/sweeps/{UNKNOWN_EDIT_TOKEN}/redraw", None),
        ("POST", f"/api/sweeps/{UNKNOWN_EDIT_TOKEN}/delete", None),
        ("POST", f"/api/plate/{UNKNOWN_EDIT_TOKEN}/remove", {"slotId": "c0-1"}),
        ("POST", "/api/sweeps/short/redraw", None),
        # a sweeps credential used against Bring a Plate
        ("GET", f"/api/plate/{slug}", None),
        ("POST", "/api/plate/claim", {"slug": slug, **claim}),
        ("POST", "/api/plate/unclaim", {"slug": slug, "slotId": "c0-1",
                                        "secret": "d" * 16}),
        ("POST", f"/api/plate/{token}/remove", {"slotId": "c0-1"}),
        ("POST", f"/api/plate/{token}/export", None),
        ("POST", f"/api/plate/{token}/delete", None),
        # a deleted instance
        ("GET", f"/api/plate/{gone_slug}", None),
        ("POST", "/api/plate/claim", {"slug": gone_slug, **claim}),
        ("POST", "/api/plate/unclaim", {"slug": gone_slug, "slotId": "c0-1",
                                        "secret": deleted["secret"]}),
        ("POST", f"/api/plate/{gone_token}/remove", {"slotId": "c0-1"}),
        ("POST", f"/api/plate/{gone_token}/export", None),
        ("POST", f"/api/plate/{gone_token}/delete", None),
    ]


def test_api_404s_are_identical(http: httpx.Client, sweep: dict[str, str],
                                deleted: dict[str, str]) -> None:
    bodies = set()
    for method, path, body in api_404_requests(sweep, deleted):
        response = http.request(method, path, json=body)
        assert response.status_code == 404, (method, path, response.text)
        assert response.headers["content-type"].startswith("application/json"), path
        assert response.json() == NOT_FOUND_API, (method, path)
        bodies.add(response.content)
    assert len(bodies) == 1
    # The sweep itself is untouched by the wrong-tool attempts, including the delete.
    assert http.get(f"/api/sweeps/{sweep['slug']}").status_code == 200


def test_page_404s_are_identical(http: httpx.Client, sweep: dict[str, str],
                                 deleted: dict[str, str]) -> None:
    paths = [f"/s/{UNKNOWN_SLUG}", f"/e/{UNKNOWN_EDIT_TOKEN}", f"/p/{UNKNOWN_TOKEN}",
             f"/s/{deleted['slug']}", f"/e/{deleted['editToken']}", f"/p/{deleted['secret']}",
             f"/p/{sweep['editToken']}", "/s/x", "/e/x"]
    bodies = set()
    for path in paths:
        response = http.get(path)
        assert response.status_code == 404, path
        assert response.headers["content-type"].startswith("text/html"), path
        assert "<html" in response.text.lower()
        bodies.add(response.content)
    assert len(bodies) == 1


def test_deleted_sweep_stops_resolving_everywhere(http: httpx.Client) -> None:
    created = create(http, "sweeps")
    slug, token = created["slug"], created["editToken"]
    assert http.get(f"/s/{slug}").status_code == 200
    assert http.post(f"/api/sweeps/{token}/delete").status_code == 200
    for method, path in (("GET", f"/api/sweeps/{slug}"), ("POST", f"/api/sweeps/{token}/redraw"),
                         ("POST", f"/api/sweeps/{token}/export"),
                         ("POST", f"/api/sweeps/{token}/delete")):
        response = http.request(method, path)
        assert (response.status_code, response.json()) == (404, NOT_FOUND_API), path
    for path in (f"/s/{slug}", f"/e/{token}"):
        assert http.get(path).status_code == 404


# --- well-known documents and OpenAPI ------------------------------------------------------------


@pytest.mark.parametrize("path", ["/.well-known/oauth-protected-resource",
                                  "/.well-known/oauth-authorization-server"])
def test_no_oauth_metadata(http: httpx.Client, path: str) -> None:
    assert http.get(path).status_code == 404
    assert http.head(path).status_code == 404


def test_api_catalog(http: httpx.Client) -> None:
    head = http.head("/.well-known/api-catalog")
    assert head.status_code == 200
    assert head.headers["content-type"].startswith("application/linkset+json")
    assert head.content == b""
    response = http.get("/.well-known/api-catalog")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/linkset+json")
    linkset = response.json()["linkset"]
    descriptions = [link["href"] for entry in linkset for link in entry.get("service-desc", [])]
    assert descriptions, linkset
    document = httpx.get(descriptions[0], timeout=30).raise_for_status().json()
    assert document["openapi"].startswith("3.1")


@pytest.fixture(scope="module")
def openapi(http: httpx.Client) -> dict[str, Any]:
    catalog = http.get("/.well-known/api-catalog").json()
    href = catalog["linkset"][0]["service-desc"][0]["href"]
    response = http.get(href)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    return dict(response.json())


def test_openapi_document_is_valid_3_1(openapi: dict[str, Any]) -> None:
    validate(openapi, cls=OpenAPIV31SpecValidator)
    assert openapi["openapi"].startswith("3.1.")
    assert openapi["info"]["version"] == "1.0.0"
    assert all(path.startswith("/api/") for path in openapi["paths"])
    assert not any(re.search(r"/v\d+(/|$)", path) for path in openapi["paths"])


QUART_PARAMETER = re.compile(r"<(?:[^:>]+:)?([^>]+)>")
OPENAPI_NAMES = {"edit_token": "editToken"}


def served_api_routes(tmp_path: Path) -> set[tuple[str, str]]:
    """(OpenAPI-style path, method) of every /api/ route of an app with every tool enabled."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'routes.db'}"),
                     run_migrations=False)
    app.config["GROUPKIT_STORAGE"].close()
    routes = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = QUART_PARAMETER.sub(lambda m: "{" + OPENAPI_NAMES.get(m[1], m[1]) + "}",
                                   rule.rule)
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            routes.add((path, method.lower()))
    return routes


def test_openapi_covers_every_api_route(openapi: dict[str, Any], tmp_path: Path) -> None:
    served = served_api_routes(tmp_path)
    assert ("/api/sweeps", "post") in served and ("/api/plate/claim", "post") in served
    documented = {(path, method) for path, item in openapi["paths"].items()
                  for method in item if method in ("get", "post", "put", "patch", "delete")}
    assert served - documented == set(), "served but not documented"
    assert documented - served == set(), "documented but not served"


def test_openapi_lists_the_spec_paths(openapi: dict[str, Any]) -> None:
    for path in ("/api/sweeps", "/api/sweeps/{editToken}/redraw",
                 "/api/sweeps/{editToken}/delete", "/api/plate", "/api/plate/claim",
                 "/api/plate/unclaim", "/api/plate/{editToken}/remove",
                 "/api/plate/{editToken}/delete"):
        assert "post" in openapi["paths"].get(path, {}), path


# --- request bodies -------------------------------------------------------------------------------


@pytest.mark.parametrize("tool", ["sweeps", "plate"])
@pytest.mark.parametrize("content", [b"this is not json", b"{\"outcomes\": [", b"\xff\xfe\x00",
                                     b"", b"[1, 2, 3]", b"[]", b"null", b"42", b"\"text\"",
                                     b"{\"outcomes\": NaN}", b"[" * 4000 + b"]" * 4000],
                         ids=["text", "truncated", "binary", "empty", "array", "empty-array",
                              "null", "number", "string", "nan", "deeply-nested"])
def test_unusable_body_reads_as_empty_object(http: httpx.Client, tool: str,
                                             content: bytes) -> None:
    response = http.post(f"/api/{tool}", content=content,
                         headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == {"error": FIRST_REQUIRED[tool]}
    # ... exactly as `{}` does.
    empty = http.post(f"/api/{tool}", json={})
    assert (empty.status_code, empty.json()) == (400, {"error": FIRST_REQUIRED[tool]})


def test_body_at_the_limit_is_read(http: httpx.Client) -> None:
    body = sweep_body(note="x" * (MAX_BODY - 200))
    response = http.post("/api/sweeps", json=body)
    assert response.status_code == 201, response.text


@pytest.mark.parametrize("tool", ["sweeps", "plate"])
def test_body_over_the_limit_is_json_413(http: httpx.Client, tool: str) -> None:
    body = CREATE_BODIES[tool](note="x" * (MAX_BODY + 100))
    response = http.post(f"/api/{tool}", json=body)
    assert response.status_code == 413
    assert response.headers["content-type"].startswith("application/json")
    assert isinstance(response.json().get("error"), str) and response.json()["error"]


def test_chunked_body_over_the_limit_is_json_413(http: httpx.Client,
                                                 plate: dict[str, str]) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"slug": "' + plate["slug"].encode() + b'", "slotId": "c0-2", "name": "'
        for _ in range(MAX_BODY // 1000 + 2):
            yield b"y" * 1000
        yield b'", "dish": "Soup"}'

    response = http.post("/api/plate/claim", content=chunks(),
                         headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["error"]
    board = http.get(f"/api/plate/{plate['slug']}").json()
    assert not board["categories"][0]["spots"][1]["taken"]


def test_development_mode_does_not_limit_creates(http: httpx.Client) -> None:
    for i in range(25):
        tool = ("sweeps", "plate")[i % 2]
        create(http, tool)


# --- the create rate limit (production mode) -----------------------------------------------


@pytest.fixture(scope="module")
def production(servers: dict[str, Any]) -> Any:
    return servers["production"]


def creates_until_limited(client: httpx.Client, allowed: int,
                          headers: Callable[[int], dict[str, str]] = lambda i: {}) -> None:
    """`allowed` creates (alternating tools) succeed; the next of each tool is 429."""
    for i in range(allowed):
        tool = ("sweeps", "plate")[i % 2]
        response = client.post(f"/api/{tool}", json=CREATE_BODIES[tool](), headers=headers(i))
        assert response.status_code == 201, (i, response.text)
    for i, tool in enumerate(("sweeps", "plate"), start=allowed):
        response = client.post(f"/api/{tool}", json=CREATE_BODIES[tool](), headers=headers(i))
        assert response.status_code == 429, (i, response.text)
        assert response.headers["content-type"].startswith("application/json")
        assert response.json() == {"error": CREATE_LIMIT}


def test_production_limits_creates_per_client(production: Any, same_clock_hour: None) -> None:
    with production.client(local_address="127.0.0.2") as client:
        sweep = create(client, "sweeps")
        plate = create(client, "plate")
        # Other POSTs and any GET don't count towards the create limit.
        for i in range(3):
            assert client.post(f"/api/sweeps/{sweep['editToken']}/redraw").status_code == 200
            claimed = client.post("/api/plate/claim", json={
                "slug": plate["slug"], "slotId": f"c0-{i + 1}" if i < 2 else "c1-1",
                "name": f"Guest {i}", "dish": "Chips"})
            assert claimed.status_code == 201, claimed.text
            assert client.get(f"/api/plate/{plate['slug']}").status_code == 200
        creates_until_limited(client, 18)
        # Refused creates don't block the rest of the API.
        assert client.post(f"/api/sweeps/{sweep['editToken']}/redraw").status_code == 200
    # The count is per client: another address still creates.
    with production.client(local_address="127.0.0.5") as other:
        create(other, "plate")


def test_forwarded_for_ignored_from_untrusted_peer(production: Any,
                                                   same_clock_hour: None) -> None:
    with production.client(local_address="127.0.0.3") as client:
        creates_until_limited(client, 20,
                              lambda i: {"X-Forwarded-For": f"198.51.100.{i + 1}"})


def test_forwarded_for_believed_from_trusted_proxy(production: Any,
                                                   same_clock_hour: None) -> None:
    with production.client(local_address=TRUSTED_PROXY) as proxy:
        creates_until_limited(proxy, 20, lambda i: {"X-Forwarded-For": "203.0.113.9"})
        # Behind the proxy, another client has its own count.
        create(proxy, "sweeps", **{"X-Forwarded-For": "203.0.113.10"})
        create(proxy, "plate", **{"X-Forwarded-For": "203.0.113.66, 203.0.113.11"})
