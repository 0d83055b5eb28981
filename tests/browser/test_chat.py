"""The chat-webhook panel in a real browser on a phone (390x844), light and dark: the
organiser of a Kudos Wall connects the team's chat (a refused host first, with its
message), sends a test post that reaches the chat, sees it in the delivery log with the
address masked, and disconnects."""

from __future__ import annotations

import time
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browsing import Watched
from browsing import fits
from chat_receiver import Receiver
from playwright.sync_api import expect

from groupkit.blocks._webhooks import NOT_ALLOWED

PHONE = {"width": 390, "height": 844}
SECRET = "/hooks/qzbrowsersecret"


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    chat = Receiver()
    yield chat
    chat.close()


@pytest.fixture(scope="module")
def server(live_server: Callable[..., Any]) -> Any:
    return live_server(mode="development", webhooks={
        "hosts": ["127.0.0.1"], "allow_loopback": True, "every_seconds": 1})


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_connect_test_post_log_and_disconnect_on_a_phone(
        scheme: str, api: httpx.Client, open_context: Callable[[], Watched],
        receiver: Receiver) -> None:
    made = api.post("/api/kudos", json={"team": f"Support {scheme}", "intro": ""}).json()
    organiser = open_context()
    page = organiser.page
    page.set_viewport_size(PHONE)
    page.emulate_media(color_scheme=scheme)
    page.goto(f"/e/{made['editToken']}")
    panel = page.locator("#chat-webhook")
    expect(panel.get_by_text("Nothing posted yet.")).to_be_visible()
    assert fits(page)
    organiser.check(f"chat-{scheme}-empty")

    page.fill("#chat-url", "https://chat.evil.example/hook")
    panel.get_by_role("button", name="Connect").click()
    expect(panel.locator("form [data-error]")).to_have_text(NOT_ALLOWED)
    assert len(organiser.problems) == 1 and "status of 400" in organiser.problems[0]
    organiser.problems.clear()

    page.fill("#chat-url", receiver.url(SECRET))
    page.select_option("#chat-format", "slack")
    with page.expect_navigation():
        panel.get_by_role("button", name="Connect").click()
    expect(panel.get_by_text("Posting to")).to_contain_text("…cret")
    assert "qzbrowsersecret" not in page.content()
    before = len(receiver.received)
    with page.expect_navigation():
        panel.get_by_role("button", name="Send a test post").click()
    deadline = time.monotonic() + 20
    while len(receiver.received) == before and time.monotonic() < deadline:
        time.sleep(0.2)
    assert receiver.received[-1]["path"] == SECRET
    assert receiver.received[-1]["body"]["text"].startswith("groupkit is connected")
    page.reload()
    expect(panel.locator(".chat-log li").first).to_contain_text("sent")
    assert fits(page)
    organiser.check(f"chat-{scheme}-connected")

    with page.expect_navigation():
        panel.get_by_role("button", name="Disconnect").click()
    expect(panel.get_by_role("button", name="Connect")).to_be_visible()
    expect(panel.get_by_text("Posting to")).to_have_count(0)
    organiser.check(f"chat-{scheme}-disconnected")
