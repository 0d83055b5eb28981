"""Cards stay face down for everyone, the facilitator included, until the reveal: checked in
every response and page, while every page shows who has voted. A voter's own page shows
their own pick, and nobody else's. The facilitator may take a seat and vote from the
facilitator's page: their card is as hidden as anyone's, and only their own page shows it."""

from __future__ import annotations

import json
import re
from typing import Any

from groupkit_poker.api import ALREADY_REVEALED
from groupkit_poker.api import FULL
from groupkit_poker.api import MAX_VOTERS
from groupkit_poker.api import NO_NAME
from groupkit_poker.api import NO_SEAT
from groupkit_poker.api import NOT_IN_DECK
from groupkit_poker.api import SAME_NAME

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


PRESSED = re.compile(r'aria-pressed="true" data-post="([^"]+)" data-body=\'([^\']+)\'')


async def test_the_facilitator_takes_a_seat_and_votes_without_another_link(
        api: Any, sizes: dict[str, str]) -> None:
    edit = sizes["editToken"]
    page = await api.text(f"/e/{edit}")
    assert f'action="/api/poker/{edit}/seat"' in page and 'id="poker-pick"' not in page
    ann = await api.joined(sizes["slug"], "Ann")
    await api.voted(ann, "XS")
    seated = await api.organise(edit, "seat", {"name": "Fran"})
    assert seated.status_code == 200
    seat = (await seated.get_json())["id"]
    again = await api.organise(edit, "seat", {"name": "Someone else"})
    assert (await again.get_json()) == {"ok": True, "id": seat}  # the same seat
    voted = await api.organise(edit, "vote", {"card": "xxl"})
    assert (await voted.get_json()) == {"ok": True, "card": "XXL"}

    view = await api.read(sizes["slug"])
    assert [(v["name"], v["voted"], v["card"]) for v in view["voters"]] == [
        ("Ann", True, None), ("Fran", True, None)]
    exported = (await api.export(edit))["data"]
    assert "me" not in exported
    for text in (without_deck(view), without_deck(exported)):
        assert '"XXL"' not in text and '"XS"' not in text
    for path in (f"/s/{sizes['slug']}", f"/p/{ann}"):
        page = await api.text(path)
        assert "XXL" not in board_region(page)
        assert [json.loads(body)["card"] for _, body in PRESSED.findall(page)] == (
            ["XS"] if path.startswith("/p/") else [])
    page = await api.text(f"/e/{edit}")
    assert PRESSED.findall(page) == [(f"/api/poker/{edit}/vote", '{"card": "XXL"}')]
    assert "You're voting too, as <strong>Fran</strong>." in page
    region = board_region(page)
    assert "XXL" not in region and "XS" not in region and region.count("poker-back") == 2
    assert "2 of 2 voters have picked a card." in region

    await api.organise(edit, "reveal")
    view = await api.read(sizes["slug"])
    assert {v["name"]: v["card"] for v in view["voters"]} == {"Ann": "XS", "Fran": "XXL"}
    assert view["summary"]["high"] == {"card": "XXL", "names": ["Fran"]}
    assert await api.error_of(await api.organise(edit, "vote", {"card": "S"}),
                              400) == ALREADY_REVEALED
    await api.organise(edit, "next", {"story": "WEB-8"})
    page = await api.text(f"/e/{edit}")
    assert PRESSED.findall(page) == []  # the next story starts face down for everyone


async def test_the_facilitators_seat_follows_the_voters_rules(
        api: Any, sizes: dict[str, str]) -> None:
    edit = sizes["editToken"]
    assert await api.error_of(await api.organise(edit, "vote", {"card": "nope"}),
                              400) == NOT_IN_DECK
    assert await api.error_of(await api.organise(edit, "vote", {"card": "M"}), 409) == NO_SEAT
    for name, status, error in (("  ", 400, NO_NAME), ("ann", 409, SAME_NAME)):
        if status == 409:
            await api.joined(sizes["slug"], "Ann")
        refused = await api.organise(edit, "seat", {"name": name})
        assert refused.status_code == status
        assert await refused.get_json() == {"error": error}
    seat = (await (await api.organise(edit, "seat", {"name": "Fran"})).get_json())["id"]
    assert await api.error_of(await api.organise(edit, "vote", {"card": "nope"}),
                              400) == NOT_IN_DECK
    # Removing the facilitator's voter frees the seat: voting asks for a seat again.
    removed = await api.organise(edit, "remove", {"voterId": seat})
    assert (await removed.get_json())["removed"] is True
    assert await api.error_of(await api.organise(edit, "vote", {"card": "M"}), 409) == NO_SEAT
    assert "Vote too" in await api.text(f"/e/{edit}")


async def test_a_full_table_has_no_seat_for_the_facilitator(
        api: Any, board: dict[str, str]) -> None:
    for index in range(MAX_VOTERS):
        await api.joined(board["slug"], f"Voter {index}")
    assert await api.error_of(await api.organise(board["editToken"], "seat", {"name": "Fran"}),
                              409) == FULL
