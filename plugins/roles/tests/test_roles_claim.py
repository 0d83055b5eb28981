"""Joining: dealing a random free slot, the spec's messages in order, the optimistic retry,
and `held`."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import groupkit_roles.api as roles_api
from groupkit_roles.models import Player
from groupkit_testing import create

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
NO_NAME = "Tell us your name first."
ALL_DEALT = "All the roles are dealt."
NAME_TAKEN = "Someone already joined with that name — add a surname initial."
CONTENTION = "Everyone grabbed at once — try again."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}
SIX = ["Zebra-Spy", "Zebra-Spy", "Owl-Seer", "Lamb-Villager", "Lamb-Villager", "Lamb-Villager"]


async def test_join_returns_a_22_character_token(api: Any, game: dict[str, str]) -> None:
    token = await api.joined(game["slug"], "Ann")
    assert re.fullmatch(rf"[{ALPHABET}]{{22}}", token)
    assert token != await api.joined(game["slug"], "Bo")


async def test_a_full_game_deals_every_slot_once(api: Any, game: dict[str, str]) -> None:
    tokens = [await api.joined(game["slug"], f"Player {n}") for n in range(6)]
    assert len(set(tokens)) == 6
    roles = await api.roles_by_name(game["editToken"])
    assert sorted(roles.values()) == sorted(SIX)
    view = await api.public(game["slug"])
    assert (view["total"], view["dealt"], view["left"]) == (6, 6, 0)


async def test_the_name_is_cleaned(api: Any, game: dict[str, str]) -> None:
    await api.joined(game["slug"], "  Ann \n\t Lee  ")
    await api.joined(game["slug"], "n" * 100)
    assert list(await api.roles_by_name(game["editToken"])) == ["Ann Lee", "n" * 40]


@pytest.mark.parametrize("name", ["", "   ", "\n\t", None, 5, ["Ann"], {"name": "Ann"}, True])
async def test_a_name_is_required(api: Any, game: dict[str, str], name: Any) -> None:
    assert await api.error(await api.join(game["slug"], name), 400) == NO_NAME


async def test_a_missing_name_key(api: Any, client: Any, game: dict[str, str]) -> None:
    response = await client.post("/api/roles/claim", json={"slug": game["slug"]})
    assert await api.error(response, 400) == NO_NAME


async def test_a_name_can_join_once_ignoring_case(api: Any, game: dict[str, str]) -> None:
    await api.joined(game["slug"], "Ann")
    for again in ("Ann", "ann", "  ANN ", "aNn"):
        assert await api.error(await api.join(game["slug"], again), 409) == NAME_TAKEN
    assert len(await api.roles_by_name(game["editToken"])) == 1


@pytest.mark.parametrize("look_alike", ["\uff21nn", "\u0410nn", "\u0391NN", "A\u200bnn"])
async def test_a_look_alike_name_has_joined(api: Any, game: dict[str, str],
                                            look_alike: str) -> None:
    """A fullwidth, Cyrillic or Greek "Ann" beside "Ann" would pass for the same player."""
    await api.joined(game["slug"], "Ann")
    assert await api.error(await api.join(game["slug"], look_alike), 409) == NAME_TAKEN
    # Names are kept as typed: only the comparison folds them.
    await api.joined(game["slug"], "\u0410nna")
    assert list(await api.roles_by_name(game["editToken"])) == ["Ann", "\u0410nna"]


async def test_players_who_joined_before_look_alikes_counted_keep_their_names(
        api: Any, game: dict[str, str]) -> None:
    """Players stored with the old key (the name case-folded), even two look-alikes, keep
    their names: joins and resets compare keys computed afresh, and a reset finds the
    player spelled exactly as sent."""
    for name, stored in (("Bo", "Ann"), ("Cy", "\u0410nn"), ("Di", "\u0391nn")):
        await api.joined(game["slug"], name)
        Player.update(name=stored, name_key=stored.casefold()).where(
            Player.name == name).execute()
    assert await api.error(await api.join(game["slug"], "\uff21nn"), 409) == NAME_TAKEN
    await api.done(game["editToken"], "reset", {"name": "\u0410nn"})
    assert list(await api.roles_by_name(game["editToken"])) == ["Ann", "\u0391nn"]
    await api.done(game["editToken"], "reset", {"name": "ANN"})
    await api.done(game["editToken"], "reset", {"name": "ANN"})
    assert list(await api.roles_by_name(game["editToken"])) == []


async def test_when_every_role_is_dealt(api: Any, game: dict[str, str]) -> None:
    for n in range(6):
        await api.joined(game["slug"], f"Player {n}")
    assert await api.error(await api.join(game["slug"], "Late"), 409) == ALL_DEALT


async def test_check_order(api: Any, game: dict[str, str]) -> None:
    slug = game["slug"]
    await api.joined(slug, "Ann")
    assert await api.error(await api.join(slug, "ann"), 409) == NAME_TAKEN
    for n in range(5):
        await api.joined(slug, f"Player {n}")
    # A blank name is refused before anything else; a full game before a repeated name.
    assert await api.error(await api.join(slug, " "), 400) == NO_NAME
    assert await api.error(await api.join(slug, "ANN"), 409) == ALL_DEALT
    assert await api.error(await api.join(slug, "Newcomer"), 409) == ALL_DEALT


@pytest.mark.parametrize("slug", [None, "", "nope", "games-night-23456789abcdef", 5, ["x"]])
async def test_unknown_slug_is_404(api: Any, slug: Any) -> None:
    response = await api.join(slug, "Ann")
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND


async def test_unknown_slug_wins_over_a_blank_name(api: Any) -> None:
    response = await api.join("games-night-23456789abcdef", "")
    assert await response.get_json() == NOT_FOUND


async def test_slug_of_another_tool_is_404(make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["roles", "sweeps"]).test_client()
    sweep = await create(client, "sweeps", {"outcomes": ["a", "b"], "names": ["x", "y"]})
    for path, body in (("/api/roles/claim", {"slug": sweep["slug"], "name": "Ann"}),
                       ("/api/roles/held", {"slug": sweep["slug"], "token": "x"}),
                       (f"/api/roles/{sweep['editToken']}/redeal", {})):
        response = await client.post(path, json=body)
        assert response.status_code == 404
        assert await response.get_json() == NOT_FOUND


async def test_the_first_joiner_gets_either_role(api: Any) -> None:
    """Dealing is random, not first come first served: over 40 two-role games the first
    joiner gets each role at least once (failing by chance: about 2 in 10^12)."""
    first = Counter()
    for _ in range(40):
        made = await api.create({"roles": ["Apple", "Banana"]})
        await api.joined(made["slug"], "Ann")
        first.update((await api.roles_by_name(made["editToken"])).values())
    assert set(first) == {"Apple", "Banana"}


def test_a_slot_is_chosen_uniformly_from_the_free_ones() -> None:
    free = [0, 3, 4, 9]
    picks = Counter(roles_api.choose_slot(free) for _ in range(8000))
    assert set(picks) == set(free)
    # 2000 expected each; 1800 is more than four standard deviations below.
    assert min(picks.values()) > 1800


# --- optimistic retry ---------------------------------------------------------------------

async def test_three_lost_tries_give_the_contention_409(api: Any, game: dict[str, str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each try that reads a stale view of the free slots and picks a slot someone else
    holds loses on the unique index; the third lost try ends in the spec's 409."""
    await api.joined(game["slug"], "Ann")
    real_dealt = roles_api.dealt_slots
    held_now: set[int] = set()
    tries: list[list[int]] = []

    def stale(instance: Any) -> set[int]:
        held_now.update(real_dealt(instance))
        return set()  # as if read before Ann joined

    def pick_anns(free: list[int]) -> int:
        tries.append(free)
        (slot,) = held_now
        return slot

    monkeypatch.setattr(roles_api, "dealt_slots", stale)
    monkeypatch.setattr(roles_api, "choose_slot", pick_anns)
    assert await api.error(await api.join(game["slug"], "Bo"), 409) == CONTENTION
    assert tries == [list(range(6))] * 3
    monkeypatch.undo()
    export = await api.export(game["editToken"])
    assert [player["name"] for player in export["players"]] == ["Ann"]
    # Nothing half-done: Bo joins normally now.
    await api.joined(game["slug"], "Bo")
    assert (await api.export(game["editToken"]))["dealt"] == 2


async def test_a_lost_try_is_retried_with_a_fresh_view(api: Any, game: dict[str, str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    await api.joined(game["slug"], "Ann")
    real_dealt, real_choose = roles_api.dealt_slots, roles_api.choose_slot
    views: list[set[int]] = []
    calls = {"n": 0}

    def first_stale(instance: Any) -> set[int]:
        fresh = real_dealt(instance)
        calls["n"] += 1
        views.append(fresh)
        return set() if calls["n"] == 1 else fresh

    def choose(free: list[int]) -> int:
        taken = sorted(views[-1])
        return taken[0] if calls["n"] == 1 else real_choose(free)

    monkeypatch.setattr(roles_api, "dealt_slots", first_stale)
    monkeypatch.setattr(roles_api, "choose_slot", choose)
    await api.joined(game["slug"], "Bo")
    assert calls["n"] == 2
    monkeypatch.undo()
    export = await api.export(game["editToken"])
    assert export["dealt"] == 2
    assert [player["name"] for player in export["players"]] == ["Ann", "Bo"]


# --- held ---------------------------------------------------------------------------------

async def test_held_for_a_joined_player(api: Any, game: dict[str, str]) -> None:
    token = await api.joined(game["slug"], "Ann")
    assert await api.held(game["slug"], token) == {"held": True, "game": 1, "round": 1}


async def test_held_is_false_for_anything_else(api: Any, game: dict[str, str]) -> None:
    slug = game["slug"]
    token = await api.joined(slug, "Ann")
    other = await api.create({"roles": ["A", "B"]})
    elsewhere = await api.joined(other["slug"], "Ann")
    for wrong in ("", None, 5, ["x"], "x", "2" * 22, token.upper(), token[:21], token + "2",
                  elsewhere, game["editToken"], slug):
        assert await api.held(slug, wrong) == {"held": False, "game": 1, "round": 1}
    response = await api.client.post("/api/roles/held", json={"slug": slug})
    assert await response.get_json() == {"held": False, "game": 1, "round": 1}


async def test_held_follows_redeal_reset_restart_and_delete(api: Any,
                                                            game: dict[str, str]) -> None:
    slug, edit = game["slug"], game["editToken"]
    ann, bo = await api.joined(slug, "Ann"), await api.joined(slug, "Bo")
    await api.done(edit, "redeal")
    assert await api.held(slug, ann) == {"held": True, "game": 1, "round": 2}
    await api.done(edit, "reset", {"name": "Bo"})
    assert await api.held(slug, bo) == {"held": False, "game": 1, "round": 2}
    assert await api.held(slug, ann) == {"held": True, "game": 1, "round": 2}
    await api.done(edit, "restart")
    assert await api.held(slug, ann) == {"held": False, "game": 2, "round": 1}
    again = await api.joined(slug, "Ann")
    assert again != ann
    assert await api.held(slug, again) == {"held": True, "game": 2, "round": 1}
    await api.done(edit, "delete")
    response = await api.client.post("/api/roles/held", json={"slug": slug, "token": again})
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND
