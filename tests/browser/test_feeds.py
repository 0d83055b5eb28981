"""A volunteer's calendar subscription in a real browser on a phone: after claiming a
shift, the browser that holds the claim (and only it) offers "Add to my calendar"; it shows a
private webcal link without reloading, keeps the spot's secret (the spot can still be given
back), and the feed behind the link holds the shift, parsed back with `icalendar`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import httpx
import icalendar
from browsing import Watched
from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}
ROSTER = {"title": "Working bee", "eventDate": "Saturday 14 March 2026", "note": "",
          "shifts": [{"label": "Setup 7-9am", "capacity": 2}]}


def test_the_claimer_subscribes_to_their_shift(api: httpx.Client,
                                               open_context: Callable[[], Watched]) -> None:
    slug = api.post("/api/roster", json=ROSTER).json()["slug"]
    volunteer, other = open_context(), open_context()
    page = volunteer.page
    page.set_viewport_size(PHONE)
    page.goto(f"/s/{slug}")
    form = page.locator("form:has(input[name='slotId'][value='s0-1'])")
    form.locator("input[name='name']").fill("Priya")
    with page.expect_navigation():
        form.get_by_role("button", name="Claim").click()
    subscribe = page.get_by_role("button", name="Add to my calendar (stays up to date)")
    expect(subscribe).to_be_visible()
    subscribe.click()
    link = page.get_by_role("link", name="Subscribe in your calendar app")
    expect(link).to_be_visible()
    expect(subscribe).to_be_hidden()
    address = link.get_attribute("href") or ""
    assert address.startswith("webcal://") and address.endswith(".ics")
    assert bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))
    volunteer.check("roster-feed-link")
    expect(page.get_by_role("button", name="Give my spot back")).to_be_visible()

    feed = api.get("/" + address.split("/", 3)[3])
    [event] = icalendar.Calendar.from_ical(feed.content).walk("VEVENT")
    assert event.decoded("DTSTART") == dt.datetime(2026, 3, 14, 7, 0)

    other.page.set_viewport_size(PHONE)
    other.page.goto(f"/s/{slug}")
    expect(other.page.get_by_text("Priya")).to_be_visible()
    expect(other.page.get_by_role("button", name="Add to my calendar (stays up to date)")
           ).to_be_hidden()
    assert address.split("/")[-1] not in other.page.content()
    other.check("roster-feed-others")
