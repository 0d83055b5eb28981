"""Personal links: the organiser names the players, each is dealt a role at create and gets
their own link; nobody joins from the share page. Without the option nothing changes."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

Api = Any  # the roles tests' `api` fixture: short calls through the test client
ROLES = ["Spy", "Spy", "Seer", "Villager", "Villager", "Villager"]
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
BY_LINK = ("Everyone here has their own personal link, so names can't be claimed on this "
           "page: ask the organiser for your link.")


async def linked(api: Api) -> tuple[dict[str, str], dict[str, str]]:
    made = await api.create({"roles": ROLES, "personalLinks": True, "names": PLAYERS})
    links = {entry["name"]: entry["link"] for entry in (await api.export(made["editToken"]))
             ["links"]}
    return made, links


async def test_each_named_player_is_dealt_a_role_and_gets_a_link(api: Api) -> None:
    made, links = await linked(api)
    assert list(links) == PLAYERS and len(set(links.values())) == len(PLAYERS)
    roles = await api.roles_by_name(made["editToken"])
    assert list(roles) == PLAYERS
    assert not Counter(role for role in roles.values() if role) - Counter(ROLES)
    assert await api.public(made["slug"]) == {
        "title": "", "heading": "Secret roles", "note": "", "total": 6, "dealt": 4, "left": 2,
        "game": 1, "personalLinks": True}
    for name in ("Ann", "Eve"):  # the same answer, named or not
        assert await api.error(await api.join(made["slug"], name), 409) == BY_LINK
    share = await api.page(f"/s/{made['slug']}")
    assert 'action="/api/roles/claim"' not in share
    assert not any(link in share for link in links.values())
    organiser = await api.page(f"/e/{made['editToken']}")
    assert all(link in organiser for link in links.values()) and "Copy all" in organiser


async def test_the_link_opens_the_role_page(api: Api) -> None:
    made, links = await linked(api)
    page = await api.page(links["Cy"])
    assert (await api.roles_by_name(made["editToken"]))["Cy"] in page
    looked = {player["name"]: player["looked"]
              for player in (await api.export(made["editToken"]))["players"]}
    assert looked["Cy"] is not None and looked["Ann"] is None


async def test_a_reset_keeps_the_role_and_issues_a_fresh_link(api: Api) -> None:
    made, links = await linked(api)
    edit = made["editToken"]
    before = await api.roles_by_name(edit)
    await api.page(links["Bo"])
    await api.done(edit, "reset", {"name": "Bo"})
    after = {entry["name"]: entry["link"] for entry in (await api.export(edit))["links"]}
    assert after["Bo"] != links["Bo"] and after["Ann"] == links["Ann"]
    assert await api.roles_by_name(edit) == before
    await api.page(links["Bo"], 404)
    assert before["Bo"] in await api.page(after["Bo"])


async def test_a_restart_deals_the_same_players_fresh_links(api: Api) -> None:
    made, links = await linked(api)
    assert (await api.done(made["editToken"], "restart"))["game"] == 2
    after = {entry["name"]: entry["link"] for entry in (await api.export(made["editToken"]))
             ["links"]}
    assert list(after) == PLAYERS and not set(after.values()) & set(links.values())
    assert all(role for role in (await api.roles_by_name(made["editToken"])).values())


@pytest.mark.parametrize(("names", "error"), [
    ([], "Add the players' names, one per line, so each gets their own link."),
    (["Ann", " ", "ann"], '"ann" is on the list twice — add a surname initial.'),
    ([f"P{index}" for index in range(7)],
     "That's 7 players for 6 roles — give at least one role per player."),
])
async def test_the_players_must_fit_the_roles(client: Any, names: list[str], error: str) -> None:
    response = await client.post("/api/roles", json={"roles": ROLES, "personalLinks": True,
                                                     "names": names})
    assert response.status_code == 400
    assert await response.get_json() == {"error": error}


async def test_without_the_option_names_are_ignored(api: Api, client: Any) -> None:
    made = await api.create({"roles": ROLES, "names": ["Ann", "ann"]})
    assert "personalLinks" not in await api.public(made["slug"])
    exported = await api.export(made["editToken"])
    assert exported["players"] == [] and "links" not in exported
    assert await api.joined(made["slug"], "Ann")
    invite = await client.post(f"/api/roles/{made['editToken']}/invite",
                               json={"emails": {"Ann": "ann@example.org"}})
    assert invite.status_code == 409
