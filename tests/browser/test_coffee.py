"""Coffee Roulette in a real browser: start a roulette through its form, draw rounds from the
organiser page, claim names on the share page and watch the private page change partner
when the next round is drawn, and reset a person. Every page is screenshotted and must load
without console errors or CSP violations."""

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

NAMES = ["Ann Archer", "Bo Bramble", "Cy Cobb", "Di Dunlop", "Ed Ekins"]
PHONE = {"width": 390, "height": 844}


def refused(watched: Watched, status: int) -> None:
    """The browser logs a refused request (the 4xx a form shows as its message) as a console
    error: expected here, so take exactly those out before the page is checked."""
    expected = [p for p in watched.problems if f"status of {status} ()" in p]
    assert expected, watched.problems
    watched.problems = [p for p in watched.problems if p not in expected]


def claim(page: Page, name: str) -> None:
    page.fill("#claim-name", name)
    page.get_by_role("button", name="Get my link").click()


def draw(page: Page, number: int) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=f"Draw round {number}").click()
    expect(page.locator("#coffee-rounds")).to_contain_text(f"Round {number}, drawn")


def partners(page: Page) -> list[str]:
    return sorted(page.locator(".coffee-partner-name").all_inner_texts())


def test_coffee_rounds_claims_and_reset(server: Any, api: httpx.Client,
                                        open_context: Callable[[], Watched]) -> None:
    organiser = open_context()
    page = organiser.page
    page.goto("/")
    page.get_by_role("link", name="Coffee Roulette").click()
    page.wait_for_url("**/new/coffee")
    page.fill("#names", "\n".join(NAMES))
    page.fill("#cadence", "Every second Monday")
    page.fill("#note", "Thirty minutes, your shout or theirs.")
    page.get_by_label("Personal links", exact=False).uncheck()  # names are claimed here
    organiser.check("coffee-create")
    page.get_by_role("button", name="Start the roulette").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit = code_of(page.url, "e")
    share = page.input_value("#share-link")
    expect(page.get_by_role("heading", level=1)).to_have_text("Coffee roulette")
    expect(page.locator("#coffee-rounds")).to_contain_text("No round drawn yet.")
    organiser.check("coffee-organiser-new")

    # Duplicate names are refused on the create page, with the message in the form.
    other = open_context()
    other.page.goto("/new/coffee")
    other.page.fill("#names", "Ann\nBo\nann")
    other.page.get_by_role("button", name="Start the roulette").click()
    expect(other.page.locator("form p.error:not([hidden])")).to_have_text(
        '"ann" is on the list twice — add a surname initial to tell them apart.')
    refused(other, 400)
    other.check("coffee-create-duplicate")

    # Ann claims before any round: her page says so, then updates when round 1 is drawn.
    ann = open_context()
    ann.page.set_viewport_size(PHONE)
    ann.page.goto(share)
    ann.check("coffee-public")
    claim(ann.page, " ann archer")
    ann.page.wait_for_url(re.compile(r"/p/[^/?]+$"))
    token = code_of(ann.page.url, "p")
    expect(ann.page.locator("#coffee-partner")).to_contain_text("No round yet")
    ann.check("coffee-private-no-round")

    draw(page, 1)
    organiser.check("coffee-organiser-round-1")
    first = api.get(f"/api/coffee/p/{token}").raise_for_status().json()
    expect(ann.page.locator("#coffee-partner")).to_contain_text("Round 1, drawn")
    assert partners(ann.page) == sorted(p["name"] for p in first["partners"])
    assert 1 <= len(first["partners"]) <= 2
    expect(ann.page.locator(".coffee-hint").first).to_contain_text(
        "hasn't picked up their link yet")
    ann.check("coffee-private-round-1")
    # The organiser's page never names a partner of Ann's next to her.
    assert "coffee-partner" not in page.content()

    # A partner claims: the organiser's page counts it live; Ann's hint goes away.
    buddy = open_context()
    buddy.page.goto(share)
    claim(buddy.page, first["partners"][0]["name"])
    buddy.page.wait_for_url(re.compile(r"/p/[^/?]+$"))
    expect(buddy.page.locator(".coffee-partner-name", has_text="Ann Archer")).to_have_count(1)
    buddy.check("coffee-private-partner")
    expect(page.locator("#coffee-claims .lede")).to_have_text("2 of 5 claimed their name so far.")
    organiser.check("coffee-organiser-claimed")

    # Claiming Ann again, or a stranger, is refused with the message on the form.
    other.page.goto(share)
    claim(other.page, "ANN ARCHER")
    expect(other.page.locator("form p.error:not([hidden])")).to_have_text(
        "That name's already been claimed. If it's yours, ask the organiser to reset you.")
    refused(other, 409)
    other.check("coffee-public-already-claimed")
    claim(other.page, "Zed")
    expect(other.page.locator("form p.error:not([hidden])")).to_have_text(
        "That name isn't on this team's list.")
    refused(other, 404)

    # Rounds 2 and 3: Ann's open page follows along. With five people one repeated pair
    # can be forced, but never the whole of Ann's last group: that is never the best round.
    seen = [{p["name"] for p in first["partners"]}]
    for number in (2, 3):
        draw(page, number)
        expect(ann.page.locator("#coffee-partner")).to_contain_text(f"Round {number}, drawn")
        now = api.get(f"/api/coffee/p/{token}").raise_for_status().json()
        assert now["round"] == number
        assert partners(ann.page) == sorted(p["name"] for p in now["partners"])
        seen.append({p["name"] for p in now["partners"]})
        assert seen[-1] != seen[-2]
    ann.check("coffee-private-round-3")
    assert api.get(f"/api/coffee/p/{token}").status_code == 200  # the same link all along

    # The organiser resets Ann; her old link dies and a re-claim gives a fresh one.
    with page.expect_navigation():
        page.locator("#coffee-claims li", has_text="Ann Archer").get_by_role(
            "button", name="Reset").click()
    expect(page.locator("#coffee-claims .lede")).to_have_text("1 of 5 claimed their name so far.")
    organiser.check("coffee-organiser-after-reset")
    # Her open page says what happened and how to claim again, never her partner.
    partner = ann.page.locator("#coffee-partner")
    expect(partner).to_contain_text("This link was reset")
    for name in seen[-1]:
        expect(partner).not_to_contain_text(name)
    expect(partner.get_by_role("link", name="claim your name again on the team page")
           ).to_have_attribute("href", share)
    ann.check("coffee-private-after-reset", not_found=ann.page.url)
    assert api.get(f"/api/coffee/p/{token}").status_code == 404  # the JSON read is gone
    ann.page.goto(share)
    claim(ann.page, "Ann Archer")
    ann.page.wait_for_url(re.compile(r"/p/[^/?]+$"))
    assert code_of(ann.page.url, "p") != token
    expect(ann.page.locator("#coffee-partner")).to_contain_text("Round 3, drawn")
    ann.check("coffee-private-reclaimed")

    export = api.post(f"/api/coffee/{edit}/export").raise_for_status().json()["data"]
    assert export["round"] == 3 and export["claimedCount"] == 2
    assert "partners" not in str(export)
