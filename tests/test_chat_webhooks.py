"""Chat webhooks (groupkit.blocks._webhooks) through the API: connecting, the posts each ritual
queues, delivery with retries and backoff, the delivery log, and the address checks that
keep a webhook from reaching anything but a public chat service (a resolver that lies,
redirects). Every post goes to a local receiver on 127.0.0.1, which the test's allow list
names with the loopback opt-in."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import Any

import pytest
from chat_receiver import Receiver

from groupkit.blocks import _webhooks as webhooks
from groupkit.core._config import Settings
from groupkit_testing import FakeClock as Clock
from groupkit_testing import create

SECRET_PATH = "/services/T000/B000/qzsecretwebhookpath"


@pytest.fixture
def app(make_app: Callable[..., Any], clock: Clock) -> Any:
    return make_app(tools=["kudos", "qotd", "poker", "coffee", "pulse"], clock=clock,
                    webhook_hosts=("127.0.0.1",), webhook_allow_loopback=True)


async def deliver(app: Any, clock: Clock) -> int:
    return await webhooks.deliver_once(app.config["GROUPKIT_STORAGE"],
                                       app.config["GROUPKIT_SETTINGS"], clock)


async def connect(client: Any, tool: str, edit: str, url: str, **extra: Any) -> Any:
    return await client.post(f"/api/{tool}/{edit}/chat", json={"url": url, **extra})


async def kudos_wall(client: Any, receiver: Receiver) -> dict[str, str]:
    made = await create(client, "kudos", {"team": "Support", "intro": ""})
    response = await connect(client, "kudos", made["editToken"], receiver.url(SECRET_PATH))
    assert response.status_code == 200, await response.get_json()
    return made


async def post_note(client: Any, slug: str, message: str = "Fixed <the> build & more") -> None:
    response = await client.post("/api/kudos/note", json={
        "slug": slug, "recipient": "Sam", "message": message, "sender": "Alex"})
    assert response.status_code == 201


async def test_each_new_kudos_is_posted_once_with_the_wall_link(app: Any, clock: Clock,
                                                                receiver: Receiver) -> None:
    client = app.test_client()
    made = await kudos_wall(client, receiver)
    await post_note(client, made["slug"])
    assert await deliver(app, clock) == 1
    assert await deliver(app, clock) == 0
    assert len(receiver.received) == 1
    sent = receiver.received[0]
    assert sent["path"] == SECRET_PATH
    text = sent["body"]["text"]
    # Slack reads <...> as links and mentions: escaped.
    assert "Kudos for Sam from Alex" in text and "Fixed &lt;the&gt; build &amp; more" in text
    assert f"/s/{made['slug']}" in text
    log = (await (await client.get(f"/api/kudos/{made['editToken']}/chat/log")).get_json())
    assert log["connected"] and log["format"] == "mattermost"
    assert [entry["state"] for entry in log["log"]] == ["sent"]
    assert SECRET_PATH not in str(log) and log["webhook"].endswith("path")


async def test_without_a_webhook_nothing_is_queued_and_the_tool_behaves_as_before(
        app: Any, clock: Clock, receiver: Receiver) -> None:
    client = app.test_client()
    made = await create(client, "kudos", {"team": "Support", "intro": ""})
    await post_note(client, made["slug"])
    assert await deliver(app, clock) == 0
    assert receiver.received == []
    status = await (await client.get(f"/api/kudos/{made['editToken']}/chat/log")).get_json()
    assert status == {"connected": False, "webhook": None, "format": None, "hour": None,
                      "log": []}
    test = await client.post(f"/api/kudos/{made['editToken']}/chat/test")
    assert test.status_code == 409
    assert (await test.get_json()) == {"error": "Connect a chat webhook first."}


@pytest.mark.parametrize(("url", "message"), [
    ("", None),
    ("not a url", webhooks.BAD_URL),
    ("ftp://127.0.0.1/hook", webhooks.BAD_URL),
    ("https://user:pw@127.0.0.1/hook", webhooks.BAD_URL),
    ("https://hooks.slack.com/services/x", webhooks.NOT_ALLOWED),  # not on this allow list
    ("https://127.0.0.1.evil.example/x", webhooks.NOT_ALLOWED),
    ("https://127.0.0.1/" + "x" * 600, webhooks.BAD_URL),
])
async def test_connect_refuses_addresses_outside_the_rules(app: Any, url: str,
                                                           message: str | None) -> None:
    client = app.test_client()
    made = await create(client, "kudos", {"team": "Support", "intro": ""})
    response = await connect(client, "kudos", made["editToken"], url)
    if message is None:
        assert response.status_code == 200
    else:
        assert response.status_code == 400
        assert (await response.get_json()) == {"error": message}


async def test_hour_is_checked(app: Any, receiver: Receiver) -> None:
    client = app.test_client()
    made = await create(client, "qotd", {"teamName": "Platform"})
    for hour in (24, -1, "nine", 1.5):
        response = await connect(client, "qotd", made["editToken"], receiver.url(), hour=hour)
        assert response.status_code == 400
        assert (await response.get_json()) == {"error": webhooks.BAD_HOUR}
    ok = await connect(client, "qotd", made["editToken"], receiver.url(), hour="7")
    assert (await ok.get_json())["hour"] == 7


async def test_todays_question_is_posted_once_a_day_from_the_chosen_hour(
        app: Any, clock: Clock, receiver: Receiver) -> None:
    client = app.test_client()
    made = await create(client, "qotd", {"teamName": "Platform"})
    await connect(client, "qotd", made["editToken"], receiver.url(), format="slack")
    storage, tools = app.config["GROUPKIT_STORAGE"], app.config["GROUPKIT_TOOLS"]

    async def tick() -> None:
        await storage.write(webhooks.queue_scheduled, tools, clock())
        await deliver(app, clock)

    await tick()  # 08:30 in Sydney: not yet
    assert receiver.received == []
    clock.advance(minutes=30)  # 09:00
    await tick()
    await tick()
    today = (await (await client.get(f"/api/qotd/{made['slug']}")).get_json())["today"]
    assert len(receiver.received) == 1
    text = receiver.texts()[0]
    assert today["question"].replace("&", "&amp;") in text and f"/s/{made['slug']}" in text
    clock.advance(hours=14)  # 23:00, same day
    await tick()
    assert len(receiver.received) == 1
    clock.advance(hours=10)  # 09:00 the next day
    await tick()
    assert len(receiver.received) == 2


async def test_a_failed_post_is_retried_with_backoff_then_logged(app: Any, clock: Clock,
                                                                 receiver: Receiver) -> None:
    client = app.test_client()
    made = await kudos_wall(client, receiver)
    receiver.answers = [500, 503]
    await post_note(client, made["slug"])
    assert await deliver(app, clock) == 0
    clock.advance(seconds=1)
    assert await deliver(app, clock) == 0  # not due again yet (2 s)
    clock.advance(seconds=1)
    assert await deliver(app, clock) == 0  # second failure: next try in 4 s
    clock.advance(seconds=4)
    assert await deliver(app, clock) == 1
    assert len(receiver.received) == 3
    log = (await (await client.get(f"/api/kudos/{made['editToken']}/chat/log")).get_json())
    assert log["log"][0]["state"] == "sent" and log["log"][0]["attempts"] == 3


async def test_a_client_error_or_a_redirect_is_not_retried_or_followed(
        app: Any, clock: Clock, receiver: Receiver, caplog: pytest.LogCaptureFixture) -> None:
    client = app.test_client()
    made = await kudos_wall(client, receiver)
    receiver.answers = [(302, receiver.url("/elsewhere")), 404]
    await post_note(client, made["slug"], "first")
    await post_note(client, made["slug"], "second")
    with caplog.at_level(logging.WARNING, "groupkit"):
        await deliver(app, clock)
        clock.advance(hours=2)
        await deliver(app, clock)
    assert [item["path"] for item in receiver.received] == [SECRET_PATH, SECRET_PATH]
    log = (await (await client.get(f"/api/kudos/{made['editToken']}/chat/log")).get_json())
    assert sorted((entry["state"], entry["outcome"]) for entry in log["log"]) == [
        ("failed", "HTTP 404"), ("failed", "refused: redirect (HTTP 302)")]
    assert "qzsecretwebhookpath" not in caplog.text and "127.0.0.1" in caplog.text


async def test_disconnecting_drops_posts_not_yet_sent(app: Any, clock: Clock,
                                                      receiver: Receiver) -> None:
    client = app.test_client()
    made = await kudos_wall(client, receiver)
    await post_note(client, made["slug"])
    status = await (await connect(client, "kudos", made["editToken"], "")).get_json()
    assert not status["connected"]
    assert [(e["state"], e["outcome"]) for e in status["log"]] == [("failed", "webhook removed")]
    assert await deliver(app, clock) == 0 and receiver.received == []


async def test_two_delivery_loops_at_once_send_each_post_once(app: Any, clock: Clock,
                                                              receiver: Receiver) -> None:
    client = app.test_client()
    made = await kudos_wall(client, receiver)
    for index in range(30):
        await post_note(client, made["slug"], f"note {index}")
    counts = await asyncio.gather(*(deliver(app, clock) for _ in range(4)))
    assert sum(counts) == 30
    assert sorted(receiver.texts()) == sorted(set(receiver.texts()))
    assert len(receiver.received) == 30


async def test_organiser_page_shows_the_panel_with_the_address_masked(
        app: Any, clock: Clock, receiver: Receiver) -> None:
    client = app.test_client()
    made = await kudos_wall(client, receiver)
    await post_note(client, made["slug"])
    await deliver(app, clock)
    page = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert "Post to your team chat" in page and "Delivery log" in page and "sent" in page
    assert "qzsecretwebhookpath" not in page and "…path" in page
    public = await (await client.get(f"/s/{made['slug']}")).get_data(as_text=True)
    export = await (await client.post(f"/api/kudos/{made['editToken']}/export")).get_data(
        as_text=True)
    for text in (public, export):
        assert "qzsecretwebhookpath" not in text and "Post to your team chat" not in text


async def test_the_organiser_page_never_shows_a_stale_delivery_log(
        app: Any, clock: Clock, receiver: Receiver) -> None:
    """The organiser page is render-cached per instance version, but the delivery loop
    writes the log without a version bump: each change of the log is still seen at once,
    and an unchanged log is still served from the cache."""
    client = app.test_client()
    cache = app.config["GROUPKIT_RENDERED"]
    made = await kudos_wall(client, receiver)
    page_url = f"/e/{made['editToken']}"

    async def log_line() -> str:
        page = await (await client.get(page_url)).get_data(as_text=True)
        log = page[page.index("Delivery log"):]
        return log[:log.index("</ul>")]

    assert "Nothing posted yet." in await log_line()
    receiver.answers = [500]
    await post_note(client, made["slug"])
    assert "waiting" in await log_line()
    renders = cache.renders
    assert "waiting" in await log_line()
    assert cache.renders == renders  # nothing changed: served from memory
    assert await deliver(app, clock) == 0  # a failed try: attempts and outcome move
    # People's words for what went wrong, not the status code.
    line = await log_line()
    assert "waiting to try again: the chat app had a problem on its side" in line
    assert "HTTP 500" not in line
    clock.advance(seconds=2)
    assert await deliver(app, clock) == 1
    line = await log_line()
    assert "· sent" in line and "(tries: 2)" in line and "waiting" not in line
    await connect(client, "kudos", made["editToken"], "")  # disconnected: the panel says so
    page = await (await client.get(page_url)).get_data(as_text=True)
    assert "Posting to" not in page and "Webhook address" in page


async def test_a_poker_reveal_is_posted_once_per_round_and_no_card_before_it(
        app: Any, clock: Clock, receiver: Receiver) -> None:
    client = app.test_client()
    made = await create(client, "poker", {"team": "Payments", "story": "PAY-1 Refunds",
                                          "deck": "fib"})
    await connect(client, "poker", made["editToken"], receiver.url(), format="discord")
    for name, card in (("Ann", "3"), ("Bo", "8"), ("Cy", "3")):
        token = (await (await client.post("/api/poker/join", json={
            "slug": made["slug"], "name": name})).get_json())["token"]
        vote = await client.post(f"/api/poker/v/{token}/vote", json={"card": card})
        assert vote.status_code == 200
    assert await deliver(app, clock) == 0  # cards are private until the reveal
    for _ in range(2):  # revealing again changes nothing, posts nothing
        assert (await client.post(f"/api/poker/{made['editToken']}/reveal")).status_code == 200
    assert await deliver(app, clock) == 1
    text = receiver.received[0]["body"]["content"]
    assert text.startswith("Cards are up for PAY-1 Refunds: 3 ×2, 8 ×1.")
    assert "High 8 (Bo); low 3 (Ann, Cy)" in text
    await client.post(f"/api/poker/{made['editToken']}/next", json={"story": "PAY-2"})
    assert await deliver(app, clock) == 0


async def test_a_coffee_round_is_announced_without_any_name(app: Any, clock: Clock,
                                                            receiver: Receiver) -> None:
    client = app.test_client()
    names = ["Annabel", "Bartholomew", "Cyrano", "Desdemona", "Ezekiel"]
    made = await create(client, "coffee", {"title": "Platform coffee", "names": names})
    await connect(client, "coffee", made["editToken"], receiver.url())
    for _ in range(2):
        assert (await client.post(f"/api/coffee/{made['editToken']}/draw")).status_code == 200
    assert await deliver(app, clock) == 2
    texts = receiver.texts()
    assert texts[0].startswith("Coffee round 1 of Platform coffee is drawn.")
    assert texts[1].startswith("Coffee round 2 of")
    assert f"/s/{made['slug']}" in texts[0]
    for text in texts:
        assert not any(name in text for name in names)


async def test_pulse_reminds_on_friday_and_posts_a_result_only_past_the_threshold(
        app: Any, clock: Clock, receiver: Receiver) -> None:
    client = app.test_client()
    made = await create(client, "pulse", {"team": "Platform", "question": "How was your week?",
                                          "askWords": True})
    other = await create(client, "pulse", {"team": "Tiny", "question": "How was it?",
                                           "askWords": True})
    for team in (made, other):
        await connect(client, "pulse", team["editToken"], receiver.url(), hour=16)
    storage, tools = app.config["GROUPKIT_STORAGE"], app.config["GROUPKIT_TOOLS"]

    async def tick() -> list[str]:
        await storage.write(webhooks.queue_scheduled, tools, clock())
        await deliver(app, clock)
        return receiver.texts()

    for score in (5, 4, 4, 2):
        await client.post("/api/pulse/respond", json={"slug": made["slug"], "score": score,
                                                      "words": "qzonlyonecomment"})
    for score in (1, 2, 3):  # below the threshold of 4
        await client.post("/api/pulse/respond", json={"slug": other["slug"], "score": score})
    assert await tick() == []  # Wednesday
    clock.advance(days=2, hours=7)  # Friday 15:30 in Sydney
    assert await tick() == []
    clock.advance(minutes=30)  # 16:00
    texts = await tick()
    assert sorted(texts) == sorted(
        [f"Pulse check: How was your week? Answer anonymously before the week ends: "
         f"http://localhost/s/{made['slug']}",
         f"Pulse check: How was it? Answer anonymously before the week ends: "
         f"http://localhost/s/{other['slug']}"])
    clock.advance(days=3)  # Monday 16:00
    texts = (await tick())[2:]
    await tick()
    assert texts == receiver.texts()[2:] == [
        "Last week's pulse (Week of 16 Nov 2026): 3.8 on average from 4 responses "
        f"(5: 1, 4: 2, 3: 0, 2: 1, 1: 0). More: http://localhost/s/{made['slug']}"]


@pytest.mark.parametrize(("fmt", "expected"), [
    ("slack", {"text": "Hi &lt;!channel&gt; @\u200bchannel"}),
    ("mattermost", {"text": "Hi &lt;!channel&gt; @\u200bchannel"}),
    ("discord", {"content": "Hi <!channel> @channel", "allowed_mentions": {"parse": []}}),
    ("teams", {"@type": "MessageCard", "@context": "https://schema.org/extensions",
               "summary": "Hi <!channel> @channel", "text": "Hi <!channel> @channel"}),
])
def test_payloads_match_each_chat_apps_format_and_never_ping(fmt: str,
                                                             expected: dict[str, Any]) -> None:
    assert webhooks.payload(fmt, "Hi <!channel> @channel") == expected


MENTIONS = "@Channel @ALL @Here @here @EVERYONE @sam (@all) ping:@channel done@Here"


@pytest.mark.parametrize("fmt", ["slack", "mattermost"])
def test_no_mention_pings_in_any_letter_case(fmt: str) -> None:
    text = webhooks.payload(fmt, MENTIONS)["text"]
    assert not re.search(r"@\w", text), text
    assert text.replace("\u200b", "") == MENTIONS  # it reads the same


def test_discord_turns_every_mention_off_itself() -> None:
    assert webhooks.payload("discord", MENTIONS) == {"content": MENTIONS,
                                                     "allowed_mentions": {"parse": []}}


@pytest.mark.parametrize(("url", "fmt"), [
    ("https://hooks.slack.com/services/a", "slack"),
    ("https://discord.com/api/webhooks/1/a", "discord"),
    ("https://acme.webhook.office.com/webhookb2/a", "teams"),
    ("https://chat.acme.example/hooks/a", "mattermost"),
])
def test_the_format_is_told_from_the_host(url: str, fmt: str) -> None:
    assert webhooks.guess_format(url) == fmt


# --- the address checks, with a resolver that lies ----------------------------------------------

def lying(*addresses: str) -> webhooks.Resolver:
    async def resolve(host: str, port: int) -> list[str]:
        return list(addresses)
    return resolve


PRODUCTION = Settings()  # the default allow list, no loopback


@pytest.mark.parametrize("addresses", [
    ("127.0.0.1",), ("10.1.2.3",), ("192.168.0.10",), ("172.16.5.4",), ("169.254.169.254",),
    ("100.64.0.1",), ("0.0.0.0",), ("::1",), ("fe80::1",), ("fd00::1",), ("::ffff:127.0.0.1",),
    ("::ffff:10.0.0.1",), ("224.0.0.1",), ("93.184.216.34", "10.0.0.1"),
    # IPv6 forms that carry an IPv4 address: NAT64 (well-known and local-use prefixes),
    # 6to4, IPv4-compatible, IPv4-translated; and site-local.
    ("64:ff9b::127.0.0.1",), ("64:ff9b::10.0.0.1",), ("64:ff9b::169.254.169.254",),
    ("64:ff9b:1::a00:1",), ("64:ff9b:1::5db8:d822",), ("2002:7f00:1::1",), ("2002:a00:1::",),
    ("2002:a9fe:a9fe::1",), ("::127.0.0.1",), ("::10.0.0.1",), ("::192.168.0.10",),
    ("::ffff:0:7f00:1",), ("::ffff:0:a00:1",), ("fec0::1",), ("fed0:1::1",),
])
async def test_a_name_resolving_to_a_non_public_address_is_refused(
        addresses: tuple[str, ...], receiver: Receiver) -> None:
    with pytest.raises(webhooks.Outcome) as refused:
        await webhooks.send("https://hooks.slack.com/services/a", "slack", "hi", PRODUCTION,
                            resolver=lying(*addresses))
    assert refused.value.message == "refused: address not public"
    assert not refused.value.retry
    assert receiver.received == []


@pytest.mark.parametrize("address", [
    "93.184.216.34", "2606:2800:220:1::1", "64:ff9b::93.184.216.34", "2002:5db8:d822::1"])
def test_a_public_address_passes_in_every_form(address: str) -> None:
    """An IPv6-only server reaches an IPv4-only chat host through NAT64 (its DNS64 answers
    64:ff9b::<the IPv4 address>): allowed when that address is public."""
    assert webhooks.address_allowed(address, PRODUCTION)


async def test_the_loopback_opt_in_still_refuses_private_and_link_local_addresses() -> None:
    settings = Settings(webhook_hosts=("chat.test",), webhook_allow_loopback=True)
    for address in ("10.0.0.1", "169.254.169.254", "fe80::1"):
        with pytest.raises(webhooks.Outcome, match="address not public"):
            await webhooks.send("http://chat.test/a", "slack", "hi", settings,
                                resolver=lying(address))


async def test_it_connects_to_the_address_it_checked_with_the_name_only_in_host(
        receiver: Receiver) -> None:
    """A resolver that would answer differently the second time (DNS rebinding) is asked
    once: the connection goes to the checked address."""
    answers = [["127.0.0.1"], ["10.0.0.1"]]

    async def rebinding(host: str, port: int) -> list[str]:
        return answers.pop(0)

    settings = Settings(webhook_hosts=("chat.test",), webhook_allow_loopback=True)
    await webhooks.send(f"http://chat.test:{receiver.port}/hook?x=1", "slack", "hi", settings,
                        resolver=rebinding)
    assert receiver.received == [{"path": "/hook?x=1", "host": f"chat.test:{receiver.port}",
                                  "body": {"text": "hi"}}]
    assert answers == [["10.0.0.1"]]


@pytest.mark.parametrize(("url", "why"), [
    ("https://evil.example/x", "refused: host not allowed"),
    ("https://hooks.slack.com.evil.example/x", "refused: host not allowed"),
    ("http://hooks.slack.com/x", "refused: not https"),
    ("https://10.0.0.1/x", "refused: host not allowed"),
])
async def test_hosts_outside_the_allow_list_are_never_resolved(url: str, why: str) -> None:
    asked: list[str] = []

    async def resolver(host: str, port: int) -> list[str]:
        asked.append(host)
        return ["93.184.216.34"]

    with pytest.raises(webhooks.Outcome) as refused:
        await webhooks.send(url, "slack", "hi", PRODUCTION, resolver=resolver)
    assert refused.value.message == why and asked == []


def test_wildcards_allow_subdomains_only() -> None:
    allowed = ("*.webhook.office.com", "hooks.slack.com")
    assert webhooks.host_allowed("acme.webhook.office.com", allowed)
    assert webhooks.host_allowed("HOOKS.slack.com.", allowed)
    assert not webhooks.host_allowed("webhook.office.com", allowed)
    assert not webhooks.host_allowed("evilwebhook.office.com", allowed)
    assert not webhooks.host_allowed("hooks.slack.com.evil.example", allowed)


async def test_every_chat_operation_is_in_the_openapi_document(app: Any) -> None:
    paths = (await (await app.test_client().get("/openapi.json")).get_json())["paths"]
    for tool in ("kudos", "qotd", "poker", "coffee", "pulse"):
        base = f"/api/{tool}/{{editToken}}/chat"
        connect = paths[base]["post"]
        assert "Slack, Microsoft Teams, Discord" in connect["description"]
        assert set(connect["responses"]) >= {"200", "400"}
        assert "409" in paths[f"{base}/test"]["post"]["responses"]
        log = paths[f"{base}/log"]["get"]["responses"]["200"]["content"]["application/json"]
        assert "log" in log["schema"]["properties"]


async def test_the_log_says_what_went_wrong_in_peoples_words(app: Any, clock: Clock,
                                                             receiver: Receiver) -> None:
    """A chat address that is gone is "not found", once and for all, in the reader's time
    zone (a `<time data-local>` the script turns local); the API keeps the outcome as it
    was, for the operator."""
    client = app.test_client()
    made = await kudos_wall(client, receiver)
    receiver.answers = [404]
    await post_note(client, made["slug"])
    assert await deliver(app, clock) == 0
    page = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    log = page[page.index("Delivery log"):]
    assert "not sent: the chat address was not found" in log
    assert re.search(r'<time datetime="[^"]+" data-local>\d+ \w+ \d{4}, \d\d:\d\d UTC</time>',
                     log)
    api = await (await client.get(f"/api/kudos/{made['editToken']}/chat/log")).get_json()
    assert api["log"][0]["outcome"] == "HTTP 404"
    german = await (await client.get(f"/e/{made['editToken']}",
                                     headers={"Accept-Language": "de"})).get_data(as_text=True)
    assert "nicht gesendet: die Chat-Adresse wurde nicht gefunden" in german


async def test_only_a_scheduled_ritual_asks_an_hour_and_names_its_zone(
        app: Any, receiver: Receiver) -> None:
    client = app.test_client()
    kudos = await kudos_wall(client, receiver)
    page = await (await client.get(f"/e/{kudos['editToken']}")).get_data(as_text=True)
    assert 'id="chat-hour"' not in page  # a post per note: no hour to choose
    qotd = await create(client, "qotd", {"teamName": "Platform"})
    page = await (await client.get(f"/e/{qotd['editToken']}")).get_data(as_text=True)
    assert 'id="chat-hour"' in page and "Scheduled posts from (Sydney time)" in page
    spanish = await (await client.get(f"/e/{qotd['editToken']}",
                                      headers={"Accept-Language": "es"})).get_data(as_text=True)
    assert "Sídney" in spanish
