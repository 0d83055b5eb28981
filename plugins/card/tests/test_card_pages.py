"""The card's pages: the card, the signer's own page, the organiser's list; tokens kept
private; escaping; print styles; OpenAPI; delete."""

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


def attributes(text: str, name: str) -> list[str]:
    pattern = rf"\s{name}=(?:'([^']*)'|\"([^\"]*)\")"
    return [html.unescape(a or b) for a, b in re.findall(pattern, text)]


async def page(client: Any, path: str, status: int = 200) -> str:
    response = await client.get(path)
    assert response.status_code == status, path
    assert response.content_type.startswith("text/html")
    return (await response.get_data()).decode()


async def sign(client: Any, slug: str, name: str, message: str) -> dict[str, str]:
    response = await client.post("/api/card/sign",
                                 json={"slug": slug, "name": name, "message": message})
    assert response.status_code == 201
    return dict(await response.get_json())


async def test_create_page(client: Any) -> None:
    text = await page(client, "/new/card")
    assert 'data-api="/api/card"' in text
    for field in ("recipient", "title", "note"):
        assert f'name="{field}"' in text
    assert_no_inline_code(text)


async def test_public_page_is_the_card_with_a_sign_form(client: Any,
                                                        card: dict[str, str]) -> None:
    slug = card["slug"]
    await sign(client, slug, "Ann", "Enjoy the garden!\nLove, the team")
    await sign(client, slug, "Bo", "Don't be a stranger.")
    response = await client.get(f"/s/{slug}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    text = (await response.get_data()).decode()
    assert '<h1 class="card-title">Happy retirement!</h1>' in text
    assert '<p class="card-subline">A card for Margaret</p>' in text
    assert "Thirty-one years." in text
    assert text.count('class="card-message"') == 2
    assert text.index("Enjoy the garden!") < text.index("Don&#39;t be a stranger.")
    assert "Signed by 2 people" in text
    assert 'data-api="/api/card/sign"' in text
    assert 'data-goto="/p/{token}"' in text
    assert f'<input type="hidden" name="slug" value="{slug}">' in text
    assert 'id="card-messages" class="card-inside" data-live-region' in text
    assert "data-print" in text
    assert '<link rel="stylesheet" href="/static/card/card.css">' in text
    assert_no_inline_code(text)


async def test_default_title_page_has_no_subline(client: Any) -> None:
    made = await create(client, "card", {"recipient": "Jo"})
    text = await page(client, f"/s/{made['slug']}")
    assert '<h1 class="card-title">A card for Jo</h1>' in text
    assert "card-subline" not in text
    assert "The inside is still blank" in text


async def test_stylesheet_has_print_rules(client: Any) -> None:
    response = await client.get("/static/card/card.css")
    assert response.status_code == 200
    css = (await response.get_data()).decode()
    assert "@media print" in css
    print_rules = css[css.index("@media print"):]
    assert ".card-sign" in print_rules and "display: none" in print_rules
    assert "break-inside: avoid" in css



async def test_the_print_button_is_the_kernel_s_alone(client: Any, card: dict[str, str]) -> None:
    # share.js (on every page) prints on a [data-print] tap; a second handler of the tool's
    # own opened the print dialog twice.
    text = (await (await client.get(f"/s/{card['slug']}")).get_data()).decode()
    assert "data-print" in text and '<script src="/static/share.js" defer></script>' in text
    assert "/static/card/card.js" not in text
    # Without the script nothing would print: the button starts hidden and share.js shows it.
    assert '<button type="button" data-print hidden>Print the card</button>' in text
    share = (await (await client.get("/static/share.js")).get_data()).decode()
    assert "button[data-print]" in share and "window.print()" in share


async def test_tokens_never_reach_public_pages_or_reads(client: Any,
                                                        card: dict[str, str]) -> None:
    slug = card["slug"]
    made = [await sign(client, slug, f"Signer {n}", f"Message {n}") for n in range(3)]
    texts = [(await (await client.get(f"/api/card/{slug}")).get_data()).decode(),
             await page(client, f"/s/{slug}"),
             await page(client, f"/e/{card['editToken']}"),
             (await (await client.post(f"/api/card/{card['editToken']}/export")).get_data()
              ).decode()]
    for text in texts:
        for item in made:
            assert item["token"] not in text
            assert item["id"] in text
    # Another signer's page does not show anyone else's token either.
    own = await page(client, f"/p/{made[0]['token']}")
    assert made[1]["token"] not in own and made[2]["token"] not in own


async def test_signers_page(client: Any, card: dict[str, str]) -> None:
    slug = card["slug"]
    mine = await sign(client, slug, "Ann", "Enjoy the garden!")
    await sign(client, slug, "Bo", "Someone else's words")
    response = await client.get(f"/p/{mine['token']}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert "Your message is on the card" in text
    assert "Enjoy the garden!" in text and "Someone else's words" not in text
    assert f'href="/s/{slug}"' in text
    assert re.search(rf'readonly[^>]*>http[^<]*/p/{mine["token"]}</textarea>', text)
    buttons = re.findall(r"<button[^>]*>Remove my message</button>", text)
    assert len(buttons) == 1
    assert f'data-post="/api/card/m/{mine["token"]}/remove"' in buttons[0]
    assert f'data-redirect="/s/{slug}"' in buttons[0]
    assert_no_inline_code(text)
    # What the button posts really removes the message.
    response = await client.post(f"/api/card/m/{mine['token']}/remove")
    assert response.status_code == 200
    assert "Enjoy the garden!" not in await page(client, f"/s/{slug}")
    await page(client, f"/p/{mine['token']}", 404)


async def test_organiser_page_removes_by_message_id(client: Any, card: dict[str, str]) -> None:
    slug, edit = card["slug"], card["editToken"]
    made = await sign(client, slug, "Ann", "Enjoy!")
    response = await client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert "Enjoy!" in text and "Ann" in text
    assert "1 of 400" in text
    buttons = re.findall(r"<button[^>]*>Remove</button>", text)
    assert len(buttons) == 1
    assert f'data-post="/api/card/{edit}/remove"' in buttons[0]
    body = json.loads(attributes(buttons[0], "data-body")[0])
    assert body == {"messageId": made["id"]}
    assert re.search(r'<time[^>]*datetime="\d{4}-\d\d-\d\dT[^"]*\+00:00"', text)
    assert_no_inline_code(text)
    assert (await client.post(f"/api/card/{edit}/remove", json=body)).status_code == 200
    assert "Enjoy!" not in await page(client, f"/s/{slug}")


async def test_link_preview(client: Any, card: dict[str, str]) -> None:
    text = await page(client, f"/s/{card['slug']}")
    assert '<meta property="og:title" content="Happy retirement!">' in text
    assert "the card for Margaret" in text


async def test_user_text_is_escaped_everywhere(client: Any) -> None:
    made = await create(client, "card", {"recipient": NASTY, "title": NASTY, "note": NASTY})
    mine = await sign(client, made["slug"], "<img src=x onerror=alert(2)>",
                      "</blockquote><script>alert(3)</script>")
    await sign(client, made["slug"], "O'Brien \"Bob\"", "x' y")
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}", f"/p/{mine['token']}"):
        text = await page(client, path)
        assert "<script>alert" not in text
        assert "<img src=x" not in text
        assert "&lt;img src=x onerror=alert(2)&gt;" in text
        assert "&lt;/blockquote&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in text
        assert ESCAPED in text
        assert_no_inline_code(text)
    assert "O&#39;Brien &#34;Bob&#34;" in await page(client, f"/s/{made['slug']}")


async def test_openapi_documents_the_designed_paths(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    for path in ("/api/card", "/api/card/{slug}", "/api/card/sign",
                 "/api/card/m/{token}/remove", "/api/card/{editToken}/remove",
                 "/api/card/{editToken}/delete", "/api/card/{editToken}/export"):
        assert path in paths, path
    sign_op = paths["/api/card/sign"]["post"]
    assert set(sign_op["responses"]) >= {"201", "400", "404", "409", "429"}
    assert "This card is chockers — 400 messages is the limit." in \
        sign_op["responses"]["409"]["description"]
    assert "designed here" in sign_op["description"]
    assert "designed here" in paths["/api/card/m/{token}/remove"]["post"]["description"]
    assert "designed here" in paths["/api/card/{editToken}/remove"]["post"]["description"]


async def test_delete_makes_everything_404(client: Any, card: dict[str, str]) -> None:
    slug, edit = card["slug"], card["editToken"]
    made = await sign(client, slug, "Ann", "Hi")
    assert await (await client.post(f"/api/card/{edit}/delete")).get_json() == {
        "ok": True, "deleted": True}
    for path, body in [("/api/card/sign", {"slug": slug, "name": "Bo", "message": "x"}),
                       (f"/api/card/m/{made['token']}/remove", {}),
                       (f"/api/card/{edit}/remove", {"messageId": made["id"]}),
                       (f"/api/card/{edit}/export", {})]:
        response = await client.post(path, json=body)
        assert await response.get_json() == NOT_FOUND, path
    assert await (await client.get(f"/api/card/{slug}")).get_json() == NOT_FOUND
    for path in (f"/s/{slug}", f"/e/{edit}", f"/p/{made['token']}"):
        await page(client, path, 404)


async def test_the_share_sheet_takes_none_of_the_tool_s_assets(client: Any,
                                                               card: dict[str, str]) -> None:
    page = (await (await client.get(f"/s/{card['slug']}")).get_data()).decode()
    sheet = (await (await client.get(f"/s/{card['slug']}/sheet")).get_data()).decode()
    assert '<link rel="stylesheet" href="/static/card/card.css">' in page
    assert "/static/card/" not in sheet
