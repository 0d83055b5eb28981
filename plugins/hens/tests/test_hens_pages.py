"""The share page shows the place, the running order and the kitty; link previews never
carry the place; organiser page; escaping; secrets never public; delete."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from typing import Any

from groupkit_testing import create

NASTY = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
#: The place in the `planner` fixture (conftest), searched for wherever it must not be.
WHERE = "Bellbird Cottage, 7 Wattle Lane"
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


class Head(HTMLParser):
    """Link-preview metadata as a crawler reads it: `<title>` and every `<meta>` tag, plus
    every start tag (for the inline-code check)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.title = ""
        self._in_title = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data

    @property
    def meta(self) -> list[dict[str, str | None]]:
        return [attrs for tag, attrs in self.tags if tag == "meta"]

    def inline_code(self) -> list[tuple[str, dict[str, str | None]]]:
        return [(tag, attrs) for tag, attrs in self.tags
                if tag == "style" or (tag == "script" and not attrs.get("src"))
                or "style" in attrs or any(name.startswith("on") for name in attrs)]


async def page(client: Any, path: str, status: int = 200) -> str:
    response = await client.get(path)
    assert response.status_code == status, path
    return (await response.get_data()).decode()


async def test_create_page(client: Any) -> None:
    text = await page(client, "/new/hens")
    assert 'data-api="/api/hens"' in text
    for field in ("title", "forWhom", "when", "where", "note", "kitty"):
        assert f'name="{field}"' in text
    assert re.search(r'<textarea id="activities" name="activities:lines" data-lines', text)
    assert 'data-list="categories"' in text and 'data-add-row="categories"' in text
    assert re.search(r'data-key="capacity" data-type="number"', text)
    assert Head(text).inline_code() == []


async def test_share_page_shows_details_running_order_and_kitty(
        client: Any, planner: dict[str, str], planner_body: dict[str, Any]) -> None:
    assert planner_body["where"] == WHERE
    response = await client.get(f"/s/{planner['slug']}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    text = (await response.get_data()).decode()
    assert "<h1>Mia&#39;s hens</h1>" in text
    assert f'<dd class="hens-where">{WHERE}</dd>' in text
    assert "<dd>Mia</dd>" in text and "<dd>Saturday 14 March, 2pm</dd>" in text
    assert "Dress code: pink.\nShh, it&#39;s a surprise." in text
    assert re.search(r'<h2 id="running-order">Running order</h2>\s*<ol><li>Long lunch</li>'
                     r'<li>Harbour cruise</li><li>Karaoke</li></ol>', text)
    assert re.search(r'<h2 id="kitty">The kitty</h2>\s*<p class="hens-note">\$60 each, covers '
                     r'lunch and the cruise.</p>', text)
    assert text.count('data-api="/api/hens/claim"') == 5
    assert 'name="message"' in text
    assert 'id="hens-board" data-live-region' in text
    assert Head(text).inline_code() == []


async def test_link_preview_never_carries_where(client: Any, planner: dict[str, str]) -> None:
    text = await page(client, f"/s/{planner['slug']}")
    head = Head(text)
    previews = [attrs for attrs in head.meta
                if (attrs.get("property") or attrs.get("name") or "").startswith(
                    ("og:", "twitter:", "description"))]
    assert {attrs.get("property") or attrs.get("name") for attrs in previews} >= {
        "og:title", "og:description", "description"}
    for attrs in head.meta:
        for value in attrs.values():
            assert "Bellbird" not in (value or "") and "Wattle" not in (value or "")
    assert "Bellbird" not in head.title
    description = next(attrs["content"] for attrs in head.meta
                       if attrs.get("property") == "og:description")
    assert description == ("For Mia · Saturday 14 March, 2pm. "
                           "See the plans and put your name down for something.")
    # Yet the place is on the page itself, once.
    assert text.count(WHERE) == 1


async def test_preview_without_for_whom_or_when(client: Any) -> None:
    made = await create(client, "hens", {"title": "Shower", "where": WHERE,
                                         "categories": [{"name": "Food", "capacity": 1}]})
    head = Head(await page(client, f"/s/{made['slug']}"))
    description = next(attrs["content"] for attrs in head.meta
                       if attrs.get("property") == "og:description")
    assert description == "See the plans and put your name down for something."
    assert head.title == "Shower"


async def test_no_running_order_or_kitty_when_not_given(client: Any) -> None:
    made = await create(client, "hens", {"title": "Shower", "activities": ["", "  "],
                                         "categories": [{"name": "Food", "capacity": 1}]})
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        # The organiser's edit form offers both fields; the page above it shows neither.
        text = (await page(client, path)).split('<section class="edit-details"')[0]
        assert "Running order" not in text
        assert "The kitty" not in text
        assert "hens-details" not in text


async def test_claimed_spot_shows_name_message_and_hidden_release(
        client: Any, planner: dict[str, str]) -> None:
    slug = planner["slug"]
    response = await client.post("/api/hens/claim", json={
        "slug": slug, "slotId": "c1-2", "name": "Bo", "message": "Bringing the quiz"})
    secret = (await response.get_json())["secret"]
    text = await page(client, f"/s/{slug}")
    assert secret not in text
    assert re.search(r"<strong data-slot-who>Bo</strong> <span class=\"spot-extra hens-message\">"
                     r"Bringing the quiz"
                     r"</span>", text)
    buttons = re.findall(r"<button[^>]*data-post=[^>]*>Give my spot back</button>", text)
    assert len(buttons) == 1
    assert re.search(r"\shidden\s", buttons[0])
    assert f'data-secret-key="groupkit:hens:{slug}:c1-2"' in buttons[0]
    body = json.loads(html.unescape(re.search(r'data-body="([^"]*)"', buttons[0])[1]))
    assert body == {"slug": slug, "slotId": "c1-2"}
    response = await client.post("/api/hens/unclaim", json={**body, "secret": secret})
    assert response.status_code == 200
    assert "Give my spot back" not in await page(client, f"/s/{slug}")


async def test_secrets_never_in_public_responses(client: Any, planner: dict[str, str]) -> None:
    slug = planner["slug"]
    secrets = []
    for slot_id in ("c0-1", "c0-2", "c1-1"):
        response = await client.post("/api/hens/claim", json={
            "slug": slug, "slotId": slot_id, "name": f"Guest {slot_id}"})
        secrets.append((await response.get_json())["secret"])
    for text in (await page(client, f"/s/{slug}"),
                 (await (await client.get(f"/api/hens/{slug}")).get_data()).decode()):
        for secret in secrets:
            assert secret not in text
        assert planner["editToken"] not in text
    public = await (await client.get(f"/api/hens/{slug}")).get_json()
    assert set(public) == {"title", "forWhom", "when", "where", "note", "kitty",
                           "activities", "categories", "guests"}
    assert public["where"] == WHERE
    assert all(set(s) == {"slotId", "taken", "name", "message"}
               for c in public["categories"] for s in c["spots"])


async def test_organiser_page_lists_claims_with_remove(client: Any, planner: dict[str, str]
                                                       ) -> None:
    slug, edit = planner["slug"], planner["editToken"]
    for slot_id, name in (("c0-1", "Ann"), ("c1-1", "Bo")):
        await client.post("/api/hens/claim", json={"slug": slug, "slotId": slot_id,
                                                   "name": name, "message": f"{name} note"})
    response = await client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert WHERE in text and "Running order" in text and "The kitty" in text
    assert "Ann note" in text and "Bo note" in text
    buttons = re.findall(r"<button[^>]*data-post=[^>]*>Remove</button>", text)
    assert len(buttons) == 2
    assert all(f'data-post="/api/hens/{edit}/remove"' in button for button in buttons)
    bodies = [json.loads(html.unescape(re.search(r'data-body="([^"]*)"', b)[1]))
              for b in buttons]
    assert bodies == [{"slotId": "c0-1"}, {"slotId": "c1-1"}]
    assert re.search(r'<time[^>]*datetime="\d{4}-\d\d-\d\dT[^"]*\+00:00"', text)
    assert Head(text).inline_code() == []
    response = await client.post(f"/api/hens/{edit}/remove", json=bodies[0])
    assert await response.get_json() == {"ok": True, "removed": True}


async def test_user_text_is_escaped_everywhere(client: Any) -> None:
    made = await create(client, "hens", {
        "title": NASTY, "forWhom": NASTY, "when": NASTY, "where": NASTY, "note": NASTY,
        "kitty": NASTY, "activities": [NASTY],
        "categories": [{"name": NASTY, "capacity": 2}, {"name": "\"'><b>x", "capacity": 1}]})
    await client.post("/api/hens/claim", json={
        "slug": made["slug"], "slotId": "c0-1", "name": "<img src=x onerror=alert(2)>",
        "message": "</li><script>alert(3)</script>"})
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        text = await page(client, path)
        assert NASTY not in text and "<script>alert" not in text
        assert ESCAPED in text
        assert "<img src=x" not in text and "<b>x" not in text
        assert "&lt;/li&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in text
        assert Head(text).inline_code() == []


async def test_delete_makes_every_credential_404(client: Any, planner: dict[str, str],
                                                 planner_body: dict[str, Any]) -> None:
    slug, edit = planner["slug"], planner["editToken"]
    response = await client.post("/api/hens/claim", json={"slug": slug, "slotId": "c0-1",
                                                          "name": "Ann"})
    secret = (await response.get_json())["secret"]
    assert await (await client.post(f"/api/hens/{edit}/delete")).get_json() == {
        "ok": True, "deleted": True}
    for path, body in (("/api/hens/claim", {"slug": slug, "slotId": "c0-2", "name": "Bo"}),
                       ("/api/hens/unclaim", {"slug": slug, "slotId": "c0-1",
                                              "secret": secret}),
                       (f"/api/hens/{edit}/remove", {"slotId": "c0-1"}),
                       (f"/api/hens/{edit}/export", {}), (f"/api/hens/{edit}/delete", {})):
        response = await client.post(path, json=body)
        assert response.status_code == 404, path
        assert await response.get_json() == NOT_FOUND
    assert await (await client.get(f"/api/hens/{slug}")).get_json() == NOT_FOUND
    await page(client, f"/s/{slug}", 404)
    await page(client, f"/e/{edit}", 404)
    again = await create(client, "hens", planner_body)
    board = await (await client.get(f"/api/hens/{again['slug']}")).get_json()
    assert not any(s["taken"] for c in board["categories"] for s in c["spots"])
