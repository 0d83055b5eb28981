from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["roster"])


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


#: Two shifts: three spots for setup (s0-1 .. s0-3), two for pack-down (s1-1, s1-2).
ROSTER = {"title": "Working bee", "eventDate": "Saturday 14 March 2026",
          "note": "Gloves provided.",
          "shifts": [{"label": "Setup 7-9am", "capacity": 3},
                     {"label": "Pack down", "capacity": "2"}]}


@pytest.fixture
async def roster(client: Any) -> dict[str, str]:
    """A fresh roster: `{slug, editToken}`."""
    return await create(client, "roster", ROSTER)
