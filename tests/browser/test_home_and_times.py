"""The home page's tool filter, and moments shown in the viewer's own time zone (in UTC, and
saying so, without JavaScript); Question of the Day's "midnight Sydney time" in the viewer's
clock."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]


@pytest.fixture
def contexts(browser: Browser, server: Any) -> Iterator[Any]:
    made: list[BrowserContext] = []

    def start(**options: Any) -> BrowserContext:
        made.append(browser.new_context(base_url=server.base_url, **options))
        return made[-1]

    yield start
    for context in made:
        context.close()


def test_home_groups_tools_and_filters_them(contexts: Any) -> None:
    page = contexts(viewport={"width": 390, "height": 844}).new_page()
    page.goto("/")
    headings = page.locator(".tool-group h2").all_inner_texts()
    assert headings == ["Work team", "Celebrations and gifts", "Events and sign-ups",
                        "Games and draws"]
    games = page.locator("#group-games + .tool-list strong").all_inner_texts()
    assert games == sorted(games, key=str.casefold) and "Office Sweep" in games
    page.fill("#tool-filter", "kris")
    expect(page.locator("[data-tool-item]:visible")).to_have_count(1)
    expect(page.locator("[data-tool-item]:visible strong")).to_have_text("Kris Kringle")
    expect(page.locator(".tool-group:visible h2")).to_have_text("Celebrations and gifts")
    page.fill("#tool-filter", "zzzz")
    expect(page.get_by_text("No tool matches that. Try another word.")).to_be_visible()
    page.fill("#tool-filter", "")
    expect(page.locator("[data-tool-item]:visible")).to_have_count(
        page.locator("[data-tool-item]").count())


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_home_page_fits_about_two_phone_screens_and_a_row_opens_its_tool(
        contexts: Any, scheme: str) -> None:
    """Every tool with its summary, by occasion, in under 2,400 px on a 390x844 phone (a
    card per tool took 3,513); a tap on a tool's summary, not only its name, opens it."""
    page = contexts(viewport={"width": 390, "height": 844}, color_scheme=scheme).new_page()
    page.goto("/")
    assert page.locator("[data-tool-item]").count() >= 21
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 2400, height
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    summary = page.locator("[data-tool-item]", has_text="Volunteer Roster").locator(
        ".tool-summary")
    summary.scroll_into_view_if_needed()
    box = summary.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_url("**/new/roster")


def test_moments_read_in_the_viewers_zone(api: httpx.Client, contexts: Any) -> None:
    made = api.post("/api/card", json={"recipient": "Margaret", "title": "Farewell"})
    made.raise_for_status()
    slug, edit = made.json()["slug"], made.json()["editToken"]
    api.post("/api/card/sign", json={"slug": slug, "name": "Ann", "message": "Thanks!"}
             ).raise_for_status()
    stamp = api.post(f"/api/card/{edit}/export").json()["data"]["messages"][0]["signedAt"]

    sydney = contexts(timezone_id="Australia/Sydney", locale="en-AU").new_page()
    sydney.goto(f"/e/{edit}")
    when = sydney.locator("time[data-local]").first
    expect(when).to_have_attribute("data-localised", "1")
    expected = sydney.evaluate("""(iso) => new Date(iso).toLocaleString(undefined,
        {day: "numeric", month: "short", year: "numeric", hour: "numeric", minute: "2-digit"})""",
                               stamp)
    expect(when).to_have_text(expected)
    assert "UTC" not in when.inner_text() and "UTC" in (when.get_attribute("title") or "")

    bare = contexts(java_script_enabled=False, timezone_id="Australia/Sydney").new_page()
    bare.goto(f"/e/{edit}")
    assert re.fullmatch(r"\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC",
                        bare.locator("time[data-local]").first.inner_text())


def test_question_of_the_day_changes_at_the_viewers_own_time(contexts: Any) -> None:
    london = contexts(timezone_id="Europe/London", locale="en-GB").new_page()
    london.goto("/new/qotd")
    clock = london.locator("time[data-local-clock]")
    expect(clock).to_have_text(re.compile(r"^\d{1,2}:00 your time$"))
    assert clock.get_attribute("title") == "midnight, Sydney time"
    sydney = contexts(timezone_id="Australia/Sydney").new_page()
    sydney.goto("/new/qotd")
    expect(sydney.locator("time[data-local-clock]")).to_have_text("midnight your time")
