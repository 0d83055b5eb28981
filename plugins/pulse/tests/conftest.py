"""Fixtures for the Weekly Pulse tests: an app on a fake clock and a small API helper."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import error_of

#: Wednesday 18 November 2026, 1 pm in Sydney (AEDT, UTC+11): the week of Monday the 16th.
START = dt.datetime(2026, 11, 18, 2, 0, tzinfo=dt.UTC)
THIS_WEEK = "2026-11-16"


class FakeClock:
    """The app's clock, set by the test: weeks and retention depend on the date."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def set(self, moment: dt.datetime) -> None:
        self.now = moment

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


class PulseApi:
    """The requests the tests make again and again."""

    def __init__(self, client: Any) -> None:
        self.client = client

    async def create(self, body: Any) -> dict[str, str]:
        return await create(self.client, "pulse", body)

    async def respond(self, slug: str, score: Any = 4, words: Any = None,
                      **extra: Any) -> Any:
        body: dict[str, Any] = {"slug": slug, "score": score, **extra}
        if words is not None:
            body["words"] = words
        return await self.client.post("/api/pulse/respond", json=body)

    async def responded(self, slug: str, score: int = 4,
                        words: str | None = None) -> dict[str, Any]:
        response = await self.respond(slug, score, words)
        payload = await response.get_json()
        assert response.status_code == 201, payload
        return dict(payload)

    async def read(self, slug: str) -> dict[str, Any]:
        response = await self.client.get(f"/api/pulse/{slug}")
        assert response.status_code == 200
        return dict(await response.get_json())

    async def week(self, slug: str, name: str) -> dict[str, Any]:
        found = [entry for entry in (await self.read(slug))["weeks"] if entry["week"] == name]
        assert len(found) == 1, name
        return dict(found[0])

    async def text(self, path: str) -> str:
        response = await self.client.get(path)
        assert response.status_code == 200, path
        return str((await response.get_data()).decode())

    async def export(self, edit_token: str) -> dict[str, Any]:
        response = await self.client.post(f"/api/pulse/{edit_token}/export")
        assert response.status_code == 200
        return dict(await response.get_json())

    error_of = staticmethod(error_of)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def app(make_app: Callable[..., Any], clock: FakeClock) -> Any:
    return make_app(tools=["pulse"], clock=clock)


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def api(client: Any) -> PulseApi:
    return PulseApi(client)


@pytest.fixture
async def pulse(api: PulseApi) -> dict[str, str]:
    """A fresh pulse that asks for words: `{slug, editToken}`."""
    return await api.create({"team": "Platform team"})
