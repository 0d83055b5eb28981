"""Fixtures for the Scrum Poker tests: an app, a board, and a small API helper."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import error_of


class PokerApi:
    """The requests the tests make again and again."""

    def __init__(self, client: Any) -> None:
        self.client = client

    async def create(self, body: Any) -> dict[str, str]:
        return await create(self.client, "poker", body)

    async def join(self, slug: str, name: Any) -> Any:
        return await self.client.post("/api/poker/join", json={"slug": slug, "name": name})

    async def joined(self, slug: str, name: str) -> str:
        response = await self.join(slug, name)
        payload = await response.get_json()
        assert response.status_code == 201, payload
        return str(payload["token"])

    async def vote(self, token: str, card: Any) -> Any:
        return await self.client.post(f"/api/poker/v/{token}/vote", json={"card": card})

    async def voted(self, token: str, card: Any) -> None:
        response = await self.vote(token, card)
        assert response.status_code == 200, await response.get_json()

    async def organise(self, edit_token: str, action: str, body: Any = None) -> Any:
        return await self.client.post(f"/api/poker/{edit_token}/{action}", json=body or {})

    async def read(self, slug: str) -> dict[str, Any]:
        response = await self.client.get(f"/api/poker/{slug}")
        assert response.status_code == 200
        return dict(await response.get_json())

    async def text(self, path: str) -> str:
        response = await self.client.get(path)
        assert response.status_code == 200, path
        return str((await response.get_data()).decode())

    async def export(self, edit_token: str) -> dict[str, Any]:
        response = await self.client.post(f"/api/poker/{edit_token}/export")
        assert response.status_code == 200
        return dict(await response.get_json())

    error_of = staticmethod(error_of)


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["poker"])


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def api(client: Any) -> PokerApi:
    return PokerApi(client)


@pytest.fixture
async def board(api: PokerApi) -> dict[str, str]:
    """A fresh numbers board: `{slug, editToken}`."""
    return await api.create({"team": "Payments", "story": "PAY-1 Refunds", "deck": "fib"})


@pytest.fixture
async def sizes(api: PokerApi) -> dict[str, str]:
    """A fresh T-shirt board: `{slug, editToken}`."""
    return await api.create({"team": "Web", "story": "WEB-7 Dark mode", "deck": "tshirt"})
