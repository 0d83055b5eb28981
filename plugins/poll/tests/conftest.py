"""Fixtures for the Group Vote tests: an app with only the poll tool, a client, a poll, and
`api`, a small helper that speaks the poll's JSON API (test modules cannot import each
other, so the helpers live on a fixture)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar

import pytest

from groupkit_testing import create
from groupkit_testing import error_of

LUNCH = {"question": "Where for lunch?", "options": ["Thai", "Pub", "Picnic"]}


class PollApi:
    NOT_FOUND: ClassVar[dict[str, str]] = {"error": "Nothing here — check the link you were given."}

    def __init__(self, client: Any) -> None:
        self.client = client

    async def make(self, **body: Any) -> dict[str, str]:
        return await create(self.client, "poll", {**LUNCH, **body})

    async def read(self, slug: str) -> dict[str, Any]:
        response = await self.client.get(f"/api/poll/{slug}")
        assert response.status_code == 200
        return dict(await response.get_json())

    async def ids(self, slug: str) -> dict[str, str]:
        """Option text -> id."""
        return {option["text"]: option["id"] for option in (await self.read(slug))["tally"]}

    async def counts(self, slug: str) -> dict[str, int]:
        return {option["text"]: option["count"] for option in (await self.read(slug))["tally"]}

    async def vote(self, slug: str, choices: Any, **extra: Any) -> Any:
        return await self.client.post("/api/poll/vote",
                                      json={"slug": slug, "choices": choices, **extra})

    async def voted(self, slug: str, choices: Any, **extra: Any) -> dict[str, Any]:
        response = await self.vote(slug, choices, **extra)
        payload = await response.get_json()
        assert response.status_code == 201, payload
        return dict(payload)

    async def change(self, token: str, choices: Any, **extra: Any) -> Any:
        return await self.client.post(f"/api/poll/v/{token}",
                                      json={"choices": choices, **extra})

    async def organiser(self, edit: str, action: str, body: Any = None) -> Any:
        return await self.client.post(f"/api/poll/{edit}/{action}", json=body or {})

    async def page(self, path: str, status: int = 200) -> str:
        response = await self.client.get(path)
        assert response.status_code == status, path
        return str((await response.get_data()).decode())

    error_of = staticmethod(error_of)


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["poll"])


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def api(client: Any) -> PollApi:
    return PollApi(client)


@pytest.fixture
async def poll(api: PollApi) -> dict[str, str]:
    """A single-choice poll: Thai, Pub, Picnic."""
    return await api.make()


@pytest.fixture
def db(app: Any) -> Callable[..., Any]:
    """`db(fn, *args)` runs `fn` in one write transaction on the app's database."""
    storage = app.config["GROUPKIT_STORAGE"]

    def run(fn: Callable[..., Any], *args: Any) -> Any:
        return storage.run_sync(fn, *args)

    return run
