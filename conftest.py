"""How many test processes `-n auto` (the default in pyproject.toml) starts."""

from __future__ import annotations

import os

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One test process more than the cores: a core stays busy while one process waits on a
    page settling, a server starting or a subprocess. On a 2-core machine `uv run pytest`
    took 7 min 41 s with two processes (the cores 78% busy) and 7 min 7 s with three (92%),
    back to back on a quiet machine (docs/development.md)."""
    return len(os.sched_getaffinity(0)) + 1
