from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["meal"])


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


DROPOFF = "14 Wattle Lane, side gate code 4471"
ALLERGIES = "Coeliac: no gluten at all"

#: Three days (d0 = 2 Mar, d1 = 3 Mar, d2 = 4 Mar 2026), two cooks a day, and two jobs:
#: t0 with two spots (t0-1, t0-2), t1 with one (t1-1).
TRAIN = {"forWhom": "the Smiths", "note": "Home from hospital Monday.",
         "allergies": ALLERGIES, "dropoff": DROPOFF,
         "startDate": "2026-03-02", "days": 3, "capacityPerDay": 2,
         "tasks": [{"label": "Walk the dog", "capacity": 2}, {"label": "Mow the lawn"}],
         "helpLinks": [{"label": "Gift card", "url": "https://example.com/gift"}]}


@pytest.fixture
async def train(client: Any) -> dict[str, str]:
    """A fresh meal train: `{slug, editToken}`."""
    return await create(client, "meal", TRAIN)
