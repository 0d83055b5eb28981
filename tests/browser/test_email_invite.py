"""Email in a real browser on a phone (390x844), light and dark. The organiser of a Kris
Kringle with personal links types the addresses (a mistyped one first, with its message),
sends, and sees what went to whom with every address masked; each person gets their own
link. A volunteer who just claimed a shift asks to be reminded: this browser's secret goes
with it (they type no code), and the confirmation arrives."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from boards import open_spot
from browsing import Watched
from browsing import fits
from browsing import on_a_phone
from mail_receiver import MailServer
from mail_receiver import text_of
from playwright.sync_api import expect

from groupkit.blocks._email import BAD_ADDRESS

BASE = "https://groups.example.org"


@pytest.fixture(scope="module")
def mail() -> Iterator[MailServer]:
    """The people's mail: one SMTP server for the module's server to send to."""
    with MailServer() as server:
        yield server


@pytest.fixture(scope="module")
def server(live_server: Callable[..., Any], mail: MailServer) -> Any:
    return live_server(mode="development", tools=["kringle", "roster"], base_url=BASE,
                       webhooks={"every_seconds": 1},
                       extra_toml=f'[email]\nurl = "{mail.url}"\nfrom = "groups@example.org"\n')


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_organiser_emails_each_person_their_link_on_a_phone(
        scheme: Any, api: httpx.Client, open_context: Callable[[], Watched],
        mail: MailServer) -> None:
    made = api.post("/api/kringle", json={
        "title": f"Family draw {scheme}", "names": ["Ann", "Bo", "Cy"], "budget": "$20",
        "exchangeDate": "", "note": "", "personalLinks": True}).json()
    people = api.post(f"/api/kringle/{made['editToken']}/export").json()["data"]["people"]
    links = {person["name"]: person["link"] for person in people}
    organiser = open_context()
    page = on_a_phone(organiser, scheme, f"/e/{made['editToken']}")
    panel = page.locator("#email-invite")
    expect(panel.get_by_text("Nothing sent yet.")).to_be_visible()
    assert fits(page)
    organiser.check(f"email-invite-{scheme}-empty")

    ann, cy = f"ann.{scheme}@example.com", f"cy.{scheme}@example.org"
    panel.get_by_label("Ann").fill(ann)
    panel.get_by_label("Cy").fill("cy at example")
    panel.get_by_role("button", name="Send the links").click()
    expect(panel.get_by_text(BAD_ADDRESS.format(name="Cy"))).to_be_visible()
    assert len(organiser.problems) == 1 and "status of 400" in organiser.problems[0]
    organiser.problems.clear()

    panel.get_by_label("Cy").fill(cy)
    panel.get_by_role("button", name="Send the links").click()
    deadline = time.monotonic() + 20
    while not (mail.mailbox.to(ann) and mail.mailbox.to(cy)) and time.monotonic() < deadline:
        time.sleep(0.2)
    for name, address in (("Ann", ann), ("Cy", cy)):
        [message] = mail.mailbox.to(address)
        assert set(re.findall(rf"{BASE}/p/\w+", text_of(message))) == {
            f"{BASE}{links[name]}"}
    assert not mail.mailbox.to(f"bo.{scheme}@example.com")
    log = panel.locator(".email-log li")
    # The mail server has each message before the outbox hears its answer and records it.
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        page.reload()
        if log.filter(has_text="sent").count() == 2:
            break
        time.sleep(0.2)
    expect(log).to_have_count(2)
    expect(log.filter(has_text="Ann")).to_contain_text("a…@e….com")
    expect(log.filter(has_text="Cy")).to_contain_text("sent")
    assert ann not in page.content() and cy not in page.content()
    assert fits(page)
    organiser.check(f"email-invite-{scheme}-sent")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_volunteer_asks_for_a_reminder_on_a_phone(
        scheme: Any, api: httpx.Client, open_context: Callable[[], Watched],
        mail: MailServer) -> None:
    slug = api.post("/api/roster", json={
        "title": f"Working bee {scheme}", "eventDate": "Saturday 14 March 2099", "note": "",
        "shifts": [{"label": "Setup 7-9am", "capacity": 2}]}).json()["slug"]
    volunteer = open_context()
    page = on_a_phone(volunteer, scheme, f"/s/{slug}")
    expect(page.get_by_text("Remind me by email")).to_have_count(0)
    form = open_spot(page, "s0-1")
    form.locator("input[name='name']").fill("Priya")
    with page.expect_navigation():
        form.locator("button[type='submit']").click()
    panel = page.locator("#roster-remind")
    expect(panel).to_be_visible()
    address = f"priya.{scheme}@example.com"
    panel.get_by_label("Your email").fill(address)
    panel.get_by_role("button", name="Remind me").click()
    deadline = time.monotonic() + 20
    while not mail.mailbox.to(address) and time.monotonic() < deadline:
        time.sleep(0.2)
    [message] = mail.mailbox.to(address)
    assert message["Subject"] == f"Confirm your reminder for Working bee {scheme}"
    assert re.search(rf"{BASE}/email/confirm/[\w-]+", text_of(message))
    assert address not in page.content()
    assert fits(page)
    volunteer.check(f"email-remind-{scheme}-asked")
