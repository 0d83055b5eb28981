"""Pages, what is private, escaping, the OpenAPI document and delete."""

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


async def suggest(client: Any, slug: str, idea: str, **extra: Any) -> dict[str, str]:
    response = await client.post("/api/giftidea/suggest",
                                 json={"slug": slug, "idea": idea, **extra})
    assert response.status_code == 201
    return dict(await response.get_json())


async def claim(client: Any, slug: str, idea_id: str, name: str) -> str:
    response = await client.post("/api/giftidea/claim",
                                 json={"slug": slug, "ideaId": idea_id, "name": name})
    assert response.status_code == 201
    return str((await response.get_json())["secret"])


async def test_create_page(client: Any) -> None:
    text = await page(client, "/new/giftidea")
    assert 'data-api="/api/giftidea"' in text
    for field in ("recipient", "occasion", "budget", "note"):
        assert f'name="{field}"' in text
    assert "except" in text
    assert_no_inline_code(text)


async def test_static_files_are_served(client: Any) -> None:
    for name, kind in (("giftidea.css", "text/css"), ("giftidea.js", "javascript")):
        response = await client.get(f"/static/giftidea/{name}")
        assert response.status_code == 200
        assert kind in response.content_type


async def test_public_page_says_who_the_link_is_not_for(client: Any,
                                                        board: dict[str, str]) -> None:
    response = await client.get(f"/s/{board['slug']}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "noindex" in response.headers["X-Robots-Tag"]
    text = (await response.get_data()).decode()
    assert "<h1>Gift ideas for Priya</h1>" in text
    assert "This page is for everyone except Priya." in text
    assert "don't send it to Priya" in text
    assert "Farewell" in text and "About $20 each" in text and "Loves hiking." in text
    assert 'data-api="/api/giftidea/suggest"' in text
    assert 'data-remember-token="groupkit:giftidea:{slug}:token:{id}"' in text
    assert "No ideas yet" in text
    assert_no_inline_code(text)


async def test_organiser_page_says_who_the_link_is_not_for(client: Any,
                                                           board: dict[str, str]) -> None:
    text = await page(client, f"/e/{board['editToken']}")
    assert "Send the share link to everyone except Priya." in text
    assert f"/s/{board['slug']}" in text


async def test_public_page_lists_ideas_with_actions(client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    socks = await suggest(client, slug, "Hiking socks", link="https://www.example.com/socks",
                          suggestedBy="Ann")
    mug = await suggest(client, slug, "Camp mug")
    await client.post("/api/giftidea/upvote", json={"slug": slug, "ideaId": mug["id"]})
    secret = await claim(client, slug, socks["id"], "Bo")
    text = await page(client, f"/s/{slug}")
    assert text.index("Camp mug") < text.index("Hiking socks")  # most votes first
    assert '<a class="giftidea-link" href="https://www.example.com/socks"' in text
    assert ">example.com<" in text
    assert 'rel="noopener noreferrer nofollow ugc"' in text
    assert "Suggested by Ann" in text
    assert "<strong data-slot-who>Bo</strong> is getting this one." in text
    # One claim form (for the unclaimed mug), one hidden unclaim button (for the socks).
    assert text.count('data-api="/api/giftidea/claim"') == 1
    assert f'<input type="hidden" name="ideaId" value="{mug["id"]}">' in text
    unclaim = re.findall(r"<button[^>]*>I'm not getting it after all</button>", text)
    assert len(unclaim) == 1 and re.search(r"\shidden\s", unclaim[0])
    assert f'data-secret-key="groupkit:giftidea:{slug}:claim:{socks["id"]}"' in unclaim[0]
    body = {**json.loads(attributes(unclaim[0], "data-body")[0]), "secret": secret}
    # Upvote buttons carry what the script posts.
    votes = re.findall(r"<button[^>]*data-upvote[^>]*>", text)
    assert len(votes) == 2
    assert {json.loads(attributes(v, "data-body")[0])["ideaId"] for v in votes} == {
        socks["id"], mug["id"]}
    # Remove-my-idea buttons are hidden, keyed on the token this browser kept.
    own = re.findall(r"<button[^>]*>Remove my idea</button>", text)
    assert len(own) == 2 and all(re.search(r"\shidden\s", b) for b in own)
    assert 'data-remove-own="/api/giftidea/i/{token}/remove"' in own[0]
    assert_no_inline_code(text)
    # What the unclaim button posts (plus the kept secret) really undoes the claim.
    assert (await client.post("/api/giftidea/unclaim", json=body)).status_code == 200


async def test_tokens_never_reach_public_pages_or_reads(client: Any,
                                                        board: dict[str, str]) -> None:
    slug = board["slug"]
    made = [await suggest(client, slug, f"Idea {n}", suggestedBy="Ann") for n in range(3)]
    secret = await claim(client, slug, made[0]["id"], "Bo")
    public_texts = [
        (await (await client.get(f"/api/giftidea/{slug}")).get_data()).decode(),
        await page(client, f"/s/{slug}"),
    ]
    for text in public_texts:
        for item in made:
            assert item["token"] not in text
            assert item["id"] in text
        assert secret not in text
        assert board["editToken"] not in text
        assert "itoken" not in text
    payload = json.loads(public_texts[0])
    assert all(set(idea) == {"id", "idea", "link", "suggestedBy", "votes", "claimed",
                             "claimedBy"} for idea in payload["ideas"])


async def test_organiser_page_removes_by_itoken(client: Any, board: dict[str, str]) -> None:
    slug, edit = board["slug"], board["editToken"]
    made = await suggest(client, slug, "Hiking socks")
    secret = await claim(client, slug, made["id"], "Bo")
    response = await client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert secret not in text
    assert "<strong>Bo</strong> is getting this one" in text
    buttons = re.findall(r"<button[^>]*>Remove</button>", text)
    assert len(buttons) == 1
    assert f'data-post="/api/giftidea/{edit}/removeIdea"' in buttons[0]
    body = json.loads(attributes(buttons[0], "data-body")[0])
    assert body == {"itoken": made["token"]}
    assert_no_inline_code(text)
    response = await client.post(f"/api/giftidea/{edit}/removeIdea", json=body)
    assert response.status_code == 200
    assert "Hiking socks" not in await page(client, f"/s/{slug}")


async def test_export_has_tokens_and_times_but_no_secrets(client: Any,
                                                          board: dict[str, str]) -> None:
    made = await suggest(client, board["slug"], "Socks")
    secret = await claim(client, board["slug"], made["id"], "Bo")
    response = await client.post(f"/api/giftidea/{board['editToken']}/export")
    text = (await response.get_data()).decode()
    assert secret not in text
    export = json.loads(text)
    idea = export["data"]["ideas"][0]
    assert idea["itoken"] == made["token"]
    assert idea["claimedBy"] == "Bo"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+\+00:00", idea["suggestedAt"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+\+00:00", idea["claimedAt"])


async def test_link_preview_metadata(client: Any, board: dict[str, str]) -> None:
    text = await page(client, f"/s/{board['slug']}")
    assert '<meta property="og:title" content="Gift ideas for Priya">' in text
    assert "keep this link away from Priya" in text


async def test_user_text_is_escaped_everywhere(client: Any) -> None:
    made = await create(client, "giftidea", {"recipient": NASTY, "occasion": NASTY,
                                             "budget": NASTY, "note": NASTY})
    slug = made["slug"]
    idea = await suggest(client, slug, NASTY, link="https://example.com/?q=\"'><b>",
                         suggestedBy="<img src=x onerror=alert(2)>")
    link = await client.post("/api/giftidea/suggest", json={
        "slug": slug, "idea": "x", "link": "https://example.com/?q='><b>x"})
    assert link.status_code == 201
    await claim(client, slug, idea["id"], "O'Brien \"Bob\" </li>")
    for path in (f"/s/{slug}", f"/e/{made['editToken']}"):
        text = await page(client, path)
        assert NASTY not in text and "<script>alert" not in text
        assert ESCAPED in text
        assert "<img src=x" not in text
        assert "&lt;img src=x onerror=alert(2)&gt;" in text
        assert "O&#39;Brien &#34;Bob&#34; &lt;/li&gt;" in text
        assert "<b>x" not in text
        assert_no_inline_code(text)


async def test_openapi_documents_giftidea(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    for path in ("/api/giftidea", "/api/giftidea/{slug}", "/api/giftidea/suggest",
                 "/api/giftidea/upvote", "/api/giftidea/claim", "/api/giftidea/unclaim",
                 "/api/giftidea/i/{token}/remove", "/api/giftidea/{editToken}/removeIdea",
                 "/api/giftidea/{editToken}/delete", "/api/giftidea/{editToken}/export"):
        assert path in paths, path
    suggest_op = paths["/api/giftidea/suggest"]["post"]
    assert set(suggest_op["responses"]) >= {"201", "400", "404", "409", "429"}
    for message in ("That link doesn't look right — paste the full web address, or leave it "
                    "blank.", "Links need to start with http:// or https://."):
        assert message in suggest_op["responses"]["400"]["description"]
    claim_op = paths["/api/giftidea/claim"]["post"]
    assert "Add your name so nobody else buys it too." in \
        claim_op["responses"]["400"]["description"]
    assert "Someone's already getting that one." in claim_op["responses"]["409"]["description"]
    tag = next(t for t in document["tags"] if t["name"] == "giftidea")
    assert "except the recipient" in tag["description"]


async def test_delete_makes_everything_404(client: Any, board: dict[str, str]) -> None:
    slug, edit = board["slug"], board["editToken"]
    made = await suggest(client, slug, "Socks")
    secret = await claim(client, slug, made["id"], "Bo")
    response = await client.post(f"/api/giftidea/{edit}/delete")
    assert await response.get_json() == {"ok": True, "deleted": True}
    calls = [
        ("/api/giftidea/suggest", {"slug": slug, "idea": "Mug"}),
        ("/api/giftidea/upvote", {"slug": slug, "ideaId": made["id"]}),
        ("/api/giftidea/claim", {"slug": slug, "ideaId": made["id"], "name": "Cy"}),
        ("/api/giftidea/unclaim", {"slug": slug, "ideaId": made["id"], "secret": secret}),
        (f"/api/giftidea/i/{made['token']}/remove", {}),
        (f"/api/giftidea/{edit}/removeIdea", {"itoken": made["token"]}),
        (f"/api/giftidea/{edit}/export", {}),
    ]
    for path, body in calls:
        response = await client.post(path, json=body)
        assert response.status_code == 404, path
        assert await response.get_json() == NOT_FOUND, path
    assert await (await client.get(f"/api/giftidea/{slug}")).get_json() == NOT_FOUND
    await page(client, f"/s/{slug}", 404)
    await page(client, f"/e/{edit}", 404)
    await page(client, f"/p/{made['token']}", 404)
