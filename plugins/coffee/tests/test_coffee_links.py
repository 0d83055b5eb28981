"""Personal links: the organiser hands each member their own page instead of claims by name;
without the option everything is as before."""

from __future__ import annotations

from typing import Any

from groupkit_testing import create
from groupkit_testing import edit

TEAM: dict[str, Any] = {"title": "Platform coffee", "names": ["Ann Archer", "Bo Bramble", "Cy Cobb",
                                                        "Di Dunlop", "Ed Ekins"]}
BY_LINK = ("Everyone here has their own personal link, so names can't be claimed on this "
           "page: ask the organiser for your link.")


async def organiser(client: Any, made: dict[str, str]) -> dict[str, Any]:
    response = await client.post(f"/api/coffee/{made['editToken']}/export")
    return dict((await response.get_json())["data"])


async def linked_team(client: Any) -> tuple[dict[str, str], dict[str, str]]:
    made = await create(client, "coffee", {**TEAM, "personalLinks": True})
    view = await organiser(client, made)
    return made, {entry["name"]: entry["link"] for entry in view["links"]}


async def test_each_member_gets_a_link_and_names_cannot_be_claimed(client: Any) -> None:
    made, links = await linked_team(client)
    assert list(links) == TEAM["names"] and len(set(links.values())) == len(links)
    assert all(link.startswith("/p/") and len(link) == 25 for link in links.values())
    for name in ("Ann Archer", "Nobody"):  # the same answer, known name or not
        response = await client.post("/api/coffee/claim", json={"slug": made["slug"],
                                                                "name": name})
        assert response.status_code == 409
        assert await response.get_json() == {"error": BY_LINK}
    public = await (await client.get(f"/api/coffee/{made['slug']}")).get_json()
    assert public["personalLinks"] is True and "links" not in public
    page = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert all(link in page for link in links.values()) and "Copy all" in page


async def test_the_private_page_opens_by_its_link_and_counts_as_claimed(client: Any) -> None:
    made, links = await linked_team(client)
    await client.post(f"/api/coffee/{made['editToken']}/draw")
    page = await client.get(links["Ann Archer"])
    assert page.status_code == 200
    assert "This round you're having coffee with" in await page.get_data(as_text=True)
    partners = (await (await client.get(f"/api/coffee{links['Ann Archer']}")).get_json()
                )["partners"]
    assert partners and all(not partner["claimed"] for partner in partners)
    people = (await organiser(client, made))["people"]
    assert [person["claimed"] for person in people] == [True, False, False, False, False]


async def test_a_reset_gives_a_fresh_link_and_the_old_one_says_so(client: Any) -> None:
    made, links = await linked_team(client)
    response = await client.post(f"/api/coffee/{made['editToken']}/reset",
                                 json={"name": "Bo Bramble"})
    assert await response.get_json() == {"ok": True, "reset": True}
    fresh = {entry["name"]: entry["link"] for entry in (await organiser(client, made))["links"]}
    assert fresh["Bo Bramble"] != links["Bo Bramble"]
    assert {name: link for name, link in fresh.items() if name != "Bo Bramble"} == {
        name: link for name, link in links.items() if name != "Bo Bramble"}
    old = await (await client.get(links["Bo Bramble"])).get_data(as_text=True)
    assert "This link was reset" in old and "ask the organiser for your fresh link" in old
    assert (await client.get(fresh["Bo Bramble"])).status_code == 200


async def test_an_edit_gives_a_new_member_a_link_and_a_leaver_loses_theirs(client: Any) -> None:
    made, links = await linked_team(client)
    names = [*TEAM["names"][1:], "Flo Finch"]
    status, _ = await edit(client, "coffee", made["editToken"], {"names": names, "confirm": True})
    assert status == 200
    after = {entry["name"]: entry["link"] for entry in (await organiser(client, made))["links"]}
    assert list(after) == names and after["Bo Bramble"] == links["Bo Bramble"]
    assert (await client.get(links["Ann Archer"])).status_code == 404
    assert (await client.get(after["Flo Finch"])).status_code == 200


async def test_without_the_option_nothing_changes(client: Any, team: dict[str, str]) -> None:
    view = await organiser(client, team)
    assert "links" not in view and "personalLinks" not in view
    public = await (await client.get(f"/api/coffee/{team['slug']}")).get_json()
    assert "personalLinks" not in public
    response = await client.post("/api/coffee/claim", json={"slug": team["slug"],
                                                            "name": "Ann Archer"})
    assert response.status_code == 200
    invite = await client.post(f"/api/coffee/{team['editToken']}/invite",
                               json={"emails": {"Ann Archer": "ann@example.org"}})
    assert invite.status_code == 409
