"""The organiser's edit: a new starter or a leaver between rounds means a re-shuffled
grouping saved over the old one, with the create rules and messages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import edit

BODY = {"title": "Trivia", "teams": [{"title": "Red", "members": ["Ann", "Bo"]},
                                     {"title": "", "members": ["Cy", "Di"]}]}


@pytest.fixture
def client(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["teams"]).test_client()


async def read(client: Any, slug: str) -> dict[str, Any]:
    return dict(await (await client.get(f"/api/teams/{slug}")).get_json())


async def test_a_new_starter_and_a_leaver(client: Any) -> None:
    made = await create(client, "teams", BODY)
    regrouped = [{"title": "Red", "members": ["Ann", "Eve"]}, {"members": ["Cy", "Di", "Bo"]}]
    assert await edit(client, "teams", made["editToken"], {"teams": regrouped}) == (
        200, {"ok": True, "changed": ["teams"]})
    view = await read(client, made["slug"])
    assert view["teams"] == [{"title": "Red", "members": ["Ann", "Eve"]},
                             {"title": "Team 2", "members": ["Cy", "Di", "Bo"]}]
    assert (view["title"], view["memberCount"]) == ("Trivia", 5)


async def test_the_title_alone(client: Any) -> None:
    made = await create(client, "teams", BODY)
    assert (await edit(client, "teams", made["editToken"], {"title": "Quiz night"}))[0] == 200
    view = await read(client, made["slug"])
    assert view["heading"] == "Quiz night" and view["memberCount"] == 4


@pytest.mark.parametrize(("teams", "message"), [
    ([{"members": ["Ann", "Bo"]}], "Two teams at least — one team is just the group."),
    ([{"members": ["Ann"]}, {"members": []}],
     "Add at least two names — one person is just practice."),
    ([{"members": ["x"]}] * 41, "That's more than 40 teams — split it into two draws."),
])
async def test_the_create_rules_apply(client: Any, teams: Any, message: str) -> None:
    made = await create(client, "teams", BODY)
    assert await edit(client, "teams", made["editToken"], {"teams": teams, "title": "X"}) == (
        400, {"error": message, "field": "teams"})
    assert (await read(client, made["slug"]))["title"] == "Trivia"


async def test_the_form_is_prefilled_with_everyone(client: Any) -> None:
    made = await create(client, "teams", BODY)
    html = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert "data-teams-names data-field=\"teams\">Ann\nBo\nCy\nDi</textarea>" in html
    assert 'value="Red"' in html and ">Cy\nDi</textarea>" in html
    assert '<script src="/static/teams/teams.js" defer></script>' in html
