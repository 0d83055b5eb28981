"""Signing the card, the 400-message cap, and removing messages."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import error_of

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
NO_NAME = "Add your name so they know who it's from."
NO_MESSAGE = "Write a message first — a line or two is plenty."
FULL = "This card is chockers — 400 messages is the limit."
UNKNOWN = "That message isn't on this card any more — it may have been removed."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


async def sign(client: Any, slug: Any, name: Any = "Ann", message: Any = "Enjoy!") -> Any:
    return await client.post("/api/card/sign",
                             json={"slug": slug, "name": name, "message": message})


async def signed(client: Any, slug: str, name: str = "Ann",
                 message: str = "Enjoy!") -> dict[str, str]:
    response = await sign(client, slug, name, message)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    return dict(payload)


async def messages(client: Any, slug: str) -> list[dict[str, Any]]:
    response = await client.get(f"/api/card/{slug}")
    assert response.status_code == 200
    return list((await response.get_json())["messages"])


# --- sign ---------------------------------------------------------------------------------

async def test_sign_returns_a_22_character_token(client: Any, card: dict[str, str]) -> None:
    response = await sign(client, card["slug"], "Ann", "All the best!")
    assert response.status_code == 201
    payload = await response.get_json()
    assert set(payload) == {"token", "id"}
    assert re.fullmatch(rf"[{ALPHABET}]{{22}}", payload["token"])
    assert await messages(client, card["slug"]) == [
        {"id": payload["id"], "name": "Ann", "message": "All the best!"}]


async def test_messages_keep_signing_order(client: Any, card: dict[str, str]) -> None:
    made = [await signed(client, card["slug"], name, f"From {name}")
            for name in ("Cy", "Ann", "Bo")]
    assert [m["id"] for m in await messages(client, card["slug"])] == [m["id"] for m in made]
    assert len({m["token"] for m in made}) == 3


async def test_duplicate_names_are_fine(client: Any, card: dict[str, str]) -> None:
    await signed(client, card["slug"], "Ann", "One")
    await signed(client, card["slug"], "Ann", "Two")
    assert [m["name"] for m in await messages(client, card["slug"])] == ["Ann", "Ann"]


async def test_name_is_c40_and_message_t400(client: Any, card: dict[str, str]) -> None:
    await signed(client, card["slug"], "  Ann \n\t Lee ", "  Dear M,\n\n  thank you.  \n")
    await signed(client, card["slug"], "n" * 100, "m" * 1000)
    first, second = await messages(client, card["slug"])
    assert (first["name"], first["message"]) == ("Ann Lee", "Dear M,\n\n  thank you.")
    assert (second["name"], second["message"]) == ("n" * 40, "m" * 400)


@pytest.mark.parametrize("name", ["", "  ", "\n", None, 3, ["Ann"], {"n": 1}])
async def test_name_required(client: Any, card: dict[str, str], name: Any) -> None:
    assert await error_of(await sign(client, card["slug"], name=name), 400) == NO_NAME


@pytest.mark.parametrize("message", ["", "  ", "\n\n", None, 3, ["Hi"], {"m": 1}])
async def test_message_required(client: Any, card: dict[str, str], message: Any) -> None:
    assert await error_of(await sign(client, card["slug"], message=message), 400) == NO_MESSAGE


async def test_missing_keys(client: Any, card: dict[str, str]) -> None:
    response = await client.post("/api/card/sign", json={"slug": card["slug"]})
    assert await error_of(response, 400) == NO_NAME
    response = await client.post("/api/card/sign", json={"slug": card["slug"], "name": "Ann"})
    assert await error_of(response, 400) == NO_MESSAGE


async def test_name_is_checked_before_message(client: Any, card: dict[str, str]) -> None:
    assert await error_of(await sign(client, card["slug"], "", ""), 400) == NO_NAME
    assert await error_of(await sign(client, card["slug"], "Ann", ""), 400) == NO_MESSAGE
    assert await messages(client, card["slug"]) == []


@pytest.mark.parametrize("slug", [None, "", "nope", "a-card-for-jo-23456789abcdef", 5])
async def test_sign_unknown_slug_is_404(client: Any, slug: Any) -> None:
    response = await sign(client, slug)
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND


async def test_unknown_slug_wins_over_body_errors(client: Any) -> None:
    response = await client.post("/api/card/sign", data=b"{oops",
                                 headers={"Content-Type": "application/json"})
    assert await response.get_json() == NOT_FOUND


async def test_slug_of_another_tool_is_404(make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["card", "plate"]).test_client()
    plate = await create(client, "plate", {"categories": [{"name": "Mains", "capacity": 1}]})
    assert await (await sign(client, plate["slug"])).get_json() == NOT_FOUND
    response = await client.post(f"/api/card/{plate['editToken']}/remove",
                                 json={"messageId": "x"})
    assert await response.get_json() == NOT_FOUND


# --- the cap ------------------------------------------------------------------------------

async def test_400_messages_then_409(client: Any, card: dict[str, str]) -> None:
    slug = card["slug"]
    made = [await signed(client, slug, f"Signer {n}", f"Message {n}") for n in range(400)]
    assert await error_of(await sign(client, slug, "Late", "Sorry!"), 409) == FULL
    stored = await messages(client, slug)
    assert len(stored) == 400 and "Late" not in {m["name"] for m in stored}
    # Validation still comes first on a full card.
    assert await error_of(await sign(client, slug, "", "x"), 400) == NO_NAME
    # A removal makes room for exactly one more.
    response = await client.post(f"/api/card/m/{made[0]['token']}/remove")
    assert response.status_code == 200
    await signed(client, slug, "Late", "Just made it")
    assert await error_of(await sign(client, slug, "Later", "Oh no"), 409) == FULL
    assert len(await messages(client, slug)) == 400


# --- removing -----------------------------------------------------------------------------

async def test_token_removes_its_own_message(client: Any, card: dict[str, str]) -> None:
    mine = await signed(client, card["slug"], "Ann", "Mine")
    theirs = await signed(client, card["slug"], "Bo", "Theirs")
    response = await client.post(f"/api/card/m/{mine['token']}/remove")
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    assert [m["id"] for m in await messages(client, card["slug"])] == [theirs["id"]]
    # The token died with the message: it opens nothing any more.
    again = await client.post(f"/api/card/m/{mine['token']}/remove")
    assert await again.get_json() == NOT_FOUND
    assert (await client.get(f"/p/{mine['token']}")).status_code == 404


@pytest.mark.parametrize("token", ["x", "2" * 22, "a" * 21])
async def test_remove_with_a_bad_token_is_404(client: Any, card: dict[str, str],
                                              token: str) -> None:
    await signed(client, card["slug"])
    response = await client.post(f"/api/card/m/{token}/remove")
    assert await response.get_json() == NOT_FOUND
    assert len(await messages(client, card["slug"])) == 1


async def test_only_the_token_removes_a_message(client: Any, card: dict[str, str]) -> None:
    made = await signed(client, card["slug"])
    for wrong in (card["editToken"], card["slug"], made["id"]):
        response = await client.post(f"/api/card/m/{wrong}/remove")
        assert response.status_code == 404
    assert len(await messages(client, card["slug"])) == 1


async def test_organiser_removes_any_message(client: Any, card: dict[str, str]) -> None:
    slug, edit = card["slug"], card["editToken"]
    first = await signed(client, slug, "Ann", "One")
    second = await signed(client, slug, "Bo", "Two")
    response = await client.post(f"/api/card/{edit}/remove", json={"messageId": first["id"]})
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    assert [m["id"] for m in await messages(client, slug)] == [second["id"]]
    # The signer's token stops working, and removing again is a 404.
    assert (await client.post(f"/api/card/m/{first['token']}/remove")).status_code == 404
    response = await client.post(f"/api/card/{edit}/remove", json={"messageId": first["id"]})
    assert await error_of(response, 404) == UNKNOWN


@pytest.mark.parametrize("message_id", ["", None, 5, ["x"], "nope"])
async def test_organiser_remove_unknown_message(client: Any, card: dict[str, str],
                                                message_id: Any) -> None:
    await signed(client, card["slug"])
    response = await client.post(f"/api/card/{card['editToken']}/remove",
                                 json={"messageId": message_id})
    assert await error_of(response, 404) == UNKNOWN
    assert len(await messages(client, card["slug"])) == 1


async def test_organiser_cannot_remove_another_cards_message(client: Any,
                                                             card: dict[str, str]) -> None:
    other = await create(client, "card", {"recipient": "Sam"})
    made = await signed(client, other["slug"])
    response = await client.post(f"/api/card/{card['editToken']}/remove",
                                 json={"messageId": made["id"]})
    assert await error_of(response, 404) == UNKNOWN
    assert len(await messages(client, other["slug"])) == 1


async def test_organiser_remove_with_bad_edit_token(client: Any, card: dict[str, str]) -> None:
    made = await signed(client, card["slug"])
    for token in ("2" * 26, card["slug"], made["token"]):
        response = await client.post(f"/api/card/{token}/remove",
                                     json={"messageId": made["id"]})
        assert await response.get_json() == NOT_FOUND
    assert len(await messages(client, card["slug"])) == 1
