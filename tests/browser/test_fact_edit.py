"""Fact Matcher's organiser edit in a real browser, on a phone: a new starter added and a
claimed leaver taken off after confirming; an open share page follows live, says who left,
and a guess naming the leaver stays, marked as no longer on the list."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from browsing import Watched
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}


def test_a_leaver_goes_and_the_guess_about_them_stays(
        server: Any, api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    made = api.post("/api/fact", json={"title": "Offsite", "names": ["Ann", "Bo", "Cy", "Di"]}
                    ).json()
    slug = made["slug"]
    for name in ("Ann", "Bo", "Cy"):
        token = api.post("/api/fact/claim", json={"slug": slug, "name": name}).json()["token"]
        api.post(f"/api/fact/p/{token}/save",
                 json={"text": f"{name} once rode a camel"}).raise_for_status()

    guest = open_context()
    guest.page.set_viewport_size(PHONE)
    guest.page.goto(f"/s/{slug}")
    card = guest.page.locator("ol.fact-grid li", has_text="Ann once rode a camel")
    card.locator("select").select_option("Bo")
    guest.page.locator("h1").click()  # done choosing: focus leaves the grid

    organiser = open_context()
    page = organiser.page
    page.set_viewport_size(PHONE)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"/e/{made['editToken']}")
    page.get_by_text("Change details").click()
    expect(page.locator("#edit-names")).to_have_value("Ann\nBo\nCy\nDi")
    page.fill("#edit-names", "Ann\nCy\nDi\nEve")
    with page.expect_navigation():
        page.get_by_role("button", name="Save changes").click()
    # The first answer was the 409 asking to confirm: the one console error expected.
    assert len(organiser.problems) == 1 and "status of 409" in organiser.problems[0]
    organiser.problems.clear()
    organiser.check("fact-edit-organiser-after")

    expect(guest.page.get_by_text("The organiser took Bo off the list and their fact left "
                                  "the grid")).to_be_visible()
    expect(guest.page.locator("ol.fact-grid li")).to_have_count(2)
    select = guest.page.locator("ol.fact-grid li", has_text="Ann once rode a camel") \
        .locator("select")
    expect(select).to_have_value("Bo")
    expect(select.locator("option:checked")).to_have_text("Bo (no longer on the list)")
    expect(select.locator("option", has_text="Eve")).to_have_count(1)
    assert guest.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    guest.check("fact-edit-guest-after")
