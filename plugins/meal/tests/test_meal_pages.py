"""Pages, the private drop-off and public allergies, the CSV, calendar entries, escaping and
delete."""

from __future__ import annotations

import csv
import datetime as dt
import html
import io
import json
import re
from html.parser import HTMLParser
from typing import Any

import icalendar
import pytest

from groupkit_testing import create

DROPOFF = "14 Wattle Lane, side gate code 4471"  # as in conftest's TRAIN
ALLERGIES = "Coeliac: no gluten at all"
NOT_FOUND = {"error": "Nothing here — check the link you were given."}
NASTY = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
BAD_SLOT = "That day isn't on this roster."
NOT_COOKING = "Nobody has claimed that day yet, so there's nothing to put in a calendar."
NOT_HELD = "That spot isn't held with that secret — it may already be free."
CSV_HEADER = ["Kind", "Day or job", "Date", "Spot", "Slot ID", "Name", "Dish",
              "Claimed at (UTC)"]


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


def head_of(text: str) -> str:
    return text.split("</head>")[0]


async def claim(client: Any, slug: str, slot_id: str, name: str, dish: str = "") -> str:
    response = await client.post("/api/meal/claim", json={
        "slug": slug, "slotId": slot_id, "name": name, "dish": dish})
    assert response.status_code == 201
    return str((await response.get_json())["secret"])


# --- drop-off is the coordinator's, allergies are everyone's ----------------------------------

async def test_dropoff_never_leaves_the_coordinator(client: Any, train: dict[str, str]) -> None:
    slug, edit = train["slug"], train["editToken"]
    claim_response = await client.post("/api/meal/claim", json={
        "slug": slug, "slotId": "d0-1", "name": "Ann", "dish": "Soup"})
    assert claim_response.status_code == 201
    public_texts = {
        "claim reply": (await claim_response.get_data()).decode(),
        "public read": (await (await client.get(f"/api/meal/{slug}")).get_data()).decode(),
        "public page": await page(client, f"/s/{slug}"),
        "calendar": (await (await client.get(f"/api/meal/{slug}/ics/d0-1")).get_data()).decode(),
        "csv": (await (await client.get(f"/api/meal/{edit}/admin")).get_data()).decode(),
    }
    for where, text in public_texts.items():
        assert "Wattle" not in text and "4471" not in text, where
    assert "dropoff" not in json.loads(public_texts["public read"])
    # The coordinator sees it on their page and in the organiser export.
    assert DROPOFF in await page(client, f"/e/{edit}")
    export = await (await client.post(f"/api/meal/{edit}/export")).get_json()
    assert export["data"]["dropoff"] == DROPOFF


async def test_dropoff_not_in_link_preview_metadata(client: Any, train: dict[str, str]) -> None:
    text = await page(client, f"/s/{train['slug']}")
    head = head_of(text)
    assert "Wattle" not in head
    metas = {attrs.get("property") or attrs.get("name"): attrs.get("content")
             for tag, attrs in Tags(head).tags if tag == "meta"}
    assert metas["og:title"] == "Meals for the Smiths"
    assert metas["og:description"] == "Sign up to cook a meal for the Smiths."
    assert metas["description"] == "Sign up to cook a meal for the Smiths."
    assert "<title>Meals for the Smiths</title>" in head


async def test_dropoff_changed_by_details_stays_private(client: Any,
                                                        train: dict[str, str]) -> None:
    await client.post(f"/api/meal/{train['editToken']}/details", json={
        "forWhom": "the Smiths", "dropoff": "Unit 9 Bluegum Court"})
    assert "Bluegum" not in await page(client, f"/s/{train['slug']}")
    body = (await (await client.get(f"/api/meal/{train['slug']}")).get_data()).decode()
    assert "Bluegum" not in body
    assert "Bluegum" in await page(client, f"/e/{train['editToken']}")


async def test_allergies_are_public(client: Any, train: dict[str, str]) -> None:
    view = await (await client.get(f"/api/meal/{train['slug']}")).get_json()
    assert view["allergies"] == ALLERGIES
    assert ALLERGIES in await page(client, f"/s/{train['slug']}")
    assert ALLERGIES in await page(client, f"/e/{train['editToken']}")
    await claim(client, train["slug"], "d0-1", "Ann")
    calendar = await (await client.get(f"/api/meal/{train['slug']}/ics/d0-1")).get_data()
    event = next(iter(icalendar.Calendar.from_ical(calendar).walk("VEVENT")))
    assert ALLERGIES in str(event["description"])


# --- pages ----------------------------------------------------------------------------------

async def test_create_page(client: Any) -> None:
    text = await page(client, "/new/meal")
    assert 'data-api="/api/meal"' in text
    for name in ("forWhom", "note", "allergies", "dropoff", "startDate", "days:number",
                 "dates:lines", "capacityPerDay:number", "tasks.0.label", "helpLinks.0.url"):
        assert f'name="{name}"' in text
    assert 'name="dates:lines" data-lines' in text
    for key in ("tasks", "helpLinks"):
        assert f'data-list="{key}"' in text and f'data-add-row="{key}"' in text
    assert '<link rel="stylesheet" href="/static/meal/meal.css">' in text
    assert_no_inline_code(text)


async def test_public_page(client: Any, train: dict[str, str]) -> None:
    slug = train["slug"]
    response = await client.get(f"/s/{slug}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "noindex" in response.headers["X-Robots-Tag"]
    text = (await response.get_data()).decode()
    assert "<h1>Meals for the Smiths</h1>" in text
    assert "Home from hospital Monday." in text
    for label in ("Mon 2 Mar 2026", "Tue 3 Mar 2026", "Wed 4 Mar 2026", "Walk the dog",
                  "Mow the lawn"):
        assert label in text
    assert text.count('data-api="/api/meal/claim"') == 6 + 3
    for slot_id in ("d0-1", "d0-2", "d2-2", "t0-1", "t0-2", "t1-1"):
        assert f'<input type="hidden" name="slotId" value="{slot_id}">' in text
    assert text.count('name="dish"') == 6
    assert 'href="https://example.com/gift"' in text
    assert 'id="meal-days" data-live-region' in text
    assert 'id="meal-tasks" data-live-region' in text
    assert "one-off calendar file" not in text
    assert_no_inline_code(text)


async def test_claimed_day_offers_its_cook_a_calendar_and_give_back(
        client: Any, train: dict[str, str]) -> None:
    slug = train["slug"]
    secret = await claim(client, slug, "d1-2", "Bo", "Pavlova")
    text = await page(client, f"/s/{slug}")
    assert secret not in text
    assert "Bo" in text and "Pavlova" in text
    key = f"groupkit:meal:{slug}:d1-2"
    link = re.findall(r"<a[^>]*>Or download a one-off calendar file \(\.ics\)</a>", text)
    assert len(link) == 1
    assert re.search(r"\shidden\s", link[0]) and f'data-secret-key="{key}"' in link[0]
    assert attributes(link[0], "href") == [f"/api/meal/{slug}/ics/d1-2"]
    button = re.findall(r"<button[^>]*data-post=[^>]*>Give my spot back</button>", text)
    assert len(button) == 1 and f'data-secret-key="{key}"' in button[0]
    assert 'data-post="/api/meal/uncook"' in button[0]
    body = {**json.loads(attributes(button[0], "data-body")[0]), "secret": secret}
    assert (await client.post("/api/meal/uncook", json=body)).status_code == 200
    assert "Give my spot back" not in await page(client, f"/s/{slug}")


async def test_organiser_page(client: Any, train: dict[str, str]) -> None:
    slug, edit = train["slug"], train["editToken"]
    await claim(client, slug, "d0-1", "Ann", "Lasagne")
    await claim(client, slug, "t1-1", "Bo")
    response = await client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    for word in ("Ann", "Lasagne", "Bo", DROPOFF, ALLERGIES):
        assert word in text
    for op in ("edit", "addDays", "addTask"):
        assert f'data-api="/api/meal/{edit}/{op}"' in text
    removes = re.findall(r"<button[^>]*>Remove</button>", text)
    assert [json.loads(attributes(b, "data-body")[0]) for b in removes] == [
        {"slotId": "d0-1"}, {"slotId": "t1-1"}]
    jobs = re.findall(r"<button[^>]*>Remove this job</button>", text)
    assert [json.loads(attributes(b, "data-body")[0]) for b in jobs] == [
        {"taskId": "t0"}, {"taskId": "t1"}]
    assert all(f'data-post="/api/meal/{edit}/removeTask"' in b for b in jobs)
    assert f'href="/api/meal/{edit}/admin"' in text
    assert 'value="the Smiths"' in text
    assert_no_inline_code(text)


async def test_user_text_is_escaped_everywhere(client: Any) -> None:
    made = await create(client, "meal", {
        "forWhom": NASTY, "note": NASTY, "allergies": NASTY, "dropoff": NASTY,
        "startDate": "2026-03-02", "days": 1, "tasks": [{"label": NASTY}],
        "helpLinks": [{"label": NASTY, "url": "https://example.com/?q=\"><script>x"}]})
    await claim(client, made["slug"], "d0-1", "<img src=x onerror=alert(2)>",
                "</li><script>alert(3)</script>")
    await claim(client, made["slug"], "t0-1", "O'Brien \"Bob\"")
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        text = await page(client, path)
        assert "<script>alert" not in text and "<script>x" not in text
        assert ESCAPED in text
        assert "<img src=x" not in text
        assert "&lt;/li&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in text
        assert "O&#39;Brien &#34;Bob&#34;" in text
        assert_no_inline_code(text)


async def test_only_web_links_reach_the_page(client: Any) -> None:
    made = await create(client, "meal", {"forWhom": "Jo", "startDate": "2026-03-02", "days": 1,
                                         "helpLinks": [{"label": "x", "url": "javascript:alert(1)"},
                                                       {"url": "https://ok.example/a"}]})
    text = await page(client, f"/s/{made['slug']}")
    assert "javascript:" not in text
    assert '<a href="https://ok.example/a" rel="noopener noreferrer nofollow">ok.example</a>' \
        in text


# --- calendar entries -------------------------------------------------------------------------

async def test_cook_calendar_entry(client: Any, train: dict[str, str]) -> None:
    slug = train["slug"]
    await claim(client, slug, "d2-1", "Ann", "Fish pie")
    response = await client.get(f"/api/meal/{slug}/ics/d2-1")
    assert response.status_code == 200
    assert response.content_type == "text/calendar; charset=utf-8"
    assert response.headers["Content-Disposition"].startswith(
        'attachment; filename="meal-2026-03-04.ics";')
    body = await response.get_data()
    events = list(icalendar.Calendar.from_ical(body).walk("VEVENT"))
    assert len(events) == 1
    event = events[0]
    assert str(event["summary"]) == "Meal for the Smiths: Fish pie"
    assert event.decoded("dtstart") == dt.date(2026, 3, 4)
    assert event.decoded("dtend") == dt.date(2026, 3, 5)
    assert b"DTSTART;VALUE=DATE:20260304" in body
    assert "Ann is cooking: Fish pie." in str(event["description"])
    assert f"/s/{slug}" in str(event["url"])


async def test_calendar_only_for_claimed_days(client: Any, train: dict[str, str]) -> None:
    slug = train["slug"]
    response = await client.get(f"/api/meal/{slug}/ics/d0-1")
    assert response.status_code == 404
    assert await response.get_json() == {"error": NOT_COOKING}
    await claim(client, slug, "t0-1", "Bo")
    for slot_id in ("t0-1", "d3-1", "d0-3", "x"):
        response = await client.get(f"/api/meal/{slug}/ics/{slot_id}")
        assert response.status_code == 404
        assert await response.get_json() == {"error": BAD_SLOT}
    response = await client.get(f"/api/meal/{train['editToken']}/ics/d0-1")
    assert await response.get_json() == NOT_FOUND


# --- CSV --------------------------------------------------------------------------------------

async def test_csv_export(client: Any, train: dict[str, str]) -> None:
    slug, edit = train["slug"], train["editToken"]
    await claim(client, slug, "d0-2", 'O\'Brien, "Bob"', "=cmd|' /C calc'!A0")
    await claim(client, slug, "t0-1", "+61 400 000 000")
    response = await client.get(f"/api/meal/{edit}/admin")
    assert response.status_code == 200
    assert response.content_type == "text/csv; charset=utf-8"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert response.headers["Content-Disposition"] == f'attachment; filename="meal-{slug}.csv"'
    text = (await response.get_data()).decode()
    assert text.startswith("\ufeff")  # the byte-order mark spreadsheets need to read UTF-8
    rows = list(csv.reader(io.StringIO(text[1:], newline="")))
    assert rows[0] == CSV_HEADER
    assert [row[:5] for row in rows[1:]] == [
        ["Meal", "Mon 2 Mar 2026", "2026-03-02", "1", "d0-1"],
        ["Meal", "Mon 2 Mar 2026", "2026-03-02", "2", "d0-2"],
        ["Meal", "Tue 3 Mar 2026", "2026-03-03", "1", "d1-1"],
        ["Meal", "Tue 3 Mar 2026", "2026-03-03", "2", "d1-2"],
        ["Meal", "Wed 4 Mar 2026", "2026-03-04", "1", "d2-1"],
        ["Meal", "Wed 4 Mar 2026", "2026-03-04", "2", "d2-2"],
        ["Job", "Walk the dog", "", "1", "t0-1"],
        ["Job", "Walk the dog", "", "2", "t0-2"],
        ["Job", "Mow the lawn", "", "1", "t1-1"]]
    assert rows[2][5:7] == ['O\'Brien, "Bob"', "'=cmd|' /C calc'!A0"]
    assert rows[7][5] == "'+61 400 000 000"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", rows[2][7])
    assert rows[1][5:] == ["", "", ""]


@pytest.mark.parametrize("token", ["x", "2" * 26])
async def test_csv_needs_the_edit_token(client: Any, train: dict[str, str], token: str) -> None:
    for path in (f"/api/meal/{token}/admin", f"/api/meal/{train['slug']}/admin"):
        response = await client.get(path)
        assert response.status_code == 404
        assert response.content_type == "application/json"


# --- delete -----------------------------------------------------------------------------------

async def test_delete_makes_every_credential_404(client: Any, train: dict[str, str]) -> None:
    slug, edit = train["slug"], train["editToken"]
    secret = await claim(client, slug, "d0-1", "Ann")
    response = await client.post(f"/api/meal/{edit}/delete")
    assert await response.get_json() == {"ok": True, "deleted": True}
    calls = [
        ("GET", f"/api/meal/{slug}", None),
        ("GET", f"/api/meal/{slug}/ics/d0-1", None),
        ("GET", f"/api/meal/{edit}/admin", None),
        ("POST", "/api/meal/claim", {"slug": slug, "slotId": "d0-2", "name": "Bo"}),
        ("POST", "/api/meal/uncook", {"slug": slug, "slotId": "d0-1", "secret": secret}),
        ("POST", f"/api/meal/{edit}/remove", {"slotId": "d0-1"}),
        ("POST", f"/api/meal/{edit}/details", {"forWhom": "x"}),
        ("POST", f"/api/meal/{edit}/addDays", {"startDate": "2030-01-01", "days": 1}),
        ("POST", f"/api/meal/{edit}/addTask", {"label": "x"}),
        ("POST", f"/api/meal/{edit}/removeTask", {"taskId": "t0"}),
        ("POST", f"/api/meal/{edit}/export", None),
        ("POST", f"/api/meal/{edit}/delete", None),
    ]
    for method, path, body in calls:
        response = await (client.get(path) if method == "GET"
                          else client.post(path, json=body or {}))
        assert response.status_code == 404, path
        assert await response.get_json() == NOT_FOUND, path
    for path in (f"/s/{slug}", f"/e/{edit}"):
        await page(client, path, 404)


async def test_openapi_documents_meal_operations(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    for path in ("/api/meal", "/api/meal/{slug}", "/api/meal/claim", "/api/meal/uncook",
                 "/api/meal/{editToken}/remove", "/api/meal/{editToken}/details",
                 "/api/meal/{editToken}/addDays", "/api/meal/{editToken}/addTask",
                 "/api/meal/{editToken}/removeTask", "/api/meal/{editToken}/delete",
                 "/api/meal/{editToken}/export"):
        assert "post" in paths[path] or "get" in paths[path], path
    assert "text/csv" in paths["/api/meal/{editToken}/admin"]["get"]["responses"]["200"][
        "content"]
    assert "text/calendar" in paths["/api/meal/{slug}/ics/{slotId}"]["get"]["responses"][
        "200"]["content"]
    claim_op = paths["/api/meal/claim"]["post"]
    assert "from 0" in claim_op["description"]
    assert "Someone's already got that day — pick another." in \
        claim_op["responses"]["409"]["description"]
    tag = next(tag for tag in document["tags"] if tag["name"] == "meal")
    assert "from 0" in tag["description"] and "dropoff" in tag["description"]
    properties = paths["/api/meal"]["post"]["requestBody"]["content"]["application/json"][
        "schema"]["properties"]
    assert list(properties) == ["forWhom", "note", "allergies", "dropoff", "dates",
                                "startDate", "days", "capacityPerDay", "tasks", "helpLinks"]


async def test_the_cook_reads_the_drop_off_with_their_spots_secret(
        client: Any, train: dict[str, str]) -> None:
    """The drop-off address stays off the share page, yet whoever holds a day reads it
    with the secret their claim returned (the page's "Show where to drop off"); a wrong
    secret or a free day gets the tool's not-held 404."""
    made, slug = train, train["slug"]
    claimed = await client.post("/api/meal/claim", json={
        "slug": slug, "slotId": "d0-1", "name": "Sam", "dish": "Soup"})
    secret = (await claimed.get_json())["secret"]
    page_text = await page(client, f"/s/{slug}")
    assert DROPOFF not in page_text
    assert re.findall(r'<button[^>]*data-show-text="forYou"[^>]*data-post="/api/meal/held"'
                      r'[^>]*>Show where to drop off</button>', page_text)
    held = await client.post("/api/meal/held", json={"slug": slug, "slotId": "d0-1",
                                                     "secret": secret})
    assert held.status_code == 200
    assert await held.get_json() == {"forYou": f"Drop-off: {DROPOFF}"}
    for body in ({"slotId": "d0-1", "secret": "x" * 16}, {"slotId": "d0-2", "secret": secret},
                 {"slotId": "d0-1"}):
        refused = await client.post("/api/meal/held", json={"slug": slug, **body})
        assert refused.status_code == 404
        assert (await refused.get_json())["error"] == NOT_HELD
    await client.post(f"/api/meal/{made['editToken']}/details", json={
        "forWhom": "the Tran family", "note": "", "allergies": "", "dropoff": ""})
    held = await client.post("/api/meal/held", json={"slug": slug, "slotId": "d0-1",
                                                     "secret": secret})
    assert await held.get_json() == {"forYou": "No drop-off details yet: ask the coordinator."}
