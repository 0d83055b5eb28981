from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    # Filling a card to 400 messages takes more than the 240 POSTs an hour one address gets.
    return make_app(tools=["card"], post_per_hour=100_000)


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


CARD = {"recipient": "Margaret", "title": "Happy retirement!",
        "note": "Thirty-one years.\nSign by Friday."}


@pytest.fixture
async def card(client: Any) -> dict[str, str]:
    """A fresh card for Margaret: `{slug, editToken}`."""
    return await create(client, "card", CARD)
