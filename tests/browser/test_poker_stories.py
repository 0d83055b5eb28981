"""Scrum Poker's story list on a phone (390x844), light and dark, with and without
JavaScript: the organiser pasted the backlog at create; "Up next" lists it, and starting the
next story with the story box left empty takes the first one, which the board then shows."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from browsing import Watched
from browsing import on_a_phone
from playwright.sync_api import expect

from groupkit_testing import installed_tools

pytestmark = [pytest.mark.browser, pytest.mark.server]

STORIES = ["PAY-150 Split bills", "PAY-151 Receipts by email", "PAY-152 Refund status"]


@pytest.mark.parametrize("java_script", [True, False], ids=["script", "no-script"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_story_list_comes_up_in_turn(scheme: str, java_script: bool, api: httpx.Client,
                                         open_context: Callable[..., Any]) -> None:
    body = {**installed_tools()["poker"].example, "stories": STORIES}
    made = api.post("/api/poker", json=body).json()
    before = api.get(f"/api/poker/{made['slug']}").json()
    waiting = before["upNext"]
    assert waiting and waiting == STORIES[-len(waiting):]
    organiser: Watched = open_context(java_script=java_script)
    page = on_a_phone(organiser, scheme, f"/e/{made['editToken']}")
    up_next = page.locator("#poker-up-next")
    expect(up_next.locator("li")).to_have_text(waiting)
    with page.expect_navigation() if not java_script else contextlib.nullcontext():
        page.get_by_role("button", name="Start the next story").click()
    expect(up_next.locator("li")).to_have_text(waiting[1:])
    board = api.get(f"/api/poker/{made['slug']}").json()
    assert board["story"] == waiting[0] and board["upNext"] == waiting[1:]
    assert bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))
    organiser.check(f"poker-stories-{scheme}-{'script' if java_script else 'no-script'}")
