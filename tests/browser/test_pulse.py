"""Weekly Pulse in a real browser: the organiser sets up a pulse through the create page,
people check in from the share link on phones, a week under four check-ins shows only its
count (the organiser's page too), the fourth opens the week on the organiser's open page
without a reload, and switching words off takes the words box away."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from browsing import Watched
from browsing import code_of
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}


def refused_once(watched: Watched, status: int, path: str) -> None:
    """The browser logs a refused request as a console error: expected here, and only this
    one."""
    assert len(watched.problems) == 1 and f"status of {status}" in watched.problems[0] \
        and path in watched.problems[0], watched.problems
    watched.problems.clear()


def check_in(watched: Watched, share: str, score: int, words: str | None) -> None:
    page = watched.page
    page.goto(share)
    page.locator(f"label.pulse-option:has(input[value='{score}'])").click()
    if words is not None:
        page.fill("#words", words)
    page.get_by_role("button", name="Check in").click()
    page.wait_for_url("**?thanks=1")


def test_check_ins_stay_hidden_until_four_then_show_live(
        api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    organiser = open_context()
    page = organiser.page
    page.goto("/new/pulse")
    page.fill("#team", "Platform team")
    expect(page.get_by_label("Ask for a few words as well as a score")).to_be_checked()
    organiser.check("pulse-create")
    page.get_by_role("button", name="Start the pulse").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")
    organiser.check("pulse-organiser-new")

    guest = open_context()
    guest.page.set_viewport_size(PHONE)
    guest.page.goto(share)
    expect(guest.page.get_by_role("group", name="How was your week?")).to_be_visible()
    guest.check("pulse-public")
    # No score picked: the spec's message, in place.
    guest.page.get_by_role("button", name="Check in").click()
    expect(guest.page.get_by_role("alert")).to_have_text("Pick a number from 1 to 5.")
    refused_once(guest, 400, "/api/pulse/respond")
    guest.check("pulse-public-no-score")

    check_in(guest, share, 4, "Good sprint, long review queue.")
    expect(guest.page.get_by_role("status")).to_contain_text("you're checked in")
    this_week = guest.page.locator(".pulse-current")
    expect(this_week).to_contain_text("1 response")
    expect(this_week).to_contain_text("3 to go")
    assert "Good sprint" not in guest.page.content()
    expect(guest.page.locator("form.pulse-form")).to_be_hidden()
    guest.check("pulse-public-thanks")
    # Back on the share link later this week: no second check-in form, just that it's done.
    guest.page.goto(share)
    expect(guest.page.get_by_role("status")).to_have_text(
        "You've checked in this week. Come back next week for the next one.")
    expect(guest.page.locator("form.pulse-form")).to_be_hidden()
    guest.check("pulse-public-checked-in")
    # Someone else on the same device can still check in.
    guest.page.get_by_role("button", name="Someone else checking in on this device?").click()
    expect(guest.page.locator("form.pulse-form")).to_be_visible()
    # The share link with "thanks" in its address, opened elsewhere, marks nothing.
    elsewhere = open_context()
    elsewhere.page.goto(f"{share}?thanks=1")
    elsewhere.page.goto(share)
    expect(elsewhere.page.locator("form.pulse-form")).to_be_visible()
    expect(elsewhere.page.locator("[data-pulse-done]")).to_be_hidden()
    elsewhere.check("pulse-public-other-browser")

    for score, words in ((2, "Too many meetings."), (5, None)):
        api.post("/api/pulse/respond", json={"slug": slug, "score": score,
                                             "words": words}).raise_for_status()
    page.goto(f"/e/{edit_token}")
    expect(page.locator(".pulse-current")).to_contain_text("3 responses")
    assert page.locator("meter").count() == 0
    assert "Too many meetings." not in page.content()
    organiser.check("pulse-organiser-three")
    page.evaluate("window.pulseNotReloaded = true")

    # The fourth check-in opens the week on the organiser's open page, within a second.
    other = open_context()
    other.page.set_viewport_size(PHONE)
    check_in(other, share, 3, "Fine.")
    expect(page.locator(".pulse-current meter")).to_have_count(5, timeout=1000)
    assert page.evaluate("window.pulseNotReloaded") is True
    expect(page.locator(".pulse-current .pulse-average")).to_contain_text("3.5")
    comments = page.locator(".pulse-current .pulse-comments li").all_inner_texts()
    assert sorted(comments) == ["Fine.", "Good sprint, long review queue.", "Too many meetings."]
    organiser.check("pulse-organiser-shown")
    other.check("pulse-public-shown")

    # Words off, from the organiser's "Change details": the share page no longer asks.
    page.get_by_text("Change details").click()
    page.get_by_label("Ask for a few words as well as a score").uncheck()
    with page.expect_navigation():
        page.get_by_role("button", name="Save changes").click()
    page.get_by_text("Change details").click()
    expect(page.get_by_label("Ask for a few words as well as a score")).not_to_be_checked()
    organiser.check("pulse-organiser-words-off")
    guest.page.goto(share)
    assert guest.page.locator("#words").count() == 0
    guest.check("pulse-public-words-off")
    assert api.get(f"/api/pulse/{slug}").json()["askWords"] is False
