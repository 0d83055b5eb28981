"""Create, public and organiser pages: the tree, the result buttons, escaping, delete."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from typing import Any

from groupkit_testing import create

NASTY = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


class Page(HTMLParser):
    """Start tags with their attributes, and the text, as a browser's parser sees them."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def with_attr(self, name: str, value: str | None = None) -> list[dict[str, str | None]]:
        return [attrs for _, attrs in self.tags
                if name in attrs and (value is None or attrs[name] == value)]


async def page(client: Any, path: str, status: int = 200) -> str:
    response = await client.get(path)
    assert response.status_code == status, path
    assert response.content_type.startswith("text/html")
    return (await response.get_data()).decode()


def assert_strict_csp_friendly(text: str) -> None:
    for tag, attrs in Page(text).tags:
        assert tag != "style"
        if tag == "script":
            assert attrs.get("src"), attrs
        assert "style" not in attrs, (tag, attrs)
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)


def result_buttons(text: str) -> list[dict[str, Any]]:
    """Every result button's body, with its label."""
    found = []
    for match in re.finditer(r"<button[^>]*data-post=\"[^\"]*/result\"[^>]*>([^<]*)</button>",
                             text):
        body = re.search(r"data-body='([^']*)'", match.group(0))
        assert body is not None
        found.append({"label": html.unescape(match.group(1)),
                      "body": json.loads(html.unescape(body.group(1))),
                      "pressed": 'aria-pressed="true"' in match.group(0)})
    return found


async def test_create_page(client: Any) -> None:
    text = await page(client, "/new/bracket")
    assert 'data-api="/api/bracket"' in text
    assert re.search(r'<textarea id="entrants" name="entrants:lines" data-lines', text)
    assert 'name="seeding" value="listed"' in text
    assert 'name="seeding" value="random" checked' in text
    assert 'name="title"' in text
    assert '<link rel="stylesheet" href="/static/bracket/bracket.css">' in text
    assert_strict_csp_friendly(text)


async def test_stylesheet_is_served(client: Any) -> None:
    response = await client.get("/static/bracket/bracket.css")
    assert response.status_code == 200
    assert ".bracket-pair" in (await response.get_data()).decode()


async def test_public_page_draws_the_tree(client: Any, five: dict[str, str]) -> None:
    response = await client.get(f"/s/{five['slug']}")
    assert response.status_code == 200
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "noindex" in response.headers["X-Robots-Tag"]
    text = (await response.get_data()).decode()
    assert "<h1>Table tennis</h1>" in text
    assert "5 in the draw, 3 byes in the first round" in text
    parsed = Page(text)
    assert len(parsed.with_attr("class", "bracket-round")) == 3
    assert len(parsed.with_attr("class", "bracket-round bracket-top")) == 1
    headings = re.findall(r'<h2 id="round-[^"]+">([^<]+)</h2>', text)
    assert headings == ["Quarter-finals", "Semi-finals", "Final", "Champion"]
    # Four first-round matches in two pairs, two semis in one pair, the final alone.
    assert len(parsed.with_attr("class", "bracket-pair")) == 3
    groups = [attrs["aria-label"] for attrs in parsed.with_attr("role", "group")]
    assert groups == ["Match 1: Ann v bye", "Match 2: Di v Ed", "Match 3: Bo v bye",
                      "Match 4: Cy v bye", "Match 1: Ann v to be decided", "Match 2: Bo v Cy",
                      "Match 1: to be decided v to be decided"]
    assert 'aria-label="seed 4"' in text
    assert 'id="bracket-board" data-live-region' in text
    assert "Champion:" not in text
    assert result_buttons(text) == []
    assert_strict_csp_friendly(text)


async def test_champion_shown_when_decided(client: Any) -> None:
    made = await create(client, "bracket", {"title": "Final only", "seeding": "listed",
                                            "entrants": ["Ann", "Bo"]})
    await client.post(f"/api/bracket/{made['editToken']}/result", json={
        "round": 0, "match": 0, "winner": "Bo", "version": 0})
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        text = await page(client, path)
        assert re.search(r'class="bracket-crowned">.*Champion: <strong>Bo</strong>', text)
        assert '<div class="bracket-champion">Bo</div>' in text
        assert re.search(r'class="bracket-side is-winner">\s*<span class="bracket-seed"'
                         r'[^>]*>2</span>\s*<span class="bracket-name">Bo</span>', text)
        assert re.search(r'class="bracket-side is-loser">\s*<span class="bracket-seed"'
                         r'[^>]*>1</span>\s*<span class="bracket-name">Ann</span>', text)


async def test_organiser_page_offers_each_ready_match(client: Any, five: dict[str, str]
                                                      ) -> None:
    edit = five["editToken"]
    response = await client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert f"/s/{five['slug']}" in text
    buttons = result_buttons(text)
    # Ready now: Di v Ed (first round) and Bo v Cy (semi, both through on byes).
    assert [(b["label"], b["body"]) for b in buttons] == [
        ("Di", {"round": 0, "match": 1, "winner": "Di", "version": 0}),
        ("Ed", {"round": 0, "match": 1, "winner": "Ed", "version": 0}),
        ("Bo", {"round": 1, "match": 1, "winner": "Bo", "version": 0}),
        ("Cy", {"round": 1, "match": 1, "winner": "Cy", "version": 0})]
    assert not any(b["pressed"] for b in buttons)
    assert f'data-post="/api/bracket/{edit}/result"' in text
    assert 'id="bracket-results" class="bracket-results" aria-labelledby="results-heading" ' \
           'data-live-region' in text
    assert f'data-post="/api/bracket/{edit}/delete"' in text
    assert_strict_csp_friendly(text)

    # What a button posts really records the result; the page then offers the next game,
    # the chosen winner pressed, a Clear button, and bodies with the new version.
    response = await client.post(f"/api/bracket/{edit}/result", json=buttons[1]["body"])
    assert response.status_code == 200
    text = await page(client, f"/e/{edit}")
    after = result_buttons(text)
    assert [(b["label"], b["pressed"]) for b in after] == [
        ("Di", False), ("Ed", True), ("Clear", False), ("Ann", False), ("Ed", False),
        ("Bo", False), ("Cy", False)]
    assert {b["body"]["version"] for b in after} == {1}
    clear = after[2]["body"]
    assert clear == {"round": 0, "match": 1, "winner": None, "version": 1}
    assert "Clear this result? Later games that depended on it are cleared too." in text
    assert "Change the winner to Di?" in text
    response = await client.post(f"/api/bracket/{edit}/result", json=clear)
    assert (await response.get_json())["winner"] is None


async def test_default_heading(client: Any) -> None:
    made = await create(client, "bracket", {"entrants": ["Ann", "Bo"]})
    assert "<h1>Tournament bracket</h1>" in await page(client, f"/s/{made['slug']}")
    assert "<h1>Tournament bracket</h1>" in await page(client, f"/e/{made['editToken']}")


async def test_user_text_is_escaped_everywhere(client: Any) -> None:
    names = [NASTY, "O'Brien \"Bob\"", "<img src=x onerror=alert(2)>", "Ann"]
    made = await create(client, "bracket", {"title": NASTY, "seeding": "listed",
                                            "entrants": names})
    await client.post(f"/api/bracket/{made['editToken']}/result", json={
        "round": 0, "match": 0, "winner": NASTY, "version": 0})
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        text = await page(client, path)
        assert NASTY not in text
        assert ESCAPED in text
        assert "<img src=x" not in text
        assert "O&#39;Brien &#34;Bob&#34;" in text
        assert_strict_csp_friendly(text)
    # The organiser's buttons carry the names as JSON that still parses to the exact name.
    labels = {b["body"]["winner"] for b in result_buttons(
        await page(client, f"/e/{made['editToken']}"))}
    assert set(names) <= labels


async def test_delete_makes_everything_404(client: Any, five: dict[str, str]) -> None:
    slug, edit = five["slug"], five["editToken"]
    response = await client.post(f"/api/bracket/{edit}/delete")
    assert await response.get_json() == {"ok": True, "deleted": True}
    for path in (f"/api/bracket/{slug}",):
        assert await (await client.get(path)).get_json() == NOT_FOUND
    for path, body in ((f"/api/bracket/{edit}/result",
                        {"round": 0, "match": 1, "winner": "Di", "version": 0}),
                       (f"/api/bracket/{edit}/export", {}), (f"/api/bracket/{edit}/delete", {})):
        response = await client.post(path, json=body)
        assert response.status_code == 404
        assert await response.get_json() == NOT_FOUND
    await page(client, f"/s/{slug}", 404)
    await page(client, f"/e/{edit}", 404)
