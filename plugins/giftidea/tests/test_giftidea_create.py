"""POST /api/giftidea: every field rule and the create message."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit_testing import create

NO_RECIPIENT = "Who's the gift for? Add their name."
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


async def refused(client: Any, body: Any) -> str:
    response = await client.post("/api/giftidea", json=body)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert set(payload) == {"error"}
    return str(payload["error"])


async def board_of(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    made = await create(client, "giftidea", body)
    response = await client.get(f"/api/giftidea/{made['slug']}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def test_create_returns_slug_and_edit_token(client: Any) -> None:
    response = await client.post("/api/giftidea", json={"recipient": "Priya Shah"})
    assert response.status_code == 201
    made = await response.get_json()
    assert set(made) == {"slug", "editToken"}
    assert re.fullmatch(rf"gift-ideas-for-priya-[{ALPHABET}]{{14}}", made["slug"])
    assert re.fullmatch(rf"[{ALPHABET}]{{26}}", made["editToken"])


@pytest.mark.parametrize("recipient", [None, "", "   ", "\n\t", 5, True, ["Priya"],
                                       {"name": "Priya"}])
async def test_recipient_required(client: Any, recipient: Any) -> None:
    assert await refused(client, {"recipient": recipient, "occasion": "Birthday"}) \
        == NO_RECIPIENT


async def test_recipient_missing(client: Any) -> None:
    assert await refused(client, {"occasion": "Birthday", "budget": "$20"}) == NO_RECIPIENT


@pytest.mark.parametrize("body", [b"{not json", b"", b"[1]", b'"Priya"', b"null"])
async def test_body_that_is_not_a_json_object_reads_as_empty(client: Any, body: bytes) -> None:
    response = await client.post("/api/giftidea", data=body,
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert await response.get_json() == {"error": NO_RECIPIENT}


async def test_recipient_is_checked_first(client: Any) -> None:
    # Nothing else on the create body can fail, so the recipient is the only message.
    assert await refused(client, {"recipient": " ", "occasion": 7, "budget": None,
                                  "note": ["x"]}) == NO_RECIPIENT


async def test_recipient_is_c80_and_builds_the_title(client: Any) -> None:
    board = await board_of(client, {"recipient": "  Priya \n\t Shah  "})
    assert board["recipient"] == "Priya Shah"
    assert board["title"] == "Gift ideas for Priya Shah"
    long = await board_of(client, {"recipient": "r" * 200})
    assert long["recipient"] == "r" * 80
    assert long["title"] == "Gift ideas for " + "r" * 80


async def test_there_is_no_title_field(client: Any) -> None:
    board = await board_of(client, {"recipient": "Jo", "title": "Something else"})
    assert board["title"] == "Gift ideas for Jo"


async def test_optional_fields_are_cleaned(client: Any) -> None:
    board = await board_of(client, {
        "recipient": "Jo", "occasion": "  Big \n  birthday " + "o" * 100,
        "budget": " $20\t each " + "b" * 60, "note": "  Line one\r\n  line two  "})
    assert board["occasion"] == ("Big birthday " + "o" * 100)[:80]
    assert board["budget"] == ("$20 each " + "b" * 60)[:40]
    # T(300): trimmed at both ends only; CRLF is not converted.
    assert board["note"] == "Line one\r\n  line two"


async def test_note_is_cut_to_300(client: Any) -> None:
    board = await board_of(client, {"recipient": "Jo", "note": " " + "n" * 5000})
    assert board["note"] == "n" * 300


@pytest.mark.parametrize("value", [None, 5, ["x"], {"a": 1}, True])
async def test_non_string_optional_fields_are_empty(client: Any, value: Any) -> None:
    board = await board_of(client, {"recipient": "Jo", "occasion": value, "budget": value,
                                    "note": value})
    assert (board["occasion"], board["budget"], board["note"]) == ("", "", "")


async def test_new_board_is_empty(client: Any) -> None:
    board = await board_of(client, {"recipient": "Jo"})
    assert board == {"title": "Gift ideas for Jo", "recipient": "Jo", "occasion": "",
                     "budget": "", "note": "", "limit": 200, "ideas": []}
