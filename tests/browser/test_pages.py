"""The pages in a real browser (Playwright driving the system's headless Chromium): creating a
sweep and a Bring a Plate board through their forms, the organiser page's links, claiming,
releasing and removing a spot. Every page is screenshotted to artifacts/screenshots/ and must
load without console errors or Content-Security-Policy violations."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from boards import claim as claim_spot
from boards import open_spot
from boards import spot_form
from browsing import Watched
from browsing import code_of
from browsing import launch
from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_first_page_of_a_fresh_browser_is_clean(browser: Browser, server: Any,
                                                screenshot: Callable[[Any, str], Path]) -> None:
    """A visitor's very first page: nothing in the console. (Chromium asks a new browser's
    first page for /favicon.ico unless the page names an icon: a 404 there is a console
    error that later pages, and so the other tests, never see.)"""
    fresh = launch(browser.browser_type)
    try:
        page = fresh.new_page(base_url=server.base_url)
        watched = Watched(page, screenshot)
        page.goto("/")
        page.wait_for_timeout(400)  # an icon is asked for after `load`
        watched.check("home-fresh-browser")
    finally:
        fresh.close()


def test_watcher_catches_csp_violations(server: Any, open_context: Callable[[], Watched]) -> None:
    """The page CSP really blocks inline script, and the watcher really reports it."""
    watched = open_context()
    watched.page.goto("/")
    watched.page.evaluate("""() => {
        const script = document.createElement("script");
        script.textContent = "window.inlineRan = true";
        document.body.appendChild(script);
    }""")
    watched.page.wait_for_timeout(100)
    assert watched.page.evaluate("window.inlineRan === true") is False
    assert any("CSP violation" in problem or "Content Security Policy" in problem
               for problem in watched.problems), watched.problems
    watched.problems.clear()  # expected here, and only here


def test_sweep_create_organiser_and_share(server: Any, api: httpx.Client,
                                          open_context: Callable[[], Watched]) -> None:
    watched = open_context()
    page = watched.page
    page.goto("/")
    watched.check("home")

    page.get_by_role("link", name="Office Sweep").click()
    page.wait_for_url("**/new/sweeps")
    page.fill("#title", "Office grand final")
    page.fill("#outcomes", "Cats\nSwans\n\nLions")
    page.fill("#names", "Ann\nBo")
    watched.check("sweeps-create")
    page.get_by_role("button", name="Draw the sweep").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")

    # The organiser page: both links, each with a copy button, and the draw.
    assert page.get_by_role("status").inner_text().startswith("Created.")
    share = page.input_value("#share-link")
    organiser = page.input_value("#organiser-link")
    assert organiser == server.url(f"/e/{edit_token}")
    assert re.fullmatch(re.escape(server.url("/s/")) + r"office-grand-final-[a-z0-9]{14}", share)
    assert page.locator("button[data-copy]").count() == 2
    copy = page.locator("button[data-copy='#share-link']")
    copy.click()
    expect(copy).to_have_text("Copied")  # once the clipboard write resolves
    assert page.evaluate("navigator.clipboard.readText()") == share
    assert page.locator("table.draw tbody tr").count() == 3
    watched.check("sweeps-organiser")

    # The share link shows the same fixed draw.
    page.goto(share)
    watched.check("sweeps-public")
    assert page.get_by_role("heading", level=1).inner_text() == "Office grand final"
    rows = [[cell.strip() for cell in row.locator("td").all_inner_texts()]
            for row in page.locator("table.draw tbody tr").all()]
    draw = api.get(f"/api/sweeps/{code_of(share, 's')}").raise_for_status().json()["draw"]
    assert rows == [[pair["outcome"], pair["name"]] for pair in draw]
    assert [outcome for outcome, _ in rows] == ["Cats", "Swans", "Lions"]
    assert {name for _, name in rows} == {"Ann", "Bo"}


def release_button(page: Page, slot_id: str) -> Any:
    return page.locator(f"button[data-secret-key$=':{slot_id}']")


def claim(page: Page, slot_id: str, name: str, dish: str) -> None:
    claim_spot(page, slot_id, name=name, dish=dish)


def board_spot(api: httpx.Client, slug: str, slot_id: str) -> dict[str, Any]:
    board = api.get(f"/api/plate/{slug}").raise_for_status().json()
    return next(spot for category in board["categories"] for spot in category["spots"]
                if spot["slotId"] == slot_id)


def test_plate_create_claim_release_remove(server: Any, api: httpx.Client,
                                           open_context: Callable[[], Watched]) -> None:
    watched = open_context()
    page = watched.page
    page.goto("/")
    page.get_by_role("link", name="Bring a Plate").click()
    page.wait_for_url("**/new/plate")
    page.fill("#title", "Friday lunch")
    page.fill("#eventDate", "Friday 12:30")
    rows = page.locator("[data-list='categories'] [data-row]")
    default_rows = rows.count()
    page.get_by_role("button", name="Add a category").click()
    assert rows.count() == default_rows + 1
    rows.last.locator("[data-key='name']").fill("Nibbles")
    rows.last.locator("[data-key='capacity']").fill("2")
    watched.check("plate-create")
    page.get_by_role("button", name="Make the board").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")
    watched.check("plate-organiser-new")
    assert page.locator("button[data-copy]").count() == 2
    share = page.input_value("#share-link")
    slug = code_of(share, "s")
    board = api.get(f"/api/plate/{slug}").raise_for_status().json()
    assert board["title"] == "Friday lunch"
    assert len(board["categories"]) == default_rows + 1
    assert board["categories"][-1]["name"] == "Nibbles"
    assert board["categories"][-1]["capacity"] == 2
    nibbles = f"c{default_rows}-2"

    # A guest claims the second Nibbles spot and sees it taken, with a release button.
    page.goto(share)
    watched.check("plate-public")
    claim(page, nibbles, "Ann", "Sausage rolls")
    taken = page.locator("li.taken")
    assert taken.count() == 1
    assert "Ann" in taken.inner_text() and "Sausage rolls" in taken.inner_text()
    assert release_button(page, nibbles).is_visible()
    assert spot_form(page, nibbles).count() == 0
    watched.check("plate-public-claimed")
    spot = board_spot(api, slug, nibbles)
    assert (spot["taken"], spot["name"], spot["dish"]) == (True, "Ann", "Sausage rolls")

    # Another browser sees the claim but not the release button.
    other = open_context()
    other.page.goto(share)
    other_taken = other.page.locator("li.taken")
    assert other_taken.count() == 1 and "Ann" in other_taken.inner_text()
    assert release_button(other.page, nibbles).count() == 1
    assert release_button(other.page, nibbles).is_hidden()
    other.check("plate-public-other-browser")

    # The guest releases the spot from the browser that claimed it.
    with page.expect_navigation():
        release_button(page, nibbles).click()
    assert page.locator("li.taken").count() == 0
    assert spot_form(page, nibbles).count() == 1
    watched.check("plate-public-released")
    assert board_spot(api, slug, nibbles)["taken"] is False

    # The other browser claims a spot; the organiser removes that claim.
    claim(other.page, "c0-1", "Bo", "Lasagne")
    assert release_button(other.page, "c0-1").is_visible()
    other.check("plate-public-claimed-by-other")
    page.goto(f"/e/{edit_token}")
    claimed = page.locator("li.taken")
    assert claimed.count() == 1 and "Bo" in claimed.inner_text()
    watched.check("plate-organiser-claimed")
    with page.expect_navigation():
        claimed.get_by_role("button", name="Remove").click()
    assert page.locator("li.taken").count() == 0
    watched.check("plate-organiser-removed")
    assert board_spot(api, slug, "c0-1")["taken"] is False

    # The other browser's page now offers the spot again.
    other.page.reload()
    assert spot_form(other.page, "c0-1").count() == 1
    other.check("plate-public-after-remove")


def watched_board(api: httpx.Client, open_context: Callable[[], Watched], title: str,
                  capacity: int) -> tuple[dict[str, str], str, Watched, Watched]:
    """A fresh one-category board, open in a watching browser that notes any reload."""
    created = api.post("/api/plate", json={
        "title": title, "categories": [{"name": "Mains", "capacity": capacity}]}).json()
    share = f"/s/{created['slug']}"
    watcher, actor = open_context(), open_context()
    watcher.page.goto(share)
    watcher.page.evaluate("window.notReloaded = true")
    return created, share, watcher, actor


def test_an_open_board_shows_another_browsers_claim_without_a_reload(
        api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    """Live updates: the page learns of the change over its event stream and swaps its
    board in place (no navigation), within a second; deleting the board takes it away."""
    created, share, watcher, actor = watched_board(api, open_context, "Live board", 2)
    watcher.check("plate-live-before")
    actor.page.goto(share)
    claim(actor.page, "c0-2", "Ann", "Dumplings")
    taken = watcher.page.locator("li.taken")
    expect(taken).to_have_count(1, timeout=1000)
    assert "Dumplings" in taken.inner_text()
    assert watcher.page.evaluate("window.notReloaded") is True
    watcher.check("plate-live-after")

    api.post(f"/api/plate/{created['editToken']}/delete").raise_for_status()
    expect(watcher.page.get_by_text("The organiser has deleted this")).to_be_visible(
        timeout=2000)
    watcher.check("plate-live-deleted")


def test_a_board_stays_current_around_the_field_a_visitor_is_typing_in(
        api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    """While one visitor types into a spot's form, another browser's claim still shows at
    once: the count and the claimed spot update, and what is being typed (and the focus)
    stays exactly as it was."""
    _, share, watcher, actor = watched_board(api, open_context, "Busy board", 3)
    typing = open_spot(watcher.page, "c0-1").locator("input[name='name']")
    typing.fill("Half a na")
    typing.focus()
    expect(watcher.page.locator(".plate-count")).to_have_text("0 of 3 taken")

    actor.page.goto(share)
    claim(actor.page, "c0-2", "Ann", "Dumplings")
    expect(watcher.page.locator(".plate-count")).to_have_text("1 of 3 taken", timeout=2000)
    taken = watcher.page.locator("li.taken")
    expect(taken).to_have_count(1)
    assert "Dumplings" in taken.inner_text()
    assert typing.input_value() == "Half a na"
    assert watcher.page.evaluate(
        "document.activeElement.getAttribute('name')") == "name"
    # The next change comes as the changed parts alone (the spot's row and the count).
    claim(actor.page, "c0-3", "Bo", "Pie")
    expect(watcher.page.locator(".plate-count")).to_have_text("2 of 3 taken", timeout=2000)
    expect(taken).to_have_count(2)
    assert "Pie" in taken.nth(1).inner_text()
    assert typing.input_value() == "Half a na"
    assert watcher.page.evaluate(
        "document.activeElement.getAttribute('name')") == "name"
    assert watcher.page.evaluate("window.notReloaded") is True
    watcher.check("plate-live-while-typing")
