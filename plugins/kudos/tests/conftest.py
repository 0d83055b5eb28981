"""Fixtures for the Kudos Wall tests: an app on a fake clock, a wall, an API helper."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import error_of

#: Wednesday 18 November 2026, 1 pm in Sydney (AEDT, UTC+11): the week of Monday the 16th.
START = dt.datetime(2026, 11, 18, 2, 0, tzinfo=dt.UTC)


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


class KudosApi:
    """The requests the tests make again and again."""

    def __init__(self, client: Any) -> None:
        self.client = client

    async def create(self, body: Any) -> dict[str, str]:
        return await create(self.client, "kudos", body)

    async def post(self, slug: Any, recipient: Any = "Priya", message: Any = "Fixed the build.",
                   sender: Any = "Sam", **extra: Any) -> Any:
        body = {"slug": slug, "recipient": recipient, "message": message, "sender": sender,
                **extra}
        return await self.client.post("/api/kudos/note", json=body)

    async def posted(self, slug: str, recipient: str = "Priya",
                     message: str = "Fixed the build.", sender: str = "Sam") -> dict[str, Any]:
        response = await self.post(slug, recipient, message, sender)
        payload = await response.get_json()
        assert response.status_code == 201, payload
        return dict(payload)

    async def read(self, slug: str) -> dict[str, Any]:
        response = await self.client.get(f"/api/kudos/{slug}")
        assert response.status_code == 200
        return dict(await response.get_json())

    async def export(self, edit_token: str) -> dict[str, Any]:
        response = await self.client.post(f"/api/kudos/{edit_token}/export")
        assert response.status_code == 200
        return dict((await response.get_json())["data"])

    async def text(self, path: str) -> str:
        response = await self.client.get(path)
        assert response.status_code == 200, path
        return str((await response.get_data()).decode())

    async def remove_own(self, token: str) -> Any:
        return await self.client.post(f"/api/kudos/n/{token}/remove")

    async def remove(self, edit_token: str, note_id: Any) -> Any:
        return await self.client.post(f"/api/kudos/{edit_token}/remove",
                                      json={"noteId": note_id})

    error_of = staticmethod(error_of)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def app(make_app: Callable[..., Any], clock: FakeClock) -> Any:
    return make_app(tools=["kudos"], clock=clock)


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def api(client: Any) -> KudosApi:
    return KudosApi(client)


@pytest.fixture
async def wall(api: KudosApi) -> dict[str, str]:
    """A fresh wall: `{slug, editToken}`."""
    return await api.create({"team": "Support", "intro": "Say thanks."})
