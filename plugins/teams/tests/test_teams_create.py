"""POST /api/teams: every field rule and message, in the spec's check order, and what is
stored (exactly the grouping sent, cleaned)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit_testing import create

FEW_TEAMS = "Two teams at least — one team is just the group."
MANY_TEAMS = "That's more than 40 teams — split it into two draws."
FEW_MEMBERS = "Add at least two names — one person is just practice."
MANY_MEMBERS = "That's more than 200 names — split it into two draws."
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


def team(*members: Any, title: Any = "") -> dict[str, Any]:
    return {"title": title, "members": list(members)}


async def refused(client: Any, body: Any) -> str:
    response = await client.post("/api/teams", json=body)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert response.content_type == "application/json"
    assert set(payload) == {"error"}
    return str(payload["error"])


async def stored(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    made = await create(client, "teams", body)
    response = await client.get(f"/api/teams/{made['slug']}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def test_create_returns_slug_and_edit_token(client: Any) -> None:
    response = await client.post("/api/teams", json={
        "title": "Footy teams", "teams": [team("Ann"), team("Bo")]})
    assert response.status_code == 201
    made = await response.get_json()
    assert set(made) == {"slug", "editToken"}
    assert re.fullmatch(rf"footy-teams-[{ALPHABET}]{{14}}", made["slug"])
    assert re.fullmatch(rf"[{ALPHABET}]{{26}}", made["editToken"])


async def test_the_grouping_is_stored_as_sent(client: Any) -> None:
    view = await stored(client, {"title": "Trivia", "teams": [
        team("Cy", "Ann", title="Reds"), team("Bo", "Di", "Ed", title="Blues")]})
    assert view == {"title": "Trivia", "heading": "Trivia", "memberCount": 5, "teams": [
        {"title": "Reds", "members": ["Cy", "Ann"]},
        {"title": "Blues", "members": ["Bo", "Di", "Ed"]}]}


# --- teams: count ---------------------------------------------------------------------------

@pytest.mark.parametrize("teams", [None, [], [team("Ann", "Bo")], "Reds", 5, True,
                                   {"title": "Reds", "members": ["Ann", "Bo"]}])
async def test_fewer_than_two_teams(client: Any, teams: Any) -> None:
    assert await refused(client, {"teams": teams}) == FEW_TEAMS


async def test_teams_missing_and_bodies_that_are_not_objects(client: Any) -> None:
    assert await refused(client, {"title": "x"}) == FEW_TEAMS
    for body in (b"{oops", b"", b"[1, 2]", b"null"):
        response = await client.post("/api/teams", data=body,
                                     headers={"Content-Type": "application/json"})
        assert response.status_code == 400
        assert await response.get_json() == {"error": FEW_TEAMS}


async def test_forty_teams_is_fine_forty_one_is_not(client: Any) -> None:
    view = await stored(client, {"teams": [team(f"P{n}") for n in range(40)]})
    assert len(view["teams"]) == 40
    assert await refused(client, {"teams": [team(f"P{n}") for n in range(41)]}) == MANY_TEAMS


async def test_team_count_is_on_entries_as_sent(client: Any) -> None:
    # Empty and non-object entries still count as teams.
    assert await refused(client, {"teams": [team("Ann", "Bo"), *[{}] * 40]}) == MANY_TEAMS
    view = await stored(client, {"teams": [team("Ann", "Bo"), None]})
    assert view["teams"] == [{"title": "Team 1", "members": ["Ann", "Bo"]},
                             {"title": "Team 2", "members": []}]


async def test_team_count_is_checked_before_members(client: Any) -> None:
    assert await refused(client, {"teams": [team()]}) == FEW_TEAMS
    assert await refused(client, {"teams": [team()] * 41}) == MANY_TEAMS
    assert await refused(client, {"teams": [team(*["x"] * 201)]}) == FEW_TEAMS


# --- members across all teams ---------------------------------------------------------------

@pytest.mark.parametrize("teams", [
    [team(), team()], [team("Ann"), team()], [team("Ann", "", "  "), team(" \n ")],
    [{"title": "A", "members": "Ann, Bo"}, {"title": "B", "members": None}],
    [{"title": "A"}, {"title": "B", "members": {"0": "Ann", "1": "Bo"}}]])
async def test_fewer_than_two_members(client: Any, teams: list[Any]) -> None:
    assert await refused(client, {"teams": teams}) == FEW_MEMBERS


async def test_two_members_across_two_teams_is_enough(client: Any) -> None:
    view = await stored(client, {"teams": [team("Ann"), team("Bo")]})
    assert view["memberCount"] == 2


async def test_two_hundred_members_is_fine_two_hundred_and_one_is_not(client: Any) -> None:
    names = [f"P{n}" for n in range(201)]
    view = await stored(client, {"teams": [team(*names[:100]), team(*names[100:200])]})
    assert view["memberCount"] == 200
    body = {"teams": [team(*names[:100]), team(*names[100:])]}
    assert await refused(client, body) == MANY_MEMBERS


async def test_blanks_do_not_count_towards_the_member_limit(client: Any) -> None:
    names = [f"P{n}" for n in range(200)]
    view = await stored(client, {"teams": [team(*names[:100], *[""] * 50),
                                           team(*names[100:], "  ", "\t")]})
    assert view["memberCount"] == 200


async def test_members_are_cleaned_and_converted(client: Any) -> None:
    long_name = "Bartholomew " + "x" * 60
    view = await stored(client, {"teams": [
        team("  Ann \n Lee ", long_name, None, 7, 2.5, True, ["a", "b"], {"k": 1}),
        team("Bo", "Bo", "bo")]})
    assert view["teams"][0]["members"] == ["Ann Lee", long_name[:40], "null", "7", "2.5",
                                           "true", "a,b", "[object Object]"]
    # Duplicates are allowed, within and across teams.
    assert view["teams"][1]["members"] == ["Bo", "Bo", "bo"]


# --- titles ---------------------------------------------------------------------------------

async def test_empty_team_titles_become_team_n_by_position(client: Any) -> None:
    view = await stored(client, {"teams": [
        team("Ann", title="Reds"), team("Bo"), team("Cy", title="   "), {"members": ["Di"]},
        team("Ed", title=None), team("Flo", title=5), "not an object",
        team("Gus", title="  The \n  Blues ")]})
    assert [t["title"] for t in view["teams"]] == [
        "Reds", "Team 2", "Team 3", "Team 4", "Team 5", "Team 6", "Team 7", "The Blues"]


async def test_team_titles_cut_to_40(client: Any) -> None:
    view = await stored(client, {"teams": [team("Ann", title="t" * 100), team("Bo")]})
    assert view["teams"][0]["title"] == "t" * 40


async def test_title_cleaned_and_cut_to_80(client: Any) -> None:
    view = await stored(client, {"title": "  Friday \n futsal  ",
                                 "teams": [team("Ann"), team("Bo")]})
    assert (view["title"], view["heading"]) == ("Friday futsal", "Friday futsal")
    view = await stored(client, {"title": "x" * 500, "teams": [team("Ann"), team("Bo")]})
    assert view["title"] == "x" * 80


@pytest.mark.parametrize("title", [None, "", "  ", 12, ["Reds"]])
async def test_empty_title_gets_the_default_heading(client: Any, title: Any) -> None:
    made = await create(client, "teams", {"title": title, "teams": [team("Ann"), team("Bo")]})
    assert re.fullmatch(rf"teams-[{ALPHABET}]{{14}}", made["slug"])
    view = await (await client.get(f"/api/teams/{made['slug']}")).get_json()
    assert (view["title"], view["heading"]) == ("", "The teams")


async def test_extra_keys_are_dropped(client: Any) -> None:
    view = await stored(client, {"teams": [
        {"title": "Reds", "members": ["Ann"], "colour": "red", "captain": "Ann"},
        team("Bo")], "shuffle": True, "seed": 42})
    assert view["teams"][0] == {"title": "Reds", "members": ["Ann"]}
    assert set(view) == {"title", "heading", "teams", "memberCount"}
