"""Scrum Poker in a real browser against a two-worker server: the facilitator sets up a board
through the create page, two voters join from the share link on phones, and every open page
follows along live (no reload) within a second: who has voted, the reveal with the high and
the low, and the next story. Before the reveal no page shows a card."""

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
LIVE_MS = 1000


@pytest.fixture(scope="module")
def server(live_server: Callable[..., Any]) -> Any:
    """Two workers, so the page's event stream and the change it hears of often live in
    different processes."""
    return live_server(mode="development", workers=2)


def not_reloaded(watched: Watched) -> None:
    watched.page.evaluate("window.pokerNotReloaded = true")


def still_same_page(watched: Watched) -> None:
    assert watched.page.evaluate("window.pokerNotReloaded") is True


def join(watched: Watched, share: str, name: str) -> str:
    page = watched.page
    page.set_viewport_size(PHONE)
    page.goto(share)
    page.fill("#name", name)
    page.get_by_role("button", name="Join and vote").click()
    page.wait_for_url(re.compile(r"/p/[a-z0-9]{22}$"))
    return code_of(page.url, "p")


def refused_once(watched: Watched, status: int, path: str) -> None:
    """The browser logs a refused request as a console error: expected here, and only this
    one."""
    assert len(watched.problems) == 1 and f"status of {status}" in watched.problems[0] \
        and path in watched.problems[0], watched.problems
    watched.problems.clear()


def board(page: Page) -> Any:
    return page.locator("#poker-board")


def test_two_voters_and_a_facilitator_play_a_round_live(
        api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    facilitator = open_context()
    page = facilitator.page
    page.goto("/new/poker")
    page.fill("#team", "Payments squad")
    page.fill("#story", "PAY-142 Refund by bank transfer")
    page.get_by_label("T-shirt sizes").check()
    facilitator.check("poker-create")
    page.get_by_role("button", name="Set up the board").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")
    expect(page.get_by_role("button", name="Reveal the cards")).to_be_disabled()
    facilitator.check("poker-organiser-new")
    not_reloaded(facilitator)

    ann, bo = open_context(), open_context()
    ann_token = join(ann, share, "Ann")
    ann.check("poker-participant-ann")
    # The facilitator's open page hears of the new voter without a reload.
    expect(board(page).locator("li")).to_have_count(1, timeout=LIVE_MS)
    bo_token = join(bo, share, "Bo")
    not_reloaded(bo)
    expect(board(page).locator("li")).to_have_count(2, timeout=LIVE_MS)
    expect(board(bo.page).locator("li")).to_have_count(2)
    bo.check("poker-participant-bo")

    # Ann picks a card: Bo's and the facilitator's pages show that she voted, not what.
    with ann.page.expect_navigation():  # the voter's own page reloads after the vote
        ann.page.get_by_role("button", name="XL", exact=True).click()
    expect(ann.page.locator(".poker-pick.poker-picked")).to_have_text("XL")
    not_reloaded(ann)
    expect(board(bo.page).locator(".poker-back")).to_have_count(1, timeout=LIVE_MS)
    expect(board(page).locator(".poker-back")).to_have_count(1, timeout=LIVE_MS)
    expect(page.get_by_role("button", name="Reveal the cards")).to_be_enabled(timeout=LIVE_MS)
    for watched in (bo, facilitator):
        assert board(watched.page).locator(".poker-face").count() == 0
        assert "XL" not in board(watched.page).inner_text()
    bo.check("poker-participant-bo-ann-voted")
    facilitator.check("poker-organiser-one-voted")

    with bo.page.expect_navigation():
        bo.page.get_by_role("button", name="S", exact=True).click()
    not_reloaded(bo)
    expect(board(ann.page).locator(".poker-back")).to_have_count(2, timeout=LIVE_MS)
    assert "S" not in board(ann.page).locator(".poker-card").all_inner_texts()
    ann.check("poker-participant-ann-both-voted")

    # The facilitator reveals: both voters' open pages flip to the cards within a second.
    expect(board(page).locator(".poker-back")).to_have_count(2, timeout=LIVE_MS)
    with page.expect_navigation():
        page.get_by_role("button", name="Reveal the cards").click()
    expect(board(page).locator(".poker-face")).to_have_count(2)
    facilitator.check("poker-organiser-revealed")
    for voter in (ann, bo):
        expect(board(voter.page).locator(".poker-face")).to_have_count(2, timeout=LIVE_MS)
        still_same_page(voter)
        summary = board(voter.page).locator(".poker-summary").inner_text()
        assert re.search(r"High\s+XL\s+Ann", summary) and re.search(r"Low\s+S\s+Bo", summary)
        expect(voter.page.locator(".poker-pick").first).to_be_disabled()
    ann.check("poker-participant-ann-revealed")
    bo.check("poker-participant-bo-revealed")
    revealed = api.get(f"/api/poker/{slug}").raise_for_status().json()
    assert {v["name"]: v["card"] for v in revealed["voters"]} == {"Ann": "XL", "Bo": "S"}

    # Next story: the voters' pages open the cards again, still without a reload.
    page.fill("#next-story", "PAY-143 Partial refunds")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the next story").click()
    expect(board(page).get_by_role("heading", name="PAY-143 Partial refunds")).to_be_visible()
    for voter in (ann, bo):
        expect(board(voter.page).get_by_role("heading", name="PAY-143 Partial refunds")
               ).to_be_visible(timeout=LIVE_MS)
        expect(voter.page.locator(".poker-pick").first).to_be_enabled()
        expect(voter.page.locator("#poker-history")).to_contain_text("PAY-142")
        still_same_page(voter)
    ann.check("poker-participant-ann-next-story")
    facilitator.check("poker-organiser-next-story")
    assert api.get(f"/p/{ann_token}").status_code == api.get(f"/p/{bo_token}").status_code == 200
    assert edit_token in facilitator.page.url


def test_a_voter_finds_their_cards_again_from_the_share_link(
        api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    created = api.post("/api/poker", json={"team": "Web", "story": "WEB-7"}).json()
    share = f"/s/{created['slug']}"
    voter = open_context()
    token = join(voter, share, "Cy")
    voter.page.goto(share)
    link = voter.page.get_by_role("link", name="Open your cards")
    expect(link).to_be_visible()
    voter.check("poker-public-returning-voter")
    link.click()
    voter.page.wait_for_url(f"**/p/{token}")
    # A browser that never joined sees no such link, and a taken name is refused in place.
    stranger = open_context()
    stranger.page.set_viewport_size(PHONE)
    stranger.page.goto(share)
    expect(stranger.page.get_by_role("link", name="Open your cards")).to_be_hidden()
    stranger.page.fill("#name", "cy")
    stranger.page.get_by_role("button", name="Join and vote").click()
    expect(stranger.page.get_by_role("alert")).to_have_text(
        "Someone's already in with that name — add a surname initial.")
    refused_once(stranger, 409, "/api/poker/join")
    stranger.check("poker-public-name-taken")


@pytest.mark.parametrize("javascript", [True, False])
def test_the_facilitator_votes_from_the_facilitators_page(
        api: httpx.Client, browser: Any, server: Any, screenshot: Callable[[Any, str], Any],
        javascript: bool) -> None:
    """No second link: the facilitator takes a seat on their own page, picks a card there
    (face down for the voter until the reveal), and reveals; with and without JavaScript."""
    made = api.post("/api/poker", json={"team": "Payments", "story": "PAY-142",
                                        "deck": "tshirt"}).json()
    voter = api.post("/api/poker/join", json={"slug": made["slug"], "name": "Ann"}).json()
    api.post(f"/api/poker/v/{voter['token']}/vote", json={"card": "XS"}).raise_for_status()
    mode = "js" if javascript else "nojs"
    for scheme in ("light", "dark"):
        context = browser.new_context(base_url=server.base_url, viewport=PHONE,
                                      color_scheme=scheme, java_script_enabled=javascript)
        context.set_default_timeout(10_000)
        watched = Watched(context.new_page(), screenshot)
        page = watched.page
        page.goto(f"/e/{made['editToken']}")
        if scheme == "light":
            expect(page.get_by_role("heading", name="Vote too")).to_be_visible()
            page.get_by_role("button", name="Take a seat and vote").click()
            expect(page.get_by_text("Add your name so the team knows who's voting.")) \
                .to_be_visible()
            watched.problems = [p for p in watched.problems if "status of 400" not in p]
            page.fill("#seat-name", "Fran")
            with page.expect_navigation():
                page.get_by_role("button", name="Take a seat and vote").click()
            expect(page.get_by_text("You're voting too, as Fran.")).to_be_visible()
            with page.expect_navigation():
                page.locator("#poker-cards").get_by_role("button", name="XL",
                                                          exact=True).click()
        picked = page.locator("#poker-cards button[aria-pressed=true]")
        expect(picked).to_have_text("XL")
        region = page.locator("#poker-board")
        expect(region).to_contain_text("2 of 2 voters have picked a card.")
        expect(region.locator(".poker-face")).to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        watched.check(f"poker-facilitator-voted-{mode}-{scheme}")
        context.close()
    # Ann's page shows her own card, never Fran's, until the reveal.
    own = api.get(f"/p/{voter['token']}").text
    assert re.findall(r'aria-pressed="true"[^>]*data-body=\'([^\']+)\'', own) == [
        '{"card": "XS"}']
    assert ">XL<" not in own.split('id="poker-board"')[1]
    assert {v["name"]: v["card"] for v in api.get(
        f"/api/poker/{made['slug']}").json()["voters"]} == {"Ann": None, "Fran": None}
    api.post(f"/api/poker/{made['editToken']}/reveal").raise_for_status()
    assert {v["name"]: v["card"] for v in api.get(
        f"/api/poker/{made['slug']}").json()["voters"]} == {"Ann": "XS", "Fran": "XL"}
