"""Fixtures for the Question of the Day tests: an app whose clock the test sets, a client,
a board, and `api`, a helper that speaks the tool's JSON API (test modules cannot import
each other, so helpers live on fixtures)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any
from typing import ClassVar

import pytest

from groupkit_testing import create
from groupkit_testing import error_of


class Clock:
    """The app's clock: `clock.set("2025-10-05T12:59:59Z")`, `clock.advance(hours=1)`."""

    def __init__(self) -> None:
        self.now = dt.datetime(2025, 6, 10, 2, 0, tzinfo=dt.UTC)  # noon in Sydney

    def __call__(self) -> dt.datetime:
        return self.now

    def set(self, moment: str | dt.datetime) -> None:
        if isinstance(moment, str):
            moment = dt.datetime.fromisoformat(moment.replace("Z", "+00:00"))
        self.now = moment

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


class QotdApi:
    NOT_FOUND: ClassVar[dict[str, str]] = {
        "error": "Nothing here — check the link you were given."}

    def __init__(self, client: Any) -> None:
        self.client = client

    async def make(self, body: Any = None) -> dict[str, str]:
        return await create(self.client, "qotd", {"teamName": "Owls"} if body is None else body)

    async def read(self, slug: str) -> dict[str, Any]:
        response = await self.client.get(f"/api/qotd/{slug}")
        assert response.status_code == 200
        return dict(await response.get_json())

    async def tally(self, slug: str) -> dict[str, Any]:
        response = await self.client.get(f"/api/qotd/{slug}/tally")
        assert response.status_code == 200, await response.get_json()
        return dict(await response.get_json())

    async def vote(self, slug: str, choice: Any = "a", name: Any = "Ann",
                   today: dict[str, Any] | None = None, **extra: Any) -> Any:
        today = today or await self.tally(slug)
        body = {"slug": slug, "choice": choice, "day": today["day"], "qi": today["qi"],
                "voterName": name, **extra}
        return await self.client.post("/api/qotd/vote", json=body)

    async def voted(self, slug: str, choice: str = "a", name: str = "Ann") -> dict[str, Any]:
        response = await self.vote(slug, choice, name)
        payload = await response.get_json()
        assert response.status_code == 201, payload
        return dict(payload)

    async def change(self, token: str, body: Any) -> Any:
        return await self.client.post(f"/api/qotd/v/{token}", json=body)

    async def organiser(self, edit: str, action: str, body: Any = None) -> Any:
        return await self.client.post(f"/api/qotd/{edit}/{action}", json=body or {})

    async def export(self, edit: str) -> dict[str, Any]:
        response = await self.organiser(edit, "export")
        assert response.status_code == 200
        return dict((await response.get_json())["data"])

    async def page(self, path: str, status: int = 200) -> str:
        response = await self.client.get(path)
        assert response.status_code == status, path
        return str((await response.get_data()).decode())

    error_of = staticmethod(error_of)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(make_app: Callable[..., Any], clock: Clock) -> Any:
    return make_app(tools=["qotd"], clock=clock)


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def api(client: Any) -> QotdApi:
    return QotdApi(client)


@pytest.fixture
async def board(api: QotdApi) -> dict[str, str]:
    return await api.make()


@pytest.fixture
def db(app: Any) -> Callable[..., Any]:
    """`db(fn, *args)` runs `fn` in one write transaction on the app's database."""
    storage = app.config["GROUPKIT_STORAGE"]

    def run(fn: Callable[..., Any], *args: Any) -> Any:
        return storage.run_sync(fn, *args)

    return run
