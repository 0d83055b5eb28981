"""A volunteer's (a cook's, a hens guest's) calendar subscription in a real browser on a
phone: after claiming a shift (a day, a spot), the browser that holds the claim (and only
it) offers a subscription; it shows a private webcal link without reloading, keeps the
spot's secret (the spot can still be given back), and the feed behind the link holds the
shift, parsed back with `icalendar`; the Meal Train feed never carries the drop-off details.
On Find a Date, the private answers page offers the chosen date's subscription."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import httpx
import icalendar
import pytest
from boards import open_spot
from browsing import Watched
from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}
ROSTER = {"title": "Working bee", "eventDate": "Saturday 14 March 2026", "note": "",
          "shifts": [{"label": "Setup 7-9am", "capacity": 2}]}
MEAL = {"forWhom": "the Okafor family", "note": "", "allergies": "",
        "dropoff": "qzdropoff 7 Banksia Street", "startDate": "2026-03-14", "days": 2,
        "capacityPerDay": 2, "tasks": []}
HENS = {"title": "Mia's hens", "forWhom": "Mia", "when": "Saturday 13 March 2027, 2pm",
        "where": "The Boathouse", "note": "", "kitty": "", "activities": ["Lunch"],
        "categories": [{"name": "Games", "capacity": 2}]}
#: Every board words its calendar subscription the same way.
SUBSCRIBE = "Add to my calendar (stays up to date)"
CASES = {  # tool: (create body, slot, button, the event's start, the release operation)
    "roster": (ROSTER, "s0-1", SUBSCRIBE, dt.datetime(2026, 3, 14, 7, 0), "unclaim"),
    "meal": (MEAL, "d0-1", SUBSCRIBE, dt.date(2026, 3, 14), "uncook"),
    "hens": (HENS, "c0-1", SUBSCRIBE, dt.datetime(2027, 3, 13, 14, 0), "unclaim"),
}


@pytest.mark.parametrize("tool", sorted(CASES))
def test_the_claimer_subscribes_to_their_spot(tool: str, api: httpx.Client,
                                              open_context: Callable[[], Watched]) -> None:
    body, slot, button, start, release = CASES[tool]
    slug = api.post(f"/api/{tool}", json=body).json()["slug"]
    volunteer, other = open_context(), open_context()
    page = volunteer.page
    page.set_viewport_size(PHONE)
    page.goto(f"/s/{slug}")
    form = open_spot(page, slot)
    form.locator("input[name='name']").fill("Priya")
    with page.expect_navigation():
        form.locator("button[type='submit']").click()
    subscribe = page.get_by_role("button", name=button)
    expect(subscribe).to_be_visible()
    subscribe.click()
    link = page.get_by_role("link", name="Subscribe in your calendar app")
    expect(link).to_be_visible()
    expect(subscribe).to_be_hidden()
    address = link.get_attribute("href") or ""
    assert address.startswith("webcal://") and address.endswith(".ics")
    assert bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))
    volunteer.check(f"{tool}-feed-link")
    expect(page.locator(f"button[data-post$='/{release}'][data-secret-key$=':{slot}']")
           ).to_be_visible()  # secret kept

    feed = api.get("/" + address.split("/", 3)[3])
    [event] = icalendar.Calendar.from_ical(feed.content).walk("VEVENT")
    assert event.decoded("DTSTART") == start
    assert "qzdropoff" not in feed.text

    other.page.set_viewport_size(PHONE)
    other.page.goto(f"/s/{slug}")
    expect(other.page.get_by_text("Priya")).to_be_visible()
    expect(other.page.get_by_role("button", name=button)).to_be_hidden()
    assert address.split("/")[-1] not in other.page.content()
    other.check(f"{tool}-feed-others")


def test_a_find_a_date_answerer_subscribes_to_the_chosen_date(
        api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    made = api.post("/api/finddate", json={
        "title": "Team dinner", "note": "", "timezone": "Australia/Sydney",
        "slots": [{"date": "2026-12-04", "start": "18:30"}, {"date": "2026-12-05"}]}).json()
    token = api.post("/api/finddate/respond", json={
        "slug": made["slug"], "name": "Priya",
        "answers": [{"slotId": "d2", "answer": "yes"}]}).json()["token"]
    watched = open_context()
    page = watched.page
    page.set_viewport_size(PHONE)
    page.goto(f"/p/{token}")
    subscribe = page.get_by_role("button", name="Add to my calendar (stays up to date)")
    subscribe.click()
    link = page.get_by_role("link", name="Subscribe in your calendar app")
    expect(link).to_be_visible()
    address = link.get_attribute("href") or ""
    assert address.startswith("webcal://") and address.endswith(".ics")
    assert bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))
    watched.check("finddate-feed-link")
    path = "/" + address.split("/", 3)[3]
    assert icalendar.Calendar.from_ical(api.get(path).content).walk("VEVENT") == []
    chosen = api.post(f"/api/finddate/{made['editToken']}/choose", json={"slotId": "d2"})
    assert chosen.status_code == 200
    [event] = icalendar.Calendar.from_ical(api.get(path).content).walk("VEVENT")
    assert event.decoded("DTSTART") == dt.date(2026, 12, 5)
    assert address.split("/")[-1] not in api.get(f"/s/{made['slug']}").text
