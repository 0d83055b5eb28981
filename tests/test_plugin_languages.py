"""Translated tools speak their reader's language on pages and the specification's English in
the API. Once the kernel offers German, each tool's pages say its own words in German (its
catalog), days and times written the German way; its public read stays byte for byte what an
English client gets, whatever the request asks for, though some views now word a value (a
shift's time, a part's name) in the language being spoken."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from groupkit.core import _i18n as i18n
from groupkit_testing import create

#: A tool, then words of its own its public page says in English and in German (the example
#: instance's: a roster on Saturday 14 March 2026, a meal train from Monday 2 March 2026), and
#: whether the English words are a value of its public read (worded in the language spoken).
SAID = [
    ("plate", "Tap Claim on an open spot", "Such dir einen freien Platz aus", False),
    ("roster", "Sat 14 Mar 2026, 07:00–09:00", "Samstag, 14. März 2026, 07:00–09:00", True),
    ("meal", "Mon 2 Mar 2026", "Montag, 2. März 2026", True),
    ("hens", "Who's bringing or sorting what", "Wer bringt oder erledigt was", False),
    ("recipe", "Add your recipe", "Gib dein Rezept dazu", False),
    ("registry", "Roof ladder", "Dachleiter", True),
]
GERMAN = {"Accept-Language": "de", "Cookie": f"{i18n.COOKIE}=de"}


@pytest.fixture
def offers_german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel catalog for German, so the kernel offers it (its words are not this test's)."""
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / f"{i18n.DOMAIN}.mo").open("wb") as out:
        write_mo(out, Catalog(locale="de"))
    monkeypatch.setattr(i18n, "KERNEL_LOCALE", tmp_path)


async def text(client: Any, path: str, **headers: str) -> str:
    response = await client.get(path, headers=headers)
    assert response.status_code == 200, path
    return str(await response.get_data(as_text=True))


@pytest.mark.parametrize(("tool", "english", "german", "read_says_it"), SAID)
async def test_pages_speak_german_and_the_api_english(
        make_app: Callable[..., Any], offers_german: None, tool: str, english: str,
        german: str, read_says_it: bool) -> None:
    app = make_app(tools=[tool])
    client = app.test_client()
    made = await create(client, tool, dict(app.config["GROUPKIT_TOOLS"][tool].example))
    # The read asked for in German first: the read is kept once made, and the English asked
    # for next must be the same bytes.
    read = f"/api/{tool}/{made['slug']}"
    asked_in_german = await (await client.get(read, headers=GERMAN)).get_data(as_text=True)
    assert (english in asked_in_german) is read_says_it and german not in asked_in_german
    assert await (await client.get(read)).get_data(as_text=True) == asked_in_german
    public = f"/s/{made['slug']}"
    in_english = await text(client, public)
    in_german = await text(client, public, **{"Accept-Language": "de"})
    assert english in in_english and german not in in_english
    assert german in in_german and english not in in_german


async def test_money_and_averages_are_written_the_readers_way(
        make_app: Callable[..., Any], offers_german: None) -> None:
    """A registry's prices and a pulse's average, in German: "1.234,00 AU$", "3,5"; English
    pages keep their own "$1,234" and "3.5"."""
    app = make_app(tools=["registry"])
    client = app.test_client()
    made = await create(client, "registry", dict(app.config["GROUPKIT_TOOLS"]["registry"].example))
    german = await text(client, f"/s/{made['slug']}", **GERMAN)
    english = await text(client, f"/s/{made['slug']}")
    assert "\xa0AU$" in german and "AU$" not in english
    assert "$" in english.split("Roof ladder", 1)[1][:200]
    from groupkit.core._i18n import format_decimal
    from groupkit.core._i18n import speaking

    with speaking(None, "de"):
        assert format_decimal(3.5, "0.0") == "3,5" and format_decimal(4.0, "0.0") == "4,0"
    assert format_decimal(4.0, "0.0") == "4.0"


async def test_an_export_downloaded_by_a_form_is_the_apis_english(
        make_app: Callable[..., Any], offers_german: None) -> None:
    """The organiser page's download works without JavaScript (a form post): what it saves
    is the API's data, in English, for a German reader too."""
    app = make_app(tools=["roster"])
    client = app.test_client()
    made = await create(client, "roster", dict(app.config["GROUPKIT_TOOLS"]["roster"].example))
    path = f"/api/roster/{made['editToken']}/export"
    by_form = await client.post(path, form={"groupkit-download": "1"}, headers=GERMAN)
    assert by_form.status_code == 200
    body = await by_form.get_data(as_text=True)
    assert "Sat 14 Mar 2026" in body and "Samstag" not in body
    assert json.loads(body) == await (await client.post(path)).get_json()


async def test_weights_are_written_the_readers_way(make_app: Callable[..., Any],
                                                   offers_german: None) -> None:
    import re

    app = make_app(tools=["baby"])
    client = app.test_client()
    example = dict(app.config["GROUPKIT_TOOLS"]["baby"].example)
    made = await create(client, "baby", example)
    import datetime as dt

    soon = (dt.date.today() + dt.timedelta(days=30)).isoformat()
    guessed = await client.post("/api/baby/guess", json={
        "slug": made["slug"], "guesser": "Ann", "date": soon, "weightGrams": 3300,
        "message": ""})
    assert guessed.status_code == 201, await guessed.get_json()
    german = await text(client, f"/s/{made['slug']}", **GERMAN)
    english = await text(client, f"/s/{made['slug']}")
    assert re.search(r"\b3,30\xa0?\s?kg", german) and "3.30 kg" not in german
    assert "3.30 kg" in english
