"""Per-IP, per-clock-hour limits, counted in the database."""

from __future__ import annotations

import asyncio
import datetime as dt
import ipaddress
import threading
import time
from typing import Any

import pytest

import demo_plugin
from groupkit.core import _limits as limits
from groupkit.core._limits import CREATE_LIMIT_MESSAGE
from groupkit.core._limits import client_address
from groupkit.core._limits import clock_hour
from groupkit.core._storage import Instance
from groupkit.core._storage import lock_instance

BODY = {"title": "x", "names": ["a"]}


def test_clock_hour_is_the_utc_hour() -> None:
    sydney = dt.timezone(dt.timedelta(hours=11))
    assert clock_hour(dt.datetime(2026, 11, 22, 9, 59, tzinfo=sydney)) == "2026-11-21T22"
    assert clock_hour(dt.datetime(2027, 1, 2, 3, 4, tzinfo=dt.UTC)) == "2027-01-02T03"
    assert clock_hour(dt.datetime(2027, 1, 2, 3, 4)) == "2027-01-02T03"  # naive: UTC
    behind = dt.timezone(-dt.timedelta(hours=5))
    assert clock_hour(dt.datetime(2026, 12, 31, 22, 0, tzinfo=behind)) == "2027-01-01T03"


def test_clock_hour_is_the_utc_hour_on_a_server_in_another_zone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's own zone (Sydney here, a POSIX rule needing no zone files) never moves
    the window."""
    monkeypatch.setenv("TZ", "AEST-10")
    time.tzset()
    try:
        paris = dt.timezone(dt.timedelta(hours=1))
        assert clock_hour(dt.datetime(2026, 11, 22, 9, 30, tzinfo=paris)) == "2026-11-22T08"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_client_address_trusts_forwarded_for_only_from_trusted_proxies() -> None:
    trusted = limits.parse_networks(["10.0.0.0/8"])
    assert client_address("203.0.113.9", "1.2.3.4", trusted) == "203.0.113.9"
    assert client_address("10.0.0.2", "1.2.3.4", trusted) == "1.2.3.4"
    assert client_address("10.0.0.2", "6.6.6.6, 1.2.3.4, 10.0.0.7", trusted) == "1.2.3.4"
    assert client_address("10.0.0.2", "", trusted) == "10.0.0.2"
    assert client_address(None, None, ()) == "unknown"
    assert ipaddress.ip_network("::1/128") in limits.parse_networks(["::1"])


def test_proxy_networks_with_host_bits_are_read_as_their_network() -> None:
    assert limits.parse_networks(["10.1.2.3/8"]) == (ipaddress.ip_network("10.0.0.0/8"),)


def test_a_peer_or_hop_that_is_no_address_is_never_trusted() -> None:
    everyone = limits.parse_networks(["0.0.0.0/0", "::/0"])
    assert client_address("unix:/run/groupkit.sock", "1.2.3.4", everyone) == (
        "unix:/run/groupkit.sock")
    assert client_address("10.0.0.2", "1.2.3.4, not-an-address, 10.0.0.7", everyone) == (
        "not-an-address")


def test_client_address_is_cut_to_64_characters() -> None:
    assert client_address("x" * 100, None, ()) == "x" * 64


async def test_production_create_limit_is_shared_and_exact(make_app: Any, clock: Any) -> None:
    app = make_app(tools=["demo", "sweeps"], extra_plugins=[demo_plugin], clock=clock,
                   mode="production")
    client = app.test_client()
    statuses = []
    for i in range(20):
        tool, body = ("demo", BODY) if i % 2 else (
            "sweeps", {"outcomes": ["a", "b"], "names": ["x", "y"]})
        statuses.append((await client.post(f"/api/{tool}", json=body)).status_code)
    assert statuses == [201] * 20
    over = await client.post("/api/demo", json=BODY)
    assert over.status_code == 429
    assert await over.get_json() == {"error": CREATE_LIMIT_MESSAGE}
    # Failed creates count too: the limit is on requests, before validation.
    assert (await client.post("/api/sweeps", json={})).status_code == 429


async def test_window_resets_on_the_clock_hour(make_app: Any, clock: Any) -> None:
    app = make_app(tools=["demo"], extra_plugins=[demo_plugin], clock=clock,
                   mode="production", create_per_hour=2)
    client = app.test_client()
    clock.now = clock.now.replace(minute=59, second=58)
    assert [(await client.post("/api/demo", json=BODY)).status_code for _ in range(3)] == [
        201, 201, 429]
    clock.advance(seconds=3)
    assert (await client.post("/api/demo", json=BODY)).status_code == 201


async def test_the_first_request_of_an_hour_forgets_finished_hours(
        make_app: Any, clock: Any) -> None:
    app = make_app(tools=["demo"], extra_plugins=[demo_plugin], clock=clock,
                   mode="production")
    client = app.test_client()
    storage = app.config["GROUPKIT_STORAGE"]

    def hours() -> list[str]:
        return sorted({row.hour for row in limits.RateCounter.select()})

    clock.now = clock.now.replace(minute=10)
    await client.post("/api/demo", json=BODY)
    await client.post("/api/demo", json=BODY)
    first = storage.run_sync(hours, write=False)
    assert len(first) == 1
    clock.advance(seconds=3600)
    await client.post("/api/demo", json=BODY)
    second = storage.run_sync(hours, write=False)
    assert len(second) == 1 and second != first
    await client.post("/api/demo", json=BODY)
    assert storage.run_sync(hours, write=False) == second


async def test_development_mode_does_not_limit_creates(make_app: Any, clock: Any) -> None:
    app = make_app(tools=["demo"], extra_plugins=[demo_plugin], clock=clock, create_per_hour=1)
    client = app.test_client()
    assert [(await client.post("/api/demo", json=BODY)).status_code for _ in range(3)] == [
        201, 201, 201]


async def test_other_posts_have_their_own_counter_and_gets_are_free(
        make_app: Any, clock: Any) -> None:
    app = make_app(tools=["demo"], extra_plugins=[demo_plugin], clock=clock,
                   mode="production", post_per_hour=3, create_per_hour=1)
    client = app.test_client()
    made = await (await client.post("/api/demo", json=BODY)).get_json()
    for _ in range(5):
        assert (await client.get(f"/api/demo/{made['slug']}")).status_code == 200
    statuses = [(await client.post("/api/demo/note", json={"slug": made["slug"], "text": "x"})
                 ).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]
    limited = await client.post("/api/demo/note", json={"slug": made["slug"], "text": "x"})
    assert "error" in await limited.get_json()
    assert limited.headers["Retry-After"].isdigit()


async def test_limits_are_per_client(make_app: Any, clock: Any) -> None:
    app = make_app(tools=["demo"], extra_plugins=[demo_plugin], clock=clock,
                   mode="production", create_per_hour=1, trusted_proxies=("127.0.0.1",))
    client = app.test_client()
    for ip in ("198.51.100.1", "198.51.100.2"):
        options = {"headers": {"X-Forwarded-For": ip},
                   "scope_base": {"client": ("127.0.0.1", 40000)}}
        assert (await client.post("/api/demo", json=BODY, **options)).status_code == 201
        assert (await client.post("/api/demo", json=BODY, **options)).status_code == 429
    # An untrusted peer's X-Forwarded-For is ignored: it cannot dodge its own limit.
    spoof = {"headers": {"X-Forwarded-For": "198.51.100.3"},
             "scope_base": {"client": ("203.0.113.5", 40000)}}
    assert (await client.post("/api/demo", json=BODY, **spoof)).status_code == 201
    spoof["headers"] = {"X-Forwarded-For": "198.51.100.4"}
    assert (await client.post("/api/demo", json=BODY, **spoof)).status_code == 429


async def test_refused_paths_count_too(make_app: Any, clock: Any) -> None:
    """POSTs that match no operation are counted before routing fails."""
    app = make_app(tools=["demo"], extra_plugins=[demo_plugin], clock=clock,
                   mode="production", post_per_hour=2)
    client = app.test_client()
    assert (await client.post("/api/demo/nothing/here")).status_code == 404
    assert (await client.post("/api/nothing")).status_code == 404
    limited = await client.post("/api/demo/nothing/here")
    assert limited.status_code == 429
    assert limited.headers["Retry-After"] == str(3600 - 15 * 60)


def test_retry_after_counts_to_the_next_clock_hour() -> None:
    assert limits.retry_after(dt.datetime(2026, 1, 1, 9, 59, 30)) == "30"
    assert limits.retry_after(dt.datetime(2026, 1, 1, 9, 0, 0)) == "3600"


async def test_failed_writes_count_and_leave_the_instance_as_it_was(
        make_app: Any, clock: Any) -> None:
    """A write that fails (its link unknown, its body refused, a bug) still counts against
    the limit, and nothing of it is kept: not even the version bump live pages watch."""
    app = make_app(tools=["demo"], extra_plugins=[demo_plugin], clock=clock,
                   mode="production", post_per_hour=3)
    client = app.test_client()
    made = await (await client.post("/api/demo", json=BODY)).get_json()
    storage = app.config["GROUPKIT_STORAGE"]

    def version() -> int:
        return int(Instance.get(Instance.slug == made["slug"]).version)

    before = storage.run_sync(version, write=False)
    unknown = {"slug": "no-such-group-23456789abcdef", "text": "x"}
    assert (await client.post("/api/demo/note", json=unknown)).status_code == 404
    assert (await client.post("/api/demo/note", json={"slug": made["slug"]})).status_code == 400
    assert (await client.post("/api/demo/boom", json={"slug": made["slug"]})).status_code == 500
    limited = await client.post("/api/demo/note", json={"slug": made["slug"], "text": "x"})
    assert limited.status_code == 429
    assert storage.run_sync(version, write=False) == before
    assert storage.run_sync(lambda: demo_plugin.Note.select().count(), write=False) == 0


async def test_a_write_waiting_on_one_group_does_not_hold_up_its_address(
        make_app: Any, clock: Any) -> None:
    """Every write from one address counts on one row (per hour). On PostgreSQL that count
    is committed before the write's transaction, so a write waiting for one group's lock
    does not hold the count's row and make the same address's writes to other groups wait
    behind it (an office behind one NAT address, a proxy not declared trusted): that made
    every write of one address run one at a time, across workers. SQLite has one writer at
    a time anyway: there both wait, and both go through when the lock is let go."""
    app = make_app(tools=["demo"], extra_plugins=[demo_plugin], clock=clock,
                   mode="production", post_per_hour=100)
    client = app.test_client()
    first = await (await client.post("/api/demo", json=BODY)).get_json()
    second = await (await client.post("/api/demo", json=BODY)).get_json()
    storage = app.config["GROUPKIT_STORAGE"]
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        lock_instance(Instance.get(Instance.slug == first["slug"]))
        locked.set()
        release.wait(20)

    holder = threading.Thread(target=storage.run_sync, args=(hold,))
    holder.start()
    try:
        assert locked.wait(10)
        waiting = asyncio.ensure_future(
            client.post("/api/demo/note", json={"slug": first["slug"], "text": "a"}))
        await asyncio.sleep(0.3)
        assert not waiting.done()
        other = asyncio.ensure_future(
            client.post("/api/demo/note", json={"slug": second["slug"], "text": "b"}))
        if storage.postgres:
            assert (await asyncio.wait_for(other, 10)).status_code == 201
            assert not waiting.done()
        else:
            await asyncio.sleep(0.3)
            assert not other.done()
        release.set()
        assert (await asyncio.wait_for(waiting, 10)).status_code == 201
        assert (await asyncio.wait_for(other, 10)).status_code == 201
    finally:
        release.set()
        holder.join(10)
