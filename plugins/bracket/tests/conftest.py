from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["bracket"])


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


#: Five listed entrants in a field of eight: seeds 1, 2 and 3 get byes.
#: Lines: Ann v bye, Di v Ed, Bo v bye, Cy v bye.
FIVE = {"title": "Table tennis", "seeding": "listed", "entrants": ["Ann", "Bo", "Cy", "Di", "Ed"]}


@pytest.fixture
async def five(client: Any) -> dict[str, str]:
    """A fresh listed bracket of five: `{slug, editToken}`."""
    return await create(client, "bracket", FIVE)
