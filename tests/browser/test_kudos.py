"""Kudos Wall in a real browser: the organiser puts up a wall through the create page, a
teammate posts a note from the share link on a phone (the spec's message first when a field
is missing), another teammate's open page shows it without a reload, the poster takes their
own note down from the browser that keeps its token, and the organiser removes any note."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from browsing import Watched
from browsing import code_of
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}


def refused_once(watched: Watched, status: int, path: str) -> None:
    """The browser logs a refused request as a console error: expected here, and only this
    one."""
    assert len(watched.problems) == 1 and f"status of {status}" in watched.problems[0] \
        and path in watched.problems[0], watched.problems
    watched.problems.clear()


def notes(page: Page) -> Any:
    return page.locator("#kudos-wall .kudos-note")


def post_note(page: Page, recipient: str, message: str, sender: str) -> None:
    page.fill("#recipient", recipient)
    page.fill("#message", message)
    page.fill("#sender", sender)
    with page.expect_navigation():
        page.get_by_role("button", name="Post it").click()


def test_post_see_live_remove_own_and_organiser_remove(
        api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    organiser = open_context()
    page = organiser.page
    page.goto("/new/kudos")
    page.fill("#team", "Support team")
    page.fill("#intro", "Caught someone doing something great? Say so here.")
    organiser.check("kudos-create")
    page.get_by_role("button", name="Put up the wall").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    share = page.input_value("#share-link")
    slug = code_of(share, "s")
    organiser.check("kudos-organiser-new")

    poster, watcher = open_context(), open_context()
    watcher.page.goto(share)
    watcher.page.evaluate("window.kudosNotReloaded = true")
    expect(watcher.page.get_by_text("No notes yet this week.")).to_be_visible()
    watcher.check("kudos-public-empty")

    poster.page.set_viewport_size(PHONE)
    poster.page.goto(share)
    poster.page.fill("#message", "Stayed late to get the release out.")
    poster.page.get_by_role("button", name="Post it").click()
    # Each message at its field, all at once (the script asks the 400 for every field).
    form = poster.page.locator(".kudos-form")
    expect(form.locator("[data-field-error='recipient']")).to_have_text("Who's it for?")
    expect(form.locator("[data-field-error='sender']")).to_have_text(
        "Put your name on it — an anonymous thank-you isn't worth much.")
    expect(poster.page.locator("#recipient")).to_have_attribute("aria-invalid", "true")
    expect(poster.page.locator("#recipient")).to_be_focused()
    refused_once(poster, 400, "/api/kudos/note")
    poster.page.fill("#recipient", "Priya")
    poster.page.get_by_role("button", name="Post it").click()
    expect(form.locator("[data-field-error]")).to_have_text(
        "Put your name on it — an anonymous thank-you isn't worth much.")
    refused_once(poster, 400, "/api/kudos/note")
    poster.check("kudos-public-missing-sender")
    post_note(poster.page, "Priya", "Stayed late to get the release out.", "Sam")
    mine = notes(poster.page)
    expect(mine).to_have_count(1)
    expect(mine.first).to_contain_text("Priya")
    expect(mine.first.get_by_role("button", name="Remove my note")).to_be_visible()
    poster.check("kudos-public-posted")

    # The other browser's open page shows the note within a second, with no Remove button.
    expect(notes(watcher.page)).to_have_count(1, timeout=1000)
    assert watcher.page.evaluate("window.kudosNotReloaded") is True
    expect(notes(watcher.page).first).to_contain_text("Stayed late to get the release out.")
    expect(notes(watcher.page).first.get_by_role("button", name="Remove my note")).to_be_hidden()
    watcher.check("kudos-public-live")

    # The poster takes it down from the browser that holds its token.
    with poster.page.expect_navigation():
        mine.first.get_by_role("button", name="Remove my note").click()
    expect(notes(poster.page)).to_have_count(0)
    poster.check("kudos-public-removed-own")
    expect(notes(watcher.page)).to_have_count(0, timeout=1000)
    assert api.get(f"/api/kudos/{slug}").json()["notes"] == []

    # The organiser removes anyone's note.
    post_note(watcher.page, "Lee", "Covered my on-call shift at no notice.", "Ana")
    page.goto(page.url.split("?")[0])
    expect(notes(page)).to_have_count(1)
    organiser.check("kudos-organiser-one-note")
    with page.expect_navigation():
        notes(page).first.get_by_role("button", name="Remove").click()
    expect(notes(page)).to_have_count(0)
    organiser.check("kudos-organiser-removed")
    assert api.get(f"/api/kudos/{slug}").json()["notes"] == []
