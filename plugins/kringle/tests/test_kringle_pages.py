"""The create, share, organiser and private pages: what they offer, what their buttons post,
escaping, headers, and the OpenAPI document."""

from __future__ import annotations

import html
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
    """Attributes of every button whose text is `label`."""
    found = []
    for match in re.finditer(r"<button([^>]*)>([^<]*)</button>", text):
        if match.group(2).strip() == label:
            found.append(Tags(f"<button{match.group(1)}>").tags[0][1])
    return found


async def token_for(client: Any, slug: str, name: str) -> str:
    response = await client.post("/api/kringle/claim", json={"slug": slug, "name": name})
    assert response.status_code == 200
    return str((await response.get_json())["token"])


async def test_create_page(client: Any) -> None:
    text = await page(client, "/new/kringle")
    assert 'data-api="/api/kringle"' in text
    for field in ("title", "names", "budget", "exchangeDate", "note"):
        assert re.search(rf'name="{field}(:\w+)?"', text)
    assert re.search(r'name="names:lines" data-lines', text)
    assert_no_inline_code(text)


async def test_stylesheet_is_served(client: Any) -> None:
    response = await client.get("/static/kringle/kringle.css")
    assert response.status_code == 200
    assert ".kringle-giftee-name" in (await response.get_data()).decode()


async def test_home_lists_kringle(client: Any) -> None:
    text = await page(client, "/")
    assert 'href="/new/kringle"' in text and "Kris Kringle" in text


async def test_public_page_offers_the_claim_form(client: Any, draw: dict[str, str]) -> None:
    slug = draw["slug"]
    await token_for(client, slug, "Bo Bramble")
    response = await client.get(f"/s/{slug}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "noindex" in response.headers["X-Robots-Tag"]
    text = (await response.get_data()).decode()
    assert "<h1>Office Kris Kringle</h1>" in text
    for detail in ("$30", "Friday 19 December", "Gifts under the kitchen tree."):
        assert detail in text
    form = re.search(r"<form[^>]*data-api=\"/api/kringle/claim\"[^>]*>", text)
    assert form and 'data-goto="/p/{token}"' in form.group(0)
    assert f'<input type="hidden" name="slug" value="{slug}">' in text
    assert re.search(r'<input id="claim-name" name="name" maxlength="40"', text)
    datalist = re.search(r'<datalist id="kringle-unclaimed">(.*?)</datalist>', text, re.S)
    assert datalist
    options = re.findall(r'<option value="([^"]*)">', datalist.group(1))
    assert options == ["Ann Archer", "Cy Cobb", "Di Dunlop", "Ed Ekins"]
    assert re.search(r'<li class="claimed"><span class="kringle-name">Bo Bramble</span>', text)
    assert re.search(r'<section id="kringle-people" data-live-region', text)
    assert draw["editToken"] not in text
    assert_no_inline_code(text)


async def test_organiser_page_lists_claims_opens_and_offers_reset(
        client: Any, draw: dict[str, str]) -> None:
    slug, edit = draw["slug"], draw["editToken"]
    bo = await token_for(client, slug, "Bo Bramble")
    await token_for(client, slug, "Di Dunlop")
    await client.get(f"/p/{bo}")
    response = await client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert "2 of 5 claimed their name, 1 opened their page" in text
    rows = re.findall(r"<tr>\s*<td>([^<]*)</td>\s*<td>(.*?)</td>\s*<td>(.*?)</td>", text, re.S)
    status = {name: ("Yes" in claimed, "Yes" in opened) for name, claimed, opened in rows}
    assert status == {"Ann Archer": (False, False), "Bo Bramble": (True, True),
                      "Cy Cobb": (False, False), "Di Dunlop": (True, False),
                      "Ed Ekins": (False, False)}
    resets = buttons(text, "Reset")
    assert [json.loads(str(b["data-body"])) for b in resets] == [
        {"name": "Bo Bramble"}, {"name": "Di Dunlop"}]
    assert all(b["data-post"] == f"/api/kringle/{edit}/reset" and b["data-confirm"]
               for b in resets)
    redraw = buttons(text, "Redraw everyone")
    assert len(redraw) == 1 and redraw[0]["data-post"] == f"/api/kringle/{edit}/redraw"
    assert redraw[0]["data-confirm"]
    assert re.search(r'<section id="kringle-status" data-live-region', text)
    assert f'data-post="/api/kringle/{edit}/delete"' in text
    assert f'data-download="/api/kringle/{edit}/export"' in text
    assert_no_inline_code(text)
    # What the Reset button posts really resets that person.
    response = await client.post(str(resets[0]["data-post"]),
                                 json=json.loads(str(resets[0]["data-body"])))
    assert await response.get_json() == {"ok": True, "reset": True}
    old = (await (await client.get(f"/p/{bo}")).get_data()).decode()
    assert "The organiser reset this link" in old
    text = (await (await client.get(f"/e/{edit}")).get_data()).decode()
    assert "The organiser reset Bo Bramble on" in text


async def test_private_page(client: Any, draw: dict[str, str]) -> None:
    token = await token_for(client, draw["slug"], "Cy Cobb")
    view = await (await client.get(f"/api/kringle/p/{token}")).get_json()
    giftee_token = await token_for(client, draw["slug"], view["giftee"])
    await client.post(f"/api/kringle/p/{giftee_token}/wishlist", json={"text": "A <b>kite</b>"})
    await client.post(f"/api/kringle/p/{token}/wishlist", json={"text": "Jam\nand toast"})
    text = await page(client, f"/p/{token}")
    assert "<h1>Office Kris Kringle</h1>" in text
    assert "Hi Cy Cobb." in text
    assert f'<p class="kringle-giftee-name">{view["giftee"]}</p>' in text
    assert '<p class="kringle-wishlist">A &lt;b&gt;kite&lt;/b&gt;</p>' in text
    assert re.search(r'<section id="kringle-giftee" class="card kringle-giftee" '
                     r'data-live-region', text)
    form = re.search(r"<form[^>]*>", text[text.index("Your wishlist"):])
    assert form and f'data-api="/api/kringle/p/{token}/wishlist"' in form.group(0)
    assert '<textarea id="wishlist" name="text" maxlength="500">Jam\nand toast</textarea>' in text
    for detail in ("$30", "Friday 19 December", "Gifts under the kitchen tree."):
        assert detail in text
    assert f'data-live="/api/kringle/{draw["slug"]}/events"' in text
    assert draw["editToken"] not in text
    assert_no_inline_code(text)


async def test_private_page_with_an_empty_wishlist(client: Any, draw: dict[str, str]) -> None:
    token = await token_for(client, draw["slug"], "Cy Cobb")
    assert "Nothing on it yet." in await page(client, f"/p/{token}")


async def test_default_heading(client: Any) -> None:
    made = await create(client, "kringle", {"names": ["Ann", "Bo", "Cy"]})
    token = await token_for(client, made["slug"], "Ann")
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}", f"/p/{token}"):
        assert "<h1>Kris Kringle</h1>" in await page(client, path)


async def test_user_text_is_escaped_everywhere(client: Any) -> None:
    names = [NASTY, "O'Brien \"Bob\"", "<img src=x onerror=alert(2)>"]
    made = await create(client, "kringle", {
        "title": NASTY, "names": names, "budget": NASTY, "exchangeDate": NASTY,
        "note": NASTY})
    tokens = [await token_for(client, made["slug"], name) for name in names]
    for token in tokens:
        await client.post(f"/api/kringle/p/{token}/wishlist", json={"text": NASTY})
    paths = [f"/s/{made['slug']}", f"/e/{made['editToken']}", *(f"/p/{t}" for t in tokens)]
    for path in paths:
        text = await page(client, path)
        assert NASTY not in text and "<script>alert" not in text
        assert ESCAPED in text
        assert "<img src=x" not in text
        assert_no_inline_code(text)
    organiser = await page(client, f"/e/{made['editToken']}")
    assert "O&#39;Brien &#34;Bob&#34;" in organiser
    bodies = [json.loads(str(b["data-body"])) for b in buttons(organiser, "Reset")]
    assert bodies == [{"name": name} for name in names]
    assert html.unescape(ESCAPED) == NASTY


async def test_unknown_pages_are_404(client: Any) -> None:
    await page(client, "/s/office-kris-kringle-23456789abcdef", 404)
    await page(client, "/e/" + "2" * 26, 404)
    await page(client, "/p/" + "2" * 22, 404)


async def test_openapi_documents_every_path(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    for path, method in (("/api/kringle", "post"), ("/api/kringle/{slug}", "get"),
                         ("/api/kringle/claim", "post"), ("/api/kringle/p/{token}", "get"),
                         ("/api/kringle/p/{token}/wishlist", "post"),
                         ("/api/kringle/{editToken}/reset", "post"),
                         ("/api/kringle/{editToken}/redraw", "post"),
                         ("/api/kringle/{editToken}/export", "post"),
                         ("/api/kringle/{editToken}/delete", "post")):
        assert method in paths[path], path
    claim = paths["/api/kringle/claim"]["post"]
    assert set(claim["responses"]) >= {"200", "404", "409"}
    assert "That name isn't in this draw." in claim["responses"]["404"]["description"]
    assert "reset you." in claim["responses"]["409"]["description"]
    assert "claims, private links" in paths["/api/kringle/{editToken}/redraw"]["post"][
        "description"].lower()
    tag = next(t for t in document["tags"] if t["name"] == "kringle")
    assert "single loop" in tag["description"] and "redraw" in tag["description"]
