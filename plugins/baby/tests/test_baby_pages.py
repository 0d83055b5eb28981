"""Create, public and organiser pages; escaping; tokens never rendered; delete."""

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


async def test_create_page(client: Any) -> None:
    text = await page(client, "/new/baby")
    assert 'data-api="/api/baby"' in text
    for field in ("parents", "dueDate", "note"):
        assert f'name="{field}"' in text
    assert '<link rel="stylesheet" href="/static/baby/baby.css">' in text
    assert_no_inline_code(text)


async def test_static_files_are_served(client: Any) -> None:
    css = await client.get("/static/baby/baby.css")
    assert css.status_code == 200 and css.content_type.startswith("text/css")
    script = await client.get("/static/baby/baby.js")
    assert script.status_code == 200
    body = (await script.get_data()).decode()
    assert "/api/baby/g/" in body and "data-baby-token" in body


async def test_public_page_offers_the_guess_form(client: Any, pool: dict[str, str]) -> None:
    slug = pool["slug"]
    response = await client.get(f"/s/{slug}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "noindex" in response.headers["X-Robots-Tag"]
    text = (await response.get_data()).decode()
    assert "<h1>Baby pool for Priya &amp; Tom</h1>" in text
    assert "Due: Mid March" in text and "Winner names the goldfish." in text
    assert 'data-api="/api/baby/guess"' in text
    assert 'data-remember-token="groupkit:baby:{slug}:{id}"' in text
    assert f'<input type="hidden" name="slug" value="{slug}">' in text
    for name in ("guesser", "date", "weightGrams", "message"):
        assert re.search(rf'name="{name}(:\w+)?"', text)
    assert 'type="date"' in text
    assert 'name="weightGrams:thousandths"' in text  # kilograms typed, grams sent
    assert '<script src="/static/baby/baby.js" defer></script>' in text
    assert "No guesses yet" in text
    assert 'id="baby-board" data-live-region' in text
    assert_no_inline_code(text)


async def test_public_page_lists_guesses_without_tokens(h: Any, client: Any,
                                                        pool: dict[str, str]) -> None:
    slug = pool["slug"]
    made = await h.guessed(client, slug, "Ann", "2026-03-14", 3456, message="Go bub")
    text = await page(client, f"/s/{slug}")
    assert made["token"] not in text
    assert "Ann" in text and "14 Mar 2026" in text and "3.46 kg" in text and "Go bub" in text
    assert '<time datetime="2026-03-14">' in text
    assert "1 of 300" in text
    buttons = re.findall(r"<button[^>]*>Remove my guess</button>", text)
    assert len(buttons) == 1
    assert re.search(r"\shidden\s", buttons[0])
    assert f'data-baby-token="groupkit:baby:{slug}:{made["id"]}"' in buttons[0]
    # Nor in the JSON read, nor the organiser page, nor the export.
    assert made["token"] not in json.dumps(await h.read(client, slug))
    assert made["token"] not in await page(client, f"/e/{pool['editToken']}")
    export = await client.post(f"/api/baby/{pool['editToken']}/export")
    assert made["token"] not in (await export.get_data()).decode()


async def test_organiser_page(h: Any, client: Any, pool: dict[str, str]) -> None:
    slug, edit = pool["slug"], pool["editToken"]
    ann = await h.guessed(client, slug, "Ann")
    bo = await h.guessed(client, slug, "Bo")
    response = await client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert f"/s/{slug}" in text and f"/e/{edit}" in text
    assert f'data-api="/api/baby/{edit}/result"' in text
    assert 'name="date"' in text and 'name="arrivedAt"' in text
    assert 'name="weightGrams:thousandths"' in text
    assert "Close the pool and reveal" in text
    assert "Reopen the pool" not in text
    buttons = re.findall(r"<button[^>]*>Remove</button>", text)
    assert len(buttons) == 2
    assert all(f'data-post="/api/baby/{edit}/remove"' in button for button in buttons)
    bodies = [json.loads(body) for button in buttons for body in attributes(button, "data-body")]
    assert bodies == [{"id": ann["id"]}, {"id": bo["id"]}]
    assert_no_inline_code(text)
    # What the button posts really removes the guess.
    response = await client.post(f"/api/baby/{edit}/remove", json=bodies[0])
    assert await response.get_json() == {"ok": True, "removed": True}


async def test_pages_after_the_result(h: Any, client: Any, pool: dict[str, str]) -> None:
    slug, edit = pool["slug"], pool["editToken"]
    await h.guessed(client, slug, "Ann", "2026-03-12", 3300)
    await h.guessed(client, slug, "Bo", "2026-03-10", 3400)
    await client.post(f"/api/baby/{edit}/result", json={
        "date": "2026-03-10", "weightGrams": 3400, "arrivedAt": "6:42am"})
    public = await page(client, f"/s/{slug}")
    assert "Bub's here!" in public and "(6:42am)" in public
    assert 'data-api="/api/baby/guess"' not in public
    assert "Leaderboard" in public
    assert public.index("Bo") < public.index("Ann")
    assert "Spot on!" in public and "2 days off · 100 g off" in public
    assert "Closest guess: <strong>Bo</strong>" in public
    assert_no_inline_code(public)
    organiser = await page(client, f"/e/{edit}")
    assert "Reopen the pool" in organiser and "Correct the result" in organiser
    button = re.search(r"<button[^>]*>Reopen the pool</button>", organiser)
    assert button is not None
    assert [json.loads(b) for b in attributes(button.group(0), "data-body")] == [
        {"result": None}]
    assert 'value="2026-03-10"' in organiser and 'value="3.400"' in organiser
    assert organiser.index("Bo") < organiser.index("Ann", organiser.index("Leaderboard"))


async def test_full_pool_page(h: Any, client: Any) -> None:
    made = await create(client, "baby", {"parents": "P"})
    for n in range(300):
        await h.guessed(client, made["slug"], f"G{n}")
    text = await page(client, f"/s/{made['slug']}")
    assert "This pool's chockers — that's the limit on guesses." in text
    assert 'data-api="/api/baby/guess"' not in text


async def test_user_text_is_escaped_everywhere(h: Any, client: Any) -> None:
    made = await create(client, "baby", {"parents": NASTY, "dueDate": NASTY, "note": NASTY})
    await h.guessed(client, made["slug"], "<img src=x onerror=alert(2)>",
                    message="</li><script>alert(3)</script>")
    await h.guessed(client, made["slug"], "O'Brien \"Bob\"")
    for closed in (False, True):
        if closed:
            await client.post(f"/api/baby/{made['editToken']}/result", json={
                "date": "2026-03-10", "weightGrams": 3400, "arrivedAt": "<b>x</b>"})
        for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
            text = await page(client, path)
            assert NASTY not in text and "<script>alert" not in text
            assert ESCAPED in text
            assert "<img src=x" not in text
            assert "&lt;img src=x onerror=alert(2)&gt;" in text
            assert "&lt;/li&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in text
            assert "O&#39;Brien &#34;Bob&#34;" in text
            assert "<b>x</b>" not in text
            assert_no_inline_code(text)


async def test_link_preview(client: Any, pool: dict[str, str]) -> None:
    text = await page(client, f"/s/{pool['slug']}")
    assert '<meta property="og:title" content="Baby pool for Priya &amp; Tom">' in text
    assert "Due Mid March. Guess the arrival date and birth weight" in text


async def test_unknown_pages_are_404(client: Any) -> None:
    await page(client, "/s/baby-pool-for-x-23456789abcdef", 404)
    await page(client, "/e/" + "2" * 26, 404)


async def test_export(h: Any, client: Any, pool: dict[str, str]) -> None:
    await h.guessed(client, pool["slug"], "Ann")
    response = await client.post(f"/api/baby/{pool['editToken']}/export")
    payload = await response.get_json()
    assert payload["tool"] == "baby"
    (entry,) = payload["data"]["guesses"]
    assert entry["guesser"] == "Ann" and entry["guessedAt"].startswith("2026-03-01T22:30")


async def test_delete_makes_every_credential_404(h: Any, client: Any,
                                                 pool: dict[str, str]) -> None:
    slug, edit = pool["slug"], pool["editToken"]
    made = await h.guessed(client, slug)
    other = await create(client, "baby", {"parents": "Other"})
    kept = await h.guessed(client, other["slug"])
    response = await client.post(f"/api/baby/{edit}/delete")
    assert await response.get_json() == {"ok": True, "deleted": True}
    calls = [
        ("GET", f"/api/baby/{slug}", None),
        ("POST", "/api/baby/guess", {"slug": slug, "guesser": "Bo", "date": "2026-03-14",
                                     "weightGrams": 3400}),
        ("POST", f"/api/baby/g/{made['token']}/remove", {}),
        ("POST", f"/api/baby/{edit}/remove", {"id": made["id"]}),
        ("POST", f"/api/baby/{edit}/result", {"result": None}),
        ("POST", f"/api/baby/{edit}/export", None),
    ]
    for method, path, body in calls:
        if method == "GET":
            response = await client.get(path)
        else:
            response = await client.post(path, json=body or {})
        assert response.status_code == 404, path
        assert await response.get_json() == NOT_FOUND, path
    for path in (f"/s/{slug}", f"/e/{edit}"):
        await page(client, path, 404)
    view = await h.read(client, other["slug"])
    assert [entry["id"] for entry in view["guesses"]] == [kept["id"]]


async def test_designed_paths_are_documented(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    for path in ("/api/baby/guess", "/api/baby/g/{token}/remove",
                 "/api/baby/{editToken}/remove", "/api/baby/{editToken}/result"):
        assert "post" in paths[path], path
    remove = paths["/api/baby/{editToken}/remove"]["post"]
    assert "{id}" in remove["description"]
    guess = json.dumps(paths["/api/baby/guess"]["post"]["responses"])
    assert "This pool's chockers" in guess and "Bub's already here" in guess
    assert "days off" not in guess
    assert "earliest guess" in json.dumps(document)
