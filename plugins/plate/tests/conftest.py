from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["plate"])


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


#: Two categories: four spots for mains (c0-1 .. c0-4), two for desserts (c1-1, c1-2).
BOARD = {"title": "Street party", "eventDate": "Sat 6 Dec, 4pm", "note": "Bring a chair.",
         "categories": [{"name": "Mains", "capacity": 4}, {"name": "Desserts", "capacity": "2"}]}


@pytest.fixture
async def board(client: Any) -> dict[str, str]:
    """A fresh board: `{slug, editToken}`."""
    return await create(client, "plate", BOARD)
