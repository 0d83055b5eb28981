"""Create, public and organiser pages: empty bars filled by the plugin script from the tally,
the answer form, escaping, link previews; delete and the one 404."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from markupsafe import escape

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


def inputs(text: str) -> list[dict[str, str | None]]:
    return [attrs for tag, attrs in Tags(text).tags if tag == "input"]


def empty_bars(text: str) -> None:
    """Bars, counts and names are in the page but empty: the script fills them."""
    for key in ("a", "b"):
        assert f'<span class="qotd-fill" data-qotd-fill="{key}"></span>' in text
        assert f'<span data-qotd-count="{key}"></span>' in text
        assert f'data-qotd-names="{key}"></span>' in text
    assert re.search(r"data-qotd-total aria-live=\"polite\"></p>", text)


async def test_create_page(api: Any) -> None:
    text = await api.page("/new/qotd")
    assert 'data-api="/api/qotd"' in text and 'name="teamName"' in text
    assert "Sydney" in text
    assert_no_inline_code(text)


async def test_static_files(api: Any) -> None:
    for name, marker in (("qotd.js", "qotdTally"), ("qotd.css", ".qotd-fill")):
        response = await api.client.get(f"/static/qotd/{name}")
        assert response.status_code == 200
        assert marker in (await response.get_data()).decode()


async def test_public_page(api: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    await api.voted(slug, "a", "Ann")
    tally = await api.tally(slug)
    response = await api.client.get(f"/s/{slug}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    text = (await response.get_data()).decode()
    assert "<h1>Owls: question of the day</h1>" in text
    assert f">{escape(tally['question'])}</h2>" in text
    assert f"<time datetime=\"{tally['day']}\">{tally['dayLabel']}</time>" in text
    assert 'data-api="/api/qotd/vote"' in text
    assert 'data-remember-token="groupkit:qotd:{slug}:{day}:{qi}"' in text
    assert f'data-qotd-tally="/api/qotd/{slug}/tally"' in text
    assert f'data-changes-at="{tally["changesAt"]}"' in text
    fields = inputs(text)
    assert {"type": "hidden", "name": "slug", "value": slug} in fields
    assert {"type": "hidden", "name": "day", "value": tally["day"]} in fields
    assert {"type": "hidden", "name": "qi:number", "value": str(tally["qi"]),
            "data-type": "number"} in fields
    assert [f["value"] for f in fields if f.get("name") == "choice"] == ["a", "b"]
    assert 'name="voterName"' in text
    for key in ("a", "b"):
        assert f"<span>{escape(tally['options'][key])}</span>" in text
    empty_bars(text)
    assert "Ann" not in text  # names arrive with the tally, not in the page
    assert 'id="qotd-today" class="card qotd-today" data-live-region' in text
    assert 'src="/static/qotd/qotd.js"' in text
    assert_no_inline_code(text)


async def test_the_page_form_body_answers(api: Any, board: dict[str, str]) -> None:
    """What the form sends (qi as a number from data-type, the radio's value)."""
    text = await api.page(f"/s/{board['slug']}")
    fields = {f["name"]: f.get("value") for f in inputs(text) if f.get("type") == "hidden"}
    fields["qi"] = fields.pop("qi:number")
    body = {**fields, "qi": int(fields["qi"] or 0), "choice": "b", "voterName": "Ann"}
    response = await api.client.post("/api/qotd/vote", json=body)
    assert response.status_code == 201, await response.get_json()
    tally = await api.tally(board["slug"])
    assert tally["tally"] == {"a": 0, "b": 1, "total": 1}
    assert tally["names"] == {"a": [], "b": ["Ann"]}


async def test_organiser_page(api: Any, board: dict[str, str], clock: Any) -> None:
    slug, edit = board["slug"], board["editToken"]
    clock.advance(days=-1)
    await api.voted(slug, "b", "Bo")
    clock.advance(days=1)
    export = await api.export(edit)
    response = await api.client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert f"/s/{slug}" in text and f"/e/{edit}" in text
    assert f'data-post="/api/qotd/{edit}/skip"' in text
    assert f'data-api="/api/qotd/{edit}/add"' in text
    assert text.count(f'data-post="/api/qotd/{edit}/remove"') == 7
    for day in export["upcoming"]:
        assert f'data-body=\'{{"qi": {day["qi"]}}}\'' in text
        assert escape(day["question"]) in text
    assert f'data-qotd-tally="/api/qotd/{slug}/tally"' in text
    empty_bars(text)
    assert "name=\"choice\"" not in text  # the organiser watches; answering is on the share page
    assert "Bo" in text and escape(export["history"][0]["question"]) in text
    for region in ("qotd-today", "qotd-upcoming", "qotd-custom", "qotd-history"):
        assert re.search(rf'id="{region}"[^>]*data-live-region', text), region
    assert_no_inline_code(text)


async def test_user_text_is_escaped(api: Any, clock: Any) -> None:
    made = await api.make({"teamName": NASTY})
    await api.organiser(made["editToken"], "add", {"question": NASTY, "a": "<b>a</b>",
                                                   "b": "\"'><i>b"})
    await api.organiser(made["editToken"], "skip")
    clock.advance(days=-1)
    await api.voted(made["slug"], "a", "<img src=x onerror=alert(2)>")
    clock.advance(days=1)
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        text = await api.page(path)
        assert "<script>alert" not in text and "<b>a" not in text and "<i>b" not in text
        assert "<img src=x" not in text
        assert ESCAPED in text
        assert_no_inline_code(text)
    assert "&lt;img src=x onerror=alert(2)&gt;" in await api.page(f"/e/{made['editToken']}")


async def test_link_preview(api: Any, board: dict[str, str]) -> None:
    await api.voted(board["slug"], "a", "Zephyrine")
    text = await api.page(f"/s/{board['slug']}")
    assert '<meta property="og:title" content="Owls: question of the day">' in text
    assert ('<meta name="description" content="A fresh either-or question for the team every '
            'day.">') in text
    assert "Zephyrine" not in text


async def test_delete(api: Any, board: dict[str, str]) -> None:
    slug, edit = board["slug"], board["editToken"]
    mine = await api.voted(slug, "a")
    response = await api.organiser(edit, "delete")
    assert await response.get_json() == {"ok": True, "deleted": True}
    calls = [("GET", f"/api/qotd/{slug}", None), ("GET", f"/api/qotd/{slug}/tally", None),
             ("POST", "/api/qotd/vote", {"slug": slug, "choice": "a", "day": mine["day"],
                                         "qi": mine["qi"], "voterName": "Bo"}),
             ("POST", f"/api/qotd/v/{mine['token']}", {"choice": "b", "day": mine["day"],
                                                       "qi": mine["qi"]}),
             ("POST", f"/api/qotd/{edit}/skip", None),
             ("POST", f"/api/qotd/{edit}/add", {"question": "Q?", "a": "x", "b": "y"}),
             ("POST", f"/api/qotd/{edit}/remove", {"qi": mine["qi"]}),
             ("POST", f"/api/qotd/{edit}/export", None)]
    for method, path, body in calls:
        response = await (api.client.get(path) if method == "GET"
                          else api.client.post(path, json=body or {}))
        assert response.status_code == 404, path
        assert await response.get_json() == api.NOT_FOUND
    for path in (f"/s/{slug}", f"/e/{edit}"):
        await api.page(path, 404)


async def test_every_write_tells_open_pages(api: Any, board: dict[str, str]) -> None:
    def version(text: str) -> int:
        found = re.search(r'data-live-version="(\d+)"', text)
        assert found
        return int(found.group(1))

    slug, edit = board["slug"], board["editToken"]
    before = version(await api.page(f"/s/{slug}"))
    mine = await api.voted(slug, "a")
    await api.change(mine["token"], {"choice": "b", "day": mine["day"], "qi": mine["qi"]})
    await api.organiser(edit, "skip")
    await api.vote(slug, "x")  # refused
    await api.tally(slug)  # a read
    assert version(await api.page(f"/s/{slug}")) == before + 3
