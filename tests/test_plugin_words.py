"""Tools that ship their own German and Spanish say their words in them on their pages: the
words their templates mark, the words their Python makes at render time (a default title, a
day's name, a bank question), while what people typed stays as typed and the JSON API stays
the specification's English. The kernel's catalog here is an empty German and Spanish one,
only so that both are offered."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_i18n import compiled

from groupkit.core import _i18n as i18n
from groupkit_testing import create


@pytest.fixture
def client(make_app: Callable[..., Any], tmp_path: Path,
           monkeypatch: pytest.MonkeyPatch) -> Any:
    for language in ("de", "es"):
        compiled(tmp_path, "groupkit", language, {})
    monkeypatch.setattr(i18n, "KERNEL_LOCALE", tmp_path)
    app = make_app(tools=["card", "qotd", "kudos"])
    return app.test_client()


async def page(client: Any, path: str, language: str) -> str:
    response = await client.get(path, headers={"Accept-Language": language})
    assert response.status_code == 200, path
    return str(await response.get_data(as_text=True))


async def test_a_cards_own_phrase_is_the_readers_and_a_typed_title_is_not(client: Any) -> None:
    untitled = await create(client, "card", {"recipient": "Bob"})
    titled = await create(client, "card", {"recipient": "Bob", "title": "Happy retirement!"})
    german = await page(client, f"/s/{untitled['slug']}", "de")
    assert '<h1 class="card-title">Eine Karte für Bob</h1>' in german
    assert "Karte unterschreiben" in german and "Sign the card" not in german
    assert "Una tarjeta para Bob" in await page(client, f"/e/{untitled['editToken']}", "es")
    assert '<h1 class="card-title">Happy retirement!</h1>' in await page(
        client, f"/s/{titled['slug']}", "de")
    assert '<h1 class="card-title">A card for Bob</h1>' in await page(
        client, f"/s/{untitled['slug']}", "en")
    read = await client.get(f"/api/card/{untitled['slug']}", headers={"Accept-Language": "de"})
    assert (await read.get_json())["title"] == "A card for Bob"


async def test_the_question_bank_is_the_readers_and_an_added_question_is_not(
        client: Any) -> None:
    made = await create(client, "qotd", {"teamName": "Platform"})
    added = await client.post(f"/api/qotd/{made['editToken']}/add",
                              json={"question": "Tea or coffee?", "a": "Tea", "b": "Coffee"})
    assert added.status_code == 200
    tally = await (await client.get(f"/api/qotd/{made['slug']}/tally")).get_json()
    english = tally["question"]
    german = await page(client, f"/e/{made['editToken']}", "de")
    assert english not in german and "Tea or coffee?" in german
    assert "Platform: Frage des Tages" in german and "Als Nächstes" in german
    read = await client.get(f"/api/qotd/{made['slug']}", headers={"Accept-Language": "es"})
    assert (await read.get_json())["today"]["question"] == english
    assert english in await page(client, f"/s/{made['slug']}", "en")


async def test_a_walls_week_is_named_the_readers_way(client: Any) -> None:
    made = await create(client, "kudos", {"team": "Support"})
    assert "Woche vom " in await page(client, f"/s/{made['slug']}", "de")
    assert "Semana del " in await page(client, f"/s/{made['slug']}", "es")
    read = await client.get(f"/api/kudos/{made['slug']}", headers={"Accept-Language": "de"})
    assert (await read.get_json())["label"].startswith("Week of ")
