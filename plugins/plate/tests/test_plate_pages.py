"""Create, public and organiser pages; escaping; delete and the one 404."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from typing import Any

from groupkit_testing import create

NOT_FOUND = {"error": "Nothing here — check the link you were given."}
NASTY = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


async def page(client: Any, path: str, status: int = 200) -> str:
    response = await client.get(path)
    assert response.status_code == status, path
    assert response.content_type.startswith("text/html")
    return (await response.get_data()).decode()


class Tags(HTMLParser):
    """Every start tag of a page with its attributes, as a browser's parser sees them."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def assert_no_inline_code(text: str) -> None:
    """Nothing a strict CSP would refuse: no inline scripts, styles or event handlers."""
    for tag, attrs in Tags(text).tags:
        assert tag != "style"
        if tag == "script":
            assert attrs.get("src"), attrs
        assert "style" not in attrs, (tag, attrs)
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)


def attributes(text: str, name: str) -> list[str]:
    """Every value of attribute `name` (single- or double-quoted), unescaped."""
    pattern = rf"\s{name}=(?:'([^']*)'|\"([^\"]*)\")"
    return [html.unescape(a or b) for a, b in re.findall(pattern, text)]


async def test_create_page(client: Any) -> None:
    text = await page(client, "/new/plate")
    assert 'data-api="/api/plate"' in text
    assert 'data-list="categories"' in text
    assert 'data-add-row="categories"' in text
    assert '<template data-row-template="categories">' in text
    assert text.count("data-row>") >= 2
    assert 'data-key="name"' in text
    assert re.search(r'data-key="capacity" data-type="number"', text)
    for field in ("title", "eventDate", "note"):
        assert f'name="{field}"' in text
    assert '<link rel="stylesheet" href="/static/plate/plate.css">' in text
    assert_no_inline_code(text)


async def test_plugin_stylesheet_is_served(client: Any) -> None:
    response = await client.get("/static/plate/plate.css")
    assert response.status_code == 200
    assert response.content_type.startswith("text/css")
    assert ".plate-note" in (await response.get_data()).decode()


async def test_home_page_lists_plate(client: Any) -> None:
    text = await page(client, "/")
    assert 'href="/new/plate"' in text
    assert "Bring a Plate" in text


async def test_public_page_open_spots_have_claim_forms(client: Any,
                                                       board: dict[str, str]) -> None:
    slug = board["slug"]
    response = await client.get(f"/s/{slug}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "noindex" in response.headers["X-Robots-Tag"]
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    text = (await response.get_data()).decode()
    assert "<h1>Street party</h1>" in text
    assert "Sat 6 Dec, 4pm" in text and "Bring a chair." in text
    assert "Mains" in text and "Desserts" in text
    assert text.count('data-api="/api/plate/claim"') == 6
    assert text.count('data-remember="groupkit:plate:{slug}:{slotId}"') == 6
    assert text.count(f'<input type="hidden" name="slug" value="{slug}">') == 6
    for slot_id in ("c0-1", "c0-2", "c0-3", "c0-4", "c1-1", "c1-2"):
        assert f'<input type="hidden" name="slotId" value="{slot_id}">' in text
    assert 'name="name"' in text and 'name="dish"' in text
    assert "Give my spot back" not in text
    assert_no_inline_code(text)


async def test_public_page_taken_spot_has_a_hidden_release_button(
        client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    response = await client.post("/api/plate/claim", json={
        "slug": slug, "slotId": "c1-2", "name": "Bo", "dish": "Pavlova"})
    secret = (await response.get_json())["secret"]
    text = await page(client, f"/s/{slug}")
    assert secret not in text
    assert "Bo" in text and "Pavlova" in text
    assert text.count('data-api="/api/plate/claim"') == 5
    assert 'id="claim-c1-2"' not in text  # no claim form for a taken spot
    # Without the script, the spot's code lets it go: a form in <noscript>, posted.
    noscript = re.findall(r"<noscript>.*?</noscript>", text, re.S)
    assert len(noscript) == 1
    assert 'method="post" action="/api/plate/unclaim"' in noscript[0]
    assert '<input type="hidden" name="slotId" value="c1-2">' in noscript[0]
    assert 'name="secret"' in noscript[0]
    buttons = re.findall(r"<button[^>]*data-post=[^>]*>Give my spot back</button>", text)
    assert len(buttons) == 1
    button = buttons[0]
    assert re.search(r"\shidden\s", button)
    assert f'data-secret-key="groupkit:plate:{slug}:c1-2"' in button
    assert 'data-post="/api/plate/unclaim"' in button
    assert [json.loads(body) for body in attributes(button, "data-body")] == [
        {"slug": slug, "slotId": "c1-2"}]
    # The body the button posts (plus the stored secret) really releases the spot.
    body = {**json.loads(attributes(button, "data-body")[0]), "secret": secret}
    assert (await client.post("/api/plate/unclaim", json=body)).status_code == 200
    assert "Give my spot back" not in await page(client, f"/s/{slug}")


async def test_organiser_page_lists_claims_with_remove(client: Any,
                                                       board: dict[str, str]) -> None:
    slug, edit = board["slug"], board["editToken"]
    for slot_id, name, dish in (("c0-1", "Ann", "Lasagne"), ("c1-1", "Bo", "Trifle")):
        await client.post("/api/plate/claim", json={
            "slug": slug, "slotId": slot_id, "name": name, "dish": dish})
    response = await client.get(f"/e/{edit}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert f"/s/{slug}" in text and f"/e/{edit}" in text
    for word in ("Ann", "Lasagne", "Bo", "Trifle"):
        assert word in text
    buttons = re.findall(r"<button[^>]*data-post=[^>]*>Remove</button>", text)
    assert len(buttons) == 2
    assert all(f'data-post="/api/plate/{edit}/remove"' in button for button in buttons)
    bodies = [json.loads(body) for button in buttons for body in attributes(button, "data-body")]
    assert bodies == [{"slotId": "c0-1"}, {"slotId": "c1-1"}]
    assert re.search(r'<time[^>]*datetime="\d{4}-\d\d-\d\dT[^"]*\+00:00"', text)
    assert f'data-post="/api/plate/{edit}/delete"' in text
    assert_no_inline_code(text)
    # What the Remove button posts really frees the spot.
    response = await client.post(f"/api/plate/{edit}/remove", json=bodies[0])
    assert await response.get_json() == {"ok": True, "removed": True}


async def test_default_heading_on_pages(client: Any) -> None:
    made = await create(client, "plate", {"categories": [{"name": "Mains", "capacity": 1}]})
    assert "<h1>Bring a plate</h1>" in await page(client, f"/s/{made['slug']}")
    assert "<h1>Bring a plate</h1>" in await page(client, f"/e/{made['editToken']}")


async def test_user_text_is_escaped_everywhere(client: Any) -> None:
    made = await create(client, "plate", {
        "title": NASTY, "eventDate": NASTY, "note": NASTY,
        "categories": [{"name": NASTY, "capacity": 2}, {"name": "\"'><b>x", "capacity": 1}]})
    response = await client.post("/api/plate/claim", json={
        "slug": made["slug"], "slotId": "c0-1", "name": "<img src=x onerror=alert(2)>",
        "dish": "</li><script>alert(3)</script>"})
    assert response.status_code == 201
    await client.post("/api/plate/claim", json={
        "slug": made["slug"], "slotId": "c1-1", "name": "O'Brien \"Bob\"", "dish": "x' y"})
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        text = await page(client, path)
        assert NASTY not in text
        assert "<script>alert" not in text
        assert ESCAPED in text
        assert "<img src=x" not in text
        assert "&lt;img src=x onerror=alert(2)&gt;" in text
        assert "&lt;/li&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in text
        assert "<b>x" not in text
        assert "&#34;&#39;&gt;&lt;b&gt;x" in text
        assert "O&#39;Brien &#34;Bob&#34;" in text
        assert_no_inline_code(text)


async def test_unknown_pages_are_404(client: Any) -> None:
    await page(client, "/s/street-party-23456789abcdef", 404)
    await page(client, "/e/" + "2" * 26, 404)
    await page(client, "/p/" + "2" * 22, 404)


async def test_delete_makes_every_credential_404(client: Any, board: dict[str, str]) -> None:
    slug, edit = board["slug"], board["editToken"]
    claim = await client.post("/api/plate/claim", json={
        "slug": slug, "slotId": "c0-1", "name": "Ann", "dish": "Pie"})
    secret = (await claim.get_json())["secret"]
    never_page = await page(client, "/s/street-party-23456789abcdef", 404)

    response = await client.post(f"/api/plate/{edit}/delete")
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "deleted": True}

    api_calls = [
        ("GET", f"/api/plate/{slug}", None),
        ("POST", "/api/plate/claim", {"slug": slug, "slotId": "c0-2", "name": "Bo",
                                      "dish": "Soup"}),
        ("POST", "/api/plate/unclaim", {"slug": slug, "slotId": "c0-1", "secret": secret}),
        ("POST", f"/api/plate/{edit}/remove", {"slotId": "c0-1"}),
        ("POST", f"/api/plate/{edit}/export", None),
        ("POST", f"/api/plate/{edit}/delete", None),
    ]
    for method, path, body in api_calls:
        if method == "GET":
            response = await client.get(path)
        else:
            response = await client.post(path, json=body or {})
        assert response.status_code == 404, path
        assert response.content_type == "application/json"
        assert await response.get_json() == NOT_FOUND, path
    for path in (f"/s/{slug}", f"/e/{edit}"):
        assert await page(client, path, 404) == never_page
    # A board made afterwards is unaffected and starts empty.
    again = await create(client, "plate", {"categories": [{"name": "Mains", "capacity": 1}]})
    view = await (await client.get(f"/api/plate/{again['slug']}")).get_json()
    assert view["categories"][0]["spots"][0]["taken"] is False


async def test_deleting_one_board_leaves_another(client: Any, board: dict[str, str]) -> None:
    other = await create(client, "plate", {"categories": [{"name": "Mains", "capacity": 1}]})
    await client.post("/api/plate/claim", json={
        "slug": other["slug"], "slotId": "c0-1", "name": "Bo", "dish": "Soup"})
    await client.post(f"/api/plate/{board['editToken']}/delete")
    view = await (await client.get(f"/api/plate/{other['slug']}")).get_json()
    assert view["categories"][0]["spots"][0]["name"] == "Bo"
