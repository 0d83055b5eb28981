"""Claiming an idea with a name, and undoing the claim with its secret."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import error_of

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
NO_NAME = "Add your name so nobody else buys it too."
TAKEN = "Someone's already getting that one."
UNKNOWN_IDEA = "That idea isn't on this board any more — it may have been removed."
NOT_HELD = "That idea isn't claimed with that secret — it may already be free."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


async def new_idea(client: Any, slug: str, idea: str = "Hiking socks") -> str:
    response = await client.post("/api/giftidea/suggest", json={"slug": slug, "idea": idea})
    assert response.status_code == 201
    return str((await response.get_json())["id"])


async def claim(client: Any, slug: Any, idea_id: Any, name: Any = "Bo") -> Any:
    return await client.post("/api/giftidea/claim",
                             json={"slug": slug, "ideaId": idea_id, "name": name})


async def claimed(client: Any, slug: str, idea_id: str, name: str = "Bo") -> str:
    response = await claim(client, slug, idea_id, name)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    return str(payload["secret"])


async def unclaim(client: Any, slug: Any, idea_id: Any, secret: Any) -> Any:
    return await client.post("/api/giftidea/unclaim",
                             json={"slug": slug, "ideaId": idea_id, "secret": secret})


async def idea_of(client: Any, slug: str, idea_id: str) -> dict[str, Any]:
    board = await (await client.get(f"/api/giftidea/{slug}")).get_json()
    return dict(next(idea for idea in board["ideas"] if idea["id"] == idea_id))


async def test_claim_returns_a_16_character_secret(client: Any, board: dict[str, str]) -> None:
    idea_id = await new_idea(client, board["slug"])
    response = await claim(client, board["slug"], idea_id, "  Bo \n Chen ")
    assert response.status_code == 201
    payload = await response.get_json()
    assert set(payload) == {"secret"}
    assert re.fullmatch(rf"[{ALPHABET}]{{16}}", payload["secret"])
    idea = await idea_of(client, board["slug"], idea_id)
    assert (idea["claimed"], idea["claimedBy"]) == (True, "Bo Chen")


async def test_claim_name_is_cut_to_40(client: Any, board: dict[str, str]) -> None:
    idea_id = await new_idea(client, board["slug"])
    await claimed(client, board["slug"], idea_id, "n" * 100)
    assert (await idea_of(client, board["slug"], idea_id))["claimedBy"] == "n" * 40


@pytest.mark.parametrize("name", ["", "   ", "\n", None, 7, ["Bo"]])
async def test_claim_name_required(client: Any, board: dict[str, str], name: Any) -> None:
    idea_id = await new_idea(client, board["slug"])
    assert await error_of(await claim(client, board["slug"], idea_id, name), 400) == NO_NAME
    assert (await idea_of(client, board["slug"], idea_id))["claimed"] is False


async def test_claim_without_a_name_key(client: Any, board: dict[str, str]) -> None:
    idea_id = await new_idea(client, board["slug"])
    response = await client.post("/api/giftidea/claim",
                                 json={"slug": board["slug"], "ideaId": idea_id})
    assert await error_of(response, 400) == NO_NAME


async def test_second_claim_is_409(client: Any, board: dict[str, str]) -> None:
    idea_id = await new_idea(client, board["slug"])
    await claimed(client, board["slug"], idea_id, "Ann")
    assert await error_of(await claim(client, board["slug"], idea_id, "Bo"), 409) == TAKEN
    assert await error_of(await claim(client, board["slug"], idea_id, "Ann"), 409) == TAKEN
    assert (await idea_of(client, board["slug"], idea_id))["claimedBy"] == "Ann"


async def test_claim_check_order(client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    idea_id = await new_idea(client, slug)
    assert await error_of(await claim(client, slug, "nope", ""), 404) == UNKNOWN_IDEA
    assert await error_of(await claim(client, slug, idea_id, ""), 400) == NO_NAME
    await claimed(client, slug, idea_id)
    # Validation before the conflict: a claimed idea with no name is still a 400.
    assert await error_of(await claim(client, slug, idea_id, " "), 400) == NO_NAME
    assert await error_of(await claim(client, slug, idea_id, "Cy"), 409) == TAKEN


@pytest.mark.parametrize("idea_id", ["nope", "", None, 3, ["x"]])
async def test_claim_unknown_idea_is_404(client: Any, board: dict[str, str],
                                         idea_id: Any) -> None:
    await new_idea(client, board["slug"])
    assert await error_of(await claim(client, board["slug"], idea_id), 404) == UNKNOWN_IDEA


async def test_claims_are_per_idea_and_per_board(client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    first, second = await new_idea(client, slug, "A"), await new_idea(client, slug, "B")
    await claimed(client, slug, first, "Ann")
    await claimed(client, slug, second, "Bo")
    other = await create(client, "giftidea", {"recipient": "Sam"})
    assert await error_of(await claim(client, other["slug"], first), 404) == UNKNOWN_IDEA
    assert (await idea_of(client, slug, first))["claimedBy"] == "Ann"
    assert (await idea_of(client, slug, second))["claimedBy"] == "Bo"


async def test_claim_unknown_slug_is_404(client: Any, board: dict[str, str]) -> None:
    idea_id = await new_idea(client, board["slug"])
    assert await (await claim(client, "x" * 20, idea_id)).get_json() == NOT_FOUND


async def test_claim_does_not_change_votes(client: Any, board: dict[str, str]) -> None:
    idea_id = await new_idea(client, board["slug"])
    await client.post("/api/giftidea/upvote", json={"slug": board["slug"], "ideaId": idea_id})
    await claimed(client, board["slug"], idea_id)
    assert (await idea_of(client, board["slug"], idea_id))["votes"] == 1
    response = await client.post("/api/giftidea/upvote",
                                 json={"slug": board["slug"], "ideaId": idea_id})
    assert await response.get_json() == {"ok": True, "votes": 2}


# --- unclaim ------------------------------------------------------------------------------

async def test_unclaim_with_the_secret(client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    idea_id = await new_idea(client, slug)
    secret = await claimed(client, slug, idea_id, "Ann")
    response = await unclaim(client, slug, idea_id, secret)
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    idea = await idea_of(client, slug, idea_id)
    assert (idea["claimed"], idea["claimedBy"]) == (False, None)
    await claimed(client, slug, idea_id, "Bo")
    assert (await idea_of(client, slug, idea_id))["claimedBy"] == "Bo"


async def test_unclaim_with_a_wrong_secret_is_404(client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    idea_id, other_id = await new_idea(client, slug, "A"), await new_idea(client, slug, "B")
    secret = await claimed(client, slug, idea_id)
    other = await claimed(client, slug, other_id)
    wrong = "".join("3" if ch == "2" else "2" for ch in secret)
    for target, attempt in [(idea_id, wrong), (idea_id, other), (idea_id, secret.upper()),
                            (idea_id, secret[:15]), (idea_id, ""), (idea_id, None),
                            (other_id, secret), ("nope", secret), (None, secret)]:
        assert await error_of(await unclaim(client, slug, target, attempt), 404) == NOT_HELD
    assert (await idea_of(client, slug, idea_id))["claimed"] is True
    assert (await idea_of(client, slug, other_id))["claimed"] is True


async def test_unclaim_twice_and_stale_secret(client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    idea_id = await new_idea(client, slug)
    old = await claimed(client, slug, idea_id, "Ann")
    assert (await unclaim(client, slug, idea_id, old)).status_code == 200
    assert await error_of(await unclaim(client, slug, idea_id, old), 404) == NOT_HELD
    await claimed(client, slug, idea_id, "Bo")
    assert await error_of(await unclaim(client, slug, idea_id, old), 404) == NOT_HELD
    assert (await idea_of(client, slug, idea_id))["claimedBy"] == "Bo"


async def test_unclaim_with_unknown_slug_is_404(client: Any, board: dict[str, str]) -> None:
    idea_id = await new_idea(client, board["slug"])
    secret = await claimed(client, board["slug"], idea_id)
    response = await unclaim(client, board["slug"] + "x", idea_id, secret)
    assert await response.get_json() == NOT_FOUND
