from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create

#: Role and briefing texts that appear nowhere else, so a test can look for them in a page.
ROLES = ["Zebra-Spy", "Zebra-Spy", "Owl-Seer", "Lamb-Villager", "Lamb-Villager",
         "Lamb-Villager"]
BRIEFS = {"Zebra-Spy": "Brief-Zed first line\nsecond line", "Owl-Seer": "Brief-Owl"}
SECRETS = [*set(ROLES), *BRIEFS.values()]
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


class Api:
    """Short calls for the roles API through the Quart test client."""

    def __init__(self, client: Any) -> None:
        self.client = client

    async def create(self, body: Any) -> dict[str, str]:
        return await create(self.client, "roles", body)

    async def refused(self, body: Any, path: str = "/api/roles", status: int = 400) -> str:
        response = await self.client.post(path, json=body)
        return await self.error(response, status)

    @staticmethod
    async def error(response: Any, status: int) -> str:
        payload = await response.get_json()
        assert response.status_code == status, payload
        assert set(payload) == {"error"}
        return str(payload["error"])

    async def join(self, slug: Any, name: Any) -> Any:
        return await self.client.post("/api/roles/claim", json={"slug": slug, "name": name})

    async def joined(self, slug: str, name: str) -> str:
        response = await self.join(slug, name)
        payload = await response.get_json()
        assert response.status_code == 201, payload
        assert set(payload) == {"token"}
        return str(payload["token"])

    async def held(self, slug: Any, token: Any) -> dict[str, Any]:
        response = await self.client.post("/api/roles/held", json={"slug": slug, "token": token})
        payload = await response.get_json()
        assert response.status_code == 200, payload
        return dict(payload)

    async def organise(self, edit: str, op: str, body: Any = None) -> Any:
        return await self.client.post(f"/api/roles/{edit}/{op}", json=body or {})

    async def done(self, edit: str, op: str, body: Any = None) -> dict[str, Any]:
        response = await self.organise(edit, op, body)
        payload = await response.get_json()
        assert response.status_code == 200, payload
        return dict(payload)

    async def export(self, edit: str) -> dict[str, Any]:
        response = await self.client.post(f"/api/roles/{edit}/export")
        assert response.status_code == 200
        return dict((await response.get_json())["data"])

    async def public(self, slug: str) -> dict[str, Any]:
        response = await self.client.get(f"/api/roles/{slug}")
        assert response.status_code == 200
        return dict(await response.get_json())

    async def page(self, path: str, status: int = 200) -> str:
        response = await self.client.get(path)
        assert response.status_code == status, path
        assert response.content_type.startswith("text/html")
        return (await response.get_data()).decode()

    async def roles_by_name(self, edit: str) -> dict[str, str | None]:
        return {player["name"]: player["role"]
                for player in (await self.export(edit))["players"]}


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["roles"])


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def api(client: Any) -> Api:
    return Api(client)


@pytest.fixture
async def game(api: Api) -> dict[str, str]:
    """Six role slots (two spies, a seer, three villagers) with two briefings."""
    return await api.create({"title": "Games night", "note": "Eyes shut when told.",
                             "roles": ROLES, "briefs": BRIEFS})
