"""The book's pages: the public book, the contributor's page, the organiser's list; the
contributor token on the organiser page only; escaping; print styles; OpenAPI; delete."""

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
RECIPE = {"cook": "Ann", "dish": "Lemon slice", "ingredients": "- 1 cup flour\n\n2 lemons",
          "method": "Mix it all.\nBake 20 minutes.", "serves": "12 squares",
          "story": "Nana made it every Sunday."}


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


async def add(client: Any, slug: str, **fields: Any) -> dict[str, str]:
    response = await client.post("/api/recipe/add", json={"slug": slug, **RECIPE, **fields})
    assert response.status_code == 201
    return dict(await response.get_json())


async def test_create_page(client: Any) -> None:
    text = await page(client, "/new/recipe")
    assert 'data-api="/api/recipe"' in text
    for field in ("title", "forWhom", "note"):
        assert f'name="{field}"' in text
    assert_no_inline_code(text)


async def test_public_page_is_the_book(client: Any, book: dict[str, str]) -> None:
    slug = book["slug"]
    first = await add(client, slug)
    second = await add(client, slug, cook="Bo", dish="Pho", serves="", story="")
    response = await client.get(f"/s/{slug}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    text = (await response.get_data()).decode()
    assert '<h1 class="recipe-title">Family favourites</h1>' in text
    assert "For Mum&#39;s 70th" in text
    assert "Add the dishes\nyou grew up with." in text
    # Contents, in the order added, linking to each recipe.
    assert f'<a href="#recipe-{first["id"]}">Lemon slice</a>' in text
    assert f'<a href="#recipe-{second["id"]}">Pho</a>' in text
    assert text.index(f'id="recipe-{first["id"]}"') < text.index(f'id="recipe-{second["id"]}"')
    # A recipe: ingredients one per line (bullets and blank lines tidied), method paragraphs.
    assert "<li>1 cup flour</li><li>2 lemons</li>" in text
    assert "<p>Mix it all.</p><p>Bake 20 minutes.</p>" in text
    assert "12 squares" in text and "Nana made it every Sunday." in text
    assert text.count('class="recipe-story"') == 1
    assert text.count('class="recipe-serves"') == 1
    assert 'id="recipe-book" class="recipe-book" data-live-region' in text
    assert 'data-api="/api/recipe/add"' in text and 'data-goto="/p/{token}"' in text
    assert_no_inline_code(text)


async def test_empty_book_page(client: Any, book: dict[str, str]) -> None:
    text = await page(client, f"/s/{book['slug']}")
    assert "No recipes yet" in text and "Contents" not in text


async def test_contributor_token_is_never_public(client: Any, book: dict[str, str]) -> None:
    slug = book["slug"]
    made = [await add(client, slug, dish=f"Dish {n}") for n in range(3)]
    public = [(await (await client.get(f"/api/recipe/{slug}")).get_data()).decode(),
              await page(client, f"/s/{slug}")]
    for text in public:
        for item in made:
            assert item["token"] not in text
            assert item["id"] in text
        assert "rtoken" not in text
        assert book["editToken"] not in text
    for recipe in json.loads(public[0])["recipes"]:
        assert set(recipe) <= {"id", "cook", "dish", "ingredients", "method", "serves",
                               "story"}
    # A contributor's own page shows their token and nobody else's.
    own = await page(client, f"/p/{made[0]['token']}")
    assert made[0]["token"] in own
    assert made[1]["token"] not in own and made[2]["token"] not in own


async def test_organiser_page_shows_tokens_and_removes_by_them(client: Any,
                                                               book: dict[str, str]) -> None:
    slug, edit = book["slug"], book["editToken"]
    made = [await add(client, slug, cook=cook, dish=dish)
            for cook, dish in (("Ann", "Lemon slice"), ("Bo", "Pho"))]
    response = await client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    for item in made:
        assert item["token"] in text
        assert re.search(rf'readonly[^>]*>http[^<]*/p/{item["token"]}</textarea>', text)
    assert "2 of 200" in text
    buttons = re.findall(r"<button[^>]*>Remove from the book</button>", text)
    assert len(buttons) == 2
    assert all(f'data-post="/api/recipe/{edit}/remove"' in button for button in buttons)
    bodies = [json.loads(attributes(button, "data-body")[0]) for button in buttons]
    assert bodies == [{"rtoken": item["token"]} for item in made]
    assert_no_inline_code(text)
    response = await client.post(f"/api/recipe/{edit}/remove", json=bodies[1])
    assert response.status_code == 200
    assert "Pho" not in await page(client, f"/s/{slug}")


async def test_export_carries_the_tokens(client: Any, book: dict[str, str]) -> None:
    made = await add(client, book["slug"])
    export = await (await client.post(f"/api/recipe/{book['editToken']}/export")).get_json()
    (recipe,) = export["data"]["recipes"]
    assert recipe["rtoken"] == made["token"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+\+00:00", recipe["addedAt"])


async def test_contributors_page(client: Any, book: dict[str, str]) -> None:
    slug = book["slug"]
    made = await add(client, slug, story="Line one\nline two")
    await add(client, slug, cook="Bo", dish="Someone else's pho")
    response = await client.get(f"/p/{made['token']}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert "Your recipe in Family favourites" in text
    assert "Someone else" not in text
    assert f'href="/s/{slug}#recipe-{made["id"]}"' in text
    # The edit form is filled in with the recipe as stored.
    assert f'data-api="/api/recipe/r/{made["token"]}/save"' in text
    assert 'name="cook" maxlength="40" autocomplete="name" value="Ann"' in text
    assert 'value="12 squares"' in text
    assert ">- 1 cup flour\n\n2 lemons</textarea>" in text
    assert ">Line one\nline two</textarea>" in text
    buttons = re.findall(r"<button[^>]*>Remove my recipe</button>", text)
    assert len(buttons) == 1
    assert f'data-post="/api/recipe/r/{made["token"]}/remove"' in buttons[0]
    assert f'data-redirect="/s/{slug}"' in buttons[0]
    assert_no_inline_code(text)


async def test_stylesheet_reads_well_in_print(client: Any) -> None:
    response = await client.get("/static/recipe/recipe.css")
    assert response.status_code == 200
    css = (await response.get_data()).decode()
    print_rules = css[css.index("@media print"):]
    assert ".recipe { break-before: page; }" in print_rules
    assert ".recipe-add" in print_rules and "display: none" in print_rules


async def test_link_preview(client: Any, book: dict[str, str]) -> None:
    text = await page(client, f"/s/{book['slug']}")
    assert '<meta property="og:title" content="Family favourites">' in text


async def test_user_text_is_escaped_everywhere(client: Any) -> None:
    made = await create(client, "recipe", {"title": NASTY, "forWhom": NASTY, "note": NASTY})
    mine = await add(client, made["slug"], cook="<img src=x onerror=alert(2)>", dish=NASTY,
                     ingredients="</li><script>alert(3)</script>", method=NASTY, serves=NASTY,
                     story="</textarea><b>x")
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}", f"/p/{mine['token']}"):
        text = await page(client, path)
        assert "<script>alert" not in text
        assert "<img src=x" not in text and "&lt;img src=x onerror=alert(2)&gt;" in text
        assert ESCAPED in text
        assert "</textarea><b>x" not in text
        assert_no_inline_code(text)
    text = await page(client, f"/p/{mine['token']}")
    assert "&lt;/textarea&gt;&lt;b&gt;x</textarea>" in text


async def test_openapi(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    for path in ("/api/recipe", "/api/recipe/{slug}", "/api/recipe/add",
                 "/api/recipe/r/{token}/save", "/api/recipe/r/{token}/remove",
                 "/api/recipe/{editToken}/remove", "/api/recipe/{editToken}/delete",
                 "/api/recipe/{editToken}/export"):
        assert path in paths, path
    add_op = paths["/api/recipe/add"]["post"]
    assert set(add_op["responses"]) >= {"201", "400", "404", "409", "429"}
    assert "This book's full — 200 recipes is the limit." in \
        add_op["responses"]["409"]["description"]
    properties = add_op["requestBody"]["content"]["application/json"]["schema"]["properties"]
    assert set(properties) >= {"slug", "cook", "dish", "ingredients", "method", "serves",
                               "story"}


async def test_delete_makes_everything_404(client: Any, book: dict[str, str]) -> None:
    slug, edit = book["slug"], book["editToken"]
    made = await add(client, slug)
    assert await (await client.post(f"/api/recipe/{edit}/delete")).get_json() == {
        "ok": True, "deleted": True}
    for path, body in [("/api/recipe/add", {"slug": slug, **RECIPE}),
                       (f"/api/recipe/r/{made['token']}/save", RECIPE),
                       (f"/api/recipe/r/{made['token']}/remove", {}),
                       (f"/api/recipe/{edit}/remove", {"rtoken": made["token"]}),
                       (f"/api/recipe/{edit}/export", {})]:
        response = await client.post(path, json=body)
        assert await response.get_json() == NOT_FOUND, path
    assert await (await client.get(f"/api/recipe/{slug}")).get_json() == NOT_FOUND
    for path in (f"/s/{slug}", f"/e/{edit}", f"/p/{made['token']}"):
        await page(client, path, 404)
