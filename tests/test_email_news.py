"""News by email (groupkit.blocks._news) through Find a Date, against a real SMTP server in
the test process: a person who answers may give an address; the first message asks to
confirm it (double opt-in); once confirmed they hear when the organiser chooses the date,
once per choice, in the group's language; removing their answers forgets the address, and
the address is never shown anywhere."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import pytest
from mail_receiver import MailServer
from mail_receiver import html_of
from mail_receiver import text_of

from groupkit.blocks import _email as email
from groupkit.blocks import _outbox as outbox
from groupkit_testing import FakeClock as Clock

BASE = "https://groups.example.org"
PLAN = {"title": "Team dinner", "note": "", "timezone": "Europe/Berlin", "slots": [
    {"date": "2026-04-10", "start": "19:00", "end": ""}, {"date": "2026-04-11", "start": "",
                                                          "end": ""}]}
ANN, BO = "ann@example.com", "bo@example.org"


@pytest.fixture
def clock() -> Clock:
    return Clock(dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC))


@pytest.fixture
def app(make_app: Callable[..., Any], clock: Clock, mail_server: MailServer) -> Any:
    return make_app(tools=["finddate"], clock=clock, base_url=BASE,
                    email_url=mail_server.url, email_from="groups@example.org")


async def send(app: Any, clock: Clock) -> int:
    return await outbox.deliver_once(
        app.config["GROUPKIT_STORAGE"],
        {"email": email.channel(app.config["GROUPKIT_SETTINGS"])}, clock)


async def planned(client: Any, **headers: str) -> dict[str, str]:
    response = await client.post("/api/finddate", json=PLAN, headers=headers)
    assert response.status_code == 201
    made: dict[str, str] = await response.get_json()
    return made


async def answer(client: Any, slug: str, name: str, address: str | None) -> Any:
    body: dict[str, Any] = {"slug": slug, "name": name, "answers": [
        {"slotId": "d1", "answer": "yes"}]}
    if address is not None:
        body["email"] = address
    return await client.post("/api/finddate/respond", json=body)


async def confirm(client: Any, mail_server: MailServer, address: str) -> None:
    [message] = mail_server.mailbox.to(address)
    link = re.search(rf"{BASE}(/email/confirm/[\w-]+)", text_of(message))
    assert link is not None
    page = await (await client.get(link[1])).get_data(as_text=True)
    assert "Yes, tell me</button>" in page and "remind" not in page.lower()
    done = await client.post(link[1])
    assert done.status_code == 200
    assert "you'll get an email when the organiser settles it" in (
        await done.get_data(as_text=True)).replace("&#39;", "'")


async def test_confirmed_people_hear_once_when_the_date_is_chosen(
        app: Any, clock: Clock, mail_server: MailServer) -> None:
    client = app.test_client()
    made = await planned(client)
    assert (await answer(client, made["slug"], "Ann", ANN)).status_code == 201
    assert (await answer(client, made["slug"], "Bo", BO)).status_code == 201
    assert (await answer(client, made["slug"], "Cy", None)).status_code == 201
    assert await send(app, clock) == 2
    [asking] = mail_server.mailbox.to(ANN)
    assert asking["Subject"] == "Confirm your address for news of Team dinner"
    await confirm(client, mail_server, ANN)  # Bo never confirms
    chose = await client.post(f"/api/finddate/{made['editToken']}/choose",
                              json={"slotId": "d1"})
    assert chose.status_code == 200
    again = await client.post(f"/api/finddate/{made['editToken']}/choose",
                              json={"slotId": "d1"})
    assert again.status_code == 200  # the same date again: no second message
    assert await send(app, clock) == 1
    news = mail_server.mailbox.to(ANN)[-1]
    assert news["Subject"] == "News of Team dinner"
    text = text_of(news)
    assert "The date for Team dinner is chosen: Fri 10 Apr 2026, 19:00." in text
    assert f"{BASE}/s/{made['slug']}" in text and f"{BASE}/s/{made['slug']}" in html_of(news)
    assert news["List-Unsubscribe"].startswith(f"<{BASE}/email/unsubscribe/")
    assert len(mail_server.mailbox.to(BO)) == 1  # only the confirmation
    # The address is on no page and in no reply.
    seen = [await (await client.get(path)).get_data(as_text=True) for path in (
        f"/s/{made['slug']}", f"/e/{made['editToken']}", f"/api/finddate/{made['slug']}")]
    seen.append(await (await client.post(
        f"/api/finddate/{made['editToken']}/export")).get_data(as_text=True))
    assert not any(address in page for page in seen for address in (ANN, BO))


async def test_removed_answers_forget_the_address(app: Any, clock: Clock,
                                                  mail_server: MailServer) -> None:
    client = app.test_client()
    made = await planned(client)
    response = await answer(client, made["slug"], "Ann", ANN)
    await send(app, clock)
    await confirm(client, mail_server, ANN)
    removed = await client.post(f"/api/finddate/{made['editToken']}/remove",
                                json={"id": (await response.get_json())["id"]})
    assert removed.status_code == 200
    await client.post(f"/api/finddate/{made['editToken']}/choose", json={"slotId": "d2"})
    assert await send(app, clock) == 0
    assert app.config["GROUPKIT_STORAGE"].run_sync(
        lambda: email.EmailAddress.select().count(), write=False) == 0


async def test_the_news_speaks_the_groups_language(app: Any, clock: Clock,
                                                   mail_server: MailServer) -> None:
    client = app.test_client()
    made = await planned(client, **{"Accept-Language": "de"})
    await answer(client, made["slug"], "Ann", ANN)
    await send(app, clock)
    await confirm(client, mail_server, ANN)
    await client.post(f"/api/finddate/{made['editToken']}/choose", json={"slotId": "d2"})
    await send(app, clock)
    news = mail_server.mailbox.to(ANN)[-1]
    assert news["Subject"] == "Neuigkeiten zu Team dinner"
    assert "Das Datum für Team dinner steht fest: Sa., 11. Apr. 2026." in text_of(news)


async def test_a_bad_address_is_refused_and_nothing_is_kept(app: Any) -> None:
    client = app.test_client()
    made = await planned(client)
    refused = await answer(client, made["slug"], "Ann", "ann at example")
    assert refused.status_code == 400
    assert (await refused.get_json()) == {"error": "That doesn't look like an email address."}
    board = await (await client.get(f"/api/finddate/{made['slug']}")).get_json()
    assert board["responses"] == []  # the whole answer was refused
    page = await (await client.get(f"/s/{made['slug']}")).get_data(as_text=True)
    assert 'name="email" type="email"' in page


async def test_with_email_off_the_field_is_gone_and_the_api_says_so(
        make_app: Callable[..., Any]) -> None:
    app = make_app(tools=["finddate"], base_url=BASE)
    client = app.test_client()
    made = await planned(client)
    page = await (await client.get(f"/s/{made['slug']}")).get_data(as_text=True)
    assert "email" not in page.lower()
    refused = await answer(client, made["slug"], "Ann", ANN)
    assert refused.status_code == 409
    assert (await refused.get_json())["error"] == email.EMAIL_OFF
    assert (await answer(client, made["slug"], "Ann", "")).status_code == 201
