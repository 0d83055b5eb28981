from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    # Filling a board to its 200 ideas takes more than the 240 POSTs an hour one address gets.
    return make_app(tools=["giftidea"], post_per_hour=100_000)


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


BOARD = {"recipient": "Priya", "occasion": "Farewell", "budget": "About $20 each",
         "note": "Loves hiking.\r\nAnd coffee."}


@pytest.fixture
async def board(client: Any) -> dict[str, str]:
    """A fresh board for Priya: `{slug, editToken}`."""
    return await create(client, "giftidea", BOARD)
