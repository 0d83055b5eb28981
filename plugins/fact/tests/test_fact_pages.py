"""Pages: create, share (guessing grid, then answers), organiser and private; escaping;
delete; the OpenAPI paths."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest

NOT_FOUND = {"error": "Nothing here — check the link you were given."}
NASTY = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


class Tags(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def assert_no_inline_code(text: str) -> None:
    for tag, attrs in Tags(text).tags:
        assert tag != "style"
        if tag == "script":
            assert attrs.get("src"), attrs
        assert "style" not in attrs, (tag, attrs)
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)


def between(text: str, start: str, end: str) -> str:
    first = text.index(start)
    return text[first:text.index(end, first)]


async def test_create_page(board: Any) -> None:
    text = await board.page("/new/fact")
    assert 'data-api="/api/fact"' in text
    for field in ("title", "prompt", "note"):
        assert f'name="{field}"' in text
    assert re.search(r'name="names:lines" data-lines', text)
    assert_no_inline_code(text)


@pytest.mark.parametrize(("path", "kind", "needle"), [
    ("/static/fact/fact.js", "javascript", "data-fact-guess"),
    ("/static/fact/fact.css", "text/css", ".fact-grid")])
async def test_static_files_are_served(client: Any, path: str, kind: str, needle: str) -> None:
    response = await client.get(path)
    assert response.status_code == 200 and kind in response.content_type
    assert needle in (await response.get_data()).decode()


async def test_share_page_before_the_reveal(board: Any) -> None:
    await board.write("Bo", "Fact-bravo")
    await board.write("Di", "Fact-delta")
    await board.done("show")
    response = await board.client.get(f"/s/{board.slug}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    text = (await response.get_data()).decode()
    assert "<h1>Offsite</h1>" in text and "Share a fun fact about yourself" in text
    form = between(text.split("<main", 1)[1], "<form", "</form>")  # the page's own form
    assert 'data-api="/api/fact/claim"' in form and 'data-goto="/p/{token}"' in form
    assert 'data-remember-token="groupkit:fact:{slug}"' in form
    assert f'<input type="hidden" name="slug" value="{board.slug}">' in form
    # Bo and Di have claimed their names: only the names still open are offered.
    assert re.findall(r"<option>([^<]*)</option>", form) == ["Ann", "Cy"]
    grid = between(text, 'id="fact-board"', "</ol>")
    assert 'data-live-region' in grid and f'data-fact-board="{board.slug}"' in grid
    assert "2 of 4 facts on the grid. Facts are counted in batches" in grid
    order = [fact["text"] for fact in (await board.public())["facts"]]
    assert re.findall(r'<p class="fact-text">([^<]*)</p>', grid) == order
    assert grid.count("data-fact-guess=") == 2
    assert "The answers" not in text and "data-fact-answer" not in text
    assert_no_inline_code(text)


async def test_share_page_after_the_reveal(board: Any) -> None:
    await board.write("Bo", "Fact-bravo")
    await board.done("reveal")
    text = await board.page(f"/s/{board.slug}")
    answers = between(text, '<table class="fact-answers">', "</table>")
    rows = re.findall(r"<tr( data-fact-answer=\"([0-9a-f]+)\" data-name=\"([^\"]*)\")?>"
                      r"<th scope=\"row\">([^<]*)</th><td>(.*?)</td></tr>", answers)
    assert [(row[3], re.sub(r"<[^>]+>", "", row[4])) for row in rows] == [
        ("Ann", "No fact sent"), ("Bo", "Fact-bravo"), ("Cy", "No fact sent"),
        ("Di", "No fact sent")]
    fact_id = (await board.public())["facts"][0]["id"]
    assert [(row[1], row[2]) for row in rows if row[1]] == [(fact_id, "Bo")]
    assert "data-fact-score" in text
    assert_no_inline_code(text)


async def test_organiser_page(board: Any) -> None:
    await board.write("Ann", "Fact-alpha")
    await board.token("Cy")
    response = await board.client.get(f"/e/{board.edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    people = between(text, 'id="fact-people"', "</ul>")
    assert re.findall(r"<strong>([^<]*)</strong>\s*<span class=\"muted\">([^<]*)</span>",
                      people) == [("Ann", "claimed"), ("Bo", "not claimed yet"),
                                  ("Cy", "claimed"), ("Di", "not claimed yet")]
    # Before the reveal the list never says who has sent a fact, let alone which.
    assert "Fact-alpha" not in text and "fact in" not in people
    buttons = re.findall(r"<button[^>]*>Reset</button>", people)
    assert [json.loads(html.unescape(re.search(r"data-body='([^']*)'", b)[1]))
            for b in buttons] == [{"name": "Ann"}, {"name": "Cy"}]
    assert all(f'data-post="/api/fact/{board.edit}/reset"' in b for b in buttons)
    reveal = between(text, 'id="fact-reveal"', "</div>")
    assert f'data-post="/api/fact/{board.edit}/reveal"' in reveal
    assert json.loads(html.unescape(re.search(r"data-body='([^']*)'", reveal)[1])) == {
        "reveal": True}
    assert "0 of 4 facts on the grid." in reveal  # one waits for two more
    assert f'data-post="/api/fact/{board.edit}/show"' in reveal
    assert "data-fact-answer" not in text
    assert f'data-post="/api/fact/{board.edit}/delete"' in text
    assert_no_inline_code(text)
    await board.done("reveal")
    text = await board.page(f"/e/{board.edit}")
    reveal = between(text, 'id="fact-reveal"', "</div>")
    assert json.loads(html.unescape(re.search(r"data-body='([^']*)'", reveal)[1])) == {
        "reveal": False}
    assert "data-fact-answer" in text


async def test_private_page(board: Any) -> None:
    token = await board.write("Ann", "Fact-alpha")
    await board.write("Bo", "Fact-bravo")
    response = await board.client.get(f"/p/{token}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert "Hi Ann." in text and "Share a fun fact about yourself</label>" in text
    assert f'data-api="/api/fact/p/{token}/save"' in text
    assert '<textarea id="text" name="text" maxlength="280">Fact-alpha</textarea>' in text
    assert "Fact-bravo" not in text and "Bo" not in text
    assert "The answers are out" not in text
    assert_no_inline_code(text)
    fresh = await board.token("Cy")
    text = await board.page(f"/p/{fresh}")
    assert '<textarea id="text" name="text" maxlength="280"></textarea>' in text
    assert "Save my fact" in text
    await board.done("reveal")
    assert "The answers are out" in await board.page(f"/p/{token}")


async def test_user_text_is_escaped_everywhere(new_board: Callable[..., Any]) -> None:
    board = await new_board({"title": NASTY, "prompt": NASTY, "note": NASTY,
                             "names": [NASTY, "O'Brien \"Bob\"", "<img src=x onerror=alert(2)>"]})
    token = await board.write(NASTY, "</p><script>alert(3)</script>")
    await board.done("show")
    await board.token("<img src=x onerror=alert(2)>")
    await board.done("reset", {"name": "<img src=x onerror=alert(2)>"})  # a notice names it
    for reveal in (False, True):
        await board.done("reveal", {"reveal": reveal})
        for path in (f"/s/{board.slug}", f"/e/{board.edit}", f"/p/{token}"):
            text = await board.page(path)
            assert "<script>alert" not in text and "<img src=x" not in text, path
            assert ESCAPED in text, path
            assert_no_inline_code(text)
        text = await board.page(f"/s/{board.slug}")
        assert "&lt;/p&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in text
        assert "O&#39;Brien &#34;Bob&#34;" in text
        assert "The organiser reset &lt;img src=x onerror=alert(2)&gt;" in text


async def test_link_preview_has_no_fact(board: Any) -> None:
    await board.write("Ann", "Fact-alpha")
    text = await board.page(f"/s/{board.slug}")
    meta = " ".join(re.findall(r"<meta [^>]*>", text))
    assert 'content="Offsite"' in meta and "Fact-alpha" not in meta


async def test_delete_makes_every_link_404(board: Any) -> None:
    token = await board.write("Ann", "Fact-alpha")
    assert await board.done("delete") == {"ok": True, "deleted": True}
    response = await board.client.post("/api/fact/claim", json={"slug": board.slug,
                                                                "name": "Bo"})
    assert response.status_code == 404
    assert await response.get_json() == {"error": "That name isn't on this list."}
    for path, body in ((f"/api/fact/p/{token}/save", {"text": "x"}),
                       (f"/api/fact/{board.edit}/reset", {"name": "Ann"}),
                       (f"/api/fact/{board.edit}/reveal", {}),
                       (f"/api/fact/{board.edit}/export", {})):
        response = await board.client.post(path, json=body)
        assert response.status_code == 404, path
        assert await response.get_json() == NOT_FOUND, path
    for path in (f"/s/{board.slug}", f"/e/{board.edit}", f"/p/{token}"):
        await board.page(path, 404)


async def test_export_carries_the_answer_key_only_once_revealed(board: Any) -> None:
    await board.write("Bo", "Fact-bravo")
    export = await board.export()
    assert "answerKey" not in export and "Fact-bravo" not in str(export)
    await board.done("reveal")
    export = await board.export()
    assert [(row["name"], row["fact"]) for row in export["answerKey"]] == [
        ("Ann", ""), ("Bo", "Fact-bravo"), ("Cy", ""), ("Di", "")]
    assert export["answerKey"][1]["savedAt"].endswith("+00:00")
    assert export["answers"] == (await board.public())["answers"]


async def test_openapi_has_every_path(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    for path in ("/api/fact/claim", "/api/fact/p/{token}/save", "/api/fact/{editToken}/reset",
                 "/api/fact/{editToken}/reveal", "/api/fact/{editToken}/delete",
                 "/api/fact/{editToken}/export"):
        assert "post" in paths[path], path
    assert "That name isn't on this list." in \
        paths["/api/fact/claim"]["post"]["responses"]["404"]["description"]
    tags = {tag["name"]: tag.get("description", "") for tag in document.get("tags", [])}
    assert "Paths the spec leaves open" in tags["fact"]
