"""Email (groupkit.blocks._email) against a real SMTP server in the test process (aiosmtpd on
127.0.0.1): invitations carry each person's own link and nobody else's, with the one-click
unsubscribe headers; refusals are retried or given up; the caps hold; unsubscribing forgets
the address; with email off nothing shows and the operations say why."""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mail_receiver import MailServer
from mail_receiver import html_of
from mail_receiver import text_of

from groupkit.blocks import _email as email
from groupkit.blocks import _outbox as outbox
from groupkit.core._config import check_mapping
from groupkit.core._config import check_values
from groupkit.core._config import settings_from_mapping
from groupkit.core._config import smtp_server
from groupkit.ops._cli import main
from groupkit_testing import FakeClock as Clock
from groupkit_testing import create

BASE = "https://groups.example.org"
DRAW = {"title": "Office <Party> & Co", "names": ["Ann", "Bo", "Cy", "Di"], "budget": "$30",
        "exchangeDate": "Friday", "note": "", "personalLinks": True}
ADDRESSES = {"Ann": "ann@example.com", "Bo": "bo.b@example.net", "Cy": "cy@example.org"}


@pytest.fixture
def app(make_app: Callable[..., Any], clock: Clock, mail_server: MailServer) -> Any:
    return make_app(tools=["kringle"], clock=clock, base_url=BASE, email_url=mail_server.url,
                    email_from="Groups <groups@example.org>")


async def deliver(app: Any, clock: Clock) -> int:
    settings = app.config["GROUPKIT_SETTINGS"]
    return await outbox.deliver_once(app.config["GROUPKIT_STORAGE"],
                                     {"email": email.channel(settings)}, clock)


async def draw(client: Any) -> tuple[dict[str, str], dict[str, str]]:
    """A draw with personal links, and each person's link."""
    made = await create(client, "kringle", DRAW)
    exported = await (await client.post(f"/api/kringle/{made['editToken']}/export")
                      ).get_json()
    return made, {person["name"]: person["link"] for person in exported["data"]["people"]}


async def invite(client: Any, made: dict[str, str], emails: Any) -> Any:
    return await client.post(f"/api/kringle/{made['editToken']}/invite", json={"emails": emails})


async def test_each_person_gets_one_message_with_their_own_link_only(
        app: Any, clock: Clock, mail_server: MailServer) -> None:
    client = app.test_client()
    made, links = await draw(client)
    response = await invite(client, made, ADDRESSES)
    assert response.status_code == 200, await response.get_json()
    assert await deliver(app, clock) == 3
    assert await deliver(app, clock) == 0
    box = mail_server.mailbox
    assert sorted(message["To"] for message in box.messages) == sorted(ADDRESSES.values())
    for name, address in ADDRESSES.items():
        [message] = box.to(address)
        text, html = text_of(message), html_of(message)
        own = f"{BASE}{links[name]}"
        assert own in text and own in html
        others = [link for other, link in links.items() if other != name]
        assert not any(link in text or link in html for link in others)
        assert f"Hello {name}," in text
        # Every link is the service's; the organiser's title is escaped in the HTML only.
        assert set(re.findall(r"https?://[^\s\"<>]+", text)) <= {
            own, *re.findall(rf"{BASE}/email/unsubscribe/[\w-]+", text)}
        assert "Office <Party> & Co" in text and "Office &lt;Party&gt; &amp; Co" in html
        assert message["Subject"] == "Your link for Office <Party> & Co"
        assert message["From"] == "Groups <groups@example.org>"
        unsubscribe = message["List-Unsubscribe"]
        assert re.fullmatch(rf"<{BASE}/email/unsubscribe/[\w-]+>", unsubscribe)
        assert unsubscribe.strip("<>") in text
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert message["Message-ID"].endswith("@groups.example.org>")
    assert box.envelopes[0][0] == "groups@example.org"
    log = (await (await client.get(f"/api/kringle/{made['editToken']}/invite/log"))
           .get_json())
    assert log["email"] is True
    assert sorted((line["name"], line["to"], line["state"]) for line in log["log"]) == [
        ("Ann", "a…@e….com", "sent"), ("Bo", "b…@e….net", "sent"), ("Cy", "c…@e….org", "sent")]


@pytest.mark.parametrize(("tool", "body"), [
    ("coffee", {"title": "Platform coffee", "names": ["Ann", "Bo", "Cy"]}),
    ("fact", {"title": "Offsite", "names": ["Ann", "Bo", "Cy"]}),
    ("roles", {"title": "Werewolf", "roles": ["Wolf", "Seer", "Villager"],
               "names": ["Ann", "Bo", "Cy"]}),
])
async def test_the_other_tools_with_personal_links_send_each_their_own(
        make_app: Callable[..., Any], clock: Clock, mail_server: MailServer, tool: str,
        body: dict[str, Any]) -> None:
    """Coffee Roulette, Fact Matcher and Secret Role Dealer invite through the same kernel
    operation: one message per person, with their own page's link and nobody else's."""
    app = make_app(tools=[tool], clock=clock, base_url=BASE, email_url=mail_server.url,
                   email_from="Groups <groups@example.org>")
    client = app.test_client()
    made = await create(client, tool, {**body, "personalLinks": True})
    exported = await (await client.post(f"/api/{tool}/{made['editToken']}/export")).get_json()
    links = {entry["name"]: entry["link"] for entry in exported["data"]["links"]}
    response = await client.post(f"/api/{tool}/{made['editToken']}/invite",
                                 json={"emails": ADDRESSES})
    assert response.status_code == 200, await response.get_json()
    assert await deliver(app, clock) == 3
    for name, address in ADDRESSES.items():
        [message] = mail_server.mailbox.to(address)
        text = text_of(message)
        assert f"{BASE}{links[name]}" in text and f"Hello {name}," in text
        assert not any(link in text for other, link in links.items() if other != name)
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    page = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert "Email everyone their link" in page


@pytest.mark.parametrize(("emails", "status", "message"), [
    (["ann@example.com"], 400, email.BAD_SHAPE),
    ({}, 400, email.NO_ONE),
    ({"Ann": "  "}, 400, email.NO_ONE),
    ({"Zed": "zed@example.com"}, 400, email.UNKNOWN_NAME.format(name="Zed")),
    ({"ann": "ann@example.com"}, 400, email.UNKNOWN_NAME.format(name="ann")),
    ({"Ann": "not an address"}, 400, email.BAD_ADDRESS.format(name="Ann")),
    ({"Ann": "Ann <ann@example.com>"}, 400, email.BAD_ADDRESS.format(name="Ann")),
    ({"Ann": "ann@example.com\r\nBcc: x@example.com"}, 400,
     email.BAD_ADDRESS.format(name="Ann")),
    ({"Ann": 7}, 400, email.BAD_ADDRESS.format(name="Ann")),
])
async def test_a_list_with_a_problem_is_refused_whole(
        app: Any, clock: Clock, mail_server: MailServer, emails: Any, status: int,
        message: str) -> None:
    client = app.test_client()
    made, _ = await draw(client)
    # A valid line beside the bad one is not sent either; a blank address skips its line.
    response = await invite(client, made, {**emails, "Bo": "bo@example.com"}
                            if isinstance(emails, dict) and any(map(str.strip, map(
                                str, emails.values()))) else emails)
    assert response.status_code == status
    assert (await response.get_json())["error"] == message
    assert await deliver(app, clock) == 0


async def test_a_draw_without_personal_links_has_nothing_to_send(
        app: Any, mail_server: MailServer) -> None:
    client = app.test_client()
    made = await create(client, "kringle", {**DRAW, "personalLinks": False})
    response = await invite(client, made, {"Ann": "ann@example.com"})
    assert response.status_code == 409
    assert (await response.get_json()) == {"error": email.NO_LINKS}


async def test_refusals_are_retried_and_a_final_one_is_given_up(
        app: Any, clock: Clock, mail_server: MailServer) -> None:
    client = app.test_client()
    made, links = await draw(client)
    await invite(client, made, {"Ann": ADDRESSES["Ann"]})
    mail_server.mailbox.refuse = "451 4.3.0 try again later"
    assert await deliver(app, clock) == 0
    log = (await (await client.get(f"/api/kringle/{made['editToken']}/invite/log"))
           .get_json())["log"]
    assert [(line["state"], line["attempts"], line["outcome"]) for line in log] == [
        ("pending", 1, "refused (451)")]
    mail_server.mailbox.refuse = None
    assert await deliver(app, clock) == 0  # not due again yet: it waits its backoff
    clock.advance(seconds=5)
    assert await deliver(app, clock) == 1
    [message] = mail_server.mailbox.to(ADDRESSES["Ann"])
    assert f"{BASE}{links['Ann']}" in text_of(message)

    await invite(client, made, {"Bo": ADDRESSES["Bo"]})
    mail_server.mailbox.refuse = "550 5.1.1 no such mailbox"
    assert await deliver(app, clock) == 0
    clock.advance(hours=2)
    assert await deliver(app, clock) == 0
    log = (await (await client.get(f"/api/kringle/{made['editToken']}/invite/log"))
           .get_json())["log"]
    assert [(line["name"], line["state"], line["outcome"]) for line in log] == [
        ("Bo", "failed", "refused (550)"), ("Ann", "sent", "sent")]


@pytest.mark.parametrize("cap", ["email_instance_per_hour", "email_client_per_hour",
                                 "email_per_hour"])
async def test_a_list_over_a_cap_is_refused_and_nothing_is_queued(
        make_app: Callable[..., Any], clock: Clock, mail_server: MailServer,
        cap: str) -> None:
    app = make_app(tools=["kringle"], clock=clock, base_url=BASE, email_url=mail_server.url,
                   email_from="groups@example.org", **{cap: 4})
    client = app.test_client()
    made, _ = await draw(client)
    assert (await invite(client, made, ADDRESSES)).status_code == 200
    response = await invite(client, made, {"Di": "di@example.com", "Ann": "a2@example.com"})
    assert response.status_code == 409
    assert (await response.get_json()) == {"error": email.OVER_CAP}
    assert (await invite(client, made, {"Di": "di@example.com"})).status_code == 200
    clock.advance(hours=1, minutes=1)
    assert (await invite(client, made, {"Ann": "a2@example.com"})).status_code == 200
    assert await deliver(app, clock) == 5


async def test_one_click_unsubscribes_and_forgets_the_address(
        app: Any, clock: Clock, mail_server: MailServer) -> None:
    client = app.test_client()
    made, _ = await draw(client)
    await invite(client, made, ADDRESSES)
    await deliver(app, clock)
    [message] = mail_server.mailbox.to(ADDRESSES["Ann"])
    path = message["List-Unsubscribe"].strip("<>").removeprefix(BASE)
    page = await client.get(path)
    assert page.status_code == 200
    html = await page.get_data(as_text=True)
    assert '<form method="post"' in html and "Unsubscribe</button>" in html
    assert "ann@example.com" not in html
    # The mail client's one-click request (RFC 8058), from another site, no cookies.
    done = await client.post(path, form={"List-Unsubscribe": "One-Click"},
                             headers={"Origin": "https://mail.example"})
    assert done.status_code == 200
    assert "You're unsubscribed" in await done.get_data(as_text=True)
    for gone in (await client.get(path), await client.post(path),
                 await client.get("/email/unsubscribe/nope")):
        assert gone.status_code == 404
    storage = app.config["GROUPKIT_STORAGE"]
    kept = await storage.read(lambda: [row.address for row in email.EmailAddress.select()])
    assert ADDRESSES["Ann"] not in kept and len(kept) == 2
    # Invited again, an address that unsubscribed gets nothing.
    assert (await invite(client, made, {"Ann": ADDRESSES["Ann"]})).status_code == 200
    assert await deliver(app, clock) == 0
    assert len(mail_server.mailbox.to(ADDRESSES["Ann"])) == 1


async def test_deleting_the_draw_deletes_its_addresses(
        app: Any, clock: Clock, mail_server: MailServer) -> None:
    client = app.test_client()
    made, _ = await draw(client)
    await invite(client, made, ADDRESSES)
    response = await client.post(f"/api/kringle/{made['editToken']}/delete")
    assert response.status_code == 200, await response.get_json()
    storage = app.config["GROUPKIT_STORAGE"]
    assert await storage.read(lambda: email.EmailAddress.select().count()) == 0
    assert await deliver(app, clock) == 0
    assert mail_server.mailbox.messages == []


async def test_with_email_off_the_operations_say_so_and_nothing_is_kept(
        make_app: Callable[..., Any], clock: Clock) -> None:
    app = make_app(tools=["kringle"], clock=clock, base_url=BASE)
    client = app.test_client()
    made, _ = await draw(client)
    response = await invite(client, made, ADDRESSES)
    assert response.status_code == 409
    assert (await response.get_json()) == {"error": email.EMAIL_OFF}
    log = await (await client.get(f"/api/kringle/{made['editToken']}/invite/log")).get_json()
    assert log == {"email": False, "log": []}
    storage = app.config["GROUPKIT_STORAGE"]
    assert await storage.read(lambda: email.EmailAddress.select().count()) == 0


async def test_openapi_says_invitations_need_email(app: Any) -> None:
    document = await (await app.test_client().get("/openapi.json")).get_json()
    operation = document["paths"]["/api/kringle/{editToken}/invite"]["post"]
    assert "Needs email set up on the server" in operation["description"]
    assert email.EMAIL_OFF in str(operation["responses"]["409"])


def test_the_email_settings_are_checked_with_one_line_each() -> None:
    _, problems = check_mapping({"email": {"url": "http://mail", "from": "nobody",
                                           "per_hour": 0}})
    assert [message for _, message in problems] == ["email.per_hour must be at least 1"]
    settings = settings_from_mapping({"email": {"url": "http://mail", "from": "nobody"}})
    assert [message for _, message in check_values(settings, database_key="x",
                                                    skip={"x"})] == [
        "email.url must start with smtp:// or smtps://",
        'email.from must be the sender\'s address, such as "Groups <groups@example.org>"',
        'email needs base_url: every link in a message starts with it (set base_url = '
        '"https://your.server")']
    secret = settings_from_mapping({"base_url": BASE, "email": {
        "url": "smtp://me:s3cret@mail.example.org/x", "from": "g@example.org"}})
    problems = check_values(secret, database_key="x", skip={"x"})
    assert problems == [("email.url", "email.url must be smtp://host:port or "
                                      "smtps://user:password@host:port")]
    assert "s3cret" not in repr(secret)
    assert smtp_server("smtps://me%40x:p%3Ass@mail.example.org") == (
        "mail.example.org", 465, "me@x", "p:ss", True)
    assert smtp_server("smtp://mail.example.org:2525") == ("mail.example.org", 2525, "", "",
                                                           False)


def test_check_sends_a_test_message_when_asked(tmp_path: Path, capsys: Any,
                                               mail_server: MailServer,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GROUPKIT_CONFIG", "GROUPKIT_DATABASE_URL", "GROUPKIT_MODE",
                 "GROUPKIT_EMAIL_URL"):
        monkeypatch.delenv(name, raising=False)
    config = tmp_path / "groupkit.toml"
    config.write_text(f'base_url = "{BASE}"\n[database]\nurl = "sqlite:///{tmp_path}/g.db"\n'
                      f'[email]\nurl = "{mail_server.url}"\nfrom = "groups@example.org"\n')
    assert main(["check", "--config", str(config), "--offline",
                 "--send-test-email", "me@example.com"]) == 0
    assert "sent a test message to me@example.com" in capsys.readouterr().out
    [message] = mail_server.mailbox.to("me@example.com")
    assert message["Subject"] == "groupkit can send email"
    assert f"groupkit at {BASE}" in text_of(message)
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    mail_server.mailbox.refuse = "550 5.7.1 relaying denied"
    assert main(["check", "--config", str(config), "--offline",
                 "--send-test-email", "me@example.com"]) == 1
    assert "--send-test-email: not sent: refused (550)" in capsys.readouterr().out
    assert main(["check", "--config", str(config), "--offline",
                 "--send-test-email", "not an address"]) == 1


async def test_addresses_show_on_no_page_response_export_or_log_line(
        app: Any, clock: Clock, mail_server: MailServer,
        caplog: pytest.LogCaptureFixture) -> None:
    """The organiser typed them, and even they see them masked: the addresses are on no
    public or private page, no response, export, event or log line."""
    caplog.set_level(logging.DEBUG)
    client = app.test_client()
    made, links = await draw(client)
    await invite(client, made, ADDRESSES)
    mail_server.mailbox.refuse = "451 4.3.0 later"
    await deliver(app, clock)
    mail_server.mailbox.refuse = None
    clock.advance(seconds=5)
    await deliver(app, clock)
    edit = made["editToken"]
    seen = []
    for path in (f"/s/{made['slug']}", f"/api/kringle/{made['slug']}", f"/e/{edit}",
                 f"/api/kringle/{edit}/invite/log", f"/share/{made['slug']}",
                 *links.values()):
        seen.append(await (await client.get(path)).get_data(as_text=True))
    seen.append(await (await client.post(f"/api/kringle/{edit}/export")).get_data(as_text=True))
    # Every log line of the service and its libraries (aiosmtplib's included) at INFO and
    # above; the test's own SMTP server ("mail.log") is the receiving end, not the service.
    seen += [record.getMessage() for record in caplog.records
             if record.levelno >= logging.INFO and not record.name.startswith("mail.")]
    everything = "\n".join(seen)
    assert "a…@e….com" in everything  # the organiser's masked view was read
    for address in ADDRESSES.values():
        assert address not in everything


async def test_the_organiser_page_sends_the_links_without_javascript(
        app: Any, clock: Clock, mail_server: MailServer) -> None:
    """The invite panel is a plain form: a row per person (a blank one is skipped); after
    sending, the page lists who it went to, masked, and how it went."""
    client = app.test_client()
    made, links = await draw(client)
    page = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert "Email everyone their link" in page and "Nothing sent yet." in page
    form = {"emails.0.name": "Ann", "emails.0.address": ADDRESSES["Ann"],
            "emails.1.name": "Bo", "emails.1.address": "",
            "emails.2.name": "Cy", "emails.2.address": ADDRESSES["Cy"]}
    sent = await client.post(f"/api/kringle/{made['editToken']}/invite", form=form,
                             headers={"Origin": "http://localhost"})
    assert sent.status_code in (302, 303), await sent.get_data(as_text=True)
    assert await deliver(app, clock) == 2
    assert sorted(message["To"] for message in mail_server.mailbox.messages) == [
        ADDRESSES["Ann"], ADDRESSES["Cy"]]
    page = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert "Ann · a…@e….com" in page and "Cy · c…@e….org" in page
    assert ADDRESSES["Ann"] not in page
    # As a browser sends it: every row of the form, one address mistyped.
    rows = {f"emails.{index}.{key}": value for index, name in enumerate(links)
            for key, value in (("name", name), ("address", "nope" if name == "Di" else ""))}
    bad = await client.post(f"/api/kringle/{made['editToken']}/invite", form=rows,
                            headers={"Origin": "http://localhost"})
    landing = await (await client.get(bad.headers["Location"].split("#")[0])
                     ).get_data(as_text=True)
    assert html.escape(email.BAD_ADDRESS.format(name="Di"), quote=False) in landing


async def test_with_email_off_the_pages_show_no_email_feature(
        make_app: Callable[..., Any], clock: Clock) -> None:
    """Neither the draw's invite panel nor a board's reminder form (a spot taken)."""
    app = make_app(tools=["kringle", "roster"], clock=clock, base_url=BASE)
    client = app.test_client()
    made, _ = await draw(client)
    board = await create(client, "roster", {
        "title": "Working bee", "eventDate": "Saturday 14 March 2026", "note": "",
        "shifts": [{"label": "Setup 7-9am", "capacity": 2}]})
    claimed = await client.post("/api/roster/claim", json={
        "slug": board["slug"], "slotId": "s0-1", "name": "Priya", "message": ""})
    assert claimed.status_code == 201
    for path in (f"/e/{made['editToken']}", f"/s/{board['slug']}"):
        page = await (await client.get(path)).get_data(as_text=True)
        assert "email" not in page.lower(), path
