"""Cards stay face down for everyone, the facilitator included, until the reveal: checked in
every response and page, while every page shows who has voted. A voter's own page shows
their own pick, and nobody else's."""

from __future__ import annotations

import json
import re
from typing import Any

#: Distinctive sizes so that a leak cannot hide among other text.
PLAYS = {"Ann": "XXL", "Bo": "XS", "Cy": "coffee"}
BOARD_REGION = re.compile(r'<section id="poker-board".*?</section>', re.S)


def board_region(page: str) -> str:
    found = BOARD_REGION.search(page)
    assert found, "no board region"
    return found.group(0)


def without_deck(view: dict[str, Any]) -> str:
    """The JSON minus the list of the deck's cards, which every board carries."""
    return json.dumps({key: value for key, value in view.items() if key != "cards"})


async def seated(api: Any, slug: str) -> dict[str, str]:
    tokens = {}
    for name, card in PLAYS.items():
        tokens[name] = await api.joined(slug, name)
        await api.voted(tokens[name], card)
    tokens["Di"] = await api.joined(slug, "Di")  # in, no card
    return tokens


async def test_no_response_or_page_shows_a_card_before_the_reveal(
        api: Any, sizes: dict[str, str]) -> None:
    tokens = await seated(api, sizes["slug"])
    view = await api.read(sizes["slug"])
    assert [(v["name"], v["voted"], v["card"]) for v in view["voters"]] == [
        ("Ann", True, None), ("Bo", True, None), ("Cy", True, None), ("Di", False, None)]
    assert (view["voted"], view["summary"]) == (3, None)
    exported = (await api.export(sizes["editToken"]))["data"]
    for text in (without_deck(view), without_deck(exported)):
        for card in ("XXL", "XS", "coffee"):
            assert f'"{card}"' not in text
    pages = [await api.text(f"/s/{sizes['slug']}"), await api.text(f"/e/{sizes['editToken']}"),
             *[await api.text(f"/p/{token}") for token in tokens.values()]]
    for page in pages:
        region = board_region(page)
        assert "poker-face" not in region
        for card in ("XXL", "XS", "coffee"):
            assert card not in region
        assert region.count("poker-back") == 3 and region.count("poker-empty") == 1
        assert "3 of 4 voters have picked a card." in region


async def test_a_voters_page_shows_only_their_own_pick(api: Any, sizes: dict[str, str]) -> None:
    tokens = await seated(api, sizes["slug"])
    for name, token in tokens.items():
        page = await api.text(f"/p/{token}")
        pressed = re.findall(r'aria-pressed="true" data-post="[^"]+" data-body=\'([^\']+)\'',
                             page)
        assert [json.loads(body)["card"] for body in pressed] == (
            [PLAYS[name]] if name in PLAYS else [])
        assert f"You're voting as <strong>{name}</strong>" in page


async def test_the_reveal_shows_every_card_everywhere(api: Any, sizes: dict[str, str]) -> None:
    tokens = await seated(api, sizes["slug"])
    await api.organise(sizes["editToken"], "reveal")
    view = await api.read(sizes["slug"])
    assert {v["name"]: v["card"] for v in view["voters"]} == {**PLAYS, "Di": None}
    for path in (f"/s/{sizes['slug']}", f"/e/{sizes['editToken']}", f"/p/{tokens['Di']}"):
        region = board_region(await api.text(path))
        assert region.count("poker-face") == 3
        assert 'aria-label="Ann played XXL">XXL</span>' in region
        assert "Cards are on the table." in region


async def test_vote_responses_tell_nobody_else_anything(api: Any,
                                                        sizes: dict[str, str]) -> None:
    ann = await api.joined(sizes["slug"], "Ann")
    response = await api.vote(ann, "XL")
    assert await response.get_json() == {"ok": True, "card": "XL"}  # only the voter's own
    reveal = await api.organise(sizes["editToken"], "reveal")
    assert (await reveal.get_json())["summary"]["high"] == {"card": "XL", "names": ["Ann"]}
