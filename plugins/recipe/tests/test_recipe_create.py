"""POST /api/recipe: the title first, forWhom, and the note's CRLF rule."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit_testing import create

NO_TITLE = "What's the book called? Add a name."
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


async def refused(client: Any, body: Any) -> str:
    response = await client.post("/api/recipe", json=body)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert set(payload) == {"error"}
    return str(payload["error"])


async def book_of(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    made = await create(client, "recipe", body)
    response = await client.get(f"/api/recipe/{made['slug']}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def test_create_returns_slug_and_edit_token(client: Any) -> None:
    response = await client.post("/api/recipe", json={"title": "Family favourites"})
    assert response.status_code == 201
    made = await response.get_json()
    assert set(made) == {"slug", "editToken"}
    assert re.fullmatch(rf"family-favourites-[{ALPHABET}]{{14}}", made["slug"])
    assert re.fullmatch(rf"[{ALPHABET}]{{26}}", made["editToken"])


@pytest.mark.parametrize("title", [None, "", "   ", "\n", 3, True, ["Book"], {"t": 1}])
async def test_title_required(client: Any, title: Any) -> None:
    assert await refused(client, {"title": title, "forWhom": "Mum"}) == NO_TITLE


@pytest.mark.parametrize("body", [b"{oops", b"", b"[]", b"null", b"42"])
async def test_body_that_is_not_a_json_object(client: Any, body: bytes) -> None:
    response = await client.post("/api/recipe", data=body,
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert await response.get_json() == {"error": NO_TITLE}


async def test_title_is_checked_first(client: Any) -> None:
    assert await refused(client, {"forWhom": 5, "note": ["x"]}) == NO_TITLE


async def test_title_and_for_whom_are_c80(client: Any) -> None:
    book = await book_of(client, {"title": "  Family \n\t favourites ", "forWhom": " Mum's\n70th "})
    assert (book["title"], book["forWhom"]) == ("Family favourites", "Mum's 70th")
    book = await book_of(client, {"title": "t" * 300, "forWhom": "f" * 300})
    assert (book["title"], book["forWhom"]) == ("t" * 80, "f" * 80)


async def test_note_crlf_normalised_then_t300(client: Any) -> None:
    book = await book_of(client, {"title": "B", "note": "  One\r\ntwo\r\n\r\n  three  \r\n"})
    assert book["note"] == "One\ntwo\n\n  three"
    # Normalised before cutting: 150 CRLF pairs become 150 characters, not 300.
    book = await book_of(client, {"title": "B", "note": "a\r\n" * 150})
    assert book["note"] == ("a\n" * 150)[:300].strip()
    book = await book_of(client, {"title": "B", "note": "n" * 1000})
    assert book["note"] == "n" * 300


async def test_new_book(client: Any) -> None:
    assert await book_of(client, {"title": "B"}) == {
        "title": "B", "forWhom": "", "note": "", "limit": 200, "recipes": []}
