from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import error_of


class Clock:
    """The app's clock, settable: the guess window is measured from the request time."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now


#: 2026-03-01 22:30 UTC: the window runs from 2025-01-25 to 2027-09-02 (UTC days).
START = dt.datetime(2026, 3, 1, 22, 30, tzinfo=dt.UTC)


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture
def app(make_app: Callable[..., Any], clock: Clock) -> Any:
    # 300 guesses and more from one test client: lift the per-hour POST limit.
    return make_app(tools=["baby"], clock=clock, post_per_hour=100_000)


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


POOL = {"parents": "Priya & Tom", "dueDate": "Mid March", "note": "Winner names the goldfish."}


@pytest.fixture
async def pool(client: Any) -> dict[str, str]:
    """A fresh, open pool: `{slug, editToken}`."""
    return await create(client, "baby", POOL)


async def guess(client: Any, slug: Any, guesser: Any = "Ann", date: Any = "2026-03-14",
                weight: Any = 3400, **extra: Any) -> Any:
    body = {"slug": slug, "guesser": guesser, "date": date, "weightGrams": weight, **extra}
    return await client.post("/api/baby/guess", json=body)


async def guessed(client: Any, slug: str, guesser: str = "Ann", date: str = "2026-03-14",
                  weight: Any = 3400, **extra: Any) -> dict[str, str]:
    response = await guess(client, slug, guesser, date, weight, **extra)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    return dict(payload)


async def read(client: Any, slug: str) -> dict[str, Any]:
    response = await client.get(f"/api/baby/{slug}")
    assert response.status_code == 200
    return dict(await response.get_json())


@pytest.fixture
def h() -> SimpleNamespace:
    """The helpers above, for test modules (a conftest is not importable)."""
    return SimpleNamespace(error_of=error_of, guess=guess, guessed=guessed, read=read)
