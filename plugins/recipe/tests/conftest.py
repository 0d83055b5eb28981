from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    # Filling a book to 200 recipes takes close to the 240 POSTs an hour one address gets.
    return make_app(tools=["recipe"], post_per_hour=100_000)


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


BOOK = {"title": "Family favourites", "forWhom": "Mum's 70th",
        "note": "Add the dishes\r\nyou grew up with."}


@pytest.fixture
async def book(client: Any) -> dict[str, str]:
    """A fresh book: `{slug, editToken}`."""
    return await create(client, "recipe", BOOK)
