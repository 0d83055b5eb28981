"""The organiser's edit: the title, and a misspelt name fixed in place, every match and
recorded result following it; the draw's size never changes under results, and once the
final is decided the names are the result and stay."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from lxml import html as lxml_html

from groupkit_testing import create
from groupkit_testing import edit

BODY = {"title": "Table tennis", "entrants": ["Ann", "Bo", "Cy", "Di"], "seeding": "listed"}
FINISHED = "The final's been decided — the names can't change now."


@pytest.fixture
def client(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["bracket"]).test_client()


async def read(client: Any, slug: str) -> dict[str, Any]:
    return dict(await (await client.get(f"/api/bracket/{slug}")).get_json())


def names(view: dict[str, Any]) -> list[list[Any]]:
    return [[[side["name"] for side in match["sides"]] + [match.get("winner")]
             for match in round_["matches"]] for round_ in view["rounds"]]


async def test_a_rename_follows_into_matches_and_results(client: Any) -> None:
    made = await create(client, "bracket", {**BODY, "entrants": ["Ann", "Bo", "Cy", "Dii"]})
    view = await read(client, made["slug"])
    match = next(m for m in view["rounds"][0]["matches"]
                 if "Dii" in [side["name"] for side in m["sides"]])
    recorded = await client.post(f"/api/bracket/{made['editToken']}/result", json={
        "round": 0, "match": view["rounds"][0]["matches"].index(match), "winner": "Dii",
        "version": view["version"]})
    assert recorded.status_code == 200, await recorded.get_json()
    before = await read(client, made["slug"])
    status, _ = await edit(client, "bracket", made["editToken"],
                           {"entrants": ["Ann", "Bo", "Cy", "Di"]})
    assert status == 200
    after = await read(client, made["slug"])
    assert str(names(after)) == str(names(before)).replace("Dii", "Di")
    assert after["version"] == before["version"] + 1
    assert "Dii" not in str(after)


async def test_the_title_alone(client: Any) -> None:
    made = await create(client, "bracket", BODY)
    assert await edit(client, "bracket", made["editToken"], {"title": "Ping pong"}) == (
        200, {"ok": True, "changed": ["title"]})
    assert (await read(client, made["slug"]))["title"] == "Ping pong"


async def test_the_field_keeps_its_size(client: Any) -> None:
    made = await create(client, "bracket", BODY)
    assert await edit(client, "bracket", made["editToken"],
                      {"entrants": ["Ann", "Bo", "Cy", "Di", "Ed"]}) == (409, {
        "error": "The draw is made for 4 — rename anyone you like, but to add or drop a "
                 "name, start a new bracket.", "field": "entrants"})


@pytest.mark.parametrize("entrants", [["Ann"], ["Ann", "Ann", "Cy", "Di"], ["Ann", " "]])
async def test_the_create_rules_apply(client: Any, entrants: list[str]) -> None:
    """The same message create gives for the same names, with the field named."""
    made = await create(client, "bracket", BODY)
    status, body = await edit(client, "bracket", made["editToken"], {"entrants": entrants})
    assert (status, body["field"]) == (400, "entrants")
    refused = await client.post("/api/bracket", json={"entrants": entrants})
    assert body["error"] == (await refused.get_json())["error"]


async def test_the_form_lists_the_names_in_draw_order(client: Any) -> None:
    made = await create(client, "bracket", BODY)
    html = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert 'id="edit-entrants" name="entrants:lines" data-lines required>Ann\nBo\nCy\nDi' in html
    assert 'name="seeding"' not in html.split('class="edit-details"')[1]


async def finished(client: Any) -> dict[str, str]:
    """Ann beat Bo in the final of a two-name bracket."""
    made = await create(client, "bracket", {**BODY, "entrants": ["Ann", "Bo"]})
    await decide(client, made, "Ann")
    return made


async def decide(client: Any, made: dict[str, str], winner: str | None) -> None:
    version = (await read(client, made["slug"]))["version"]
    response = await client.post(f"/api/bracket/{made['editToken']}/result", json={
        "round": 0, "match": 0, "winner": winner, "version": version})
    assert response.status_code == 200, await response.get_json()


@pytest.mark.parametrize("entrants", [["Anne", "Bo"], ["Bo", "Ann"], ["ann", "Bo"],
                                      ["Ann", "Bo", "Cy"]])
async def test_a_finished_brackets_names_stay(client: Any, entrants: list[str]) -> None:
    """A rename would rename the champion; a swap would crown the loser."""
    made = await finished(client)
    before = await read(client, made["slug"])
    assert await edit(client, "bracket", made["editToken"], {
        "title": "Final", "entrants": entrants}) == (
        409, {"error": FINISHED, "field": "entrants"})
    assert await read(client, made["slug"]) == before


async def test_a_finished_brackets_title_still_changes(client: Any) -> None:
    made = await finished(client)
    before = await read(client, made["slug"])
    # The names as they are (a form posting every field sends them) change nothing.
    assert await edit(client, "bracket", made["editToken"], {
        "title": "Office final", "entrants": ["Ann", "Bo"]}) == (
        200, {"ok": True, "changed": ["entrants", "title"]})
    after = await read(client, made["slug"])
    assert after == {**before, "title": "Office final", "heading": "Office final"}
    # With the final's result cleared the bracket is open again, and so are its names.
    await decide(client, made, None)
    assert (await edit(client, "bracket", made["editToken"], {"entrants": ["Anne", "Bo"]}))[0] \
        == 200
    assert (await read(client, made["slug"]))["entrants"] == ["Anne", "Bo"]


async def test_a_finished_brackets_form_leaves_the_names_out(client: Any) -> None:
    made = await finished(client)
    token = made["editToken"]
    html = await (await client.get(f"/e/{token}")).get_data(as_text=True)
    assert 'id="edit-entrants"' not in html
    assert "The final's been decided, so the names stay as they are." in html
    form = lxml_html.fromstring(html).xpath(f'//form[@action="/api/bracket/{token}/edit"]')[0]
    assert [name for name, _ in form.form_values() if not name.startswith("groupkit-")] == [
        "title"]
    # Without the script the form posts what it shows, and it saves.
    posted = await client.post(
        f"/api/bracket/{token}/edit", data=urlencode([("title", "Office final")]),
        headers={"Content-Type": "application/x-www-form-urlencoded",
                 "Sec-Fetch-Site": "same-origin"})
    assert posted.status_code == 303
    assert (await read(client, made["slug"]))["title"] == "Office final"
