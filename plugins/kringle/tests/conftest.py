from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create

NAMES = ["Ann Archer", "Bo Bramble", "Cy Cobb", "Di Dunlop", "Ed Ekins"]
DRAW = {"title": "Office Kris Kringle", "names": NAMES, "budget": "$30",
        "exchangeDate": "Friday 19 December", "note": "Gifts under the kitchen tree."}


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    # Some tests claim a hundred names: lift the per-hour POST limit, not the behaviour.
    return make_app(tools=["kringle"], post_per_hour=100_000)


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
async def draw(client: Any) -> dict[str, str]:
    """A fresh five-person draw: `{slug, editToken}`."""
    return await create(client, "kringle", DRAW)
