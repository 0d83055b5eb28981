"""Waiting on real servers: a condition polled until it holds or the time is up (for tests
where background work, such as the delivery loop, moves things on its own)."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(condition: Callable[[], bool], timeout: float = 40.0) -> bool:
    """Whether `condition` held within `timeout` seconds (polled every 0.2 s)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()
