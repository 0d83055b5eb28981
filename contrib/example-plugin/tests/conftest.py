"""The kernel's pytest plugin gives `make_app` and `create`; the tool is installed, so its
entry point is found like any third-party plugin's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["finddate"])


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()
