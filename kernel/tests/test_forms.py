"""Forms without JavaScript (groupkit.web._forms): the wire names decode to the body the script
sends, a form post runs the same operation and redirects back, and its flash reaches the
page once, from any worker, without a credential or a typed value in a URL, a cookie or a
log line."""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
from typing import Any
from urllib.parse import urlencode

import jinja2
import pytest

from groupkit.core._logs import JsonFormatter
from groupkit.web._forms import DOWNLOAD
from groupkit.web._forms import FLASH_COOKIE
from groupkit.web._forms import FLASH_SECONDS
from groupkit.web._forms import Flash
from groupkit.web._forms import decode
from groupkit.web._forms import js_number
from groupkit.web._forms import time_zones
from groupkit.web._pages import TEMPLATES
from groupkit_testing import create

FORM = {"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin"}
NO_RECIPIENT = "Who's the card for? Add their name."


@pytest.mark.parametrize(("pairs", "body"), [
    ([("title", "Lunch")], {"title": "Lunch"}),
    ([("title", "a"), ("title", "b")], {"title": "b"}),
    ([("names:lines", "Ann\r\n\n  \nBo\n")], {"names": ["Ann", "Bo"]}),
    ([("count:number", " 5 "), ("cost:number", "2.50"), ("odd:number", "five"),
      ("none:number", ""), ("big:number", "Infinity"), ("hex:number", "0x10")],
     {"count": 5, "cost": 2.5, "odd": "five", "none": "", "big": None, "hex": 16}),
    ([("open:bool", "false"), ("open:bool", "true"), ("shut:bool", "false")],
     {"open": True, "shut": False}),
    ([("id:json", "7"), ("slot:json", "null"), ("who:json", '"Ann"'), ("bad:json", "{")],
     {"id": 7, "slot": None, "who": "Ann", "bad": "{"}),
    ([("choices:json", "[]"), ("choices:list", "a"), ("choices:list", "c")],
     {"choices": ["a", "c"]}),
    ([("payment.method", "PayID"), ("payment.aliasId", "x@example.com")],
     {"payment": {"method": "PayID", "aliasId": "x@example.com"}}),
    ([("slots.1.date", "2026-12-05"), ("slots.0.date", "2026-12-04"), ("slots.0.start", ""),
      ("teams.0.members:lines", "Ann\nBo")],
     {"slots": [{"date": "2026-12-04", "start": ""}, {"date": "2026-12-05"}],
      "teams": [{"members": ["Ann", "Bo"]}]}),
    ([("slots..date", "x"), (".x", "y"), ("a.b.c.d", "z")], {}),
    ([("amountCents:cents", " 12.5 "), ("a:cents", "0.005"), ("b:cents", "50"),
      ("c:cents", "fifty"), ("d:cents", ""), ("e:cents", "1e3")],
     {"amountCents": 1250, "a": 1, "b": 5000, "c": "fifty", "d": "", "e": 100000}),
    ([("weightGrams:thousandths", " 3.4 "), ("a:thousandths", "3.4005"),
      ("b:thousandths", "kilo"), ("c:thousandths", "")],
     {"weightGrams": 3400, "a": 3401, "b": "kilo", "c": ""}),
    # The zone may come before or after its time; the zone itself is not in the body.
    ([("closesAt:zone", "Australia/Sydney"), ("closesAt:local", "2026-12-01T18:30"),
      ("group.at:local", "2026-07-01T18:30:15"), ("group.at:zone", "Australia/Sydney")],
     {"closesAt": "2026-12-01T07:30:00Z", "group": {"at": "2026-07-01T08:30:15Z"}}),
    ([("a:local", "2026-12-01T18:30"), ("a:zone", "UTC"),
      ("b:local", ""), ("b:zone", "UTC"),
      ("c:local", "2026-12-01T18:30"), ("c:zone", "Mars/Olympus"),
      ("d:local", "2026-12-01T18:30"),
      ("e:local", "2026-12-01T18:30+11:00"), ("e:zone", "UTC"),
      ("f:local", "tomorrow"), ("f:zone", "UTC"),
      ("g:local", "2026-12-01T18:30"), ("g:zone", "../../etc/passwd")],
     {"a": "2026-12-01T18:30:00Z", "b": "", "c": "2026-12-01T18:30", "d": "2026-12-01T18:30",
      "e": "2026-12-01T18:30+11:00", "f": "tomorrow", "g": "2026-12-01T18:30"}),
])
def test_wire_names_decode_to_the_scripts_body(pairs: list[tuple[str, str]],
                                                body: dict[str, Any]) -> None:
    assert decode(pairs) == body


def test_numbers_read_as_the_script_reads_them() -> None:
    assert [js_number(t) for t in ("1e3", "-0.5", ".5", "+7", "1.0", "1_000", "0b11")] == [
        1000, -0.5, 0.5, 7, 1, "1_000", 3]


def form_post(client: Any, path: str, fields: list[tuple[str, str]],
              **headers: str) -> Any:
    return client.post(path, data=urlencode(fields), headers={**FORM, **headers})


async def test_a_wrong_create_lands_back_with_the_error_at_its_field_once(
        make_app: Any) -> None:
    client = make_app(tools=["card"]).test_client()
    response = await form_post(client, "/api/card",
                               [("recipient", ""), ("title", "Ta <b>Zelda</b>")],
                               Referer="http://localhost/new/card?x=1")
    assert response.status_code == 303
    assert response.headers["Location"] == "/new/card#groupkit-flash"
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/new/card;" in cookie
    assert "Zelda" not in cookie
    page = await (await client.get("/new/card")).get_data(as_text=True)
    error = re.search(r'<p class="error field-error" id="groupkit-flash" '
                      r'data-field-error="recipient" role="alert">([^<]*)</p>', page)
    assert error and error[1].replace("&#39;", "'") == NO_RECIPIENT
    assert re.search(r'<input id="recipient" name="recipient"[^>]* aria-invalid="true" '
                     r'aria-describedby="groupkit-flash" autofocus', page)
    # What was typed is put back, escaped.
    assert 'value="Ta &lt;b&gt;Zelda&lt;/b&gt;"' in page
    again = await (await client.get("/new/card")).get_data(as_text=True)
    assert "groupkit-flash" not in again and "Zelda" not in again


async def test_a_create_shows_its_links_without_putting_them_in_a_url(make_app: Any,
                                                                       caplog: Any) -> None:
    caplog.set_level(logging.INFO)
    client = make_app(tools=["card"]).test_client()
    response = await form_post(client, "/api/card", [("recipient", "Margaret")])
    assert response.headers["Location"] == "/new/card#groupkit-flash"
    page = await (await client.get("/new/card")).get_data(as_text=True)
    edit = re.search(r'<a href="/e/(\w+)">', page)
    slug = re.search(r'<a href="/s/([\w-]+)">', page)
    assert edit and slug and "Save your organiser link" in page
    cookie = response.headers["Set-Cookie"]
    assert edit[1] not in cookie and edit[1] not in response.headers["Location"]
    logged = caplog.text + "".join(JsonFormatter().format(r) for r in caplog.records)
    assert edit[1] not in logged and "Margaret" not in logged
    # A participation: its private link reaches the page the same way.
    response = await form_post(client, "/api/card/sign",
                               [("slug", slug[1]), ("message", "Thanks"), ("name", "Ann")])
    assert response.headers["Location"] == f"/s/{slug[1]}#groupkit-flash"
    page = await (await client.get(f"/s/{slug[1]}")).get_data(as_text=True)
    token = re.search(r'<a href="/p/(\w+)">', page)
    assert token and token[1] not in response.headers["Set-Cookie"]
    logged = caplog.text + "".join(JsonFormatter().format(r) for r in caplog.records)
    assert token[1] not in logged


async def test_organiser_forms_come_back_to_the_organiser_page(make_app: Any) -> None:
    client = make_app(tools=["sweeps"]).test_client()
    made = await create(client, "sweeps", {"title": "Cup", "outcomes": ["A", "B"],
                                           "names": ["Ann", "Bo"]})
    response = await form_post(client, f"/api/sweeps/{made['editToken']}/redraw", [])
    assert response.headers["Location"] == f"/e/{made['editToken']}#groupkit-flash"
    page = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert '<div class="notice flash" id="groupkit-flash" role="status"' in page
    response = await form_post(client, f"/api/sweeps/{made['editToken']}/delete", [])
    assert response.headers["Location"] == "/#groupkit-flash"
    page = await (await client.get("/")).get_data(as_text=True)
    assert "Deleted." in page


async def test_a_flash_expires(make_app: Any) -> None:
    now = [dt.datetime(2026, 11, 23, 9, 0, tzinfo=dt.UTC)]
    client = make_app(tools=["card"], clock=lambda: now[0]).test_client()
    await form_post(client, "/api/card", [("recipient", "")])
    now[0] += dt.timedelta(seconds=FLASH_SECONDS + 1)
    page = await (await client.get("/new/card")).get_data(as_text=True)
    assert NO_RECIPIENT not in page.replace("&#39;", "'")


async def test_the_flash_is_taken_once_by_whichever_worker_serves_the_page(
        make_app: Any) -> None:
    """Two apps on one database (PostgreSQL when $GROUPKIT_TEST_POSTGRES_URL is set), as two
    workers: the second serves the flash the first stored, then neither has it."""
    first = make_app(tools=["card"])
    response = await form_post(first.test_client(), "/api/card", [("recipient", "")])
    flash_id = re.search(rf"{FLASH_COOKIE}=([^;]+);", response.headers["Set-Cookie"])
    assert flash_id
    first.config["GROUPKIT_STORAGE"].close()
    second = make_app(tools=["card"])
    client = second.test_client()
    cookie = {"Cookie": f"{FLASH_COOKIE}={flash_id[1]}"}
    stored = second.config["GROUPKIT_STORAGE"].run_sync(
        lambda: [row.key for row in Flash.select()], write=False)
    assert len(stored) == 1 and flash_id[1] not in stored[0]  # only its digest is kept
    page = await (await client.get("/new/card", headers=cookie)).get_data(as_text=True)
    assert NO_RECIPIENT in page.replace("&#39;", "'")
    page = await (await client.get("/new/card", headers=cookie)).get_data(as_text=True)
    assert NO_RECIPIENT not in page.replace("&#39;", "'")


@pytest.mark.parametrize("headers", [{"Sec-Fetch-Site": "cross-site"},
                                     {"Sec-Fetch-Site": "same-site"},
                                     {"Sec-Fetch-Site": "", "Origin": "https://evil.example"}])
async def test_another_site_cannot_post_a_form(make_app: Any, headers: dict[str, str]) -> None:
    client = make_app(tools=["card"]).test_client()
    sent = {**FORM, **headers}
    if not headers["Sec-Fetch-Site"]:
        del sent["Sec-Fetch-Site"]
    response = await client.post("/api/card", data="recipient=Margaret", headers=sent)
    assert response.status_code == 403
    assert await response.get_json() == {
        "error": "That form came from another site, so nothing was changed."}
    assert "Set-Cookie" not in response.headers


async def test_json_requests_answer_as_before(make_app: Any) -> None:
    client = make_app(tools=["sweeps"]).test_client()
    response = await client.post("/api/sweeps", json={})
    assert response.status_code == 400
    first = (await response.get_json())["error"]
    assert await response.get_json() == {"error": first}
    response = await client.post("/api/sweeps", json={"outcomes": ["A"], "names": []},
                                 headers={"X-Groupkit-Errors": "all"})
    body = await response.get_json()
    assert body["errors"][0] == {"field": body["field"], "error": body["error"]}
    assert len(body["errors"]) >= 2
    assert [e["field"] for e in body["errors"]] == sorted(
        {e["field"] for e in body["errors"]}, key=[e["field"] for e in body["errors"]].index)


async def test_an_operations_400_names_its_field_only_when_asked(make_app: Any) -> None:
    """A participation form's page asks for every failing field, as a create's does, so the
    script shows the message at its field; without the header the body is the spec's."""
    client = make_app(tools=["card"]).test_client()
    made = await create(client, "card", {"recipient": "Margaret"})
    sent = {"slug": made["slug"], "name": "", "message": ""}
    plain = await client.post("/api/card/sign", json=sent)
    assert plain.status_code == 400
    spec = await plain.get_json()
    assert list(spec) == ["error"]
    asked = await client.post("/api/card/sign", json=sent,
                              headers={"X-Groupkit-Errors": "all"})
    assert asked.status_code == 400
    body = await asked.get_json()
    assert body["error"] == spec["error"] and body["field"] == "name"
    assert body["errors"][0] == {"field": "name", "error": spec["error"]}
    # A refusal that is not about the body (an unknown link) stays the spec's body.
    gone = await client.post("/api/card/sign", json={**sent, "slug": "nope"},
                             headers={"X-Groupkit-Errors": "all"})
    assert gone.status_code == 404 and list(await gone.get_json()) == ["error"]
    document = await (await client.get("/openapi.json")).get_json()
    operation = document["paths"]["/api/card/sign"]["post"]
    assert {"name": "X-Groupkit-Errors", "in": "header", "required": False,
            "description": ("`all`: a 400 also lists every failing field, and a refusal also "
                            "says its message in the reader's language (`shown`)"),
            "schema": {"type": "string", "enum": ["all"]}} in operation["parameters"]
    assert operation["responses"]["400"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CreateError"}


async def test_a_button_that_asks_first_asks_without_the_script_too(make_app: Any) -> None:
    """Every `data-confirm` button is sent under ASK: the first post changes nothing and
    shows the button's question at its form; the form sent again (AGREED) goes ahead."""
    client = make_app(tools=["sweeps"]).test_client()
    made = await create(client, "sweeps", {"title": "Cup", "outcomes": ["A", "B"],
                                           "names": ["Ann", "Bo"]})
    edit = made["editToken"]
    page = await (await client.get(f"/e/{edit}")).get_data(as_text=True)
    delete = re.search(r'<button type="submit"[^>]* name="groupkit-ask" value="1" '
                       r'data-confirm="Delete this for everyone\?[^"]*"[^>]*>', page)
    assert delete and page.count('name="groupkit-ask"') == page.count("data-confirm=")
    response = await form_post(client, f"/api/sweeps/{edit}/delete", [("groupkit-ask", "1")],
                               Referer=f"http://localhost/e/{edit}")
    assert response.headers["Location"] == f"/e/{edit}#groupkit-flash"
    page = await (await client.get(f"/e/{edit}")).get_data(as_text=True)
    assert re.search(r'<form class="action-form asking" method="post" '
                     rf'action="/api/sweeps/{edit}/delete"><p class="notice ask" '
                     r'id="groupkit-flash" role="alert" tabindex="-1">Delete this for '
                     r"everyone\? This can(&#39;|')t be undone.</p><input type=\"hidden\" "
                     r'name="groupkit-agreed" value="1">', page)
    assert f'<a href="/e/{edit}" class="ask-cancel">Cancel</a>' in page
    assert (await client.get(f"/s/{made['slug']}")).status_code == 200  # nothing changed
    response = await form_post(client, f"/api/sweeps/{edit}/delete",
                               [("groupkit-agreed", "1"), ("groupkit-ask", "1")],
                               Referer=f"http://localhost/e/{edit}")
    assert response.headers["Location"] == "/#groupkit-flash"
    assert (await client.get(f"/s/{made['slug']}")).status_code == 404


async def test_a_claim_that_lost_its_race_says_who_won_at_the_spot(make_app: Any) -> None:
    """The page no longer has the spot's form (it was taken meanwhile): the message goes to
    the spot itself with who got there first, not to another spot's form."""
    client = make_app(tools=["giftidea"]).test_client()
    made = await create(client, "giftidea", {"recipient": "Priya"})
    slug = made["slug"]
    ideas = [(await (await client.post("/api/giftidea/suggest", json={
        "slug": slug, "idea": idea})).get_json())["id"] for idea in ("Mug", "Socks")]
    await client.post("/api/giftidea/claim", json={"slug": slug, "ideaId": ideas[0],
                                                   "name": "Bo"})
    response = await form_post(client, "/api/giftidea/claim",
                               [("slug", slug), ("ideaId", ideas[0]), ("name", "Ann")],
                               Referer=f"http://localhost/s/{slug}")
    assert response.headers["Location"] == f"/s/{slug}#groupkit-flash"
    page = await (await client.get(f"/s/{slug}")).get_data(as_text=True)
    spot = page[page.index(f'id="idea-{ideas[0]}"'):page.index(f'id="idea-{ideas[1]}"')]
    assert re.search(r'<p class="error" id="groupkit-flash" role="alert">Someone(&#39;|\')s '
                     r"already getting that one\. Bo got there first\.</p>", spot)
    assert page.count("groupkit-flash") == 1


async def test_a_download_form_answers_with_the_file_and_an_error_goes_back(
        make_app: Any) -> None:
    client = make_app(tools=["sweeps"]).test_client()
    made = await create(client, "sweeps", {"title": "Cup", "outcomes": ["A", "B"],
                                           "names": ["Ann", "Bo"]})
    edit = made["editToken"]
    page = await (await client.get(f"/e/{edit}")).get_data(as_text=True)
    assert re.search(rf'<form class="action-form" method="post" action="/api/sweeps/{edit}/export">'
                     r'<input type="hidden" name="groupkit-download" '
                     rf'value="sweeps-{made["slug"]}.json">', page)
    response = await form_post(client, f"/api/sweeps/{edit}/export",
                               [(DOWNLOAD, f'../"sweeps {made["slug"]}".json')])
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == \
        f'attachment; filename="sweeps-{made["slug"]}-.json"'
    assert response.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in response.headers
    exported = json.loads(await response.get_data(as_text=True))
    assert exported["slug"] == made["slug"] and exported["data"]["names"] == ["Ann", "Bo"]
    scripted = await client.post(f"/api/sweeps/{edit}/export", json={})
    assert exported == json.loads(await scripted.get_data(as_text=True))  # the same export
    # No such organiser link: the page gets the error, no file.
    response = await form_post(client, "/api/sweeps/nosuchtoken0000000000/export",
                               [(DOWNLOAD, "x.json")], Referer=f"http://localhost/e/{edit}")
    assert response.status_code == 303 and "Content-Disposition" not in response.headers
    # From another site: refused like any form post.
    response = await form_post(client, f"/api/sweeps/{edit}/export", [(DOWNLOAD, "x.json")],
                               **{"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403


def test_the_zone_select_offers_utc_first_and_every_area() -> None:
    zones = time_zones()
    assert zones[0] == ("", ("UTC",))
    assert time_zones() is zones  # read once per process
    names = [zone for _, area in zones for zone in area]
    assert "Australia/Sydney" in names and "America/New_York" in names
    assert len(names) == len(set(names)) > 300
    assert not [name for name in names[1:] if name.startswith(("Etc/", "US/"))]


def test_a_text_field_is_labelled_prefixed_and_escaped() -> None:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             extensions=["jinja2.ext.i18n"])
    env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    forms = env.get_template("groupkit/_forms.html").module
    html = str(forms.text("edit-", "forWhom", "Who it's for", 80, "e.g. Mum", '"><b>x'))
    assert html == (
        '<div><label for="edit-forWhom">Who it&#39;s for <span class="muted">(optional)</span>'
        '</label>\n<input id="edit-forWhom" name="forWhom" maxlength="80" placeholder="e.g. Mum"'
        ' value="&#34;&gt;&lt;b&gt;x"></div>')
    assert "(optional)" not in str(forms.text("", "title", "Title", 80, "", optional=False))


def test_a_list_draws_each_item_or_says_there_are_none() -> None:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True)
    page = env.from_string(
        '{% import "groupkit/_lists.html" as lists %}'
        '{% call(x) lists.each(items, "Nobody yet.", "board", ordered=ordered) %}'
        '<li>{{ x }}</li>{% endcall %}')
    drawn = " ".join(page.render(items=["<a>", "b"], ordered=True).split())
    assert drawn == '<ol class="board"> <li>&lt;a&gt;</li> <li>b</li> </ol>'
    assert " ".join(page.render(items=["b"], ordered=False).split()) == (
        '<ul class="board"> <li>b</li> </ul>')
    assert page.render(items=[], ordered=False).strip() == '<p class="muted">Nobody yet.</p>'
