"""Suggesting, upvoting and removing ideas; the 200-idea cap."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import error_of

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
NO_IDEA = "Add the idea first — what could the group get them?"
BAD_LINK = "That link doesn't look right — paste the full web address, or leave it blank."
NOT_WEB_LINK = "Links need to start with http:// or https://."
FULL = "This board's full — 200 ideas is the limit. Upvote one that's already here."
UNKNOWN_IDEA = "That idea isn't on this board any more — it may have been removed."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


async def suggest(client: Any, slug: Any, idea: Any = "Hiking socks", **extra: Any) -> Any:
    return await client.post("/api/giftidea/suggest", json={"slug": slug, "idea": idea, **extra})


async def suggested(client: Any, slug: str, idea: str = "Hiking socks",
                    **extra: Any) -> dict[str, str]:
    response = await suggest(client, slug, idea, **extra)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    return dict(payload)


async def read(client: Any, slug: str) -> dict[str, Any]:
    response = await client.get(f"/api/giftidea/{slug}")
    assert response.status_code == 200
    return dict(await response.get_json())


def idea_of(board: dict[str, Any], idea_id: str) -> dict[str, Any]:
    found = [idea for idea in board["ideas"] if idea["id"] == idea_id]
    assert len(found) == 1, board
    return dict(found[0])


async def upvote(client: Any, slug: Any, idea_id: Any) -> Any:
    return await client.post("/api/giftidea/upvote", json={"slug": slug, "ideaId": idea_id})


# --- suggest ------------------------------------------------------------------------------

async def test_suggest_returns_token_and_id(client: Any, board: dict[str, str]) -> None:
    response = await suggest(client, board["slug"], "Socks", link="https://example.com/s",
                             suggestedBy="Ann")
    assert response.status_code == 201
    payload = await response.get_json()
    assert set(payload) == {"token", "id"}
    assert re.fullmatch(rf"[{ALPHABET}]{{22}}", payload["token"])
    assert idea_of(await read(client, board["slug"]), payload["id"]) == {
        "id": payload["id"], "idea": "Socks", "link": "https://example.com/s",
        "suggestedBy": "Ann", "votes": 0, "claimed": False, "claimedBy": None}


async def test_ids_and_tokens_differ(client: Any, board: dict[str, str]) -> None:
    made = [await suggested(client, board["slug"], f"Idea {n}") for n in range(5)]
    assert len({m["id"] for m in made}) == len({m["token"] for m in made}) == 5


async def test_optional_fields_may_be_left_out(client: Any, board: dict[str, str]) -> None:
    made = await suggested(client, board["slug"], "Book token")
    idea = idea_of(await read(client, board["slug"]), made["id"])
    assert (idea["link"], idea["suggestedBy"]) == ("", "")


async def test_fields_are_cleaned(client: Any, board: dict[str, str]) -> None:
    made = await suggested(client, board["slug"], "  A  good\n\tpen  ",
                           link="  https://example.com/pen  ", suggestedBy="  Ann \n Lee ")
    idea = idea_of(await read(client, board["slug"]), made["id"])
    assert (idea["idea"], idea["link"], idea["suggestedBy"]) == (
        "A good pen", "https://example.com/pen", "Ann Lee")
    made = await suggested(client, board["slug"], "i" * 500, suggestedBy="s" * 100)
    idea = idea_of(await read(client, board["slug"]), made["id"])
    assert (idea["idea"], idea["suggestedBy"]) == ("i" * 120, "s" * 40)


async def test_long_link_is_cut_to_300(client: Any, board: dict[str, str]) -> None:
    link = "https://example.com/" + "p" * 400
    made = await suggested(client, board["slug"], link=link)
    assert idea_of(await read(client, board["slug"]), made["id"])["link"] == link[:300]


@pytest.mark.parametrize("idea", ["", "   ", "\n", None, 5, ["Socks"], {"idea": "Socks"}])
async def test_idea_required(client: Any, board: dict[str, str], idea: Any) -> None:
    assert await error_of(await suggest(client, board["slug"], idea), 400) == NO_IDEA


async def test_idea_missing(client: Any, board: dict[str, str]) -> None:
    response = await client.post("/api/giftidea/suggest", json={"slug": board["slug"]})
    assert await error_of(response, 400) == NO_IDEA


@pytest.mark.parametrize("link", [
    "http://example.com", "https://example.com/a?b=c#d", "HTTPS://EXAMPLE.COM/X",
    "https://shop.example.com.au:8443/item/42", "http://127.0.0.1:8000/", "http://[::1]/x",
    "https://user@example.com/", "https://bücher.example/буква", "https://example.com/a%20b",
    "https://example.com/?q=\"'><b>"])
async def test_good_links(client: Any, board: dict[str, str], link: str) -> None:
    made = await suggested(client, board["slug"], link=link)
    assert idea_of(await read(client, board["slug"]), made["id"])["link"] == link


@pytest.mark.parametrize("link", ["", "   ", None, 5, ["https://example.com"], {"u": 1}])
async def test_no_link(client: Any, board: dict[str, str], link: Any) -> None:
    made = await suggested(client, board["slug"], link=link)
    assert idea_of(await read(client, board["slug"]), made["id"])["link"] == ""


@pytest.mark.parametrize("link", [
    "example.com", "www.example.com/socks", "/socks", "//example.com/x", "not a link",
    "http://", "https://", "http:/example.com", "https:example.com", "http://exa mple.com",
    "https://example.com/a b", "http://[::1", "http://example.com:port/", "http://a..b/",
    "http://<b>/", "http://a b/", "http://exa\tmple.com/", "12:30", "?"])
async def test_unparsable_link(client: Any, board: dict[str, str], link: str) -> None:
    assert await error_of(await suggest(client, board["slug"], link=link), 400) == BAD_LINK


@pytest.mark.parametrize("link", [
    "ftp://example.com/file", "javascript:alert(1)", "JavaScript:alert(1)", "mailto:a@b.c",
    "data:text/html,<b>x</b>", "file:///etc/passwd", "example.com:8080/x", "tel:123"])
async def test_link_not_http(client: Any, board: dict[str, str], link: str) -> None:
    assert await error_of(await suggest(client, board["slug"], link=link), 400) \
        == NOT_WEB_LINK


async def test_suggest_check_order(client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    assert await error_of(await suggest(client, slug, "", link="ftp://x"), 400) == NO_IDEA
    assert await error_of(await suggest(client, slug, "", link="nope"), 400) == NO_IDEA
    assert await error_of(await suggest(client, slug, "Pen", link="nope",
                                        suggestedBy=""), 400) == BAD_LINK


async def test_failed_suggestions_store_nothing(client: Any, board: dict[str, str]) -> None:
    await suggest(client, board["slug"], "")
    await suggest(client, board["slug"], "Pen", link="ftp://x")
    assert (await read(client, board["slug"]))["ideas"] == []


@pytest.mark.parametrize("slug", [None, "", "nope", "gift-ideas-for-jo-23456789abcdef", 5])
async def test_suggest_with_unknown_slug_is_404(client: Any, slug: Any) -> None:
    response = await suggest(client, slug)
    assert await response.get_json() == NOT_FOUND
    assert response.status_code == 404


async def test_slug_of_another_tool_is_404(make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["giftidea", "plate"]).test_client()
    plate = await create(client, "plate", {"categories": [{"name": "Mains", "capacity": 1}]})
    assert (await suggest(client, plate["slug"])).status_code == 404
    assert (await upvote(client, plate["slug"], "x")).status_code == 404
    response = await client.post(f"/api/giftidea/{plate['editToken']}/removeIdea",
                                 json={"itoken": "x"})
    assert await response.get_json() == NOT_FOUND


# --- the cap ------------------------------------------------------------------------------

async def test_200_ideas_then_409(client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    for n in range(200):
        await suggested(client, slug, f"Idea {n}")
    response = await suggest(client, slug, "One too many")
    assert await error_of(response, 409) == FULL
    view = await read(client, slug)
    assert len(view["ideas"]) == 200
    assert "One too many" not in {idea["idea"] for idea in view["ideas"]}
    # Validation still comes first on a full board.
    assert await error_of(await suggest(client, slug, ""), 400) == NO_IDEA
    # Removing one makes room for exactly one more.
    first = view["ideas"][0]
    export = await (await client.post(f"/api/giftidea/{board['editToken']}/export")).get_json()
    itoken = idea_of(export["data"], first["id"])["itoken"]
    response = await client.post(f"/api/giftidea/{board['editToken']}/removeIdea",
                                 json={"itoken": itoken})
    assert response.status_code == 200
    await suggested(client, slug, "Room again")
    assert await error_of(await suggest(client, slug, "And again"), 409) == FULL


async def test_the_cap_is_per_board(client: Any, board: dict[str, str]) -> None:
    for n in range(200):
        await suggested(client, board["slug"], f"Idea {n}")
    other = await create(client, "giftidea", {"recipient": "Sam"})
    await suggested(client, other["slug"], "Fine here")


# --- upvote -------------------------------------------------------------------------------

async def test_upvote_counts_up(client: Any, board: dict[str, str]) -> None:
    made = await suggested(client, board["slug"])
    for expected in (1, 2, 3):
        response = await upvote(client, board["slug"], made["id"])
        assert response.status_code == 200
        assert await response.get_json() == {"ok": True, "votes": expected}
    assert idea_of(await read(client, board["slug"]), made["id"])["votes"] == 3


async def test_upvotes_are_not_deduplicated_on_the_server(client: Any,
                                                          board: dict[str, str]) -> None:
    made = await suggested(client, board["slug"])
    for _ in range(5):
        await upvote(client, board["slug"], made["id"])
    assert idea_of(await read(client, board["slug"]), made["id"])["votes"] == 5


async def test_most_votes_first_then_oldest(client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    a, b, c = [await suggested(client, slug, name) for name in ("A", "B", "C")]
    await upvote(client, slug, c["id"])
    await upvote(client, slug, c["id"])
    await upvote(client, slug, b["id"])
    assert [idea["idea"] for idea in (await read(client, slug))["ideas"]] == ["C", "B", "A"]
    await upvote(client, slug, a["id"])
    assert [idea["idea"] for idea in (await read(client, slug))["ideas"]] == ["C", "A", "B"]


@pytest.mark.parametrize("idea_id", ["nope", "", None, 5, ["x"], "2" * 10])
async def test_upvote_unknown_idea_is_404(client: Any, board: dict[str, str],
                                          idea_id: Any) -> None:
    await suggested(client, board["slug"])
    assert await error_of(await upvote(client, board["slug"], idea_id), 404) == UNKNOWN_IDEA


async def test_upvote_on_another_boards_idea_is_404(client: Any, board: dict[str, str]) -> None:
    other = await create(client, "giftidea", {"recipient": "Sam"})
    made = await suggested(client, other["slug"])
    assert await error_of(await upvote(client, board["slug"], made["id"]), 404) == UNKNOWN_IDEA
    assert idea_of(await read(client, other["slug"]), made["id"])["votes"] == 0


async def test_upvote_unknown_slug_is_404(client: Any, board: dict[str, str]) -> None:
    made = await suggested(client, board["slug"])
    response = await upvote(client, board["slug"] + "x", made["id"])
    assert await response.get_json() == NOT_FOUND


# --- removing ideas -----------------------------------------------------------------------

async def remove_own(client: Any, token: str) -> Any:
    return await client.post(f"/api/giftidea/i/{token}/remove")


async def claim(client: Any, slug: str, idea_id: str, name: str = "Bo") -> str:
    response = await client.post("/api/giftidea/claim",
                                 json={"slug": slug, "ideaId": idea_id, "name": name})
    assert response.status_code == 201
    return str((await response.get_json())["secret"])


async def test_suggester_removes_own_idea_and_its_claim(client: Any,
                                                       board: dict[str, str]) -> None:
    slug = board["slug"]
    made = await suggested(client, slug, "Socks")
    keep = await suggested(client, slug, "Mug")
    secret = await claim(client, slug, made["id"])
    response = await remove_own(client, made["token"])
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    view = await read(client, slug)
    assert [idea["id"] for idea in view["ideas"]] == [keep["id"]]
    # The claim went with it, and so did the token.
    response = await client.post("/api/giftidea/unclaim",
                                 json={"slug": slug, "ideaId": made["id"], "secret": secret})
    assert response.status_code == 404
    assert await (await remove_own(client, made["token"])).get_json() == NOT_FOUND
    assert await error_of(await upvote(client, slug, made["id"]), 404) == UNKNOWN_IDEA


async def test_a_token_removes_only_its_own_idea(client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    mine = await suggested(client, slug, "Mine")
    theirs = await suggested(client, slug, "Theirs")
    await remove_own(client, mine["token"])
    assert [idea["id"] for idea in (await read(client, slug))["ideas"]] == [theirs["id"]]


@pytest.mark.parametrize("token", ["x", "2" * 22, "a" * 23])
async def test_remove_with_a_bad_token_is_404(client: Any, board: dict[str, str],
                                              token: str) -> None:
    await suggested(client, board["slug"])
    assert await (await remove_own(client, token)).get_json() == NOT_FOUND
    assert len((await read(client, board["slug"]))["ideas"]) == 1


async def test_claim_secret_is_not_an_idea_token(client: Any, board: dict[str, str]) -> None:
    made = await suggested(client, board["slug"])
    secret = await claim(client, board["slug"], made["id"])
    assert (await remove_own(client, secret)).status_code == 404
    assert (await remove_own(client, board["editToken"])).status_code == 404


async def test_organiser_removes_any_idea_with_its_claim(client: Any,
                                                        board: dict[str, str]) -> None:
    slug, edit = board["slug"], board["editToken"]
    made = await suggested(client, slug, "Socks")
    other = await suggested(client, slug, "Mug")
    secret = await claim(client, slug, made["id"])
    response = await client.post(f"/api/giftidea/{edit}/removeIdea",
                                 json={"itoken": made["token"]})
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    assert [idea["id"] for idea in (await read(client, slug))["ideas"]] == [other["id"]]
    response = await client.post("/api/giftidea/unclaim",
                                 json={"slug": slug, "ideaId": made["id"], "secret": secret})
    assert response.status_code == 404
    # The suggester's token died with the idea.
    assert (await remove_own(client, made["token"])).status_code == 404
    # Removing it again: the idea is gone.
    response = await client.post(f"/api/giftidea/{edit}/removeIdea",
                                 json={"itoken": made["token"]})
    assert await error_of(response, 404) == UNKNOWN_IDEA


@pytest.mark.parametrize("itoken", ["", None, 5, "x", "2" * 22])
async def test_remove_idea_unknown_itoken(client: Any, board: dict[str, str],
                                          itoken: Any) -> None:
    await suggested(client, board["slug"])
    response = await client.post(f"/api/giftidea/{board['editToken']}/removeIdea",
                                 json={"itoken": itoken})
    assert await error_of(response, 404) == UNKNOWN_IDEA
    assert len((await read(client, board["slug"]))["ideas"]) == 1


async def test_remove_idea_of_another_board_is_404(client: Any, board: dict[str, str]) -> None:
    other = await create(client, "giftidea", {"recipient": "Sam"})
    made = await suggested(client, other["slug"])
    response = await client.post(f"/api/giftidea/{board['editToken']}/removeIdea",
                                 json={"itoken": made["token"]})
    assert await error_of(response, 404) == UNKNOWN_IDEA
    assert len((await read(client, other["slug"]))["ideas"]) == 1


async def test_remove_idea_with_a_bad_edit_token(client: Any, board: dict[str, str]) -> None:
    made = await suggested(client, board["slug"])
    for token in ("2" * 26, board["slug"], made["token"]):
        response = await client.post(f"/api/giftidea/{token}/removeIdea",
                                     json={"itoken": made["token"]})
        assert await response.get_json() == NOT_FOUND
    assert len((await read(client, board["slug"]))["ideas"]) == 1
