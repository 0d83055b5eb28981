"""`make_app` and `create` come from the kit's pytest plugin (`groupkit_testing`), loaded
automatically once groupkit-testing is installed (the plugin's `test` extra). The app has
only this tool enabled."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import groupkit_mytool


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    # extra_plugins registers the tool without installing it; once installed, the entry
    # point finds it and `make_app(tools=["mytool"])` is enough.
    return make_app(tools=["mytool"], extra_plugins=[groupkit_mytool], entry_points=False)


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()
