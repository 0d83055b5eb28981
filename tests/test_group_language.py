"""The group's language (groupkit.blocks._language): what a group receives together (chat
posts, emails, calendar text) speaks the language the instance was made in, or the one its
organiser chose since, never the language of whoever's request made it; pages keep
following each reader. Emails: tests/test_email_reminders.py."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from chat_receiver import Receiver

from groupkit.blocks import _webhooks as webhooks
from groupkit.core._storage import Instance
from groupkit_testing import FakeClock as Clock
from groupkit_testing import create

GERMAN = {"Accept-Language": "de-CH,de;q=0.9,en;q=0.5"}
NOTE = {"recipient": "Sam", "message": "Fixed the build", "sender": "Alex"}


@pytest.fixture
def app(make_app: Callable[..., Any], clock: Clock) -> Any:
    return make_app(tools=["kudos", "qotd", "poker", "plate", "roster"], clock=clock,
                    webhook_hosts=("127.0.0.1",), webhook_allow_loopback=True)


async def wall(client: Any, receiver: Receiver, **headers: str) -> dict[str, str]:
    response = await client.post("/api/kudos", json={"team": "Support", "intro": ""},
                                 headers=headers)
    assert response.status_code == 201
    made: dict[str, str] = await response.get_json()
    connected = await client.post(f"/api/kudos/{made['editToken']}/chat",
                                  json={"url": receiver.url()})
    assert connected.status_code == 200
    return made


async def posted(app: Any, clock: Clock, receiver: Receiver) -> list[str]:
    await webhooks.deliver_once(app.config["GROUPKIT_STORAGE"],
                                app.config["GROUPKIT_SETTINGS"], clock)
    return [str(text) for text in receiver.texts()]


def language_of(app: Any, slug: str) -> str:
    return str(app.config["GROUPKIT_STORAGE"].run_sync(
        lambda: Instance.get(Instance.slug == slug).language, write=False))


async def test_a_wall_made_in_german_posts_in_german_whoever_writes_the_note(
        app: Any, clock: Clock, receiver: Receiver) -> None:
    client = app.test_client()
    made = await wall(client, receiver, **GERMAN)
    assert language_of(app, made["slug"]) == "de"
    # An English reader's note, through the JSON API: the team's chat hears German.
    note = await client.post("/api/kudos/note", json={"slug": made["slug"], **NOTE},
                             headers={"Accept-Language": "en"})
    assert note.status_code == 201
    [text] = await posted(app, clock, receiver)
    assert text.startswith("Kudos für Sam von Alex:\nFixed the build\nDie Wand: ")


async def test_an_english_wall_stays_english_for_a_german_readers_form_post(
        app: Any, clock: Clock, receiver: Receiver) -> None:
    client = app.test_client()
    made = await wall(client, receiver)
    assert language_of(app, made["slug"]) == ""
    note = await client.post("/api/kudos/note", form={"slug": made["slug"], **NOTE},
                             headers={**GERMAN, "Cookie": "groupkit-lang=de"})
    assert note.status_code == 303
    [text] = await posted(app, clock, receiver)
    assert text.startswith("Kudos for Sam from Alex:\nFixed the build\nThe wall: ")


async def test_the_organiser_changes_the_groups_language(app: Any, clock: Clock,
                                                          receiver: Receiver) -> None:
    client = app.test_client()
    made = await wall(client, receiver)
    api = f"/api/kudos/{made['editToken']}/language"
    refused = await client.post(api, json={"language": "fr"})
    assert refused.status_code == 400
    assert (await refused.get_json()) == {
        "error": "Choose one of the languages offered here: en, de, es."}
    for bad in ({}, {"language": 3}, {"language": ""}, []):
        answer = await client.post(api, json=bad)
        assert answer.status_code == 400, bad
    chosen = await client.post(api, json={"language": "es"})
    assert chosen.status_code == 200 and (await chosen.get_json()) == {"language": "es"}
    await client.post("/api/kudos/note", json={"slug": made["slug"], **NOTE})
    [text] = await posted(app, clock, receiver)
    assert text.startswith("Kudos para Sam de Alex:\nFixed the build\nEl muro: ")
    # The organiser page shows the choice (in its reader's language), without a script.
    page = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert 'id="group-language"' in page and f'action="{api}"' in page
    assert '<option value="es" lang="es" selected>Español</option>' in page
    back = await client.post(api, form={"language": "en"})
    assert back.status_code == 303 and language_of(app, made["slug"]) == ""


async def test_scheduled_posts_speak_the_groups_language(app: Any, clock: Clock,
                                                         receiver: Receiver) -> None:
    """Question of the Day's morning post, made by the delivery loop (no request at all):
    German for a German team, the bank's question in German too."""
    client = app.test_client()
    response = await client.post("/api/qotd", json={"teamName": "Platform"}, headers=GERMAN)
    made = await response.get_json()
    await client.post(f"/api/qotd/{made['editToken']}/chat", json={"url": receiver.url()})
    clock.now = dt.datetime(2026, 3, 10, 23, 0, tzinfo=dt.UTC)  # 10:00 in Sydney
    await app.config["GROUPKIT_STORAGE"].write(
        webhooks.queue_scheduled, app.config["GROUPKIT_TOOLS"], clock(),
        app.config["GROUPKIT_SETTINGS"], app.config["GROUPKIT_CATALOGS"])
    [text] = await posted(app, clock, receiver)
    assert text.startswith("Frage des Tages: ") and "Entscheide dich: " in text
    today = (await (await client.get(f"/api/qotd/{made['slug']}")).get_json())["today"]
    assert today["question"] not in text  # the JSON is English; the post is German


async def test_only_tools_that_send_their_group_anything_offer_the_choice(app: Any) -> None:
    client = app.test_client()
    plate = await create(client, "plate", {"title": "Lunch", "categories": [
        {"name": "Mains", "capacity": 1}]})
    missing = await client.post(f"/api/plate/{plate['editToken']}/language",
                                json={"language": "de"})
    assert missing.status_code == 404
    page = await (await client.get(f"/e/{plate['editToken']}")).get_data(as_text=True)
    assert 'id="group-language"' not in page
    roster = await create(client, "roster", {"title": "Bee", "eventDate": "Saturday 14 March "
                                             "2026", "shifts": [{"label": "A", "capacity": 1}]})
    page = await (await client.get(f"/e/{roster['editToken']}")).get_data(as_text=True)
    assert 'id="group-language"' in page  # its spots have calendar feeds and reminders
    paths = (await (await client.get("/openapi.json")).get_json())["paths"]
    assert "/api/roster/{editToken}/language" in paths
    assert "/api/plate/{editToken}/language" not in paths
