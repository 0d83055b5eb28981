"""POST /api/card: recipient, the default title and its sub-line rule, note."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit_testing import create

NO_RECIPIENT = "Who's the card for? Add their name."
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


async def refused(client: Any, body: Any) -> str:
    response = await client.post("/api/card", json=body)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert set(payload) == {"error"}
    return str(payload["error"])


async def card_of(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    made = await create(client, "card", body)
    response = await client.get(f"/api/card/{made['slug']}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def test_create_returns_slug_and_edit_token(client: Any) -> None:
    response = await client.post("/api/card", json={"recipient": "Margaret"})
    assert response.status_code == 201
    made = await response.get_json()
    assert set(made) == {"slug", "editToken"}
    assert re.fullmatch(rf"a-card-for-margaret-[{ALPHABET}]{{14}}", made["slug"])
    assert re.fullmatch(rf"[{ALPHABET}]{{26}}", made["editToken"])


@pytest.mark.parametrize("recipient", [None, "", "  ", "\n\t", 0, 5, True, ["Jo"], {"a": 1}])
async def test_recipient_required(client: Any, recipient: Any) -> None:
    assert await refused(client, {"recipient": recipient, "title": "Hi"}) == NO_RECIPIENT


@pytest.mark.parametrize("body", [{}, {"title": "Farewell", "note": "x"}])
async def test_recipient_missing(client: Any, body: dict[str, Any]) -> None:
    assert await refused(client, body) == NO_RECIPIENT


@pytest.mark.parametrize("body", [b"{oops", b"", b"[]", b"null", b'"Jo"'])
async def test_body_that_is_not_a_json_object(client: Any, body: bytes) -> None:
    response = await client.post("/api/card", data=body,
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert await response.get_json() == {"error": NO_RECIPIENT}


async def test_recipient_is_c60(client: Any) -> None:
    card = await card_of(client, {"recipient": "  Margaret \n\t O'Neil  "})
    assert card["recipient"] == "Margaret O'Neil"
    assert (await card_of(client, {"recipient": "m" * 100}))["recipient"] == "m" * 60


@pytest.mark.parametrize("title", [None, "", "   ", 5, ["Hi"]])
async def test_empty_title_defaults_to_a_phrase_naming_the_recipient(client: Any,
                                                                     title: Any) -> None:
    card = await card_of(client, {"recipient": "Margaret", "title": title})
    assert card["title"] == "A card for Margaret"
    # The title is the phrase already: no sub-line repeating it.
    assert card["subline"] == ""


async def test_default_title_is_cut_to_80(client: Any) -> None:
    card = await card_of(client, {"recipient": "m" * 60})
    assert card["title"] == ("A card for " + "m" * 60)[:80]
    assert len(card["title"]) <= 80


async def test_own_title_gets_the_phrase_as_its_subline(client: Any) -> None:
    card = await card_of(client, {"recipient": "Margaret", "title": " Happy \n retirement! "})
    assert card["title"] == "Happy retirement!"
    assert card["subline"] == "A card for Margaret"


@pytest.mark.parametrize("title", ["A card for Margaret", "a card for margaret",
                                   "A CARD FOR MARGARET", "  A card  for\nMargaret "])
async def test_title_equal_to_the_default_has_no_subline(client: Any, title: str) -> None:
    card = await card_of(client, {"recipient": "Margaret", "title": title})
    assert card["title"].casefold() == "a card for margaret"
    assert card["title"] == " ".join(title.split())  # kept as sent, cleaned
    assert card["subline"] == ""


async def test_title_close_to_the_default_keeps_the_subline(client: Any) -> None:
    card = await card_of(client, {"recipient": "Margaret", "title": "A card for Marg"})
    assert card["subline"] == "A card for Margaret"


async def test_title_is_c80(client: Any) -> None:
    card = await card_of(client, {"recipient": "Jo", "title": "t" * 200})
    assert card["title"] == "t" * 80


async def test_note_is_t300(client: Any) -> None:
    card = await card_of(client, {"recipient": "Jo", "note": "  Line one\n\n  line two  "})
    assert card["note"] == "Line one\n\n  line two"
    card = await card_of(client, {"recipient": "Jo", "note": "n" * 1000})
    assert card["note"] == "n" * 300


async def test_new_card(client: Any) -> None:
    assert await card_of(client, {"recipient": "Jo"}) == {
        "title": "A card for Jo", "recipient": "Jo", "subline": "", "note": "",
        "limit": 400, "messages": []}
