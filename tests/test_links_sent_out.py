"""Links that leave the page for someone else (a chat post to the team's channel, the events
of a calendar feed) never come from a participant's request: a participant who sends
`Host: evil.example` must not put a phishing link under the team's own integration. In
production they start with `base_url`, and without one the service refuses to start while
chat webhooks are on (`groupkit serve`, `groupkit check`, the app); in development a chat
post links to the origin the organiser connected the webhook on, and a feed carries no link
rather than the poller's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from chat_receiver import Receiver

from groupkit.blocks import _webhooks as webhooks
from groupkit.core._config import ConfigError
from groupkit.ops._cli import main
from groupkit_testing import FakeClock as Clock
from groupkit_testing import create

EVIL = {"Host": "evil.example"}
PUBLIC = "https://groups.example.org"
ROSTER = {"title": "Working bee", "eventDate": "Saturday 14 March 2026", "note": "",
          "shifts": [{"label": "Setup 7-9am", "capacity": 2}]}


@pytest.fixture(params=["development", "production"])
def app(request: pytest.FixtureRequest, make_app: Callable[..., Any], clock: Clock) -> Any:
    configured = {"mode": "production", "base_url": PUBLIC} if request.param == "production" \
        else {}
    return make_app(tools=["kudos", "poker", "coffee", "qotd", "roster", "finddate"],
                    clock=clock, webhook_hosts=("127.0.0.1",), webhook_allow_loopback=True,
                    **configured)


def origin(app: Any) -> str:
    """Where links must point: the configured base_url, else the origin the organiser
    connected on (the test client's own, `localhost`)."""
    return app.config["GROUPKIT_SETTINGS"].base_url or "http://localhost"


async def connected(client: Any, tool: str, body: dict[str, Any], url: str) -> dict[str, str]:
    made = await create(client, tool, body)
    response = await client.post(f"/api/{tool}/{made['editToken']}/chat", json={"url": url})
    assert response.status_code == 200, await response.get_json()
    return made


async def delivered(app: Any, clock: Clock, receiver: Receiver) -> list[str]:
    await webhooks.deliver_once(app.config["GROUPKIT_STORAGE"],
                                app.config["GROUPKIT_SETTINGS"], clock)
    return receiver.texts()


async def test_a_participants_host_header_never_reaches_the_teams_chat(
        app: Any, clock: Clock, receiver: Receiver) -> None:
    client = app.test_client()
    wall = await connected(client, "kudos", {"team": "Support", "intro": ""}, receiver.url())
    board = await connected(client, "poker", {"team": "Payments", "story": "PAY-1",
                                              "deck": "fib"}, receiver.url())
    coffee = await connected(client, "coffee", {"title": "Coffee",
                                                 "names": ["Ann", "Bo", "Cy"]},
                             receiver.url())
    # From here on every request, the organiser's too, claims to come from evil.example.
    note = await client.post("/api/kudos/note", headers=EVIL, json={
        "slug": wall["slug"], "recipient": "Sam", "message": "thanks", "sender": "Alex"})
    assert note.status_code == 201
    token = (await (await client.post("/api/poker/join", headers=EVIL, json={
        "slug": board["slug"], "name": "Ann"})).get_json())["token"]
    assert (await client.post(f"/api/poker/v/{token}/vote", headers=EVIL,
                              json={"card": "3"})).status_code == 200
    assert (await client.post(f"/api/poker/{board['editToken']}/reveal",
                              headers=EVIL)).status_code == 200
    assert (await client.post(f"/api/coffee/{coffee['editToken']}/draw",
                              headers=EVIL)).status_code == 200
    texts = await delivered(app, clock, receiver)
    assert len(texts) == 3
    for made, text in zip((wall, board, coffee), sorted(texts, key=_tool_order), strict=True):
        assert "evil.example" not in text
        assert text.endswith(f"{origin(app)}/s/{made['slug']}"), text


def _tool_order(text: str) -> int:
    return next(n for n, start in enumerate(("Kudos", "Cards", "Coffee")) if
                text.startswith(start))


async def test_a_scheduled_post_links_where_the_operator_or_the_organiser_said(
        app: Any, clock: Clock, receiver: Receiver) -> None:
    client = app.test_client()
    made = await connected(client, "qotd", {"teamName": "Platform"}, receiver.url())
    await client.get(f"/s/{made['slug']}", headers=EVIL)  # a visit changes nothing
    storage, tools = app.config["GROUPKIT_STORAGE"], app.config["GROUPKIT_TOOLS"]
    clock.advance(minutes=30)  # 09:00 in Sydney, the default hour
    await storage.write(webhooks.queue_scheduled, tools, clock(),
                        app.config["GROUPKIT_SETTINGS"])
    [text] = await delivered(app, clock, receiver)
    assert text.endswith(f"{origin(app)}/s/{made['slug']}") and "evil" not in text


async def test_a_feed_never_links_to_the_pollers_host(app: Any) -> None:
    client = app.test_client()
    made = await create(client, "roster", ROSTER)
    claimed = await client.post("/api/roster/claim", headers=EVIL, json={
        "slug": made["slug"], "slotId": "s0-1", "name": "Priya", "message": ""})
    secret = (await claimed.get_json())["secret"]
    links = await (await client.post("/api/roster/feed", headers=EVIL, json={
        "slug": made["slug"], "slotId": "s0-1", "secret": secret})).get_json()
    path = "/" + links["feedUrl"].split("://", 1)[1].split("/", 1)[1]
    body = (await (await client.get(path, headers=EVIL)).get_data()).decode()
    assert "BEGIN:VEVENT" in body and "evil.example" not in body
    configured = app.config["GROUPKIT_SETTINGS"].base_url
    page = f"/s/{made['slug']}"
    if configured:
        assert f"URL:{configured}{page}" in body
    else:  # nothing says where the service is: no link rather than the poller's
        assert page not in body and "URL:" not in body


# --- production without base_url --------------------------------------------------------------

MESSAGE = "base_url must be set in production while chat webhooks are on"


def test_production_without_base_url_refuses_to_start_while_webhooks_are_on(
        make_app: Callable[..., Any]) -> None:
    with pytest.raises(ConfigError, match=MESSAGE):
        make_app(tools=["kudos"], mode="production")
    make_app(tools=["kudos"], mode="production", webhook_hosts=())  # webhooks off: fine
    make_app(tools=["roster"], mode="production")  # no tool posts to a chat: fine
    make_app(tools=["kudos"], mode="production", base_url=PUBLIC)


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GROUPKIT_CONFIG", "GROUPKIT_DATABASE_URL", "GROUPKIT_MODE"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.usefixtures("clean_environment")
@pytest.mark.parametrize(("extra", "line"), [
    ("", 1),  # no base_url line: the mode's
    ('base_url = ""\n', 2),
])
def test_check_refuses_production_without_base_url_while_webhooks_are_on(
        tmp_path: Path, capsys: Any, extra: str, line: int) -> None:
    path = tmp_path / "groupkit.toml"
    database = f'[database]\nurl = "sqlite:///{tmp_path}/groupkit.db"\n'
    path.write_text(f'mode = "production"\n{extra}{database}[tools]\nenabled = ["kudos"]\n',
                    encoding="utf-8")
    assert main(["check", "--offline", "--config", str(path)]) == 1
    [said] = capsys.readouterr().out.splitlines()
    assert said.startswith(f"{path}:{line}: {MESSAGE}") and "base_url = " in said
    path.write_text(f'mode = "production"\n{extra}{database}[tools]\nenabled = ["kudos"]\n'
                    "[webhooks]\nhosts = []\n", encoding="utf-8")
    assert main(["check", "--offline", "--config", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: ok\n"
