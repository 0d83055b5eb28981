"""The create, share, organiser and private pages: what they offer, what their buttons post,
escaping, and the OpenAPI document."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

from groupkit_testing import create

NASTY = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


async def page(client: Any, path: str, status: int = 200) -> str:
    response = await client.get(path)
    assert response.status_code == status, path
    assert response.content_type.startswith("text/html")
    return (await response.get_data()).decode()


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


def buttons(text: str, label: str) -> list[dict[str, str | None]]:
    found = []
    for match in re.finditer(r"<button([^>]*)>([^<]*)</button>", text):
        if match.group(2).strip() == label:
            found.append(Tags(f"<button{match.group(1)}>").tags[0][1])
    return found


async def token_for(client: Any, slug: str, name: str) -> str:
    response = await client.post("/api/coffee/claim", json={"slug": slug, "name": name})
    assert response.status_code == 200
    return str((await response.get_json())["token"])


async def test_create_page(client: Any) -> None:
    text = await page(client, "/new/coffee")
    assert 'data-api="/api/coffee"' in text
    for field in ("title", "names", "cadence", "note"):
        assert re.search(rf'name="{field}(:\w+)?"', text)
    assert re.search(r'name="names:lines" data-lines', text)
    assert_no_inline_code(text)


async def test_stylesheet_is_served(client: Any) -> None:
    response = await client.get("/static/coffee/coffee.css")
    assert response.status_code == 200
    assert ".coffee-partner-name" in (await response.get_data()).decode()


async def test_public_page(client: Any, team: dict[str, str]) -> None:
    slug = team["slug"]
    await token_for(client, slug, "Bo Bramble")
    text = await page(client, f"/s/{slug}")
    assert "<h1>Platform coffee</h1>" in text
    assert "Every second Monday" in text and "Thirty minutes, your shout or theirs." in text
    assert "No round drawn yet." in text
    form = re.search(r"<form[^>]*data-api=\"/api/coffee/claim\"[^>]*>", text)
    assert form and 'data-goto="/p/{token}"' in form.group(0)
    assert f'<input type="hidden" name="slug" value="{slug}">' in text
    datalist = re.search(r'<datalist id="coffee-unclaimed">(.*?)</datalist>', text, re.S)
    assert datalist and re.findall(r'<option value="([^"]*)">', datalist.group(1)) == [
        "Ann Archer", "Cy Cobb", "Di Dunlop", "Ed Ekins"]
    assert re.search(r'<li class="claimed"><span class="coffee-name">Bo Bramble</span>', text)
    assert re.search(r'<section id="coffee-team" data-live-region', text)
    assert team["editToken"] not in text
    assert_no_inline_code(text)
    await client.post(f"/api/coffee/{team['editToken']}/draw")
    assert re.search(r"Round 1, drawn <time datetime=\"[^\"]+\+00:00\">\d{4}-\d\d-\d\d</time>",
                     await page(client, f"/s/{slug}"))


async def test_organiser_page(client: Any, team: dict[str, str]) -> None:
    slug, edit = team["slug"], team["editToken"]
    await token_for(client, slug, "Cy Cobb")
    await token_for(client, slug, "Ed Ekins")
    response = await client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert "2 of 5 claimed their name so far." in text
    assert "No round drawn yet." in text
    draws = buttons(text, "Draw round 1")
    assert len(draws) == 1 and draws[0]["data-post"] == f"/api/coffee/{edit}/draw"
    assert draws[0]["data-confirm"]
    resets = buttons(text, "Reset")
    assert [json.loads(str(b["data-body"])) for b in resets] == [
        {"name": "Cy Cobb"}, {"name": "Ed Ekins"}]
    assert all(b["data-post"] == f"/api/coffee/{edit}/reset" for b in resets)
    for region in ("coffee-rounds", "coffee-claims"):
        assert re.search(rf'<section id="{region}" data-live-region', text)
    assert f'data-post="/api/coffee/{edit}/delete"' in text
    assert_no_inline_code(text)
    # What the buttons post really works.
    assert (await client.post(str(draws[0]["data-post"]))).status_code == 200
    text = await page(client, f"/e/{edit}")
    assert buttons(text, "Draw round 2") and "Round 1, drawn" in text
    response = await client.post(str(resets[0]["data-post"]),
                                 json=json.loads(str(resets[0]["data-body"])))
    assert await response.get_json() == {"ok": True, "reset": True}


async def test_private_page_before_and_after_a_round(client: Any, team: dict[str, str]) -> None:
    token = await token_for(client, team["slug"], "Ann Archer")
    text = await page(client, f"/p/{token}")
    assert "Hi Ann Archer." in text and "No round yet" in text
    assert re.search(r'<section id="coffee-partner" class="card coffee-partner" '
                     r'data-live-region', text)
    assert f'data-live="/api/coffee/{team["slug"]}/events"' in text
    assert_no_inline_code(text)
    await client.post(f"/api/coffee/{team['editToken']}/draw")
    view = await (await client.get(f"/api/coffee/p/{token}")).get_json()
    text = await page(client, f"/p/{token}")
    assert "This round you're having coffee with" in text
    for partner in view["partners"]:
        assert f'<span class="coffee-partner-name">{partner["name"]}</span>' in text
        assert "hasn't picked up their link yet" in text  # nobody else has claimed
    assert "Every second Monday" in text
    assert team["editToken"] not in text


async def test_default_heading(client: Any) -> None:
    made = await create(client, "coffee", {"names": ["Ann", "Bo", "Cy"]})
    token = await token_for(client, made["slug"], "Bo")
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}", f"/p/{token}"):
        assert "<h1>Coffee roulette</h1>" in await page(client, path)


async def test_user_text_is_escaped_everywhere(client: Any) -> None:
    names = [NASTY, "O'Brien \"Bob\"", "<img src=x onerror=alert(2)>"]
    made = await create(client, "coffee", {"title": NASTY, "names": names, "cadence": NASTY,
                                           "note": NASTY})
    tokens = [await token_for(client, made["slug"], name) for name in names]
    await client.post(f"/api/coffee/{made['editToken']}/draw")
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}", *(f"/p/{t}" for t in tokens)):
        text = await page(client, path)
        assert NASTY not in text and "<script>alert" not in text
        assert ESCAPED in text
        assert "<img src=x" not in text
        assert_no_inline_code(text)
    organiser = await page(client, f"/e/{made['editToken']}")
    assert [json.loads(str(b["data-body"])) for b in buttons(organiser, "Reset")] == [
        {"name": name} for name in names]


async def test_unknown_pages_are_404(client: Any) -> None:
    await page(client, "/s/coffee-roulette-23456789abcdef", 404)
    await page(client, "/p/" + "2" * 22, 404)


async def test_openapi_documents_every_path(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    for path, method in (("/api/coffee", "post"), ("/api/coffee/{slug}", "get"),
                         ("/api/coffee/claim", "post"), ("/api/coffee/p/{token}", "get"),
                         ("/api/coffee/{editToken}/draw", "post"),
                         ("/api/coffee/{editToken}/reset", "post"),
                         ("/api/coffee/{editToken}/export", "post"),
                         ("/api/coffee/{editToken}/delete", "post")):
        assert method in paths[path], path
    claim = paths["/api/coffee/claim"]["post"]
    assert "That name isn't on this team's list." in claim["responses"]["404"]["description"]
    assert "group of three" in paths["/api/coffee/{editToken}/draw"]["post"]["description"]
    tag = next(t for t in document["tags"] if t["name"] == "coffee")
    assert "never who" in tag["description"] and "/api/coffee/{editToken}/draw" in tag[
        "description"]
