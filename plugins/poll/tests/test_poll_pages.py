"""Create, public, voter and organiser pages; escaping; privacy of names (open ballots show
them only to the organiser, secret ballots store none at all); delete and the one 404."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from typing import Any

import peewee as pw

from groupkit import Instance

NASTY = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
SECRET_NAME = "Zephyrine Quokkawood"


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


def attributes(text: str, name: str) -> list[str]:
    pattern = rf"\s{name}=(?:'([^']*)'|\"([^\"]*)\")"
    return [html.unescape(a or b) for a, b in re.findall(pattern, text)]


def every_stored_value(db: Any) -> str:
    """Every row of every table in this test's database, as one string."""
    def dump() -> str:
        database = Instance._meta.database
        schema = None
        if isinstance(database.obj, pw.PostgresqlDatabase):
            schema = database.execute_sql("SELECT current_schema()").fetchone()[0]
        rows = []
        for table in database.get_tables(schema=schema):
            rows.extend(database.execute_sql(f'SELECT * FROM "{table}"').fetchall())
        assert rows
        return repr(rows)
    return str(db(dump))


# --- create page --------------------------------------------------------------------------

async def test_create_page(api: Any) -> None:
    text = await api.page("/new/poll")
    assert 'data-api="/api/poll"' in text
    assert 'data-list="options"' in text and 'data-add-row="options"' in text
    assert '<template data-row-template="options">' in text
    assert text.count('data-key="text"') >= 3
    for name in ("question", "mode", "maxPicks", "allowSuggestions", "secret"):
        assert re.search(rf'name="{name}(:\w+)?"', text)
    assert 'data-type="number"' in text
    assert '<link rel="stylesheet" href="/static/poll/poll.css">' in text
    assert_no_inline_code(text)


async def test_what_the_create_page_sends_is_accepted(api: Any) -> None:
    """The body the page's form produces: options as {text} rows, checkbox booleans, an
    empty maxPicks field."""
    body = {"question": "Team name?", "options": [{"text": "Owls"}, {"text": ""},
                                                  {"text": "Bats"}],
            "mode": "multi", "maxPicks": "", "allowSuggestions": True, "secret": False}
    made = await api.client.post("/api/poll", json=body)
    view = await api.read((await made.get_json())["slug"])
    assert [o["text"] for o in view["tally"]] == ["Owls", "Bats"]
    assert (view["mode"], view["maxPicks"], view["allowSuggestions"]) == ("multi", None, True)


async def test_static_files_are_served(api: Any) -> None:
    for name, marker in (("poll.css", ".poll-result"), ("poll.js", "data-poll-ballot")):
        response = await api.client.get(f"/static/poll/{name}")
        assert response.status_code == 200
        assert marker in (await response.get_data()).decode()


# --- public page --------------------------------------------------------------------------

async def test_public_page_single_choice(api: Any, poll: dict[str, str]) -> None:
    slug = poll["slug"]
    ids = await api.ids(slug)
    await api.voted(slug, [ids["Pub"]], voterName="Ann")
    response = await api.client.get(f"/s/{slug}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    text = (await response.get_data()).decode()
    assert "<h1>Where for lunch?</h1>" in text
    assert 'data-api="/api/poll/vote"' in text
    assert 'data-remember-token="groupkit:poll:{slug}"' in text
    assert 'data-goto="/p/{token}"' in text
    fields = inputs(text)
    assert {"type": "hidden", "name": "slug", "value": slug} in fields
    assert {"type": "hidden", "name": "choices:json", "value": "[]"} in fields
    radios = [f for f in fields if f.get("type") == "radio"]
    assert [r["value"] for r in radios] == list(ids.values())
    assert all("data-choice" in r and r["name"] == "choices:list" for r in radios)
    assert 'name="voterName"' in text and 'name="suggestion"' not in text
    assert 'id="poll-ballot" data-live-region' in text
    assert 'id="poll-tally" class="card poll-tally" data-live-region' in text
    assert re.search(r'<meter min="0" max="1" value="1" aria-label="Pub: 1 of 1">', text)
    assert "1 vote<" in text
    assert "Ann" not in text  # who voted is the organiser's business
    assert 'src="/static/poll/poll.js"' in text
    assert_no_inline_code(text)


async def test_public_page_multi_choice_with_suggestions(api: Any) -> None:
    made = await api.make(mode="multi", maxPicks=2, allowSuggestions=True, secret=True)
    text = await api.page(f"/s/{made['slug']}")
    boxes = [f for f in inputs(text) if f.get("type") == "checkbox"]
    assert len(boxes) == 3 and all(box["name"] == "choices:list" for box in boxes)
    assert 'name="suggestion"' in text
    assert 'name="voterName"' not in text  # a secret ballot asks for no name
    assert "Pick up to 2." in text and "Secret ballot" in text


async def test_closed_public_page_has_no_form(api: Any, poll: dict[str, str]) -> None:
    await api.organiser(poll["editToken"], "close")
    text = await api.page(f"/s/{poll['slug']}")
    assert "Voting has closed" in text
    assert "data-api" not in text


async def test_full_public_page_has_no_form(api: Any, poll: dict[str, str], db: Any) -> None:
    def fill() -> None:
        instance = Instance.get(Instance.slug == poll["slug"])
        instance.data = {**instance.data, "ballots": 2000}
        instance.save()
    db(fill)
    text = await api.page(f"/s/{poll['slug']}")
    assert "all the votes it can take (2000)" in text
    assert "data-api" not in text


async def test_link_preview_shows_the_question_only(api: Any, poll: dict[str, str]) -> None:
    ids = await api.ids(poll["slug"])
    await api.voted(poll["slug"], [ids["Pub"]], voterName=SECRET_NAME)
    text = await api.page(f"/s/{poll['slug']}")
    assert '<meta property="og:title" content="Where for lunch?">' in text
    assert '<meta name="description" content="A quick vote: 3 options to choose from.">' in text
    assert SECRET_NAME not in text


# --- the voter's page ---------------------------------------------------------------------

async def test_voter_page_shows_and_changes_the_ballot(api: Any) -> None:
    made = await api.make(mode="multi")
    ids = await api.ids(made["slug"])
    reply = await api.voted(made["slug"], [ids["Thai"], ids["Picnic"]], voterName="Ann")
    response = await api.client.get(f"/p/{reply['token']}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert f'data-api="/api/poll/v/{reply["token"]}"' in text
    checked = [f["value"] for f in inputs(text) if f.get("type") == "checkbox"
               and "checked" in f]
    assert checked == [ids["Thai"], ids["Picnic"]]
    assert "Your vote, Ann." in text
    assert text.count("your pick</span>") == 2
    assert f'href="/s/{made["slug"]}"' in text
    assert_no_inline_code(text)
    # What the page's form posts works.
    response = await api.change(reply["token"], [ids["Pub"]])
    assert response.status_code == 200
    text = await api.page(f"/p/{reply['token']}")
    assert [f["value"] for f in inputs(text) if "checked" in f] == [ids["Pub"]]


async def test_voter_page_of_a_closed_poll(api: Any, poll: dict[str, str]) -> None:
    ids = await api.ids(poll["slug"])
    token = (await api.voted(poll["slug"], [ids["Thai"]]))["token"]
    await api.organiser(poll["editToken"], "close")
    text = await api.page(f"/p/{token}")
    assert "your vote is final" in text and "data-api" not in text


async def test_unknown_voter_page_is_404(api: Any) -> None:
    await api.page("/p/" + "2" * 22, 404)


# --- organiser page -----------------------------------------------------------------------

async def test_organiser_page(api: Any, poll: dict[str, str]) -> None:
    slug, edit = poll["slug"], poll["editToken"]
    ids = await api.ids(slug)
    await api.voted(slug, [ids["Thai"]], voterName="Ann")
    await api.voted(slug, [ids["Pub"]])
    response = await api.client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    assert f"/s/{slug}" in text and f"/e/{edit}" in text
    rows = re.findall(r"<tr><td>(.*?)</td>\s*<td>(.*?)</td></tr>", text, re.S)
    assert rows == [("Ann", "Thai"), ('<span class="muted">No name given</span>', "Pub")]
    assert f'data-post="/api/poll/{edit}/close"' in text
    assert f'data-api="/api/poll/{edit}/addOption"' in text
    # The option list's own buttons (the "Change details" form has its rows' too).
    removes = re.findall(r"<button[^>]*/removeOption[^>]*>Remove</button>", text)
    assert len(removes) == 3
    assert [json.loads(body) for button in removes for body in attributes(button, "data-body")
            ] == [{"optionId": option_id} for option_id in ids.values()]
    for region in ("poll-state", "poll-tally", "poll-options", "poll-ballots"):
        assert re.search(rf'id="{region}"[^>]*data-live-region', text), region
    assert_no_inline_code(text)


async def test_organiser_page_hides_remove_at_two_options(api: Any) -> None:
    made = await api.make(options=["a", "b"])
    assert "/removeOption" not in await api.page(f"/e/{made['editToken']}")


# --- escaping -----------------------------------------------------------------------------

async def test_user_text_is_escaped_everywhere(api: Any) -> None:
    made = await api.make(question=NASTY, options=[NASTY, "\"'><b>x"], allowSuggestions=True)
    reply = await api.voted(made["slug"], [], suggestion="<img src=x onerror=alert(2)>",
                            voterName="</td><script>alert(3)</script>")
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}", f"/p/{reply['token']}"):
        text = await api.page(path)
        assert "<script>alert" not in text and "<img src=x" not in text and "<b>x" not in text
        assert ESCAPED in text
        assert "&lt;img src=x onerror=alert(2)&gt;" in text
        assert_no_inline_code(text)
    organiser = await api.page(f"/e/{made['editToken']}")
    assert "&lt;/td&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in organiser


# --- privacy ------------------------------------------------------------------------------

async def test_open_ballot_names_only_on_organiser_surfaces(api: Any,
                                                           poll: dict[str, str]) -> None:
    ids = await api.ids(poll["slug"])
    first = await api.voted(poll["slug"], [ids["Thai"]], voterName=SECRET_NAME)
    second = await api.voted(poll["slug"], [ids["Pub"]], voterName="Bo")
    public = [await api.page(f"/s/{poll['slug']}"),
              json.dumps(await api.read(poll["slug"]), ensure_ascii=False),
              json.dumps(second, ensure_ascii=False),
              await api.page(f"/p/{second['token']}"),
              json.dumps(await (await api.change(second["token"], [ids["Thai"]])).get_json())]
    for surface in public:
        assert SECRET_NAME not in surface
    assert SECRET_NAME in await api.page(f"/e/{poll['editToken']}")
    assert SECRET_NAME in await api.page(f"/p/{first['token']}")  # the voter's own page
    export = await (await api.organiser(poll["editToken"], "export")).get_json()
    assert SECRET_NAME in json.dumps(export, ensure_ascii=False)


async def test_secret_ballot_stores_no_name_anywhere(api: Any, db: Any) -> None:
    made = await api.make(secret=True, mode="multi", allowSuggestions=True)
    ids = await api.ids(made["slug"])
    reply = await api.voted(made["slug"], [ids["Thai"]], voterName=SECRET_NAME,
                            suggestion="Dumplings")
    await api.change(reply["token"], [ids["Pub"]], voterName=SECRET_NAME)
    await api.voted(made["slug"], [ids["Pub"]], voterName=f"  {SECRET_NAME}  ")
    stored = every_stored_value(db)
    assert "Dumplings" in stored  # the dump really covers the poll's rows
    for fragment in (SECRET_NAME, "Zephyrine", "Quokkawood", SECRET_NAME.lower()):
        assert fragment not in stored
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}", f"/p/{reply['token']}"):
        text = await api.page(path)
        assert "Zephyrine" not in text
    export = await (await api.organiser(made["editToken"], "export")).get_json()
    assert export["data"]["ballotList"] == []
    assert "Zephyrine" not in json.dumps(export)
    assert "no names are kept" in await api.page(f"/e/{made['editToken']}")


async def test_open_ballot_does_store_the_name(api: Any, poll: dict[str, str],
                                               db: Any) -> None:
    """The control for the test above: the same dump finds a name where one is kept."""
    ids = await api.ids(poll["slug"])
    await api.voted(poll["slug"], [ids["Thai"]], voterName=SECRET_NAME)
    assert SECRET_NAME in every_stored_value(db)


# --- delete -------------------------------------------------------------------------------

async def test_delete_makes_every_credential_404(api: Any, poll: dict[str, str]) -> None:
    slug, edit = poll["slug"], poll["editToken"]
    ids = await api.ids(slug)
    token = (await api.voted(slug, [ids["Thai"]]))["token"]
    response = await api.organiser(edit, "delete")
    assert await response.get_json() == {"ok": True, "deleted": True}
    calls = [("GET", f"/api/poll/{slug}", None),
             ("POST", "/api/poll/vote", {"slug": slug, "choices": [ids["Thai"]]}),
             ("POST", f"/api/poll/v/{token}", {"choices": [ids["Pub"]]}),
             ("POST", f"/api/poll/{edit}/close", None),
             ("POST", f"/api/poll/{edit}/addOption", {"text": "x"}),
             ("POST", f"/api/poll/{edit}/removeOption", {"optionId": ids["Thai"]}),
             ("POST", f"/api/poll/{edit}/export", None)]
    for method, path, body in calls:
        response = await (api.client.get(path) if method == "GET"
                          else api.client.post(path, json=body or {}))
        assert response.status_code == 404, path
        assert await response.get_json() == api.NOT_FOUND
    for path in (f"/s/{slug}", f"/e/{edit}", f"/p/{token}"):
        await api.page(path, 404)


async def test_every_write_tells_open_pages(api: Any, poll: dict[str, str]) -> None:
    """Each successful write bumps the version the live stream reports; a refusal doesn't."""
    def version(text: str) -> int:
        return int(re.search(r'data-live-version="(\d+)"', text).group(1))  # type: ignore[union-attr]

    slug, edit = poll["slug"], poll["editToken"]
    ids = await api.ids(slug)
    before = version(await api.page(f"/s/{slug}"))
    token = (await api.voted(slug, [ids["Thai"]]))["token"]
    await api.change(token, [ids["Pub"]])
    await api.organiser(edit, "addOption", {"text": "Sushi"})
    await api.vote(slug, [])  # refused
    assert version(await api.page(f"/s/{slug}")) == before + 3
