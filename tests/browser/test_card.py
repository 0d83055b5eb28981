"""Group Card in a real browser: an organiser makes a card through its form, people sign it
(one on a phone), a signer takes their message off from their own page, the organiser
removes another, and the card is checked as it prints. Every page is screenshotted and must
load without console errors or CSP violations."""

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
WELL_WISHERS = [
    ("Dev", "Thirty-one years and you still knew where every form lived. We'll be lost!"),
    ("Mei", "Enjoy the garden, the grandkids and every sleep-in you've earned."),
    ("Tom", "Thanks for covering for me in 2009. You know the one."),
    ("Rosa", "The tea room won't be the same. Come back for Friday scones?"),
    ("Sam", "Happy retirement — go and do all the things."),
]


def messages(api: httpx.Client, slug: str) -> list[dict[str, Any]]:
    return list(api.get(f"/api/card/{slug}").raise_for_status().json()["messages"])


def sign(page: Page, name: str, message: str) -> None:
    page.fill("#message", message)
    page.fill("#name", name)
    page.get_by_role("button", name="Sign the card").click()


def test_card_sign_print_and_remove(server: Any, api: httpx.Client,
                                    open_context: Callable[[], Watched]) -> None:
    organiser = open_context()
    page = organiser.page
    page.goto("/")
    page.get_by_role("link", name="Group Card").click()
    page.wait_for_url("**/new/card")
    page.fill("#recipient", "Margaret")
    page.fill("#title", "Happy retirement, Margaret!")
    page.fill("#note", "From all of us on level 3.")
    organiser.check("card-create")
    page.get_by_role("button", name="Make the card").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")
    organiser.check("card-organiser-new")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")

    # The card, still blank inside.
    guest = open_context()
    ann = guest.page
    ann.goto(share)
    expect(ann.get_by_role("heading", level=1)).to_have_text("Happy retirement, Margaret!")
    expect(ann.locator(".card-subline")).to_have_text("A card for Margaret")
    expect(ann.locator(".card-empty")).to_be_visible()
    guest.check("card-public-empty")

    # Signing needs a name first, then a message (the refusals are the expected 400s).
    sign(ann, "", "Lovely working with you.")
    expect(ann.get_by_role("alert")).to_have_text("Add your name so they know who it's from.")
    sign(ann, "Ann", "")
    expect(ann.get_by_role("alert")).to_have_text(
        "Write a message first — a line or two is plenty.")
    assert len(guest.problems) == 2 and all(
        "status of 400" in p and p.endswith("/api/card/sign)") for p in guest.problems)
    guest.problems.clear()
    assert messages(api, slug) == []

    # A real signature lands on the signer's own page, with the private link to keep.
    sign(ann, "Ann", "Lovely working with you.\nDon't be a stranger!")
    ann.wait_for_url(re.compile(r"/p/[^/?]+$"))
    token = code_of(ann.url, "p")
    assert len(token) == 22
    expect(ann.get_by_role("heading", level=1)).to_have_text("Your message is on the card")
    expect(ann.locator(".card-own")).to_contain_text("Don't be a stranger!")
    assert ann.input_value("#private-link") == server.url(f"/p/{token}")
    guest.check("card-signer-page")

    # More people sign (through the API, for a fuller card), one from a phone.
    for name, message in WELL_WISHERS:
        api.post("/api/card/sign", json={"slug": slug, "name": name,
                                         "message": message}).raise_for_status()
    phone = open_context()
    bo = phone.page
    bo.set_viewport_size(PHONE)
    bo.goto(share)
    sign(bo, "Bo", "Best boss I ever had. Enjoy every minute x")
    bo.wait_for_url(re.compile(r"/p/[^/?]+$"))
    phone.check("card-phone-signed")
    bo.get_by_role("link", name="See the whole card").click()
    bo.wait_for_url(f"**/s/{slug}")
    expect(bo.locator(".card-message")).to_have_count(7)
    expect(bo.locator(".card-count")).to_have_text("Signed by 7 people")
    phone.check("card-phone-card")

    ann.goto(share)
    expect(ann.locator(".card-message")).to_have_count(7)
    guest.check("card-public-full")

    # On paper: the sign form and buttons are gone, the messages stay.
    ann.emulate_media(media="print")
    expect(ann.locator(".card-sign")).to_be_hidden()
    expect(ann.get_by_role("button", name="Print the card")).to_be_hidden()
    expect(ann.locator(".card-message").first).to_be_visible()
    guest.check("card-print")
    ann.emulate_media(media="screen")

    # Ann takes her message off from her own page, and lands back on the card.
    ann.goto(f"/p/{token}")
    with ann.expect_navigation():
        ann.get_by_role("button", name="Remove my message").click()
    ann.wait_for_url(f"**/s/{slug}")
    expect(ann.locator(".card-message")).to_have_count(6)
    expect(ann.get_by_text("Don't be a stranger!")).to_have_count(0)
    guest.check("card-public-after-own-remove")
    ann.goto(f"/p/{token}")
    expect(ann.get_by_role("heading", level=1)).to_have_text("Nothing here")
    assert len(guest.problems) == 1 and "status of 404" in guest.problems[0]
    guest.problems.clear()

    # The organiser removes Tom's message.
    page.goto(f"/e/{edit_token}")
    expect(page.locator(".card-list > li")).to_have_count(6)
    organiser.check("card-organiser-messages")
    tom = page.locator(".card-list > li", has=page.get_by_text("Tom", exact=True))
    with page.expect_navigation():
        tom.get_by_role("button", name="Remove").click()
    expect(page.locator(".card-list > li")).to_have_count(5)
    organiser.check("card-organiser-removed")
    assert "Tom" not in {m["name"] for m in messages(api, slug)}
    assert token not in api.get(f"/api/card/{slug}").text
