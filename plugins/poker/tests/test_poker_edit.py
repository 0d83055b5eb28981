"""The facilitator's edit: team and story (a typo mid-round) change at once; the deck only
between rounds, never under cards already played; no card is shown by the edit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import edit

DECK_IN_PLAY = "Cards are already down for this story — start the next one, then change the deck."


@pytest.fixture
def client(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["poker"]).test_client()


async def board(client: Any, slug: str) -> dict[str, Any]:
    return dict(await (await client.get(f"/api/poker/{slug}")).get_json())


async def vote(client: Any, slug: str, name: str, card: str) -> None:
    joined = await client.post("/api/poker/join", json={"slug": slug, "name": name})
    token = (await joined.get_json())["token"]
    voted = await client.post(f"/api/poker/v/{token}/vote", json={"card": card})
    assert voted.status_code == 200


@pytest.mark.parametrize(("field", "sent", "stored"), [
    ("team", " Payments  squad ", "Payments squad"),
    ("story", "PAY-142 Refund by bank transfer", "PAY-142 Refund by bank transfer"),
    ("deck", "tshirt", "tshirt"), ("deck", "bogus", "fib")])
async def test_each_field(client: Any, field: str, sent: str, stored: str) -> None:
    made = await create(client, "poker", {"team": "Pay", "story": "PAY-142 Refnud"})
    assert await edit(client, "poker", made["editToken"], {field: sent}) == (
        200, {"ok": True, "changed": [field]})
    view = await board(client, made["slug"])
    assert (view["title"] if field == "team" else view[field]) == stored


async def test_a_story_typo_mid_round_keeps_the_cards(client: Any) -> None:
    made = await create(client, "poker", {"story": "PAY-142 Refnud"})
    await vote(client, made["slug"], "Ann", "5")
    assert (await edit(client, "poker", made["editToken"], {"story": "PAY-142 Refund"}))[0] == 200
    view = await board(client, made["slug"])
    assert view["story"] == "PAY-142 Refund" and view["voters"][0]["voted"] is True


async def test_the_deck_waits_for_the_next_story(client: Any) -> None:
    made = await create(client, "poker", {"story": "One"})
    await vote(client, made["slug"], "Ann", "5")
    assert await edit(client, "poker", made["editToken"], {"deck": "tshirt", "team": "X"}) == (
        409, {"error": DECK_IN_PLAY, "field": "deck"})
    assert (await board(client, made["slug"]))["deck"] == "fib"
    # The same deck sent again is no change, so no refusal.
    assert (await edit(client, "poker", made["editToken"], {"deck": "fib"}))[0] == 200
    await client.post(f"/api/poker/{made['editToken']}/next", json={"story": "Two"})
    assert (await edit(client, "poker", made["editToken"], {"deck": "tshirt"}))[0] == 200
    assert (await board(client, made["slug"]))["cards"][0] == "XS"


async def test_the_facilitator_page_form_shows_no_card(client: Any) -> None:
    made = await create(client, "poker", {"story": "One", "deck": "tshirt"})
    await vote(client, made["slug"], "Ann", "XXL")
    html = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert 'value="tshirt" checked' in html and 'id="edit-story"' in html
    assert "XXL" not in html.replace("XS, S, M, L, XL, XXL, ?, coffee", "")
