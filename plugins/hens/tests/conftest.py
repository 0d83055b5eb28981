from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["hens"])


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


#: The place is a value found nowhere else in the body, so a leak can be searched for.
WHERE = "Bellbird Cottage, 7 Wattle Lane"

#: Two lists: three spots for decorations (c0-1 .. c0-3), two for games (c1-1, c1-2).
PLANNER = {"title": "Mia's hens", "forWhom": "Mia", "when": "Saturday 14 March, 2pm",
           "where": WHERE, "note": "Dress code: pink.\nShh, it's a surprise.",
           "kitty": "$60 each, covers lunch and the cruise.",
           "activities": ["Long lunch", "Harbour cruise", "Karaoke"],
           "categories": [{"name": "Decorations", "capacity": 3},
                          {"name": "Games", "capacity": "2"}]}


@pytest.fixture
def planner_body() -> dict[str, Any]:
    """The body `planner` was created with."""
    return dict(PLANNER)


@pytest.fixture
async def planner(client: Any) -> dict[str, str]:
    """A fresh planner: `{slug, editToken}`."""
    return await create(client, "hens", PLANNER)
