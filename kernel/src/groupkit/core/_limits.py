"""Per-client-IP, per-clock-hour request limits, counted in the database so that every worker
and every host shares one count.

A fixed window (the spec says clock hour), one atomic upsert per counted request: the
database decides the count, so N workers can never over-admit.
"""

from __future__ import annotations

import datetime as dt
import functools
import ipaddress
from collections.abc import Iterable
from collections.abc import Sequence

import peewee as pw

from groupkit.core._i18n import N_
from groupkit.core._storage import BaseModel
from groupkit.core._storage import database

CREATE = "create"
POST = "post"

CREATE_LIMIT_MESSAGE = N_(
    "Steady on — too many requests from this connection. Give it a few minutes.")
POST_LIMIT_MESSAGE = N_(
    "Steady on — that's a lot of changes from this connection. Give it a few minutes.")


class RateCounter(BaseModel):
    client = pw.CharField(max_length=64)
    bucket = pw.CharField(max_length=16)
    hour = pw.CharField(max_length=13)
    count = pw.IntegerField(default=0)

    class Meta:
        table_name = "rate_counter"
        indexes = ((("client", "bucket", "hour"), True),)


def clock_hour(now: dt.datetime) -> str:
    """The window key: the UTC clock hour, e.g. `2026-11-22T09`. Formatted by hand: it runs
    on every POST, where `strftime` (and `astimezone` of a time already in UTC) showed in
    the profile of a vote."""
    if now.utcoffset():
        now = now.astimezone(dt.UTC)
    return f"{now.year:04d}-{now.month:02d}-{now.day:02d}T{now.hour:02d}"


def retry_after(now: dt.datetime) -> str:
    """Seconds until the next clock hour, when the window resets."""
    return str(3600 - (now.minute * 60 + now.second))


@functools.cache
def _upsert_sql(param: str) -> str:
    return (f"INSERT INTO rate_counter (client, bucket, hour, count) "
            f"VALUES ({param}, {param}, {param}, 1) "
            "ON CONFLICT (client, bucket, hour) DO UPDATE SET count = rate_counter.count + 1 "
            "RETURNING count")


def count_request(client: str, bucket: str, now: dt.datetime) -> int:
    """Add one request to this client's window and return the new count: in a write's own
    transaction on SQLite, as a statement of its own just before it on PostgreSQL (see
    `Storage.write`)."""
    hour = clock_hour(now)
    # One statement, written out once (it runs on every POST; peewee's query builder cost
    # more than the statement itself).
    cursor = database.execute_sql(_upsert_sql(database.param), (client, bucket, hour))
    count = int(cursor.fetchone()[0])
    if count == 1:
        # The first request of a window is a cheap moment to forget finished windows.
        RateCounter.delete().where(RateCounter.hour < hour).execute()
    return count


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(entries: Iterable[str]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def _trusted(address: str, networks: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(peer: str | None, forwarded_for: str | None,
                   trusted: Sequence[Network]) -> str:
    """The client's IP: the direct peer, unless the peer is a trusted proxy, in which case the
    nearest untrusted address in `X-Forwarded-For` (walking from the right)."""
    address = peer or "unknown"
    if forwarded_for and _trusted(address, trusted):
        for hop in reversed([part.strip() for part in forwarded_for.split(",") if part.strip()]):
            address = hop
            if not _trusted(hop, trusted):
                break
    return address[:64]
