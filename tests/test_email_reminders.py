"""Reminders by email on sign-up tools (groupkit.blocks._reminders), against a real SMTP
server in the test process: the holder of a spot asks with the spot's credentials, confirms
the address (double opt-in), and gets one message the day before the spot, by the clock;
giving the spot back, the organiser clearing it or deleting the page cancels it."""

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
from groupkit.blocks import _reminders as reminders
from groupkit_testing import FakeClock as Clock
from groupkit_testing import create
from groupkit_testing import edit

BASE = "https://groups.example.org"
ROSTER = {"title": "Working bee", "eventDate": "Saturday 14 March 2026", "note": "Bring gloves",
          "shifts": [{"label": "Setup 7-9am", "capacity": 2},
                     {"label": "Pack down 12-1pm", "capacity": 2}]}
NOT_HELD = "That shift spot isn't held with that secret — it may already be free."
ME = "priya@example.com"


@pytest.fixture
def clock() -> Clock:
    """Tuesday 10 March 2026, noon UTC: four days before the working bee."""
    return Clock(dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC))


@pytest.fixture
def app(make_app: Callable[..., Any], clock: Clock, mail_server: MailServer) -> Any:
    return make_app(tools=["roster", "kringle"], clock=clock, base_url=BASE,
                    email_url=mail_server.url, email_from="groups@example.org")


async def tick(app: Any, clock: Clock) -> int:
    """One round of the delivery loop: queue the reminders due, send what waits."""
    storage = app.config["GROUPKIT_STORAGE"]
    await storage.write(reminders.queue_reminders, clock(), app.config["GROUPKIT_TOOLS"],
                        app.config["GROUPKIT_MAILER"])
    return await outbox.deliver_once(
        storage, {"email": email.channel(app.config["GROUPKIT_SETTINGS"])}, clock)


async def signed_up(client: Any) -> tuple[dict[str, str], dict[str, str]]:
    return await signed_up_on(client, await create(client, "roster", ROSTER))


async def signed_up_on(client: Any, made: dict[str, str]
                       ) -> tuple[dict[str, str], dict[str, str]]:
    """Priya takes the first setup spot: the board, and the spot's credentials."""
    response = await client.post("/api/roster/claim", json={
        "slug": made["slug"], "slotId": "s0-1", "name": "Priya", "message": ""})
    assert response.status_code == 201
    spot = {"slug": made["slug"], "slotId": "s0-1",
            "secret": (await response.get_json())["secret"]}
    return made, spot


async def ask(client: Any, spot: dict[str, Any], address: str = ME) -> Any:
    return await client.post("/api/roster/remind", json={**spot, "email": address})


async def confirmed(app: Any, clock: Clock, mail_server: MailServer,
                    spot: dict[str, str]) -> None:
    client = app.test_client()
    assert (await ask(client, spot)).status_code == 200
    assert await tick(app, clock) == 1
    [message] = mail_server.mailbox.to(ME)
    link = re.search(rf"{BASE}(/email/confirm/[\w-]+)", text_of(message))
    assert link is not None
    assert (await client.post(link[1])).status_code == 200


def addresses(app: Any) -> int:
    return int(app.config["GROUPKIT_STORAGE"].run_sync(
        lambda: email.EmailAddress.select().count(), write=False))


async def test_confirmed_the_reminder_goes_out_once_the_day_before(
        app: Any, clock: Clock, mail_server: MailServer) -> None:
    client = app.test_client()
    _, spot = await signed_up(client)
    response = await ask(client, spot)
    assert response.status_code == 200
    assert (await response.get_json()) == {"ok": True}
    assert await tick(app, clock) == 1
    [first] = mail_server.mailbox.messages
    assert first["Subject"] == "Confirm your reminder for Working bee"
    assert first["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = re.search(rf"{BASE}(/email/confirm/[\w-]+)", text_of(first))
    assert link is not None and link[0] in html_of(first)
    page = await client.get(link[1])
    assert page.status_code == 200 and "Yes, remind me</button>" in await page.get_data(
        as_text=True)
    # Not confirmed yet: the day before comes and goes quiet.
    clock.now = dt.datetime(2026, 3, 13, 9, 0, tzinfo=dt.UTC)
    assert await tick(app, clock) == 0
    clock.now = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)
    assert (await client.post(link[1])).status_code == 200
    assert (await client.post(link[1])).status_code == 404  # used up
    assert await tick(app, clock) == 0
    clock.now = dt.datetime(2026, 3, 13, 8, 59, tzinfo=dt.UTC)
    assert await tick(app, clock) == 0
    clock.now = dt.datetime(2026, 3, 13, 9, 0, tzinfo=dt.UTC)
    assert await tick(app, clock) == 1
    assert await tick(app, clock) == 0
    clock.advance(hours=3)
    assert await tick(app, clock) == 0
    _, reminder = mail_server.mailbox.messages
    assert reminder["To"] == ME
    assert reminder["Subject"] == ("Reminder: Setup 7-9am — Working bee, Saturday 14 March "
                                   "2026 at 07:00")
    text = text_of(reminder)
    assert "you're down for Setup 7-9am — Working bee" in text
    assert f"{BASE}/s/{spot['slug']}" in text
    assert spot["secret"] not in text + html_of(reminder)
    assert reminder["List-Unsubscribe"].startswith(f"<{BASE}/email/unsubscribe/")
    assert addresses(app) == 0  # sent: the address is forgotten


async def test_a_spot_taken_after_the_day_before_began_is_reminded_at_once(
        app: Any, clock: Clock, mail_server: MailServer) -> None:
    clock.now = dt.datetime(2026, 3, 13, 15, 0, tzinfo=dt.UTC)
    _, spot = await signed_up(app.test_client())
    await confirmed(app, clock, mail_server, spot)
    assert await tick(app, clock) == 1
    assert len(mail_server.mailbox.to(ME)) == 2


async def test_a_reminder_never_confirmed_is_forgotten_when_the_day_comes(
        app: Any, clock: Clock, mail_server: MailServer) -> None:
    client = app.test_client()
    _, spot = await signed_up(client)
    await ask(client, spot)
    await tick(app, clock)
    clock.now = dt.datetime(2026, 3, 14, 0, 0, tzinfo=dt.UTC)
    assert await tick(app, clock) == 0
    assert addresses(app) == 0
    assert len(mail_server.mailbox.messages) == 1


@pytest.mark.parametrize("how", ["release", "organiser clears", "delete"])
async def test_giving_the_spot_back_clearing_it_or_deleting_cancels_the_reminder(
        app: Any, clock: Clock, mail_server: MailServer, how: str) -> None:
    client = app.test_client()
    made, spot = await signed_up(client)
    await confirmed(app, clock, mail_server, spot)
    if how == "release":
        response = await client.post("/api/roster/unclaim", json=spot)
    elif how == "organiser clears":
        response = await client.post(f"/api/roster/{made['editToken']}/remove",
                                     json={"slotId": spot["slotId"]})
    else:
        response = await client.post(f"/api/roster/{made['editToken']}/delete")
    assert response.status_code == 200, await response.get_json()
    # Someone else takes the spot: the cancelled reminder is not theirs either.
    if how != "delete":
        await client.post("/api/roster/claim", json={
            "slug": made["slug"], "slotId": "s0-1", "name": "Sam", "message": ""})
    clock.now = dt.datetime(2026, 3, 13, 9, 0, tzinfo=dt.UTC)
    assert await tick(app, clock) == 0
    assert len(mail_server.mailbox.to(ME)) == 1  # the confirmation only
    assert addresses(app) == 0


async def test_the_spot_s_credentials_and_a_real_address_are_needed(
        app: Any, mail_server: MailServer, clock: Clock) -> None:
    client = app.test_client()
    _, spot = await signed_up(client)
    for wrong in ({**spot, "secret": "A" * 16}, {**spot, "slotId": "s1-1"},
                  {**spot, "secret": 7}):
        response = await ask(client, wrong)
        assert response.status_code == 404
        assert (await response.get_json())["error"] == NOT_HELD
    for address in ("nope", "a@b", "x@example.com, y@example.com", ""):
        response = await ask(client, spot, address)
        assert response.status_code == 400
        assert (await response.get_json())["error"] == reminders.BAD_EMAIL
    assert await tick(app, clock) == 0
    assert addresses(app) == 0


async def test_with_email_off_reminders_say_so(make_app: Callable[..., Any],
                                               clock: Clock) -> None:
    app = make_app(tools=["roster"], clock=clock, base_url=BASE)
    client = app.test_client()
    _, spot = await signed_up(client)
    response = await ask(client, spot)
    assert response.status_code == 409
    assert (await response.get_json()) == {"error": email.EMAIL_OFF}
    document = await (await client.get("/openapi.json")).get_json()
    described = document["paths"]["/api/roster/remind"]["post"]["description"]
    assert "Needs email set up on the server" in described


async def test_the_board_asks_for_a_reminder_without_javascript(
        app: Any, clock: Clock, mail_server: MailServer) -> None:
    """The "Remind me by email" form shows once a spot is taken; without the script the
    holder picks their spot and types the code shown when they claimed it."""
    client = app.test_client()
    made = await create(client, "roster", ROSTER)
    page = await (await client.get(f"/s/{made['slug']}")).get_data(as_text=True)
    assert "Remind me by email" not in page  # nobody holds a spot yet
    _, spot = await signed_up_on(client, made)
    page = await (await client.get(f"/s/{made['slug']}")).get_data(as_text=True)
    assert "Remind me by email" in page and '<option value="s0-1">Priya (s0-1)' in page
    sent = await client.post("/api/roster/remind", form={**spot, "email": ME},
                             headers={"Origin": "http://localhost"})
    assert sent.status_code == 303
    assert await tick(app, clock) == 1
    [message] = mail_server.mailbox.to(ME)
    assert message["Subject"] == "Confirm your reminder for Working bee"



async def test_a_reminder_follows_its_claim_when_an_edit_moves_it(
        app: Any, clock: Clock, mail_server: MailServer) -> None:
    """The organiser shrinks the shift to one spot: Priya's claim moves from spot 2 to the
    free spot 1 (`regroup_slots`), and her confirmed reminder goes out all the same."""
    client = app.test_client()
    made = await create(client, "roster", ROSTER)
    response = await client.post("/api/roster/claim", json={
        "slug": made["slug"], "slotId": "s0-2", "name": "Priya", "message": ""})
    assert response.status_code == 201
    spot = {"slug": made["slug"], "slotId": "s0-2",
            "secret": (await response.get_json())["secret"]}
    await confirmed(app, clock, mail_server, spot)
    status, _ = await edit(client, "roster", made["editToken"], {"shifts": [
        {"label": "Setup 7-9am", "capacity": 1, "was": 0},
        {"label": "Pack down 12-1pm", "capacity": 2, "was": 1}]})
    assert status == 200
    board = await (await client.get(f"/api/roster/{made['slug']}")).get_json()
    assert "s0-2" not in str(board) and "Priya" in str(board)
    clock.now = dt.datetime(2026, 3, 13, 9, 0, tzinfo=dt.UTC)
    assert await tick(app, clock) == 1
    assert mail_server.mailbox.to(ME)[-1]["Subject"].startswith("Reminder: Setup 7-9am")


async def test_a_groups_emails_speak_the_language_it_was_made_in(
        app: Any, clock: Clock, mail_server: MailServer) -> None:
    """Made from a German browser, the board's group gets German email (the day written as
    German writes it), whatever language the person asking reads; the organiser switches
    the group to Spanish and the next message is Spanish."""
    client = app.test_client()
    response = await client.post("/api/roster", json=ROSTER,
                                 headers={"Accept-Language": "de-DE,de;q=0.9"})
    made = await response.get_json()
    _, spot = await signed_up_on(client, made)
    asked = await client.post("/api/roster/remind", json={**spot, "email": ME},
                              headers={"Accept-Language": "en"})
    assert asked.status_code == 200
    assert await tick(app, clock) == 1
    [confirm] = mail_server.mailbox.to(ME)
    assert confirm["Subject"] == "Bestätige deine Erinnerung für Working bee"
    link = re.search(rf"{BASE}(/email/confirm/[\w-]+)", text_of(confirm))
    assert link is not None and (await client.post(link[1])).status_code == 200
    clock.now = dt.datetime(2026, 3, 13, 9, 0, tzinfo=dt.UTC)
    assert await tick(app, clock) == 1
    reminder = mail_server.mailbox.to(ME)[-1]
    assert reminder["Subject"] == ("Erinnerung: Setup 7-9am — Working bee, Samstag, "
                                   "14. März 2026 um 07:00")
    chosen = await client.post(f"/api/roster/{made['editToken']}/language",
                               json={"language": "es"})
    assert (await chosen.get_json()) == {"language": "es"}
    response = await client.post("/api/roster/claim", json={
        "slug": made["slug"], "slotId": "s1-1", "name": "Sam", "message": ""})
    spot = {"slug": made["slug"], "slotId": "s1-1",
            "secret": (await response.get_json())["secret"]}
    assert (await client.post("/api/roster/remind", json={
        **spot, "email": "sam@example.com"})).status_code == 200
    assert await tick(app, clock) == 1
    [spanish] = mail_server.mailbox.to("sam@example.com")
    assert spanish["Subject"] == "Confirma tu recordatorio para Working bee"
