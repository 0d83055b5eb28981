"""Create, public and organiser pages; the coordinator-only message; escaping; delete."""

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
PRIVATE = "Knee's playing up, can I sit down?"


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
    for tag, attrs in Tags(text).tags:
        assert tag != "style"
        if tag == "script":
            assert attrs.get("src"), attrs
        assert "style" not in attrs, (tag, attrs)
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)


def attributes(text: str, name: str) -> list[str]:
    pattern = rf"\s{name}=(?:'([^']*)'|\"([^\"]*)\")"
    return [html.unescape(a or b) for a, b in re.findall(pattern, text)]


def meta(text: str) -> list[dict[str, str | None]]:
    return [attrs for tag, attrs in Tags(text).tags if tag == "meta"]


async def test_create_page(client: Any) -> None:
    text = await page(client, "/new/roster")
    assert 'data-api="/api/roster"' in text
    assert 'data-list="shifts"' in text
    assert 'data-add-row="shifts"' in text
    assert '<template data-row-template="shifts">' in text
    assert 'data-key="label"' in text
    assert re.search(r'data-key="capacity" data-type="number"', text)
    for field in ("title", "eventDate", "note"):
        assert f'name="{field}"' in text
    assert '<link rel="stylesheet" href="/static/roster/roster.css">' in text
    assert_no_inline_code(text)


async def test_stylesheet_is_served(client: Any) -> None:
    response = await client.get("/static/roster/roster.css")
    assert response.status_code == 200
    assert ".roster-note" in (await response.get_data()).decode()


async def test_home_page_lists_roster(client: Any) -> None:
    text = await page(client, "/")
    assert 'href="/new/roster"' in text and "Volunteer Roster" in text


async def test_public_page_open_spots_have_claim_forms(client: Any,
                                                       roster: dict[str, str]) -> None:
    slug = roster["slug"]
    response = await client.get(f"/s/{slug}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "noindex" in response.headers["X-Robots-Tag"]
    text = (await response.get_data()).decode()
    assert "<h1>Working bee</h1>" in text
    assert "Saturday 14 March 2026" in text and "Gloves provided." in text
    assert text.count('data-api="/api/roster/claim"') == 5
    assert text.count('data-remember="groupkit:roster:{slug}:{slotId}"') == 5
    for slot_id in ("s0-1", "s0-2", "s0-3", "s1-1", "s1-2"):
        assert f'<input type="hidden" name="slotId" value="{slot_id}">' in text
    assert 'name="name"' in text and 'name="message"' in text
    assert "Give my spot back" not in text
    assert 'id="roster-shifts" data-live-region' in text
    assert_no_inline_code(text)


async def test_calendar_link_only_for_shifts_with_a_time(client: Any,
                                                         roster: dict[str, str]) -> None:
    slug = roster["slug"]
    text = await page(client, f"/s/{slug}")
    assert attributes(text, "href").count(f"/api/roster/{slug}/ics/s0") == 1
    assert f"/api/roster/{slug}/ics/s1" not in text
    assert text.count("Calendar file (.ics)") == 1
    assert '<time class="muted roster-time" datetime="2026-03-14T07:00:00">' \
        'Sat 14 Mar 2026, 07:00–09:00</time>' in text
    # The link really downloads the entry.
    response = await client.get(f"/api/roster/{slug}/ics/s0")
    assert response.status_code == 200
    none = await create(client, "roster", {"eventDate": "When it stops raining",
                                           "shifts": [{"label": "Setup 7-9am", "capacity": 1}]})
    assert "Calendar file (.ics)" not in await page(client, f"/s/{none['slug']}")
    assert "Calendar file (.ics)" not in await page(client, f"/e/{none['editToken']}")


async def test_taken_spot_has_a_hidden_give_back_button(client: Any,
                                                        roster: dict[str, str]) -> None:
    slug = roster["slug"]
    response = await client.post("/api/roster/claim", json={
        "slug": slug, "slotId": "s1-2", "name": "Bo", "message": PRIVATE})
    secret = (await response.get_json())["secret"]
    text = await page(client, f"/s/{slug}")
    assert secret not in text
    assert "Bo" in text
    assert text.count('data-api="/api/roster/claim"') == 4
    buttons = re.findall(r"<button[^>]*data-post=[^>]*>Give my spot back</button>", text)
    assert len(buttons) == 1
    button = buttons[0]
    assert re.search(r"\shidden\s", button)
    assert f'data-secret-key="groupkit:roster:{slug}:s1-2"' in button
    assert 'data-post="/api/roster/unclaim"' in button
    body = {**json.loads(attributes(button, "data-body")[0]), "secret": secret}
    assert body == {"slug": slug, "slotId": "s1-2", "secret": secret}
    assert (await client.post("/api/roster/unclaim", json=body)).status_code == 200
    assert "Give my spot back" not in await page(client, f"/s/{slug}")


async def test_message_only_on_the_organiser_page(client: Any, roster: dict[str, str]) -> None:
    slug, edit = roster["slug"], roster["editToken"]
    await client.post("/api/roster/claim", json={
        "slug": slug, "slotId": "s0-1", "name": "Ann", "message": PRIVATE})
    public = await page(client, f"/s/{slug}")
    assert "Ann" in public
    assert "playing up" not in public
    for attrs in meta(public):
        assert "playing up" not in str(attrs.get("content"))
    organiser = await page(client, f"/e/{edit}")
    assert "Knee&#39;s playing up, can I sit down?" in organiser


async def test_preview_metadata(client: Any, roster: dict[str, str]) -> None:
    text = await page(client, f"/s/{roster['slug']}")
    tags = {attrs.get("property") or attrs.get("name"): attrs.get("content")
            for attrs in meta(text)}
    assert tags["og:title"] == "Working bee"
    assert tags["og:description"] == \
        "Pick a shift and put your name down — Saturday 14 March 2026."
    assert "<title>Working bee</title>" in text


async def test_organiser_page_lists_claims_with_remove_and_csv(client: Any,
                                                               roster: dict[str, str]) -> None:
    slug, edit = roster["slug"], roster["editToken"]
    for slot_id, name in (("s0-1", "Ann"), ("s1-1", "Bo")):
        await client.post("/api/roster/claim", json={"slug": slug, "slotId": slot_id,
                                                     "name": name, "message": f"{name} note"})
    response = await client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert f"/s/{slug}" in text and f"/e/{edit}" in text
    for word in ("Ann", "Ann note", "Bo", "Bo note"):
        assert word in text
    buttons = re.findall(r"<button[^>]*data-post=[^>]*>Remove</button>", text)
    assert len(buttons) == 2
    assert all(f'data-post="/api/roster/{edit}/remove"' in button for button in buttons)
    bodies = [json.loads(body) for button in buttons for body in attributes(button, "data-body")]
    assert bodies == [{"slotId": "s0-1"}, {"slotId": "s1-1"}]
    assert f'href="/api/roster/{edit}/admin"' in text
    assert f'data-post="/api/roster/{edit}/delete"' in text
    assert 'id="roster-admin" data-live-region' in text
    assert_no_inline_code(text)
    response = await client.post(f"/api/roster/{edit}/remove", json=bodies[0])
    assert await response.get_json() == {"ok": True, "removed": True}


async def test_default_heading_on_pages(client: Any) -> None:
    made = await create(client, "roster", {"shifts": [{"label": "Setup", "capacity": 1}]})
    assert "<h1>Volunteer roster</h1>" in await page(client, f"/s/{made['slug']}")
    assert "<h1>Volunteer roster</h1>" in await page(client, f"/e/{made['editToken']}")


async def test_user_text_is_escaped_everywhere(client: Any) -> None:
    made = await create(client, "roster", {
        "title": NASTY, "eventDate": NASTY, "note": NASTY,
        "shifts": [{"label": NASTY, "capacity": 2}, {"label": "\"'><b>x 9am", "capacity": 1}]})
    await client.post("/api/roster/claim", json={
        "slug": made["slug"], "slotId": "s0-1", "name": "<img src=x onerror=alert(2)>",
        "message": "</li><script>alert(3)</script>"})
    await client.post("/api/roster/claim", json={
        "slug": made["slug"], "slotId": "s1-1", "name": "O'Brien \"Bob\""})
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        text = await page(client, path)
        assert "<script>alert" not in text
        assert ESCAPED in text
        assert "<img src=x" not in text
        assert "&lt;img src=x onerror=alert(2)&gt;" in text
        assert "<b>x" not in text
        assert "O&#39;Brien &#34;Bob&#34;" in text
        assert_no_inline_code(text)
    organiser = await page(client, f"/e/{made['editToken']}")
    assert "&lt;/li&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in organiser


async def test_delete_makes_every_credential_404(client: Any, roster: dict[str, str]) -> None:
    slug, edit = roster["slug"], roster["editToken"]
    claim = await client.post("/api/roster/claim", json={
        "slug": slug, "slotId": "s0-1", "name": "Ann"})
    secret = (await claim.get_json())["secret"]
    response = await client.post(f"/api/roster/{edit}/delete")
    assert await response.get_json() == {"ok": True, "deleted": True}
    calls = [
        ("GET", f"/api/roster/{slug}", None),
        ("GET", f"/api/roster/{slug}/ics/s0", None),
        ("GET", f"/api/roster/{edit}/admin", None),
        ("POST", "/api/roster/claim", {"slug": slug, "slotId": "s0-2", "name": "Bo"}),
        ("POST", "/api/roster/unclaim", {"slug": slug, "slotId": "s0-1", "secret": secret}),
        ("POST", f"/api/roster/{edit}/remove", {"slotId": "s0-1"}),
        ("POST", f"/api/roster/{edit}/export", None),
        ("POST", f"/api/roster/{edit}/delete", None),
    ]
    for method, path, body in calls:
        response = await (client.get(path) if method == "GET"
                          else client.post(path, json=body or {}))
        assert response.status_code == 404, path
        assert await response.get_json() == NOT_FOUND, path
    for path in (f"/s/{slug}", f"/e/{edit}"):
        await page(client, path, 404)
