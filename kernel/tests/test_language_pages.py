"""Pages speak their reader's language: the choice made with the switcher (a cookie, no
account), else the browser's `Accept-Language`; a page cached in one language is never
served in another; the API's JSON messages stay the specification's English."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_i18n import compiled

import demo_plugin
from conftest import FakeClock
from groupkit import Instance
from groupkit import Operations
from groupkit import Schema
from groupkit import Tool
from groupkit import hookimpl
from groupkit.core import _i18n as i18n
from groupkit_testing import create

FOOTER = ("No accounts: whoever has a link can use it. Share each link only with the people "
          "it's meant for.")
FUSSZEILE = "Keine Konten: Wer einen Link hat, kann ihn nutzen."
PIE = "Sin cuentas: quien tiene un enlace puede usarlo."


@pytest.fixture
def client(make_app: Callable[..., Any], clock: FakeClock, tmp_path: Path,
           monkeypatch: pytest.MonkeyPatch) -> Any:
    compiled(tmp_path, "groupkit", "de", {FOOTER: FUSSZEILE, "Language": "Sprache",
                                          "Change": "Wechseln", "Name it.": "Benenne es.",
                                          "Say something.": "Sag etwas.",
                                          "Copied": "Kopiert", "Taken by {name}":
                                          "Vergeben an {name}", "Not in a script": "Nein"})
    compiled(tmp_path, "groupkit", "es", {FOOTER: PIE})
    monkeypatch.setattr(i18n, "KERNEL_LOCALE", tmp_path)
    app = make_app(tools=["demo"], extra_plugins=[demo_plugin], entry_points=False,
                   clock=clock)
    return app.test_client()


async def page(client: Any, path: str, **headers: str) -> str:
    response = await client.get(path, headers=headers)
    assert response.status_code == 200, path
    return str(await response.get_data(as_text=True))


async def test_a_page_follows_the_browsers_language_and_the_cache_keeps_them_apart(
        client: Any) -> None:
    made = await create(client, "demo", {"title": "Lunch", "names": ["A"]})
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        german = await page(client, path, **{"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"})
        assert '<html lang="de" dir="ltr">' in german
        assert FUSSZEILE in german and FOOTER.replace("'", "&#39;") not in german
        assert '<option value="de" lang="de" selected>Deutsch</option>' in german
        assert "Sprache" in german
        # The same page, cached in German a moment ago, is rendered anew in English.
        english = await page(client, path, **{"Accept-Language": "en-GB"})
        assert '<html lang="en" dir="ltr">' in english and FUSSZEILE not in english
        assert (await page(client, path)).count(FUSSZEILE) == 0
        assert PIE in await page(client, path, **{"Accept-Language": "fr, es;q=0.5"})


async def test_a_page_hands_its_scripts_their_words_in_its_language(client: Any) -> None:
    made = await create(client, "demo", {"title": "Lunch", "names": ["A"]})
    german = await page(client, f"/s/{made['slug']}", **{"Accept-Language": "de"})
    handed = german.split('<script type="application/json" id="groupkit-words">')[1]
    # Only the words page scripts say (found in their `words("...")` calls).
    assert json.loads(handed.split("</script>")[0]) == {
        "Copied": "Kopiert", "Taken by {name}": "Vergeben an {name}"}
    english = await page(client, f"/s/{made['slug']}")
    assert "groupkit-words" not in english


async def test_the_switcher_remembers_a_choice_over_the_browsers(client: Any) -> None:
    made = await create(client, "demo", {"title": "Lunch", "names": ["A"]})
    public = f"/s/{made['slug']}"
    response = await client.post("/language", form={"language": "es"},
                                 headers={"Referer": f"http://localhost{public}"})
    assert response.status_code == 303
    assert response.headers["Location"] == public
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("groupkit-lang=es;") and "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert PIE in await page(client, public, **{"Accept-Language": "de"})


@pytest.mark.parametrize("back", ["http://evil.example/s/x", "https://evil.example/",
                                  "http://localhost//evil.example/x", "", "/s/relative",
                                  "http://localhost/\\evil.example"])
async def test_the_switcher_only_goes_back_to_a_page_of_this_site(
        client: Any, back: str) -> None:
    response = await client.post("/language", form={"language": "de"},
                                 headers={"Referer": back} if back else {})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


async def test_a_language_not_offered_sets_nothing(client: Any) -> None:
    response = await client.post("/language", form={"language": "xx"})
    assert response.status_code == 303 and "Set-Cookie" not in response.headers


async def test_api_messages_stay_the_specifications_english(client: Any) -> None:
    english = await client.post("/api/demo/note", json={"slug": "nope", "text": "x"})
    german = await client.post("/api/demo/note", json={"slug": "nope", "text": "x"},
                               headers={"Accept-Language": "de", "Cookie": "groupkit-lang=de"})
    assert german.status_code == english.status_code == 404
    assert await german.get_data() == await english.get_data()


async def test_a_pages_script_is_told_the_message_in_its_readers_language(
        client: Any) -> None:
    made = await create(client, "demo", {"title": "Lunch", "names": ["A"]})
    page_asks = {"X-Groupkit-Errors": "all", "Accept-Language": "de"}
    refused = await client.post("/api/demo", json={"names": ["A"]}, headers=page_asks)
    assert await refused.get_json() == {
        "error": "Name it.", "shown": "Benenne es.", "field": "title",
        "errors": [{"field": "title", "error": "Name it.", "shown": "Benenne es."}]}
    note = await client.post("/api/demo/note", json={"slug": made["slug"]},
                             headers={**page_asks, "Accept-Language": "en",
                                      "Cookie": "groupkit-lang=de"})
    assert await note.get_json() == {
        "error": "Say something.", "shown": "Sag etwas.", "field": "text",
        "errors": [{"field": "text", "error": "Say something.", "shown": "Sag etwas."}]}
    # Any other client gets the spec's body alone, an English reader no `shown`.
    plain = await client.post("/api/demo/note", json={"slug": made["slug"]},
                              headers={"Accept-Language": "de"})
    assert await plain.get_json() == {"error": "Say something."}
    english = await client.post("/api/demo/note", json={"slug": made["slug"]},
                                headers={"X-Groupkit-Errors": "all"})
    assert "shown" not in await english.get_json()
    closed = await client.post("/api/demo/note", json={"slug": "gone", "text": "x"},
                               headers=page_asks)
    assert (await closed.get_json())["error"] == "Nothing here — check the link you were given."


async def test_a_form_post_without_script_shows_the_message_in_its_readers_language(
        client: Any) -> None:
    posted = await client.post("/api/demo", data="title=", headers={
        "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin",
        "Accept-Language": "de"})
    assert posted.status_code == 303
    flash = posted.headers["Set-Cookie"].split(";")[0]
    landed = await client.get(posted.headers["Location"].split("#")[0], headers={
        "Accept-Language": "de", "Cookie": flash})
    assert "Benenne es." in await landed.get_data(as_text=True)


async def test_with_english_only_there_is_no_switcher(
        make_app: Callable[..., Any], clock: FakeClock, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "KERNEL_LOCALE", tmp_path)  # a kernel with no catalogs
    app = make_app(tools=["demo"], extra_plugins=[demo_plugin], entry_points=False,
                   clock=clock)
    text = await page(app.test_client(), "/", **{"Accept-Language": "de"})
    assert '<html lang="en" dir="ltr">' in text
    assert 'action="/language"' not in text


# --- a plugin's own catalog ------------------------------------------------------------------

class _Empty(Schema):
    """A create body with no fields."""


def _greeting(instance: Instance) -> dict[str, Any]:
    return {"greeting": i18n.gettext("Hello")}


def _greeter(package: Path) -> object:
    """A tool whose view has a word to translate, its catalog in its package's `locale`."""
    for page in ("create", "public", "organiser"):
        (package / "templates" / "greeter").mkdir(parents=True, exist_ok=True)
        (package / "templates" / "greeter" / f"{page}.html").write_text(
            '{% extends "groupkit/base.html" %}{% block content %}<p id="greeting">'
            '{{ view.greeting }}</p>{% endblock %}')
    compiled(package / "locale", package.name, "de", {"Hello": "Hallo"})

    def groupkit_tool() -> Tool:
        return Tool(name="greeter", title="Greeter", version="1", create_schema=_Empty,
                    create=lambda instance, data: None, public_view=_greeting,
                    organiser_view=_greeting, operations=Operations(),
                    templates=package / "templates", plugin_api=(1, 1))

    return type("GreeterPlugin", (), {"groupkit_tool": staticmethod(hookimpl(groupkit_tool))})


async def test_a_plugins_catalog_speaks_on_its_pages_and_never_in_its_json(
        make_app: Callable[..., Any], clock: FakeClock, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    compiled(tmp_path / "kernel", "groupkit", "de", {FOOTER: FUSSZEILE})
    monkeypatch.setattr(i18n, "KERNEL_LOCALE", tmp_path / "kernel")
    app = make_app(tools=["greeter"], entry_points=False, clock=clock,
                   extra_plugins=[_greeter(tmp_path / "groupkit_greeter")])
    client = app.test_client()
    slug = (await create(client, "greeter", {}))["slug"]
    german = {"Accept-Language": "de"}
    assert '<p id="greeting">Hallo</p>' in await page(client, f"/s/{slug}", **german)
    assert '<p id="greeting">Hello</p>' in await page(client, f"/s/{slug}")
    for headers in (german, {**german, "Cookie": "groupkit-lang=de"}, {}):
        read = await client.get(f"/api/greeter/{slug}", headers=headers)
        assert await read.get_json() == {"greeting": "Hello"}
