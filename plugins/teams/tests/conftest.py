from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["teams"])


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


GROUPING = {"title": "Trivia night", "teams": [
    {"title": "Quizzly Bears", "members": ["Ann", "Cy", "Ed"]},
    {"title": "", "members": ["Bo", "Di"]}]}


@pytest.fixture
async def grouping(client: Any) -> dict[str, str]:
    """A stored grouping: `{slug, editToken}`."""
    return await create(client, "teams", GROUPING)
