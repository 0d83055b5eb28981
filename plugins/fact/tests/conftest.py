from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import error_of

NAMES = ["Ann", "Bo", "Cy", "Di"]


class Board:
    """One Fact Matcher board and short calls against it."""

    def __init__(self, client: Any, made: dict[str, str]) -> None:
        self.client, self.slug, self.edit = client, made["slug"], made["editToken"]

    async def claim(self, name: Any) -> Any:
        return await self.client.post("/api/fact/claim", json={"slug": self.slug, "name": name})

    async def token(self, name: str) -> str:
        response = await self.claim(name)
        payload = await response.get_json()
        assert response.status_code == 200, payload
        assert set(payload) == {"token"}
        return str(payload["token"])

    async def save(self, token: str, text: Any) -> Any:
        return await self.client.post(f"/api/fact/p/{token}/save", json={"text": text})

    async def write(self, name: str, text: str) -> str:
        """Claim `name` and save `text` as its fact; returns the token."""
        token = await self.token(name)
        response = await self.save(token, text)
        assert response.status_code == 200, await response.get_json()
        return token

    async def organise(self, op: str, body: Any = None) -> Any:
        return await self.client.post(f"/api/fact/{self.edit}/{op}", json=body or {})

    async def done(self, op: str, body: Any = None) -> dict[str, Any]:
        response = await self.organise(op, body)
        payload = await response.get_json()
        assert response.status_code == 200, payload
        return dict(payload)

    async def public(self) -> dict[str, Any]:
        response = await self.client.get(f"/api/fact/{self.slug}")
        assert response.status_code == 200
        return dict(await response.get_json())

    async def export(self) -> dict[str, Any]:
        return dict((await self.done("export"))["data"])

    async def page(self, path: str, status: int = 200) -> str:
        response = await self.client.get(path)
        assert response.status_code == status, path
        return (await response.get_data()).decode()


@pytest.fixture
def client(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["fact"]).test_client()


@pytest.fixture
def new_board(client: Any) -> Callable[..., Any]:
    """`await new_board(body)` creates a board and returns its `Board`."""

    async def make(body: Any = None) -> Board:
        made = await create(client, "fact", body or {"title": "Offsite", "names": NAMES})
        return Board(client, made)

    return make


@pytest.fixture
async def board(new_board: Callable[..., Any]) -> Board:
    return await new_board()


@pytest.fixture
def refused(client: Any) -> Callable[..., Any]:
    """`await refused(body)`: the 400 message a create body gets."""

    async def send(body: Any) -> str:
        return await error_of(await client.post("/api/fact", json=body), 400)

    return send
