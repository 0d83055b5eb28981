from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

import demo_plugin
from groupkit_testing import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(dt.datetime(2026, 11, 22, 9, 15, tzinfo=dt.UTC))


@pytest.fixture
def demo_app(make_app: Callable[..., Any], clock: FakeClock) -> Any:
    """An app with only the demo tool enabled (entry-point tools are not loaded)."""
    return make_app(tools=["demo"], extra_plugins=[demo_plugin], entry_points=False, clock=clock)


@pytest.fixture
def client(demo_app: Any) -> Any:
    return demo_app.test_client()
