"""Creating a board: team, story, and the two decks exactly as the spec lists them."""

from __future__ import annotations

from typing import Any

import pytest

FIB = ["1", "2", "3", "5", "8", "13", "21", "?", "coffee"]
TSHIRT = ["XS", "S", "M", "L", "XL", "XXL", "?", "coffee"]


async def test_empty_body_is_a_numbers_board(api: Any) -> None:
    view = await api.read((await api.create({}))["slug"])
    assert (view["team"], view["story"], view["deck"], view["cards"]) == ("", "", "fib", FIB)
    assert (view["heading"], view["round"], view["revealed"]) == ("Scrum Poker", 1, False)
    assert (view["voters"], view["voted"], view["summary"], view["history"]) == ([], 0, None, [])
    assert view["maxVoters"] == 60


async def test_tshirt_deck(api: Any) -> None:
    view = await api.read((await api.create({"deck": "tshirt"}))["slug"])
    assert (view["deck"], view["cards"]) == ("tshirt", TSHIRT)


@pytest.mark.parametrize("deck", ["TSHIRT", "Tshirt", "tshirt ", "t-shirt", "Fib", "fibonacci",
                                  "", None, 1, True, ["tshirt"], {"deck": "tshirt"}])
async def test_anything_else_is_fib(api: Any, deck: Any) -> None:
    view = await api.read((await api.create({"deck": deck}))["slug"])
    assert (view["deck"], view["cards"]) == ("fib", FIB)


async def test_team_and_story_are_cleaned_lines(api: Any) -> None:
    made = await api.create({"team": "  Pay \n ments ", "story": " PAY-1\tRefunds\n now "})
    view = await api.read(made["slug"])
    assert (view["team"], view["heading"], view["title"]) == ("Pay ments",) * 3
    assert view["story"] == "PAY-1 Refunds now"
    assert made["slug"].startswith("pay-ments-")
    long = await api.read((await api.create({"team": "t" * 999, "story": "s" * 999}))["slug"])
    assert (long["team"], long["story"]) == ("t" * 60, "s" * 120)


@pytest.mark.parametrize("raw", [b"", b"{oops", b"[]", b"42"])
async def test_unreadable_body_still_creates(client: Any, api: Any, raw: bytes) -> None:
    response = await client.post("/api/poker", data=raw,
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 201
    assert (await api.read((await response.get_json())["slug"]))["deck"] == "fib"


async def test_openapi_documents_every_operation(client: Any) -> None:
    paths = (await (await client.get("/openapi.json")).get_json())["paths"]
    for path in ("/api/poker/join", "/api/poker/v/{token}/vote",
                 "/api/poker/{editToken}/reveal", "/api/poker/{editToken}/next",
                 "/api/poker/{editToken}/remove"):
        assert "post" in paths[path], path
