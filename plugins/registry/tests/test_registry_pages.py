"""Create, public and organiser pages: the picture's regions, the forms, escaping."""

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

    handle_startendtag = handle_starttag


def assert_no_inline_code(text: str) -> None:
    for tag, attrs in Tags(text).tags:
        assert tag != "style"
        if tag == "script":
            assert attrs.get("src"), attrs
        assert "style" not in attrs, (tag, attrs)
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)


def regions(text: str) -> list[dict[str, str | None]]:
    return [attrs for tag, attrs in Tags(text).tags
            if tag == "g" and "part" in (attrs.get("class") or "").split()]


def van_links(text: str) -> list[dict[str, str | None]]:
    """Every link in the picture's frame: the van is one, as big as the picture."""
    frame = text[text.index('<figure class="van-frame">'):text.index("</figure>")]
    return [attrs for tag, attrs in Tags(frame).tags if tag == "a"]


async def test_create_page(client: Any) -> None:
    text = await page(client, "/new/registry")
    assert 'data-api="/api/registry"' in text
    for field in ("coupleNames", "tagline", "weddingDate", "overflowTitle"):
        assert f'name="{field}"' in text
    assert 'data-group="payment"' in text
    for key in ("method", "aliasId", "accountName", "bsb", "accountNumber", "note"):
        assert f'data-key="{key}"' in text
    assert '<script src="/static/registry/registry.js" defer></script>' in text
    assert_no_inline_code(text)


async def test_static_files(client: Any) -> None:
    for path, kind in (("/static/registry/registry.css", "text/css"),
                       ("/static/registry/registry.js", "")):
        response = await client.get(path)
        assert response.status_code == 200 and response.content_type.startswith(kind)
    script = (await (await client.get("/static/registry/registry.js")).get_data()).decode()
    assert "innerHTML" not in script  # user text only ever goes in as textContent


async def test_public_page_draws_every_part(h: Any, client: Any,
                                            registry: dict[str, str]) -> None:
    slug = registry["slug"]
    await h.claimed(client, slug, "p054", "Ann")
    response = await client.get(f"/s/{slug}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    text = (await response.get_data()).decode()
    view = await h.read(client, slug)
    found = regions(text)
    assert [a["data-part"] for a in found] == [p["id"] for p in view["parts"]]
    # One link, the whole van, to the build sheet; each part names its row there.
    [link] = van_links(text)
    assert link["href"] == "#registry-sheet"
    assert link["aria-label"] == "The van, 1 of 126 parts built: open the build sheet"
    for attrs, entry in zip(found, view["parts"], strict=True):
        assert attrs["data-equivalent"] == f"sheet-{entry['id']}"
        assert f'id="sheet-{entry["id"]}"' in text
        assert attrs["data-name"] == entry["name"]
        dollars = f"${entry['priceCents'] // 100}"
        assert attrs["data-price"] == dollars
        state = "built" if entry["claimed"] else "open"
        assert state in (attrs["class"] or "").split()
    pup = found[53]
    assert pup["data-by"] == "Ann" and "(built by Ann)" in text
    assert len(re.findall(r"<title>", text)) >= 127
    # The claim form offers exactly the open parts.
    options = re.findall(r'<option value="(p\d{3})">', text)
    assert options == [p["id"] for s in view["sections"] for p in view["parts"]
                       if p["section"] == s and not p["claimed"]]
    assert "p054" not in options
    assert 'data-endpoint="/api/registry/claim"' in text
    assert 'data-endpoint="/api/registry/overflow"' in text
    assert f'<input type="hidden" name="slug" value="{slug}">' in text
    assert "1</strong> of 126 parts built" in text
    assert 'id="registry-van" data-live-region' in text
    assert "Built by Ann" in text
    assert_no_inline_code(text)


async def test_full_overflow_hides_its_form(h: Any, client: Any,
                                            registry: dict[str, str]) -> None:
    for n in range(400):
        await h.chipped_in(client, registry["slug"], 500, f"G{n}")
    text = await page(client, f"/s/{registry['slug']}")
    assert 'data-endpoint="/api/registry/overflow"' not in text
    assert "The overflow patch is chockers — give your gift to the couple directly." in text
    assert "400 people have chipped in." in text


async def test_organiser_page(h: Any, client: Any, registry: dict[str, str]) -> None:
    slug, edit = registry["slug"], registry["editToken"]
    part = await h.claimed(client, slug, "p054", "Ann", message="Woof")
    fuel = await h.chipped_in(client, slug, 12345, "Bo")
    await client.post(f"/api/registry/{edit}/paid", json={"reference": fuel["reference"]})
    response = await client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    for value in h.payment.values():
        assert html.escape(value) in text
    assert part["reference"] in text and fuel["reference"] in text
    assert "$123.45" in text and "Woof" in text
    assert "Not paid yet" in text and "Paid" in text
    bodies = [json.loads(html.unescape(body))
              for body in re.findall(r"data-body='([^']*)'", text)]
    assert {"reference": part["reference"], "paid": True} in bodies
    assert {"reference": fuel["reference"], "paid": False} in bodies
    assert {"reference": part["reference"]} in bodies
    assert f'data-post="/api/registry/{edit}/release"' in text
    # The van links to the claims; only a claimed part names its claim's row.
    assert [a["href"] for a in van_links(text)] == ["#registry-claims"]
    assert 'id="registry-claims"' in text
    assert [a["data-equivalent"] for a in regions(text) if a.get("data-equivalent")] == [
        "row-p054"]
    assert text.count('<g class="part open') == 125
    assert 'id="row-p054"' in text
    assert_no_inline_code(text)
    # What the buttons post really works.
    response = await client.post(f"/api/registry/{edit}/release",
                                 json={"reference": part["reference"]})
    assert response.status_code == 200


async def test_organiser_page_without_payment_details(client: Any) -> None:
    made = await create(client, "registry", {"coupleNames": "M"})
    text = await page(client, f"/e/{made['editToken']}")
    assert "No payment details were given" in text


async def test_user_text_is_escaped_everywhere(h: Any, client: Any) -> None:
    made = await create(client, "registry", {
        "coupleNames": NASTY, "tagline": NASTY, "weddingDate": NASTY, "overflowTitle": NASTY,
        "payment": {"aliasId": NASTY, "note": "\"'><b>x"}})
    await h.claimed(client, made["slug"], "p001", "<img src=x onerror=alert(2)>",
                    message="</li><script>alert(3)</script>")
    await h.chipped_in(client, made["slug"], 500, "O'Brien \"Bob\"")
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        text = await page(client, path)
        assert NASTY not in text and "<script>alert" not in text
        assert ESCAPED in text
        assert "<img src=x" not in text
        assert "&lt;img src=x onerror=alert(2)&gt;" in text
        assert "&lt;/li&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in text
        assert "O&#39;Brien &#34;Bob&#34;" in text
        assert "<b>x" not in text
        assert_no_inline_code(text)


async def test_unknown_pages_are_404(client: Any) -> None:
    await page(client, "/s/mia-sam-23456789abcdef", 404)
    await page(client, "/e/" + "2" * 26, 404)


async def test_designed_paths_are_documented(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    assert "post" in paths["/api/registry/claim"]
    assert "post" in paths["/api/registry/overflow"]
    assert "get" in paths["/api/registry/{editToken}/claims"]
    assert "post" in paths["/api/registry/{editToken}/paid"]
    assert "post" in paths["/api/registry/{editToken}/release"]
    claim = paths["/api/registry/claim"]["post"]
    assert "Someone beat you to that one by a whisker." in json.dumps(claim["responses"])
    text = json.dumps(document)
    assert "never read from a request" in text
