"""Pages, the browser-side shuffle's form, escaping, the absence of any re-shuffle, delete."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

import pytest

from groupkit_teams.schema import shuffled
from groupkit_testing import create

NASTY = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


class Tags(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def no_inline_code(text: str) -> bool:
    return all(tag != "style" and (tag != "script" or attrs.get("src"))
               and "style" not in attrs and not any(name.startswith("on") for name in attrs)
               for tag, attrs in Tags(text).tags)


async def page(client: Any, path: str, status: int = 200) -> str:
    response = await client.get(path)
    assert response.status_code == status, path
    return (await response.get_data()).decode()


async def test_create_page_shuffles_in_the_browser(client: Any) -> None:
    text = await page(client, "/new/teams")
    assert 'data-api="/api/teams"' in text
    assert '<script src="/static/teams/teams.js" defer></script>' in text
    assert "data-teams-shuffle" in text and "data-teams-names" in text
    assert "data-teams-count" in text
    # The form posts {title, teams: [{title, members}]}: a row list the kernel serialises.
    assert 'data-list="teams"' in text and '<template data-row-template="teams">' in text
    assert re.search(r'<textarea name="teams\.\d*\.members:lines" data-key="members" data-lines',
                     text)
    assert 'data-key="title"' in text and 'name="title"' in text
    # The names box and team count are not posted with the teams: they belong to the
    # shuffle's own form, which asks this page to deal them out without script. The box is
    # named for the field its refusal speaks of, so a plain post's message outlines it.
    assert re.search(r'<textarea[^>]*data-teams-names[^>]*\sname="teams" form="teams-shuffle"',
                     text)
    assert re.search(r'<input[^>]*data-teams-count name="count" form="teams-shuffle"', text)
    assert '<form id="teams-shuffle" method="get" action="/new/teams"></form>' in text
    assert re.search(r'<button form="teams-shuffle" data-teams-shuffle>', text)
    assert no_inline_code(text)


def shown_rows(text: str) -> list[list[str]]:
    rows = re.findall(r'<textarea name="teams\.\d+\.members:lines"[^>]*>([^<]*)</textarea>', text)
    return [[line for line in row.split("\n") if line] for row in rows]


async def test_create_page_shuffles_on_the_server_without_script(client: Any) -> None:
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]
    query = urlencode({"teams": "\n".join(names) + "\n\n  \n", "count": "3"})
    groupings: set[frozenset[frozenset[str]]] = set()
    for _ in range(6):
        text = await page(client, f"/new/teams?{query}")
        rows = shown_rows(text)
        assert sorted(name for row in rows for name in row) == sorted(names)
        assert sorted(len(row) for row in rows) == [2, 2, 3]
        groupings.add(frozenset(frozenset(row) for row in rows))
    assert len(groupings) > 1  # shuffled afresh each time (same six times: negligible)
    assert "Shuffled 7 names into 3 teams. Shuffle again, or save these teams." in text
    # What was typed stays in the names box, the count in its field.
    assert "Ann\nBo\nCy" in text and 'value="3"' in text


@pytest.mark.parametrize(("names", "count", "sizes", "status"), [
    ("Ann", "3", [1, 0, 0], "Add at least two names to shuffle."),
    ("Ann\nBo\nCy", "99", [1, 1, 1] + [0] * 37, "Shuffled 3 names into 40 teams."),
    ("Ann\nBo\nCy", "three", [2, 1], "Shuffled 3 names into 2 teams."),
    ("Ann\nBo\nCy", "1", [2, 1], "Shuffled 3 names into 2 teams."),
])
async def test_the_shuffle_without_script_keeps_to_the_limits(
        client: Any, names: str, count: str, sizes: list[int], status: str) -> None:
    text = await page(client, f"/new/teams?{urlencode({'teams': names, 'count': count})}")
    assert sorted((len(row) for row in shown_rows(text)), reverse=True) == sizes
    assert status in text


def test_shuffled_deals_every_name_once_from_a_random_team() -> None:
    starts = set()
    for _ in range(40):
        teams = shuffled("A\nB\nC\nD\nE", "2")
        assert [team["title"] for team in teams] == ["", ""]
        assert sorted(m for team in teams for m in team["members"]) == list("ABCDE")
        starts.add(len(teams[0]["members"]))
    assert starts == {2, 3}  # the extra person is not always the first team's


async def test_script_and_stylesheet_are_served(client: Any) -> None:
    script = await client.get("/static/teams/teams.js")
    assert script.status_code == 200
    source = (await script.get_data()).decode()
    assert "crypto.getRandomValues" in source and "data-teams-shuffle" in source
    assert (await client.get("/static/teams/teams.css")).status_code == 200


async def test_public_page_shows_every_team(client: Any, grouping: dict[str, str]) -> None:
    response = await client.get(f"/s/{grouping['slug']}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    text = (await response.get_data()).decode()
    assert "<h1>Trivia night</h1>" in text
    assert "5 people in 2 teams" in text
    cards = re.findall(r'<li class="card teams-card"[^>]*>\s*<h2 id="team-(\d)">([^<]+)<span',
                       text)
    assert [(n, title.strip()) for n, title in cards] == [("1", "Quizzly Bears"),
                                                         ("2", "Team 2")]
    members = re.findall(r"<li>([^<]+)</li>", text)
    assert members == ["Ann", "Cy", "Ed", "Bo", "Di"]
    assert 'content="Trivia night"' in text
    assert no_inline_code(text)


async def test_organiser_page(client: Any, grouping: dict[str, str]) -> None:
    edit = grouping["editToken"]
    response = await client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert f"/s/{grouping['slug']}" in text
    # Change details shuffles again: the page does not say the teams are final.
    assert "no re-shuffle" not in text and "Need to shuffle again" in text
    assert "data-teams-shuffle" in text
    assert f'data-post="/api/teams/{edit}/delete"' in text
    assert f'data-download="/api/teams/{edit}/export"' in text
    for name in ("Quizzly Bears", "Team 2", "Ann", "Di"):
        assert name in text
    assert no_inline_code(text)


async def test_empty_team_is_shown_as_empty(client: Any) -> None:
    made = await create(client, "teams", {"teams": [
        {"members": ["Ann", "Bo"]}, {"members": []}]})
    text = await page(client, f"/s/{made['slug']}")
    assert "<h1>The teams</h1>" in text
    assert "Nobody in this one." in text


async def test_user_text_is_escaped(client: Any) -> None:
    made = await create(client, "teams", {"title": NASTY, "teams": [
        {"title": NASTY, "members": [NASTY, "O'Brien \"Bob\""]},
        {"title": "<b>x", "members": ["<img src=x onerror=alert(2)>"]}]})
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        text = await page(client, path)
        assert NASTY not in text and ESCAPED in text
        assert "<img src=x" not in text and "<b>x" not in text
        assert "O&#39;Brien &#34;Bob&#34;" in text
        assert no_inline_code(text)


@pytest.mark.parametrize("operation", ["shuffle", "reshuffle", "redraw", "save"])
async def test_there_is_no_server_reshuffle(client: Any, grouping: dict[str, str],
                                             operation: str) -> None:
    response = await client.post(f"/api/teams/{grouping['editToken']}/{operation}", json={})
    assert response.status_code == 404
    view = await (await client.get(f"/api/teams/{grouping['slug']}")).get_json()
    assert view["teams"][0]["members"] == ["Ann", "Cy", "Ed"]


async def test_openapi_lists_only_delete_export_and_edit(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = sorted(path for path in document["paths"] if path.startswith("/api/teams"))
    assert paths == ["/api/teams", "/api/teams/{editToken}/delete",
                     "/api/teams/{editToken}/edit",
                     "/api/teams/{editToken}/export", "/api/teams/{slug}",
                     "/api/teams/{slug}/events"]
    tag = next(tag for tag in document["tags"] if tag["name"] == "teams")
    assert "no re-shuffle" in tag["description"]  # the server never shuffles
    assert "shuffle happens in the client" in tag["description"]


async def test_export_and_delete(client: Any, grouping: dict[str, str]) -> None:
    slug, edit = grouping["slug"], grouping["editToken"]
    export = await (await client.post(f"/api/teams/{edit}/export")).get_json()
    assert export["tool"] == "teams" and export["slug"] == slug
    assert export["data"]["teams"][1] == {"title": "Team 2", "members": ["Bo", "Di"]}
    response = await client.post(f"/api/teams/{edit}/delete")
    assert await response.get_json() == {"ok": True, "deleted": True}
    assert await (await client.get(f"/api/teams/{slug}")).get_json() == NOT_FOUND
    assert await (await client.post(f"/api/teams/{edit}/export")).get_json() == NOT_FOUND
    await page(client, f"/s/{slug}", 404)
    await page(client, f"/e/{edit}", 404)
