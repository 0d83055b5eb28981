"""Claiming a name, the permanent private page, drawing rounds from the organiser link, and
resetting a person."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable
from typing import Any

import pytest

from groupkit import Instance
from groupkit_coffee.models import CoffeeRound
from groupkit_coffee.pairing import RECENT_ROUNDS
from groupkit_testing import create
from groupkit_testing import error_of

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
NOT_ON_LIST = "That name isn't on this team's list."
ALREADY = "That name's already been claimed. If it's yours, ask the organiser to reset you."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}
NAMES = ["Ann Archer", "Bo Bramble", "Cy Cobb", "Di Dunlop", "Ed Ekins"]  # the `team` fixture's


async def claim(client: Any, slug: Any, name: Any) -> Any:
    return await client.post("/api/coffee/claim", json={"slug": slug, "name": name})


async def token_for(client: Any, slug: str, name: str) -> str:
    response = await claim(client, slug, name)
    payload = await response.get_json()
    assert response.status_code == 200, payload
    return str(payload["token"])


async def private(client: Any, token: str) -> dict[str, Any]:
    response = await client.get(f"/api/coffee/p/{token}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def draw(client: Any, edit: str) -> dict[str, Any]:
    response = await client.post(f"/api/coffee/{edit}/draw")
    assert response.status_code == 200
    return dict(await response.get_json())


async def export(client: Any, edit: str) -> dict[str, Any]:
    response = await client.post(f"/api/coffee/{edit}/export")
    return dict((await response.get_json())["data"])


async def everyone(client: Any, slug: str, names: list[str]) -> dict[str, str]:
    return {name: await token_for(client, slug, name) for name in names}


async def groups_seen(client: Any, tokens: dict[str, str]) -> set[frozenset[str]]:
    """The round's groups as the people themselves see them on their private pages."""
    groups = set()
    for name, token in tokens.items():
        view = await private(client, token)
        assert view["name"] == name
        groups.add(frozenset([name, *(partner["name"] for partner in view["partners"])]))
    return groups


# --- claim ---------------------------------------------------------------------------------

async def test_claim_answers_200_with_a_22_character_token(client: Any,
                                                           team: dict[str, str]) -> None:
    response = await claim(client, team["slug"], "Cy Cobb")
    assert response.status_code == 200
    payload = await response.get_json()
    assert set(payload) == {"token"}
    assert len(payload["token"]) == 22 and set(payload["token"]) <= set(ALPHABET)


@pytest.mark.parametrize("typed", ["cy cobb", "  CY\n COBB  ", "Cy Cobb"])
async def test_claim_matches_after_cleaning_ignoring_case(client: Any, team: dict[str, str],
                                                          typed: str) -> None:
    assert (await private(client, await token_for(client, team["slug"], typed)))[
        "name"] == "Cy Cobb"


@pytest.mark.parametrize("name", ["Cy", "Cy Cobbb", "", "  ", None, 5, ["Cy Cobb"]])
async def test_claim_of_a_name_not_on_the_list_is_404(client: Any, team: dict[str, str],
                                                       name: Any) -> None:
    assert await error_of(await claim(client, team["slug"], name), 404) == NOT_ON_LIST


async def test_claim_with_a_bad_slug_is_the_common_404(client: Any) -> None:
    for slug in (None, "coffee-roulette-23456789abcdef", 3):
        response = await claim(client, slug, "Ann Archer")
        assert response.status_code == 404 and await response.get_json() == NOT_FOUND


async def test_claim_with_another_tools_slug_is_404(make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["coffee", "kringle"]).test_client()
    other = await create(client, "kringle", {"names": ["Ann", "Bo", "Cy"]})
    response = await claim(client, other["slug"], "Ann")
    assert await response.get_json() == NOT_FOUND


async def test_a_name_is_claimed_once(client: Any, team: dict[str, str]) -> None:
    first = await token_for(client, team["slug"], "Di Dunlop")
    for typed in ("Di Dunlop", "DI DUNLOP"):
        assert await error_of(await claim(client, team["slug"], typed), 409) == ALREADY
    assert (await private(client, first))["name"] == "Di Dunlop"


async def test_claims_are_listed(client: Any, team: dict[str, str]) -> None:
    await token_for(client, team["slug"], "Bo Bramble")
    public = await (await client.get(f"/api/coffee/{team['slug']}")).get_json()
    assert [p["claimed"] for p in public["people"]] == [False, True, False, False, False]
    organiser = await export(client, team["editToken"])
    assert organiser["claimedCount"] == 1
    assert organiser["people"][1]["claimedAt"].endswith("+00:00")
    assert organiser["people"][0]["claimedAt"] is None


# --- the private page before and after rounds ----------------------------------------------

async def test_before_the_first_round_nobody_has_a_partner(client: Any,
                                                           team: dict[str, str]) -> None:
    view = await private(client, await token_for(client, team["slug"], "Ann Archer"))
    assert set(view) == {"title", "heading", "cadence", "note", "round", "drawnAt", "name",
                         "inRound", "partners"}
    assert (view["round"], view["drawnAt"], view["partners"]) == (0, None, [])
    assert (view["title"], view["cadence"], view["note"]) == (
        "Platform coffee", "Every second Monday", "Thirty minutes, your shout or theirs.")


async def test_a_round_pairs_everyone_with_one_trio_for_five(client: Any,
                                                             team: dict[str, str]) -> None:
    tokens = await everyone(client, team["slug"], NAMES)
    answer = await draw(client, team["editToken"])
    assert set(answer) == {"ok", "round", "groupCount", "drawnAt"}
    assert (answer["ok"], answer["round"], answer["groupCount"]) == (True, 1, 2)
    groups = await groups_seen(client, tokens)
    assert sorted(len(group) for group in groups) == [2, 3]
    assert set().union(*groups) == set(NAMES)
    view = await private(client, tokens["Ann Archer"])
    assert (view["round"], view["drawnAt"]) == (1, answer["drawnAt"])
    assert all(partner["claimed"] for partner in view["partners"])


async def test_partners_not_yet_claimed_are_marked(client: Any) -> None:
    made = await create(client, "coffee", {"names": ["Ann", "Bo", "Cy", "Di"]})
    await draw(client, made["editToken"])  # everyone is drawn, claimed or not
    token = await token_for(client, made["slug"], "Ann")
    [partner] = (await private(client, token))["partners"]
    assert partner["claimed"] is False
    await token_for(client, made["slug"], partner["name"])
    assert (await private(client, token))["partners"] == [
        {"name": partner["name"], "claimed": True}]


async def test_the_drawn_time_comes_from_the_request_clock(make_app: Callable[..., Any]) -> None:
    moment = dt.datetime(2025, 3, 3, 9, 30, tzinfo=dt.UTC)
    client = make_app(tools=["coffee"], clock=lambda: moment).test_client()
    made = await create(client, "coffee", {"names": ["Ann", "Bo", "Cy"]})
    answer = await draw(client, made["editToken"])
    assert answer["drawnAt"] == "2025-03-03T09:30:00+00:00"
    assert (await export(client, made["editToken"]))["drawnAt"] == answer["drawnAt"]


@pytest.mark.parametrize(("size", "rounds"), [(3, 3), (4, 9), (7, 10), (8, 12), (10, 10),
                                              (15, 10), (16, 10), (23, 6)])
async def test_rounds_through_the_api_avoid_recent_pairs(client: Any, size: int,
                                                         rounds: int) -> None:
    """What people see over many rounds: everyone placed once, pairs plus one trio when
    odd, links unchanged, and nobody with someone from the last three rounds wherever the
    team size makes that certain to be possible (an even team of 8 or more, any team of 14
    or more; smaller ones are checked exhaustively in test_coffee_pairing)."""
    names = [f"Person {chr(65 + i)}" for i in range(size)]
    made = await create(client, "coffee", {"names": names})
    tokens = await everyone(client, made["slug"], names)
    history: list[set[frozenset[str]]] = []
    for number in range(1, rounds + 1):
        assert (await draw(client, made["editToken"]))["round"] == number
        groups = await groups_seen(client, tokens)
        assert sorted(n for group in groups for n in group) == sorted(names)
        assert sorted(len(group) for group in groups) == [2] * (size // 2 - size % 2) + \
            [3] * (size % 2)
        met = {frozenset(pair) for past in history[:RECENT_ROUNDS] for group in past
               for pair in itertools.combinations(group, 2)}
        mine = {frozenset(pair) for group in groups for pair in itertools.combinations(group, 2)}
        if size == 4:  # three ways to pair four people: a new one until they run out
            assert not mine & met if number <= 3 else groups == history[2]
        elif (size >= 8 and size % 2 == 0) or size >= 14:
            assert not mine & met, (number, groups)
        history.insert(0, groups)


async def test_only_the_last_rounds_are_kept(client: Any, team: dict[str, str]) -> None:
    for _ in range(7):
        await draw(client, team["editToken"])
    instance = Instance.get(Instance.slug == team["slug"])
    kept = sorted(r.number for r in CoffeeRound.select().where(CoffeeRound.instance == instance))
    assert kept == list(range(8 - RECENT_ROUNDS, 8))
    assert (await export(client, team["editToken"]))["round"] == 7


async def test_links_stay_the_same_across_rounds(client: Any, team: dict[str, str]) -> None:
    token = await token_for(client, team["slug"], "Ed Ekins")
    for number in range(1, 4):
        await draw(client, team["editToken"])
        assert (await client.get(f"/p/{token}")).status_code == 200
        assert (await private(client, token))["round"] == number


@pytest.mark.parametrize("token", ["nope", "2" * 26])
async def test_draw_needs_the_edit_token(client: Any, team: dict[str, str], token: str) -> None:
    mine = await token_for(client, team["slug"], "Ann Archer")
    for bad in (token, team["slug"], mine):
        response = await client.post(f"/api/coffee/{bad}/draw")
        assert response.status_code == 404 and await response.get_json() == NOT_FOUND
    assert (await export(client, team["editToken"]))["round"] == 0


# --- reset ---------------------------------------------------------------------------------

async def test_reset_retires_the_link_and_reclaim_gets_a_fresh_one(
        client: Any, team: dict[str, str]) -> None:
    slug, edit = team["slug"], team["editToken"]
    old = await token_for(client, slug, "Bo Bramble")
    await draw(client, edit)
    partners = (await private(client, old))["partners"]
    response = await client.post(f"/api/coffee/{edit}/reset", json={"name": " bo BRAMBLE"})
    assert await response.get_json() == {"ok": True, "reset": True}
    page = await client.get(f"/p/{old}")  # says it was reset (a 404), shows no partner
    assert (page.status_code, page.headers["Cache-Control"]) == (404, "no-store")
    assert "This link was reset" in await page.get_data(as_text=True)
    response = await client.get(f"/api/coffee/p/{old}")
    assert response.status_code == 404 and await response.get_json() == NOT_FOUND
    assert (await export(client, edit))["people"][1] == {
        "name": "Bo Bramble", "claimed": False, "claimedAt": None}
    fresh = await token_for(client, slug, "Bo Bramble")
    assert fresh != old
    assert (await private(client, fresh))["partners"] == partners  # same round, same partner
    assert await error_of(await claim(client, slug, "Bo Bramble"), 409) == ALREADY


async def test_reset_of_an_unclaimed_name(client: Any, team: dict[str, str]) -> None:
    response = await client.post(f"/api/coffee/{team['editToken']}/reset",
                                 json={"name": "Cy Cobb"})
    assert await response.get_json() == {"ok": True, "reset": False}


@pytest.mark.parametrize("name", ["Nobody", "", None, ["Cy Cobb"]])
async def test_reset_of_a_name_not_on_the_list_is_404(client: Any, team: dict[str, str],
                                                      name: Any) -> None:
    response = await client.post(f"/api/coffee/{team['editToken']}/reset", json={"name": name})
    assert await error_of(response, 404) == NOT_ON_LIST


async def test_reset_needs_the_edit_token(client: Any, team: dict[str, str]) -> None:
    mine = await token_for(client, team["slug"], "Ann Archer")
    for bad in ("2" * 26, team["slug"], mine):
        response = await client.post(f"/api/coffee/{bad}/reset", json={"name": "Ann Archer"})
        assert response.status_code == 404 and await response.get_json() == NOT_FOUND
    assert (await private(client, mine))["name"] == "Ann Archer"


@pytest.mark.parametrize("token", ["2" * 22, "x", "I" * 22])
async def test_unknown_private_tokens_are_404(client: Any, team: dict[str, str],
                                              token: str) -> None:
    response = await client.get(f"/api/coffee/p/{token}")
    assert response.status_code == 404 and await response.get_json() == NOT_FOUND
    assert (await client.get(f"/p/{token}")).status_code == 404


# --- delete --------------------------------------------------------------------------------

async def test_delete_kills_every_link_and_row(client: Any, team: dict[str, str]) -> None:
    slug, edit = team["slug"], team["editToken"]
    token = await token_for(client, slug, "Ann Archer")
    await draw(client, edit)
    instance_id = Instance.get(Instance.slug == slug).id
    assert (await (await client.post(f"/api/coffee/{edit}/delete")).get_json()) == {
        "ok": True, "deleted": True}
    assert CoffeeRound.select().where(CoffeeRound.instance == instance_id).count() == 0
    calls = [("GET", f"/api/coffee/{slug}", None), ("GET", f"/api/coffee/p/{token}", None),
             ("POST", "/api/coffee/claim", {"slug": slug, "name": "Bo Bramble"}),
             ("POST", f"/api/coffee/{edit}/draw", None),
             ("POST", f"/api/coffee/{edit}/reset", {"name": "Ann Archer"}),
             ("POST", f"/api/coffee/{edit}/export", None)]
    for method, path, body in calls:
        response = await (client.get(path) if method == "GET"
                          else client.post(path, json=body or {}))
        assert response.status_code == 404 and await response.get_json() == NOT_FOUND, path
    for path in (f"/s/{slug}", f"/e/{edit}", f"/p/{token}"):
        assert (await client.get(path)).status_code == 404
