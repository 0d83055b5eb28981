"""POST /api/baby: the parents rules and the optional fields."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit_testing import create

NO_PARENTS = "Whose bub is it? Add the parents' names."
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


async def refused(client: Any, body: Any) -> str:
    response = await client.post("/api/baby", json=body)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert payload == {"error": payload["error"]}
    return str(payload["error"])


async def pool_of(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    made = await create(client, "baby", body)
    return dict(await (await client.get(f"/api/baby/{made['slug']}")).get_json())


async def test_create_returns_slug_and_edit_token(client: Any) -> None:
    response = await client.post("/api/baby", json={"parents": "Priya & Tom"})
    assert response.status_code == 201
    made = await response.get_json()
    assert set(made) == {"slug", "editToken"}
    assert re.fullmatch(rf"baby-pool-for-priya-[{ALPHABET}]{{14}}", made["slug"])
    assert re.fullmatch(rf"[{ALPHABET}]{{26}}", made["editToken"])


@pytest.mark.parametrize("parents", [None, False, 0, 0.0, "", "   ", "\n\t ", [], [[]],
                                     [None], [""]])
async def test_falsy_or_empty_parents_rejected(client: Any, parents: Any) -> None:
    assert await refused(client, {"parents": parents, "dueDate": "March"}) == NO_PARENTS


async def test_missing_parents_rejected(client: Any) -> None:
    assert await refused(client, {"dueDate": "March", "note": "Hi"}) == NO_PARENTS


@pytest.mark.parametrize("body", [b"{nope", b"", b"null", b"[1]", b'"Priya"'])
async def test_body_that_is_not_an_object_reads_as_empty(client: Any, body: bytes) -> None:
    response = await client.post("/api/baby", data=body,
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert await response.get_json() == {"error": NO_PARENTS}


@pytest.mark.parametrize(("parents", "stored"), [
    (42, "42"), (True, "true"), (-1, "-1"), (2.5, "2.5"), (1.0, "1"),
    ({"a": 1}, "[object Object]"), (["Priya", "Tom"], "Priya,Tom"), ([0], "0")])
async def test_truthy_non_strings_are_converted(client: Any, parents: Any, stored: str) -> None:
    pool = await pool_of(client, {"parents": parents})
    assert pool["parents"] == stored
    assert pool["title"] == f"Baby pool for {stored}"


async def test_parents_is_cleaned_and_cut_to_80(client: Any) -> None:
    assert (await pool_of(client, {"parents": "  Priya \n\t and   Tom  "}))["parents"] == \
        "Priya and Tom"
    long = "x" * 79 + "  yz" + "w" * 5000
    assert (await pool_of(client, {"parents": long}))["parents"] == "x" * 79 + " "


async def test_optional_fields(client: Any) -> None:
    pool = await pool_of(client, {"parents": "P", "dueDate": "  mid \n  March ",
                                  "note": "  line one\n\n  line two  "})
    assert pool["dueDate"] == "mid March"
    assert pool["note"] == "line one\n\n  line two"
    pool = await pool_of(client, {"parents": "P", "dueDate": "d" * 500, "note": "n" * 5000})
    assert pool["dueDate"] == "d" * 60
    assert pool["note"] == "n" * 300
    pool = await pool_of(client, {"parents": "P", "dueDate": 5, "note": ["x"]})
    assert (pool["dueDate"], pool["note"]) == ("", "")
    pool = await pool_of(client, {"parents": "P"})
    assert (pool["dueDate"], pool["note"]) == ("", "")


async def test_a_new_pool_is_open_and_empty(client: Any) -> None:
    pool = await pool_of(client, {"parents": "Priya & Tom", "dueDate": "March"})
    assert pool == {"title": "Baby pool for Priya & Tom", "heading": "Baby pool for Priya & Tom",
                    "parents": "Priya & Tom", "dueDate": "March", "note": "", "open": True,
                    "limit": 300, "guessCount": 0, "guesses": [], "crowd": None,
                    "result": None, "leaderboard": None}


async def test_unknown_keys_are_ignored(client: Any) -> None:
    pool = await pool_of(client, {"parents": "P", "result": {"date": "2026-01-01"},
                                  "guesses": [1]})
    assert pool["open"] is True and pool["guesses"] == []
