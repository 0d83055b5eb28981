"""GET /metrics: off by default; when enabled, only for allowed client addresses; counts
from every worker added up (prometheus-client's multiprocess mode), parsed here with
prometheus-client's own parser; route templates as labels, never a credential."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

pytestmark = pytest.mark.server

METRICS_ON = "[metrics]\nenabled = true\n"
SWEEP = {"outcomes": ["A", "B"], "names": ["X", "Y"]}


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    parsed = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            parsed[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return parsed


def value(parsed: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str,
          **labels: str) -> float:
    return parsed.get((name, frozenset(labels.items())), 0.0)


def fresh_connection(server: Any, **options: Any) -> httpx.Client:
    """No keep-alive: each request is a new connection, which either worker may accept."""
    return server.client(limits=httpx.Limits(max_keepalive_connections=0), **options)


def test_metrics_are_off_by_default(live_server: Callable[..., Any]) -> None:
    server = live_server(workers=1, database="sqlite")
    with server.client() as client:
        assert client.get("/metrics").status_code == 404


def test_metrics_add_up_every_worker_and_carry_no_credential(
        live_server: Callable[..., Any]) -> None:
    server = live_server(workers=2, mode="production", limits={"create_per_hour": 3},
                         tools=("sweeps", "plate"), extra_toml=METRICS_ON)
    with fresh_connection(server, local_address="127.0.0.3") as client:
        created = [client.post("/api/sweeps", json=SWEEP) for _ in range(4)]
        assert [r.status_code for r in created] == [201, 201, 201, 429]
        slug, edit = created[0].json()["slug"], created[0].json()["editToken"]
        for _ in range(20):
            assert client.get(f"/api/sweeps/{slug}").status_code == 200
        assert client.get(f"/e/{edit}").status_code == 200
        assert client.get(f"/{edit}").status_code == 404
        # Another client address is refused: metrics.allow defaults to 127.0.0.1 and ::1.
        assert client.get("/metrics").status_code == 404
    with fresh_connection(server) as client:
        with client.stream("GET", f"/api/sweeps/{slug}/events") as stream:
            assert stream.status_code == 200
            deadline = time.monotonic() + 10
            while True:  # the scrape may land on either worker: both must report the stream
                scraped = client.get("/metrics")
                assert scraped.status_code == 200
                open_now = value(samples(scraped.text), "groupkit_live_streams_open")
                if open_now == 1 or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            assert open_now == 1
        text = client.get("/metrics").text
    for credential in (slug, edit, slug.rsplit("-", 1)[1]):
        assert credential not in text
    parsed = samples(text)
    # Twenty reads over fresh connections, wherever they landed, counted once each.
    read = "/api/sweeps/<slug:slug>"
    assert value(parsed, "groupkit_http_requests_total", method="GET", route=read,
                 status="200") == 20
    assert value(parsed, "groupkit_http_requests_total", method="POST", route="/api/sweeps",
                 status="201") == 3
    assert value(parsed, "groupkit_rate_limit_refusals_total", route="/api/sweeps") == 1
    assert value(parsed, "groupkit_http_requests_total", method="GET",
                 route="<unmatched>", status="404") >= 1
    assert value(parsed, "groupkit_http_request_duration_seconds_count", method="GET",
                 route=read) == 20
    assert value(parsed, "groupkit_http_request_duration_seconds_bucket", method="GET",
                 route=read, le="+Inf") == 20
    assert value(parsed, "groupkit_database_seconds_count", kind="write") >= 4
    # Each create's hold of the write lock, under its tool and operation (the refused one
    # too on SQLite, where the rate-limit count shares the transaction).
    assert value(parsed, "groupkit_write_lock_seconds_count", tool="sweeps",
                 operation="/api/sweeps") >= 3
    # Reads that did go to the database (on SQLite a read already rendered and unchanged
    # since does not): at least the first public read and the organiser page, each resolved
    # and rendered, and the event stream's start.
    assert value(parsed, "groupkit_database_seconds_count", kind="read") >= 5
    assert value(parsed, "groupkit_instances", tool="sweeps") == 3
    assert value(parsed, "groupkit_instances", tool="plate") == 0 or \
        ("groupkit_instances", frozenset({("tool", "plate")})) not in parsed
    with fresh_connection(server) as client:
        only = samples(client.get("/metrics", params=[
            ("name[]", "groupkit_write_lock_seconds_count"),
            ("name[]", "groupkit_instances")]).text)
    assert {name for name, _ in only} == {"groupkit_write_lock_seconds_count",
                                          "groupkit_instances"}
    assert value(only, "groupkit_instances", tool="sweeps") == 3
    routes = {dict(labels).get("route") for name, labels in parsed if "route" in dict(labels)}
    assert all(route is not None and (route.startswith(("/", "<"))) for route in routes)
    assert not any(edit in str(route) for route in routes)
