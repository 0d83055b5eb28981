"""What the race tests share: proof from the server's own access log that a race's requests
were in the server at the same time.

The access log (groupkit.core._logs) writes one record per response with its path, the
worker's pid, `start` (when the request arrived, Unix time) and `ms`, the time from its
arrival to its answer. Overlap is shown twice: two requests' [start, start + ms] intervals
intersect, and the server spent more time on the race's requests, added up, than the race
lasted from the first request sent to the last answer."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from groupkit.core._logs import redact


class Overlap:
    """The access records of one race, read from the server's log once it is over."""

    def __init__(self, server: Any, method: str, path: str) -> None:
        # As the log writes it: credentials and slugs redacted.
        self.server, self.method, self.path = server, method, redact(path)
        self.records: list[dict[str, Any]] = []
        self.span_ms = 0.0

    @contextmanager
    def race(self) -> Iterator[None]:
        """Time the race (wrap the start signal and the gathering of answers)."""
        seen = len(self.server.log())
        started = time.perf_counter()
        yield
        self.span_ms = (time.perf_counter() - started) * 1000
        # Redacted here too: this process has not learnt the route words the server keeps
        # readable (a tool's name that looks like a token).
        self.records = [record for record in _access(self.server.log()[seen:])
                        if record.get("method") == self.method
                        and redact(str(record.get("path"))) == self.path]

    @property
    def pids(self) -> set[int]:
        return {record["pid"] for record in self.records}

    @property
    def busy_ms(self) -> float:
        return float(sum(record["ms"] for record in self.records))

    def assert_overlapped(self, requests: int) -> None:
        print(f"\n{self.method} {self.path}: {requests} requests, {self.busy_ms:.0f} ms in the "
              f"server over a race of {self.span_ms:.0f} ms, on {len(self.pids)} worker(s)")
        assert len(self.records) == requests, (len(self.records), requests)
        # The proof is the server's own record of when each request was in it (its `start`
        # and time taken); the sum of their times against the race's wall time is printed
        # above only as a hint (a fast server on a quiet machine can overlap them with less).
        spans = sorted((record["start"], record["start"] + record["ms"] / 1000)
                       for record in self.records)
        # Sorted by arrival, some request arrived before an earlier one had its answer.
        assert any(later[0] < earlier[1] for earlier, later in itertools.pairwise(spans)), (
            "no two requests of the race were in the server at the same time")


def _access(text: str) -> Iterator[dict[str, Any]]:
    for line in text.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            if record.get("logger") == "groupkit.access":
                yield record


@pytest.fixture
def overlap() -> Callable[[Any, str, str], Overlap]:
    """`watch = overlap(server, "POST", "/api/plate/claim")`; `with watch.race(): ...`;
    then `watch.assert_overlapped(50)`."""
    return Overlap
