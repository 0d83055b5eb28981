from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create

TEAM = {"title": "Platform coffee", "names": ["Ann Archer", "Bo Bramble", "Cy Cobb",
                                             "Di Dunlop", "Ed Ekins"],
        "cadence": "Every second Monday", "note": "Thirty minutes, your shout or theirs."}


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    # Some tests claim and draw hundreds of times: lift the per-hour POST limit only.
    return make_app(tools=["coffee"], post_per_hour=100_000)


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
async def team(client: Any) -> dict[str, str]:
    """A fresh five-person roulette: `{slug, editToken}`."""
    return await create(client, "coffee", TEAM)
