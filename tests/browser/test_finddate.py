"""Find a Date (the example third-party plugin) in Chromium: propose dates through the
create page, answer on the share page, change answers on the private page, choose the date
as organiser, and see the calendar link, on a phone-sized screen too."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
from browsing import Watched, code_of
from playwright.sync_api import expect


def test_find_a_date_from_proposal_to_calendar(api: httpx.Client,
                                               open_context: Callable[[], Watched]) -> None:
    organiser = open_context()
    page = organiser.page
    page.goto("/new/finddate")
    page.fill("#title", "Team dinner")
    rows = page.locator("[data-list='slots'] [data-row]")
    rows.nth(0).locator("[data-key='date']").fill("2026-12-04")
    rows.nth(0).locator("[data-key='start']").fill("18:30")
    rows.nth(1).locator("[data-key='date']").fill("2026-12-05")
    rows.nth(2).locator("[data-remove-row]").click()
    organiser.check("finddate-create")
    page.get_by_role("button", name="Start finding a date").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    organiser.check("finddate-organiser-new")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")

    guest = open_context()
    guest.page.goto(share)
    guest.check("finddate-public-empty")
    guest.page.fill("#name", "Ann")
    guest.page.select_option("#answer-d1", "yes")
    guest.page.select_option("#answer-d2", "maybe")
    guest.page.get_by_role("button", name="Send my answers").click()
    guest.page.wait_for_url(re.compile(r"/p/[^/?]+$"))
    expect(guest.page.get_by_text("Ann's private link")).to_be_visible()
    guest.check("finddate-private")
    guest.page.select_option("#answer-d2", "no")
    with guest.page.expect_navigation():
        guest.page.get_by_role("button", name="Save my answers").click()
    view = api.get(f"/api/finddate/{slug}").json()
    assert view["responses"][0]["answers"] == {"d1": "yes", "d2": "no"}
    assert view["best"] == "d1"

    page.reload()
    expect(page.locator("th.best")).to_contain_text("Fri 4 Dec 2026, 18:30")
    with page.expect_navigation():
        page.get_by_role("button", name="Choose this one").first.click()
    organiser.check("finddate-organiser-chosen")
    assert api.get(f"/api/finddate/{slug}").json()["chosen"] == "d1"

    phone = open_context()
    phone.page.set_viewport_size({"width": 390, "height": 844})
    phone.page.goto(share)
    link = phone.page.get_by_role("link", name="Add it to your calendar")
    expect(link).to_be_visible()
    phone.check("finddate-public-chosen-phone")
    calendar = api.get(link.get_attribute("href") or "")
    assert calendar.status_code == 200 and "BEGIN:VEVENT" in calendar.text
