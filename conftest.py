"""How many test processes `-n auto` (the default in pyproject.toml) starts, and
Hypothesis without its per-example deadline."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

#: Hypothesis fails an example that takes over 200 ms by default: a timing check that a busy
#: machine turns red (a 4 ms example took 328 ms while the cores were shared). Time belongs
#: to the benchmarks; these tests check behaviour only.
settings.register_profile("groupkit", deadline=None)
settings.load_profile("groupkit")


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One test process more than the cores: a core stays busy while one process waits on a
    page settling, a server starting or a subprocess. On a 2-core machine `uv run pytest`
    took 7 min 41 s with two processes (the cores 78% busy) and 7 min 7 s with three (92%),
    back to back on a quiet machine (docs/development.md)."""
    return len(os.sched_getaffinity(0)) + 1
