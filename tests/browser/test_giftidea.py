"""Gift Idea Board in a real browser: an organiser starts a board through its form, guests
suggest (and see the link messages), upvote once per browser, claim and unclaim, a
suggester removes their own idea and the organiser removes another. One guest uses a
phone-sized screen. Every page is screenshotted and must load without console errors or
CSP violations."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from browsing import HEARD_SCRIPT
from browsing import Watched
from browsing import code_of
from browsing import heard_version
from browsing import page_version
from playwright.sync_api import Locator
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}


def idea_card(page: Page, text: str) -> Locator:
    return page.locator("li.giftidea-idea", has=page.locator("h3", has_text=text))


def board(api: httpx.Client, slug: str) -> dict[str, Any]:
    return dict(api.get(f"/api/giftidea/{slug}").raise_for_status().json())


def expected_refusals(watched: Watched, status: int, path: str, count: int) -> None:
    """Chromium logs every 4xx answer as a console error: accept exactly the refusals this
    step provoked on purpose, and nothing else."""
    refusal = f"status of {status} ()"
    assert len(watched.problems) == count, watched.problems
    assert all(refusal in problem and problem.endswith(f"{path})")
               for problem in watched.problems), watched.problems
    watched.problems.clear()


def suggest(page: Page, idea: str, link: str = "", name: str = "") -> None:
    """Fills "Suggest an idea" (open, before the ideas), sends it."""
    page.fill("#idea", idea)
    page.fill("#link", link)
    page.fill("#suggestedBy", name)
    page.get_by_role("button", name="Add the idea").click()


def test_giftidea_board(server: Any, api: httpx.Client,
                        open_context: Callable[[], Watched]) -> None:
    organiser = open_context()
    page = organiser.page
    page.goto("/")
    page.get_by_role("link", name="Gift Idea Board").click()
    page.wait_for_url("**/new/giftidea")
    expect(page.locator(".giftidea-secret")).to_contain_text("except")
    page.fill("#recipient", "Priya")
    page.fill("#occasion", "Farewell — last day Friday")
    page.fill("#budget", "About $20 each")
    page.fill("#note", "Loves hiking and good coffee.")
    organiser.check("giftidea-create")
    page.get_by_role("button", name="Start the board").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")
    expect(page.get_by_role("note")).to_contain_text(
        "Send the share link to everyone except Priya.")
    organiser.check("giftidea-organiser-new")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")
    assert board(api, slug)["title"] == "Gift ideas for Priya"

    # A guest opens the board: it says plainly who must not see it.
    guest = open_context()
    ann = guest.page
    ann.goto(share)
    expect(ann.get_by_role("heading", level=1)).to_have_text("Gift ideas for Priya")
    expect(ann.get_by_role("note")).to_contain_text("This page is for everyone except Priya.")
    guest.check("giftidea-public-empty")

    # Both link messages show at the link field, word for word; nothing is stored.
    suggest(ann, "Hiking socks", "www.example.com/socks")
    expect(ann.locator(".giftidea-suggest [data-field-error]")).to_have_text(
        "That link doesn't look right — paste the full web address, or leave it blank.")
    suggest(ann, "Hiking socks", "ftp://example.com/socks")
    expect(ann.locator(".giftidea-suggest [data-field-error]")).to_have_text(
        "Links need to start with http:// or https://.")
    expected_refusals(guest, 400, "/api/giftidea/suggest", 2)
    guest.check("giftidea-public-link-error")
    assert board(api, slug)["ideas"] == []

    with ann.expect_navigation():
        suggest(ann, "Hiking socks", "https://www.example.com/socks", "Ann")
    socks = idea_card(ann, "Hiking socks")
    expect(socks).to_contain_text("Suggested by Ann")
    expect(socks.get_by_role("link", name=re.compile("example.com"))).to_have_attribute(
        "href", "https://www.example.com/socks")
    expect(socks.get_by_role("button", name="Remove my idea")).to_be_visible()
    with ann.expect_navigation():
        suggest(ann, "Camp coffee kit")
    guest.check("giftidea-public-suggested")

    # An upvote counts once per browser: the button stays pressed after a reload.
    vote = socks.locator("button[data-upvote]")
    vote.click()
    expect(vote.locator("[data-votes]")).to_have_text("1")
    expect(vote).to_be_disabled()
    ann.reload()
    expect(idea_card(ann, "Hiking socks").locator("button[data-upvote]")).to_be_disabled()
    guest.check("giftidea-public-upvoted")
    assert {i["idea"]: i["votes"] for i in board(api, slug)["ideas"]} == {
        "Hiking socks": 1, "Camp coffee kit": 0}

    # A second guest, on a phone: their own vote, and a claim.
    other = open_context()
    bo = other.page
    bo.set_viewport_size(PHONE)
    bo.goto(share)
    socks_b = idea_card(bo, "Hiking socks")
    expect(socks_b.get_by_role("button", name="Remove my idea")).to_be_hidden()
    socks_b.locator("button[data-upvote]").click()
    expect(socks_b.locator("[data-votes]")).to_have_text("2")
    other.check("giftidea-phone-upvoted")
    coffee = idea_card(bo, "Camp coffee kit")
    coffee.locator("summary").click()  # the claim form opens in place, for this idea only
    expect(bo.locator("input[name='name']:visible")).to_have_count(1)
    coffee.locator("form.spot-form button[type='submit']").click()
    expect(idea_card(bo, "Camp coffee kit").locator("form [role='alert']")).to_have_text(
        "Add your name so nobody else buys it too.")
    expected_refusals(other, 400, "/api/giftidea/claim", 1)
    coffee = idea_card(bo, "Camp coffee kit")
    coffee.get_by_placeholder("Your name").fill("Bo")
    with bo.expect_navigation():
        coffee.locator("form.spot-form button[type='submit']").click()
    coffee = idea_card(bo, "Camp coffee kit")
    expect(coffee).to_contain_text("Bo is getting this one.")
    expect(coffee.get_by_role("button", name="I'm not getting it after all")).to_be_visible()
    other.check("giftidea-phone-claimed")

    # The first guest sees the claim (and no unclaim button of theirs).
    ann.reload()
    coffee_a = idea_card(ann, "Camp coffee kit")
    expect(coffee_a).to_contain_text("Bo is getting this one.")
    expect(coffee_a.get_by_role("button", name="I'm not getting it after all")).to_be_hidden()
    guest.check("giftidea-public-claimed-by-other")

    # Bo lets it go, then claims the socks instead.
    with bo.expect_navigation():
        coffee.get_by_role("button", name="I'm not getting it after all").click()
    expect(idea_card(bo, "Camp coffee kit").locator("summary", has_text="I'll get this")) \
        .to_be_visible()
    socks_b = idea_card(bo, "Hiking socks")
    socks_b.locator("summary").click()
    socks_b.get_by_placeholder("Your name").fill("Bo")
    with bo.expect_navigation():
        socks_b.locator("form.spot-form button[type='submit']").click()
    other.check("giftidea-phone-claimed-socks")
    claimed = {i["idea"]: i["claimedBy"] for i in board(api, slug)["ideas"]}
    assert claimed == {"Hiking socks": "Bo", "Camp coffee kit": None}

    # Ann removes her own idea; Bo's claim on it goes with it.
    ann.reload()
    with ann.expect_navigation():
        idea_card(ann, "Hiking socks").get_by_role("button", name="Remove my idea").click()
    expect(idea_card(ann, "Hiking socks")).to_have_count(0)
    guest.check("giftidea-public-removed-own")
    assert [i["idea"] for i in board(api, slug)["ideas"]] == ["Camp coffee kit"]

    # The organiser sees what is left and removes it.
    page.goto(f"/e/{edit_token}")
    remaining = idea_card(page, "Camp coffee kit")
    expect(remaining).to_contain_text("Not claimed yet.")
    organiser.check("giftidea-organiser-ideas")
    with page.expect_navigation():
        remaining.get_by_role("button", name="Remove").click()
    expect(page.locator("li.giftidea-idea")).to_have_count(0)
    organiser.check("giftidea-organiser-removed")
    assert board(api, slug)["ideas"] == []

    # No idea token ever reached a guest's page.
    bo.reload()
    assert "itoken" not in bo.content()
    other.check("giftidea-phone-empty-again")


def test_the_list_never_re_sorts_under_the_pointer(api: httpx.Client,
                                                   open_context: Callable[..., Watched]) -> None:
    """Another guest's upvotes would move ideas up the list: while this visitor's mouse is
    over it, and for a few seconds after they tap in it and move away, it holds still (so a
    second tap lands where the first did); then it takes the new order."""
    slug = api.post("/api/giftidea", json={"recipient": "Priya"}).json()["slug"]
    ids = {idea: api.post("/api/giftidea/suggest", json={"slug": slug, "idea": idea}
                          ).raise_for_status().json()["id"]
           for idea in ("Socks", "Mug", "Torch")}

    def upvote(idea: str, times: int) -> None:
        for _ in range(times):
            api.post("/api/giftidea/upvote", json={"slug": slug, "ideaId": ids[idea]}
                     ).raise_for_status()

    upvote("Socks", 2)
    upvote("Mug", 1)
    watched = open_context(script=HEARD_SCRIPT)
    page = watched.page
    with page.expect_response(re.compile(r"/api/giftidea/[^/]+/events")):
        page.goto(f"/s/{slug}")
    version = page_version(page)
    titles = page.locator("li.giftidea-idea h3")
    expect(titles).to_have_text(["Socks", "Mug", "Torch"])

    # The mouse rests on the list: three votes for Torch arrive, nothing moves.
    idea_card(page, "Mug").hover()
    upvote("Torch", 3)
    heard_version(page, version + 3)  # the page has the update with all three
    assert titles.all_inner_texts() == ["Socks", "Mug", "Torch"]
    # It moves away: the new order comes in.
    page.mouse.move(2, 2)
    expect(titles).to_have_text(["Torch", "Socks", "Mug"], timeout=8000)

    # A tap on an upvote, then away at once: the list still holds for a moment.
    idea_card(page, "Mug").locator("button[data-upvote]").click()
    expect(idea_card(page, "Mug").locator("[data-votes]")).to_have_text("2")
    page.mouse.move(2, 2)
    upvote("Mug", 3)
    heard_version(page, version + 7)  # this visitor's upvote and the three others
    assert titles.all_inner_texts() == ["Torch", "Socks", "Mug"]
    expect(titles).to_have_text(["Mug", "Torch", "Socks"], timeout=8000)
    watched.check("giftidea-held-then-sorted")
