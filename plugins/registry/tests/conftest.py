from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import error_of


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    # Filling the overflow patch takes 400 contributions from one client.
    return make_app(tools=["registry"], post_per_hour=100_000)


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


PAYMENT = {"method": "Bank transfer", "aliasId": "mia.sam.payid@example.com",
           "accountName": "Mia Sam Kowalczyk", "bsb": "062-914", "accountNumber": "10457788",
           "note": "Pop the reference in the description"}
REGISTRY = {"coupleNames": "Mia & Sam", "tagline": "Help us build the honeymoon van",
            "weddingDate": "Saturday 14 March", "payment": PAYMENT}


@pytest.fixture
async def registry(client: Any) -> dict[str, str]:
    """A fresh registry with payment details: `{slug, editToken}`."""
    return await create(client, "registry", REGISTRY)


async def claim(client: Any, slug: Any, part_id: Any = "p001", name: Any = "Ann",
                **extra: Any) -> Any:
    return await client.post("/api/registry/claim",
                             json={"slug": slug, "partId": part_id, "name": name, **extra})


async def claimed(client: Any, slug: str, part_id: str = "p001", name: str = "Ann",
                  **extra: Any) -> dict[str, Any]:
    response = await claim(client, slug, part_id, name, **extra)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    return dict(payload)


async def chip_in(client: Any, slug: Any, amount: Any = 5000, name: Any = "Bo",
                  **extra: Any) -> Any:
    return await client.post("/api/registry/overflow",
                             json={"slug": slug, "amountCents": amount, "name": name, **extra})


async def chipped_in(client: Any, slug: str, amount: Any = 5000, name: str = "Bo",
                     **extra: Any) -> dict[str, Any]:
    response = await chip_in(client, slug, amount, name, **extra)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    return dict(payload)


async def read(client: Any, slug: str) -> dict[str, Any]:
    response = await client.get(f"/api/registry/{slug}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def claims(client: Any, edit: str) -> list[dict[str, Any]]:
    response = await client.get(f"/api/registry/{edit}/claims")
    assert response.status_code == 200
    return list((await response.get_json())["claims"])


@pytest.fixture
def h() -> SimpleNamespace:
    """The helpers above, for test modules (a conftest is not importable)."""
    return SimpleNamespace(error_of=error_of, claim=claim, claimed=claimed, chip_in=chip_in,
                           chipped_in=chipped_in, read=read, claims=claims, payment=PAYMENT,
                           body=REGISTRY)
