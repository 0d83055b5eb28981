"""The organiser's controls: reset, details, roles, redeal, restart, setup, export, delete."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from groupkit import Instance

NOT_FOUND = {"error": "Nothing here — check the link you were given."}
NOT_JOINED = "Nobody has joined with that name."
FEW = "Add at least two roles — one per line."
MANY = "That's 41 roles — this tool tops out at 40."
ALL_DEALT = "All the roles are dealt."
SIX = ["Zebra-Spy", "Zebra-Spy", "Owl-Seer", "Lamb-Villager", "Lamb-Villager", "Lamb-Villager"]


async def join_all(api: Any, slug: str, *names: str) -> dict[str, str]:
    return {name: await api.joined(slug, name) for name in names}


# --- reset --------------------------------------------------------------------------------

async def test_reset_frees_the_slot_and_kills_the_link(api: Any, game: dict[str, str]) -> None:
    slug, edit = game["slug"], game["editToken"]
    tokens = await join_all(api, slug, "Ann", "Bo")
    roles = await api.roles_by_name(edit)
    assert await api.done(edit, "reset", {"name": "  aNN "}) == {"ok": True}
    assert await api.held(slug, tokens["Ann"]) == {"held": False, "game": 1, "round": 1}
    await api.page(f"/p/{tokens['Ann']}", 404)
    assert await api.held(slug, tokens["Bo"]) == {"held": True, "game": 1, "round": 1}
    assert await api.roles_by_name(edit) == {"Bo": roles["Bo"]}
    assert (await api.public(slug))["left"] == 5
    fresh = await api.joined(slug, "Ann")
    assert fresh != tokens["Ann"]
    await api.page(f"/p/{fresh}")


async def test_reset_lets_a_full_game_take_someone_new(api: Any, game: dict[str, str]) -> None:
    slug, edit = game["slug"], game["editToken"]
    await join_all(api, slug, *(f"P{n}" for n in range(6)))
    assert await api.error(await api.join(slug, "Late"), 409) == ALL_DEALT
    await api.done(edit, "reset", {"name": "P3"})
    await api.joined(slug, "Late")
    assert sorted((await api.roles_by_name(edit)).values()) == sorted(SIX)


@pytest.mark.parametrize("name", ["Zed", "", "   ", None, 5, ["Ann"]])
async def test_reset_of_a_name_nobody_joined_with(api: Any, game: dict[str, str],
                                                  name: Any) -> None:
    await api.joined(game["slug"], "Ann")
    response = await api.organise(game["editToken"], "reset", {"name": name})
    assert await api.error(response, 404) == NOT_JOINED
    assert list(await api.roles_by_name(game["editToken"])) == ["Ann"]


@pytest.mark.parametrize("op", ["reset", "details", "roles", "redeal", "restart", "setup",
                                "export", "delete"])
async def test_organiser_operations_need_the_edit_token(api: Any, game: dict[str, str],
                                                        op: str) -> None:
    for token in ("2" * 26, game["editToken"][:-1], game["slug"], game["editToken"].upper()):
        response = await api.client.post(f"/api/roles/{token}/{op}",
                                         json={"name": "Ann", "roles": ["A", "B"]})
        assert response.status_code == 404
        assert await response.get_json() == NOT_FOUND


# --- details ------------------------------------------------------------------------------

async def test_details_replace_title_and_note(api: Any, game: dict[str, str]) -> None:
    edit = game["editToken"]
    reply = await api.done(edit, "details", {"title": "  Late   game ",
                                             "note": " Bring snacks\r\n "})
    assert reply == {"ok": True, "title": "Late   game", "heading": "Late   game",
                     "note": "Bring snacks"}
    view = await api.public(game["slug"])
    assert (view["title"], view["heading"], view["note"]) == ("Late   game", "Late   game",
                                                              "Bring snacks")
    assert "<h1>Late   game</h1>" in await api.page(f"/s/{game['slug']}")
    reply = await api.done(edit, "details", {"title": "t" * 500, "note": "n" * 5000})
    assert (reply["title"], reply["note"]) == ("t" * 80, "n" * 600)
    reply = await api.done(edit, "details", {})
    assert reply == {"ok": True, "title": "", "heading": "Secret roles", "note": ""}
    assert (await api.export(edit))["roles"] == SIX


# --- roles --------------------------------------------------------------------------------

async def test_roles_update_before_anyone_joined(api: Any, game: dict[str, str]) -> None:
    edit = game["editToken"]
    reply = await api.done(edit, "roles", {"roles": [" Fox ", "Fox", "Hen"],
                                           "briefs": {"Fox": "Sly\r\nand quick", "Cat": "x"}})
    assert reply == {"ok": True, "total": 3, "dealt": 0, "round": 2}
    game_now = await api.export(edit)
    assert game_now["roles"] == ["Fox", "Fox", "Hen"]
    assert game_now["briefs"] == {"Fox": "Sly\nand quick"}
    assert (game_now["total"], game_now["left"]) == (3, 3)


@pytest.mark.parametrize(("roles", "message"), [
    ([], FEW), (["Solo"], FEW), ("Fox\nHen", FEW), (None, FEW),
    ([f"R{n}" for n in range(41)], MANY)])
async def test_roles_update_has_the_create_limits(api: Any, game: dict[str, str], roles: Any,
                                                  message: str) -> None:
    response = await api.organise(game["editToken"], "roles", {"roles": roles})
    assert await api.error(response, 400) == message
    assert (await api.export(game["editToken"]))["roles"] == SIX


async def test_roles_update_redeals_to_joined_players(api: Any, game: dict[str, str]) -> None:
    slug, edit = game["slug"], game["editToken"]
    tokens = await join_all(api, slug, "Ann", "Bo", "Cy")
    new = ["Kestrel", "Heron", "Plover", "Tern"]
    assert await api.done(edit, "roles", {"roles": new}) == {
        "ok": True, "total": 4, "dealt": 3, "round": 2}
    roles = await api.roles_by_name(edit)
    assert set(roles) == {"Ann", "Bo", "Cy"}
    assert len(set(roles.values())) == 3 and set(roles.values()) < set(new)
    for name, token in tokens.items():
        assert await api.held(slug, token) == {"held": True, "game": 1, "round": 2}
        page = await api.page(f"/p/{token}")
        assert roles[name] in page
        assert not [role for role in SIX if role in page]
    # The rest is the pool: one more can join, then it's full.
    await api.joined(slug, "Di")
    assert sorted((await api.roles_by_name(edit)).values()) == sorted(new)
    assert await api.error(await api.join(slug, "Ed"), 409) == ALL_DEALT


async def test_roles_update_with_fewer_roles_than_players(api: Any, game: dict[str, str]) -> None:
    slug, edit = game["slug"], game["editToken"]
    await join_all(api, slug, "Ann", "Bo", "Cy")
    before = await api.roles_by_name(edit)
    response = await api.organise(edit, "roles", {"roles": ["Fox", "Hen"]})
    assert await api.error(response, 400) == (
        "3 people have already joined — give at least 3 roles, or reset someone first.")
    # The create limits come first.
    response = await api.organise(edit, "roles", {"roles": ["Fox"]})
    assert await api.error(response, 400) == FEW
    assert await api.roles_by_name(edit) == before
    assert (await api.export(edit))["round"] == 1
    # Exactly as many roles as players is fine.
    await api.done(edit, "roles", {"roles": ["Fox", "Hen", "Owl"]})
    assert sorted((await api.roles_by_name(edit)).values()) == ["Fox", "Hen", "Owl"]


# --- redeal -------------------------------------------------------------------------------

async def test_redeal_keeps_players_and_tokens(api: Any, game: dict[str, str]) -> None:
    slug, edit = game["slug"], game["editToken"]
    tokens = await join_all(api, slug, *(f"P{n}" for n in range(6)))
    await api.page(f"/p/{tokens['P0']}")
    assert (await api.export(edit))["players"][0]["looked"] is not None
    assert await api.done(edit, "redeal") == {"ok": True, "dealt": 6, "round": 2}
    export = await api.export(edit)
    assert sorted(player["role"] for player in export["players"]) == sorted(SIX)
    assert all(player["looked"] is None for player in export["players"])
    for token in tokens.values():
        assert (await api.held(slug, token))["held"] is True


async def test_redeal_shuffles(api: Any) -> None:
    """Over 30 re-deals of two roles between two players, both assignments turn up."""
    made = await api.create({"roles": ["Apple", "Banana"]})
    await join_all(api, made["slug"], "Ann", "Bo")
    seen = Counter()
    for _ in range(30):
        await api.done(made["editToken"], "redeal")
        seen[(await api.roles_by_name(made["editToken"]))["Ann"]] += 1
    assert set(seen) == {"Apple", "Banana"}


async def test_redeal_deals_from_the_whole_pool(api: Any) -> None:
    """A role nobody drew can come into play: one player, four roles, 40 re-deals."""
    made = await api.create({"roles": ["North", "East", "South", "West"]})
    await api.joined(made["slug"], "Ann")
    seen = set()
    for _ in range(40):
        await api.done(made["editToken"], "redeal")
        seen.add((await api.roles_by_name(made["editToken"]))["Ann"])
    assert seen == {"North", "East", "South", "West"}


async def test_redeal_with_nobody_joined(api: Any, game: dict[str, str]) -> None:
    assert await api.done(game["editToken"], "redeal") == {"ok": True, "dealt": 0, "round": 2}


# --- restart ------------------------------------------------------------------------------

async def test_restart_clears_players_and_rotates_every_token(api: Any,
                                                              game: dict[str, str]) -> None:
    slug, edit = game["slug"], game["editToken"]
    tokens = await join_all(api, slug, "Ann", "Bo", "Cy")
    await api.done(edit, "redeal")
    assert await api.done(edit, "restart") == {"ok": True, "game": 2}
    export = await api.export(edit)
    assert (export["players"], export["dealt"], export["game"], export["round"]) == ([], 0, 2, 1)
    for token in tokens.values():
        assert await api.held(slug, token) == {"held": False, "game": 2, "round": 1}
        await api.page(f"/p/{token}", 404)
    again = await join_all(api, slug, "Ann", "Bo", "Cy")
    assert not set(again.values()) & set(tokens.values())
    assert export["roles"] == SIX


# --- setup, export, delete ----------------------------------------------------------------

async def test_setup_groups_roles_by_name(api: Any, game: dict[str, str]) -> None:
    await api.joined(game["slug"], "Ann")
    before = await api.roles_by_name(game["editToken"])
    assert await api.done(game["editToken"], "setup") == {
        "title": "Games night", "note": "Eyes shut when told.",
        "roles": [{"name": "Zebra-Spy", "count": 2}, {"name": "Owl-Seer", "count": 1},
                  {"name": "Lamb-Villager", "count": 3}],
        "briefs": {"Zebra-Spy": "Brief-Zed first line\nsecond line", "Owl-Seer": "Brief-Owl"}}
    export = await api.export(game["editToken"])
    assert (export["round"], export["dealt"]) == (1, 1)
    assert await api.roles_by_name(game["editToken"]) == before


async def test_export_lists_players_with_roles_and_looks(api: Any, game: dict[str, str]) -> None:
    tokens = await join_all(api, game["slug"], "Ann", "Bo")
    await api.page(f"/p/{tokens['Bo']}")
    export = await api.export(game["editToken"])
    ann, bo = export["players"]
    assert (ann["name"], bo["name"]) == ("Ann", "Bo")
    assert ann["role"] in SIX and bo["role"] in SIX
    assert ann["joined"].endswith("+00:00") and ann["looked"] is None
    assert bo["looked"].endswith("+00:00")


async def test_opening_the_role_page_counts_as_looking_once(api: Any,
                                                            game: dict[str, str]) -> None:
    token = await api.joined(game["slug"], "Ann")

    def version() -> int:
        return int(Instance.get(Instance.slug == game["slug"]).version)

    before = version()
    await api.page(f"/p/{token}")
    assert version() == before + 1  # open pages hear of it: the organiser's list updates
    await api.page(f"/p/{token}")
    assert version() == before + 1
    looked = (await api.export(game["editToken"]))["players"][0]["looked"]
    assert looked is not None
    await api.page(f"/p/{token}")
    assert (await api.export(game["editToken"]))["players"][0]["looked"] == looked


async def test_held_and_setup_only_read(api: Any, game: dict[str, str]) -> None:
    """Pages poll `held` and the organiser's editor reads `setup`: neither is a change, so
    neither wakes open pages."""
    token = await api.joined(game["slug"], "Ann")

    def version() -> int:
        return int(Instance.get(Instance.slug == game["slug"]).version)

    before = version()
    assert (await api.held(game["slug"], token))["held"] is True
    await api.held(game["slug"], "not-a-token")
    await api.done(game["editToken"], "setup")
    assert version() == before
    await api.done(game["editToken"], "redeal")
    assert version() == before + 1


async def test_delete_removes_everything(api: Any, game: dict[str, str]) -> None:
    slug, edit = game["slug"], game["editToken"]
    token = await api.joined(slug, "Ann")
    assert await api.done(edit, "delete") == {"ok": True, "deleted": True}
    for path, body in (("/api/roles/claim", {"slug": slug, "name": "Bo"}),
                       ("/api/roles/held", {"slug": slug, "token": token}),
                       (f"/api/roles/{edit}/redeal", {}), (f"/api/roles/{edit}/setup", {}),
                       (f"/api/roles/{edit}/export", {})):
        response = await api.client.post(path, json=body)
        assert response.status_code == 404, path
        assert await response.get_json() == NOT_FOUND
    assert (await api.client.get(f"/api/roles/{slug}")).status_code == 404
    for path in (f"/s/{slug}", f"/e/{edit}", f"/p/{token}"):
        await api.page(path, 404)
