"""Hens & Shower Planner in a real browser: create it through its form, then the share page
(the place shown, the running order, the kitty; the place absent from link-preview tags),
claiming and letting go of a spot, another guest's claim, and the organiser removing it.
Every page is screenshotted."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from boards import claim as claim_spot
from boards import spot_form
from browsing import Watched
from browsing import code_of
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

WHERE = "Bellbird Cottage, 7 Wattle Lane"


def release_button(page: Page, slot_id: str) -> Any:
    return page.locator(f"button[data-post$='/unclaim'][data-secret-key$=':{slot_id}']")


def claim(page: Page, slot_id: str, name: str, message: str = "") -> None:
    claim_spot(page, slot_id, name=name, **({"message": message} if message else {}))


def spot(api: httpx.Client, slug: str, slot_id: str) -> dict[str, Any]:
    board = api.get(f"/api/hens/{slug}").raise_for_status().json()
    return next(found for category in board["categories"] for found in category["spots"]
                if found["slotId"] == slot_id)


def test_hens_create_share_claim_release_remove(api: httpx.Client,
                                                open_context: Callable[[], Watched]) -> None:
    watched = open_context()
    page = watched.page
    page.goto("/")
    page.get_by_role("link", name="Hens & Shower Planner").click()
    page.wait_for_url("**/new/hens")
    page.fill("#title", "Mia's hens")
    page.fill("#forWhom", "Mia")
    page.fill("#when", "Saturday 14 March, 2pm")
    page.fill("#where", WHERE)
    page.fill("#note", "Dress code: pink.\nIt's a surprise!")
    page.fill("#kitty", "$60 each to the shared account by Friday.")
    page.fill("#activities", "Long lunch\nHarbour cruise\n\nKaraoke")
    rows = page.locator("[data-list='categories'] [data-row]")
    default_rows = rows.count()
    page.get_by_role("button", name="Add a list").click()
    rows.last.locator("[data-key='name']").fill("Music")
    rows.last.locator("[data-key='capacity']").fill("1")
    watched.check("hens-create")
    page.get_by_role("button", name="Make the planner").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")
    watched.check("hens-organiser-new")
    board = api.get(f"/api/hens/{slug}").raise_for_status().json()
    assert board["where"] == WHERE
    assert board["activities"] == ["Long lunch", "Harbour cruise", "Karaoke"]
    assert board["categories"][-1] == {"name": "Music", "capacity": 1, "taken": 0,
                                       "spots": [{"slotId": f"c{default_rows}-1",
                                                  "taken": False, "name": None,
                                                  "message": None}]}

    # The share page: the place, the running order in order, the kitty.
    page.goto(share)
    watched.check("hens-public")
    expect(page.locator(".hens-where")).to_have_text(WHERE)
    expect(page.locator(".hens-running li")).to_have_text(
        ["Long lunch", "Harbour cruise", "Karaoke"])
    expect(page.locator(".hens-kitty")).to_contain_text("$60 each to the shared account")
    # Link-preview tags never carry the place (nor does the document title).
    metadata = page.evaluate("""() => [document.title,
        ...Array.from(document.querySelectorAll('meta'), m => m.outerHTML)].join('\\n')""")
    assert "og:description" in metadata and "Mia" in metadata
    assert "Bellbird" not in metadata and "Wattle" not in metadata

    # A guest claims a Music spot with a note, sees it, and lets it go again.
    music = f"c{default_rows}-1"
    claim(page, music, "Ann", "Bringing the playlist")
    taken = page.locator("li.taken")
    expect(taken).to_have_count(1)
    expect(taken).to_contain_text("Ann")
    expect(taken).to_contain_text("Bringing the playlist")
    expect(release_button(page, music)).to_be_visible()
    watched.check("hens-public-claimed")
    assert (spot(api, slug, music)["name"], spot(api, slug, music)["message"]) == (
        "Ann", "Bringing the playlist")

    other = open_context()
    other.page.set_viewport_size({"width": 390, "height": 844})
    other.page.goto(share)
    expect(other.page.locator("li.taken")).to_have_count(1)
    expect(release_button(other.page, music)).to_be_hidden()
    assert other.page.evaluate("document.documentElement.scrollWidth") <= 390
    other.check("hens-public-phone-other-guest")

    with page.expect_navigation():
        release_button(page, music).click()
    expect(page.locator("li.taken")).to_have_count(0)
    watched.check("hens-public-released")
    assert spot(api, slug, music)["taken"] is False

    # The other guest sees the spot come free without reloading, and claims another one.
    expect(spot_form(other.page, music)).to_have_count(1, timeout=2000)
    claim(other.page, "c0-1", "Bo")
    expect(release_button(other.page, "c0-1")).to_be_visible()
    other.check("hens-public-phone-claimed")

    # The organiser sees Bo's claim and removes it.
    page.goto(f"/e/{edit_token}")
    claimed = page.locator("li.taken")
    expect(claimed).to_have_count(1)
    expect(claimed).to_contain_text("Bo")
    expect(page.locator(".hens-where")).to_have_text(WHERE)
    watched.check("hens-organiser-claimed")
    with page.expect_navigation():
        claimed.get_by_role("button", name="Remove").click()
    expect(page.locator("li.taken")).to_have_count(0)
    watched.check("hens-organiser-removed")
    assert spot(api, slug, "c0-1")["taken"] is False
