"""Playing: join (60 voters, then the spec's 409), vote (card in the deck, not after the
reveal), reveal (someone must have voted), next story, removing a voter, and the summary
that names the high and the low, never an average."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from groupkit_poker.models import PokerVoter

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
NOT_FOUND = "Nothing here — check the link you were given."
NO_NAME = "Add your name so the team knows who's voting."
FULL = "Sixty voters is the limit for one game."
SAME_NAME = "Someone's already in with that name — add a surname initial."
NOT_IN_DECK = "That card isn't in this deck."
ALREADY_REVEALED = "The cards are already on the table — wait for the next story."
NOBODY_VOTED = "Nobody has voted yet — nothing to turn over."
FIB = ["1", "2", "3", "5", "8", "13", "21", "?", "coffee"]
TSHIRT = ["XS", "S", "M", "L", "XL", "XXL", "?", "coffee"]


# --- join -------------------------------------------------------------------------------

async def test_join_returns_a_token_and_an_id(api: Any, board: dict[str, str]) -> None:
    response = await api.join(board["slug"], "  Ann \n Lee ")
    assert response.status_code == 201
    payload = await response.get_json()
    assert set(payload) == {"token", "id"}
    assert re.fullmatch(rf"[{ALPHABET}]{{22}}", payload["token"])
    view = await api.read(board["slug"])
    assert view["voters"] == [{"id": payload["id"], "name": "Ann Lee", "voted": False,
                               "card": None}]
    long = await api.join(board["slug"], "n" * 100)
    assert long.status_code == 201
    assert (await api.read(board["slug"]))["voters"][1]["name"] == "n" * 40


@pytest.mark.parametrize("name", ["", "   ", "\n\t", None, 5, True, ["Ann"], {"n": 1}])
async def test_join_needs_a_name(api: Any, board: dict[str, str], name: Any) -> None:
    assert await api.error_of(await api.join(board["slug"], name), 400) == NO_NAME


async def test_join_with_an_unknown_slug_is_404(api: Any) -> None:
    for slug in (None, "", "nope-abcdefghjkmnpq", 7):
        assert await api.error_of(await api.join(slug, "Ann"), 404) == NOT_FOUND


async def test_a_name_is_taken_ignoring_case(api: Any, board: dict[str, str]) -> None:
    await api.joined(board["slug"], "Ann")
    for name in ("Ann", "ANN", " ann "):
        assert await api.error_of(await api.join(board["slug"], name), 409) == SAME_NAME
    other = await api.create({})
    await api.joined(other["slug"], "Ann")  # another board is another table


@pytest.mark.parametrize("look_alike", ["\uff21nn", "\u0410nn", "\u0391nn", "A\u200bNN"])
async def test_a_look_alike_name_is_taken(api: Any, board: dict[str, str],
                                          look_alike: str) -> None:
    """A fullwidth, Cyrillic or Greek "Ann" beside "Ann" would pass for the same voter."""
    await api.joined(board["slug"], "Ann")
    assert await api.error_of(await api.join(board["slug"], look_alike), 409) == SAME_NAME


async def test_names_are_shown_as_typed(api: Any, board: dict[str, str]) -> None:
    for name in ("\u0410nna", "Amie", "Arnie", "\ufdfa" * 40):
        await api.joined(board["slug"], name)
    assert [voter["name"] for voter in (await api.read(board["slug"]))["voters"]] == [
        "\u0410nna", "Amie", "Arnie", "\ufdfa" * 40]
    # A name whose key unfolds far past the name (each of these is 18 letters) is still
    # taken the same way.
    assert await api.error_of(await api.join(board["slug"], "\ufdfa" * 40), 409) == SAME_NAME


async def test_a_voter_who_joined_before_look_alikes_counted_keeps_the_name(
        api: Any, board: dict[str, str]) -> None:
    """A voter stored with the old key (the name case-folded) still holds the name: joins
    compare keys computed afresh from the names."""
    first = await api.joined(board["slug"], "Bo")
    PokerVoter.update(name="\u0410nn", name_key="\u0430nn").execute()
    assert await api.error_of(await api.join(board["slug"], "Ann"), 409) == SAME_NAME
    assert (await api.read(board["slug"]))["voters"][0]["name"] == "\u0410nn"
    assert (await api.vote(first, "5")).status_code == 200


async def test_sixty_voters_then_the_spec_409(api: Any, board: dict[str, str]) -> None:
    for number in range(60):
        await api.joined(board["slug"], f"Voter {number}")
    response = await api.join(board["slug"], "Voter sixty-one")
    assert await api.error_of(response, 409) == FULL
    # A full board says so before it says a name is taken.
    assert await api.error_of(await api.join(board["slug"], "Voter 0"), 409) == FULL
    assert await api.error_of(await api.join(board["slug"], ""), 400) == NO_NAME
    view = await api.read(board["slug"])
    assert len(view["voters"]) == 60
    assert PokerVoter.select().count() == 60
    # A seat freed by the facilitator can be taken again.
    removed = await api.organise(board["editToken"], "remove",
                                 {"voterId": view["voters"][0]["id"]})
    assert (await removed.get_json())["removed"] is True
    await api.joined(board["slug"], "Voter sixty-one")
    assert await api.error_of(await api.join(board["slug"], "One more"), 409) == FULL


# --- vote -------------------------------------------------------------------------------

@pytest.mark.parametrize("card", FIB)
async def test_every_numbers_card_can_be_played(api: Any, board: dict[str, str],
                                                card: str) -> None:
    token = await api.joined(board["slug"], "Ann")
    response = await api.vote(token, card)
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "card": card}


@pytest.mark.parametrize("card", TSHIRT)
async def test_every_tshirt_card_can_be_played(api: Any, sizes: dict[str, str],
                                               card: str) -> None:
    token = await api.joined(sizes["slug"], "Ann")
    assert await (await api.vote(token, card)).get_json() == {"ok": True, "card": card}


@pytest.mark.parametrize(("sent", "stored"), [(5, "5"), (13.0, "13"), (" 8 ", "8"),
                                              ("COFFEE", "coffee")])
async def test_cards_in_other_dress(api: Any, board: dict[str, str], sent: Any,
                                    stored: str) -> None:
    token = await api.joined(board["slug"], "Ann")
    assert (await (await api.vote(token, sent)).get_json())["card"] == stored


@pytest.mark.parametrize("card", ["4", 4, "0", "34", "XL", "", " ", None, True, 2.5, [5],
                                  {"card": "5"}, "1/2", "☕", "5 points"])
async def test_a_card_not_in_the_numbers_deck(api: Any, board: dict[str, str],
                                              card: Any) -> None:
    token = await api.joined(board["slug"], "Ann")
    assert await api.error_of(await api.vote(token, card), 400) == NOT_IN_DECK
    assert (await api.read(board["slug"]))["voted"] == 0


@pytest.mark.parametrize("card", ["5", 5, "XXXL", "xxs", "Medium", "1"])
async def test_a_card_not_in_the_tshirt_deck(api: Any, sizes: dict[str, str],
                                             card: Any) -> None:
    token = await api.joined(sizes["slug"], "Ann")
    assert await api.error_of(await api.vote(token, card), 400) == NOT_IN_DECK


async def test_tshirt_sizes_match_ignoring_case(api: Any, sizes: dict[str, str]) -> None:
    token = await api.joined(sizes["slug"], "Ann")
    assert (await (await api.vote(token, "xxl")).get_json())["card"] == "XXL"


async def test_missing_card_and_unreadable_body(client: Any, api: Any,
                                                board: dict[str, str]) -> None:
    token = await api.joined(board["slug"], "Ann")
    for raw in (b"{}", b"nonsense", b""):
        response = await client.post(f"/api/poker/v/{token}/vote", data=raw,
                                     headers={"Content-Type": "application/json"})
        assert await api.error_of(response, 400) == NOT_IN_DECK


async def test_a_vote_can_change_until_the_reveal(api: Any, board: dict[str, str]) -> None:
    token = await api.joined(board["slug"], "Ann")
    await api.voted(token, "3")
    await api.voted(token, "8")
    await api.organise(board["editToken"], "reveal")
    view = await api.read(board["slug"])
    assert [voter["card"] for voter in view["voters"]] == ["8"]


async def test_no_vote_once_revealed_and_deck_checked_first(api: Any,
                                                            board: dict[str, str]) -> None:
    ann = await api.joined(board["slug"], "Ann")
    bo = await api.joined(board["slug"], "Bo")
    await api.voted(ann, "5")
    await api.organise(board["editToken"], "reveal")
    assert await api.error_of(await api.vote(ann, "8"), 400) == ALREADY_REVEALED
    assert await api.error_of(await api.vote(bo, "2"), 400) == ALREADY_REVEALED
    assert await api.error_of(await api.vote(bo, "4"), 400) == NOT_IN_DECK
    assert [v["card"] for v in (await api.read(board["slug"]))["voters"]] == ["5", None]


@pytest.mark.parametrize("token", ["a" * 22, "short", "a" * 26])
async def test_vote_with_an_unknown_token_is_404(api: Any, board: dict[str, str],
                                                 token: str) -> None:
    assert await api.error_of(await api.vote(token, "5"), 404) == NOT_FOUND


async def test_an_edit_token_or_slug_is_not_a_voting_token(api: Any,
                                                           board: dict[str, str]) -> None:
    for token in (board["editToken"], board["slug"]):
        assert (await api.vote(token, "5")).status_code == 404


# --- reveal -----------------------------------------------------------------------------

async def test_reveal_needs_a_vote(api: Any, board: dict[str, str]) -> None:
    response = await api.organise(board["editToken"], "reveal")
    assert await api.error_of(response, 400) == NOBODY_VOTED
    await api.joined(board["slug"], "Ann")  # in, but no card yet
    response = await api.organise(board["editToken"], "reveal")
    assert await api.error_of(response, 400) == NOBODY_VOTED
    assert (await api.read(board["slug"]))["revealed"] is False


async def test_reveal_turns_every_card_over(api: Any, board: dict[str, str]) -> None:
    plays = {"Ann": "3", "Bo": "13", "Cy": "3", "Di": "?", "Ed": "coffee", "Flo": "8"}
    for name, card in plays.items():
        await api.voted(await api.joined(board["slug"], name), card)
    await api.joined(board["slug"], "Gus")  # never votes
    response = await api.organise(board["editToken"], "reveal")
    assert response.status_code == 200
    summary = {"votes": 6, "high": {"card": "13", "names": ["Bo"]},
               "low": {"card": "3", "names": ["Ann", "Cy"]}, "agreed": False,
               "unsure": ["Di"], "coffee": ["Ed"],
               "counts": [{"card": "3", "count": 2}, {"card": "8", "count": 1},
                          {"card": "13", "count": 1}, {"card": "?", "count": 1},
                          {"card": "coffee", "count": 1}]}
    assert await response.get_json() == {"ok": True, "revealed": True, "summary": summary}
    view = await api.read(board["slug"])
    assert view["revealed"] is True and view["summary"] == summary
    assert {v["name"]: v["card"] for v in view["voters"]} == {**plays, "Gus": None}
    assert "average" not in json.dumps(view).lower()
    again = await api.organise(board["editToken"], "reveal")
    assert await again.get_json() == {"ok": True, "revealed": True, "summary": summary}


async def test_summary_for_tshirt_sizes_and_agreement(api: Any, sizes: dict[str, str]) -> None:
    for name, card in (("Ann", "M"), ("Bo", "M"), ("Cy", "?")):
        await api.voted(await api.joined(sizes["slug"], name), card)
    summary = (await (await api.organise(sizes["editToken"], "reveal")).get_json())["summary"]
    assert summary["high"] == summary["low"] == {"card": "M", "names": ["Ann", "Bo"]}
    assert summary["agreed"] is True and summary["unsure"] == ["Cy"]


async def test_tshirt_high_and_low_follow_the_deck_order(api: Any,
                                                         sizes: dict[str, str]) -> None:
    for name, card in (("Ann", "XL"), ("Bo", "S"), ("Cy", "XXL"), ("Di", "XS"), ("Ed", "L")):
        await api.voted(await api.joined(sizes["slug"], name), card)
    summary = (await (await api.organise(sizes["editToken"], "reveal")).get_json())["summary"]
    assert (summary["high"], summary["low"]) == ({"card": "XXL", "names": ["Cy"]},
                                                 {"card": "XS", "names": ["Di"]})


async def test_only_unsure_cards_have_no_high_or_low(api: Any, board: dict[str, str]) -> None:
    for name, card in (("Ann", "?"), ("Bo", "coffee")):
        await api.voted(await api.joined(board["slug"], name), card)
    summary = (await (await api.organise(board["editToken"], "reveal")).get_json())["summary"]
    assert (summary["high"], summary["low"], summary["agreed"]) == (None, None, False)
    page = await api.text(f"/s/{board['slug']}")
    assert "Nobody sized it yet." in page


# --- next story -------------------------------------------------------------------------

async def test_next_story_clears_the_cards(api: Any, board: dict[str, str]) -> None:
    ann = await api.joined(board["slug"], "Ann")
    bo = await api.joined(board["slug"], "Bo")
    await api.voted(ann, "2")
    await api.voted(bo, "21")
    await api.organise(board["editToken"], "reveal")
    response = await api.organise(board["editToken"], "next", {"story": "  PAY-2\n Payouts "})
    assert await response.get_json() == {"ok": True, "round": 2, "story": "PAY-2 Payouts"}
    view = await api.read(board["slug"])
    assert (view["round"], view["story"], view["revealed"], view["voted"]) == (
        2, "PAY-2 Payouts", False, 0)
    assert [(v["name"], v["voted"], v["card"]) for v in view["voters"]] == [
        ("Ann", False, None), ("Bo", False, None)]
    assert view["history"] == [{"round": 1, "story": "PAY-1 Refunds", "summary": {
        "votes": 2, "high": {"card": "21", "names": ["Bo"]},
        "low": {"card": "2", "names": ["Ann"]}, "agreed": False, "unsure": [], "coffee": [],
        "counts": [{"card": "2", "count": 1}, {"card": "21", "count": 1}]}}]
    await api.voted(ann, "5")  # the same link votes on the new story
    assert (await api.read(board["slug"]))["voted"] == 1


async def test_next_story_before_a_reveal_discards_the_cards_unseen(
        api: Any, board: dict[str, str]) -> None:
    await api.voted(await api.joined(board["slug"], "Ann"), "13")
    response = await api.organise(board["editToken"], "next", {"story": "s" * 500})
    assert await response.get_json() == {"ok": True, "round": 2, "story": "s" * 120}
    view = await api.read(board["slug"])
    assert view["history"] == [] and view["voted"] == 0
    assert [voter.card for voter in PokerVoter.select()] == [None]
    empty = await api.organise(board["editToken"], "next", {"story": None})
    assert (await empty.get_json())["story"] == ""


async def test_history_keeps_the_last_fifty_rounds(api: Any, board: dict[str, str]) -> None:
    token = await api.joined(board["slug"], "Ann")
    for number in range(52):
        await api.voted(token, "3")
        await api.organise(board["editToken"], "reveal")
        await api.organise(board["editToken"], "next", {"story": f"Story {number + 2}"})
    history = (await api.read(board["slug"]))["history"]
    assert len(history) == 50
    assert (history[0]["round"], history[-1]["round"]) == (52, 3)


# --- remove a voter ---------------------------------------------------------------------

async def test_remove_a_voter(api: Any, board: dict[str, str]) -> None:
    ann = await api.joined(board["slug"], "Ann")
    await api.voted(ann, "5")
    voter_id = (await api.read(board["slug"]))["voters"][0]["id"]
    response = await api.organise(board["editToken"], "remove", {"voterId": str(voter_id)})
    assert await response.get_json() == {"ok": True, "removed": True}
    assert (await api.read(board["slug"]))["voters"] == []
    assert await api.error_of(await api.vote(ann, "5"), 404) == NOT_FOUND
    assert (await api.client.get(f"/p/{ann}")).status_code == 404
    await api.joined(board["slug"], "Ann")  # the name is free again


@pytest.mark.parametrize("voter_id", [
    None, "", "abc", 999_999, -1, 0, 1.5, 10**30, "9" * 40, [1], {"id": 1}])
async def test_removing_nobody(api: Any, board: dict[str, str], voter_id: Any) -> None:
    await api.joined(board["slug"], "Ann")
    response = await api.organise(board["editToken"], "remove", {"voterId": voter_id})
    assert await response.get_json() == {"ok": True, "removed": False}
    assert len((await api.read(board["slug"]))["voters"]) == 1


async def test_a_voter_of_another_board_cannot_be_removed(api: Any,
                                                          board: dict[str, str]) -> None:
    other = await api.create({})
    await api.joined(other["slug"], "Zed")
    zed = (await api.read(other["slug"]))["voters"][0]["id"]
    response = await api.organise(board["editToken"], "remove", {"voterId": zed})
    assert (await response.get_json())["removed"] is False
    assert len((await api.read(other["slug"]))["voters"]) == 1


@pytest.mark.parametrize("action", ["reveal", "next", "remove"])
async def test_facilitator_actions_need_the_edit_token(api: Any, board: dict[str, str],
                                                       action: str) -> None:
    for token in ("b" * 26, board["slug"]):
        response = await api.organise(token, action, {"voterId": 1})
        assert await api.error_of(response, 404) == NOT_FOUND
