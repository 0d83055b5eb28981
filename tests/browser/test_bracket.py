"""Tournament Bracket in a real browser: create a listed bracket through its form, tap the
winners in on the organiser page until there is a champion, clear a result and watch the
later ones go, and read the tree on a phone and on a projector-sized screen, where another
browser sees results arrive without reloading. Every page is screenshotted."""

from __future__ import annotations

import itertools
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
PROJECTOR = {"width": 1920, "height": 1080}


def tap_winner(page: Page, round_index: int, match: int, name: str) -> None:
    row = page.locator(f"li[data-match='{round_index}-{match}']")
    with page.expect_navigation():
        row.get_by_role("button", name=name, exact=True).click()


def tree_match(page: Page, label: str) -> Any:
    return page.locator(f".bracket [role=group][aria-label='{label}']")


def bracket(api: httpx.Client, slug: str) -> dict[str, Any]:
    return dict(api.get(f"/api/bracket/{slug}").raise_for_status().json())


def test_bracket_create_record_clear_and_view(api: httpx.Client,
                                              open_context: Callable[[], Watched]) -> None:
    watched = open_context()
    page = watched.page
    page.goto("/")
    page.get_by_role("link", name="Tournament Bracket").click()
    page.wait_for_url("**/new/bracket")
    page.fill("#title", "Office table tennis")
    page.fill("#entrants", "Ann\nBo\n\nCy\nDi\nEd")
    page.get_by_label("Seed them in the order listed").check()
    watched.check("bracket-create")
    page.get_by_role("button", name="Draw the bracket").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")
    slug = code_of(page.input_value("#share-link"), "s")
    watched.check("bracket-organiser-new")

    # Five listed names in a field of eight: seeds 1 to 3 have byes; Di v Ed and Bo v Cy
    # are the games ready to play.
    drawn = bracket(api, slug)
    assert drawn["entrants"] == ["Ann", "Bo", "Cy", "Di", "Ed"]
    assert (drawn["size"], drawn["byes"]) == (8, 3)
    assert page.locator("li[data-match]").count() == 2
    expect(tree_match(page, "Match 1: Ann v bye")).to_be_visible()
    expect(tree_match(page, "Match 2: Di v Ed")).to_be_visible()

    # A spectator keeps the share page open on a projector-sized screen.
    spectator = open_context()
    spectator.page.set_viewport_size(PROJECTOR)
    spectator.page.goto(f"/s/{slug}")
    spectator.page.evaluate("window.notReloaded = true")
    spectator.check("bracket-public-projector-start")
    assert spectator.page.get_by_role("heading", level=2).all_text_contents() == [
        "Quarter-finals", "Semi-finals", "Final", "Champion"]

    tap_winner(page, 0, 1, "Ed")
    expect(page.locator("li[data-match='0-1'] button[aria-pressed=true]")).to_have_text("Ed")
    watched.check("bracket-organiser-first-result")
    # The spectator's tree fills in without a reload.
    expect(tree_match(spectator.page, "Match 1: Ann v Ed")).to_be_visible(timeout=2000)
    assert spectator.page.evaluate("window.notReloaded") is True
    spectator.check("bracket-public-projector-live")

    tap_winner(page, 1, 1, "Cy")
    tap_winner(page, 1, 0, "Ann")
    tap_winner(page, 2, 0, "Ann")
    expect(page.locator(".bracket-crowned")).to_contain_text("Champion: Ann")
    watched.check("bracket-organiser-champion")
    assert bracket(api, slug)["champion"] == "Ann"
    expect(spectator.page.locator(".bracket-crowned")).to_contain_text("Champion: Ann",
                                                                        timeout=2000)
    expect(spectator.page.locator(".bracket-champion")).to_have_text("Ann")
    spectator.check("bracket-public-projector-champion")

    # The whole tree fits a projector-sized screen without scrolling sideways.
    fits = spectator.page.evaluate(
        "(() => { const b = document.querySelector('.bracket');"
        " return b.scrollWidth <= b.clientWidth; })()")
    assert fits is True

    # On a phone: the same tree, scrolling sideways inside its own box, the page itself not.
    phone = open_context()
    phone.page.set_viewport_size(PHONE)
    phone.page.goto(f"/s/{slug}")
    expect(phone.page.locator(".bracket-crowned")).to_contain_text("Champion: Ann")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    rounds = phone.page.locator(".bracket-round")
    assert rounds.count() == 4
    first = rounds.first.bounding_box()
    assert first is not None and first["width"] >= 130  # a readable column, not squashed
    phone.check("bracket-public-phone")
    phone.page.locator(".bracket").evaluate("b => b.scrollTo(b.scrollWidth, 0)")
    expect(phone.page.locator(".bracket-champion")).to_be_in_viewport()
    phone.check("bracket-public-phone-scrolled")

    # Clearing the Di v Ed result clears the semi and the final that depended on it.
    row = page.locator("li[data-match='0-1']")
    with page.expect_navigation():
        row.get_by_role("button", name="Clear").click()
    watched.check("bracket-organiser-cleared")
    after = bracket(api, slug)
    assert [m["winner"] for m in after["rounds"][0]["matches"]] == ["Ann", None, "Bo", "Cy"]
    assert [m["winner"] for m in after["rounds"][1]["matches"]] == [None, "Cy"]
    assert after["champion"] is None
    expect(page.locator(".bracket-crowned")).to_have_count(0)
    expect(spectator.page.locator(".bracket-crowned")).to_have_count(0, timeout=2000)
    spectator.check("bracket-public-projector-cleared")
    page.goto(f"/e/{edit_token}")
    watched.check("bracket-organiser-after-clear")


def test_a_stale_organiser_page_is_told_to_refresh(api: httpx.Client,
                                                   open_context: Callable[[], Watched]) -> None:
    """Two organiser pages rendered from the same state: the second tap is refused with the
    spec's message instead of silently overwriting the first."""
    made = api.post("/api/bracket", json={"title": "Doubles", "seeding": "listed",
                                          "entrants": ["Ann", "Bo", "Cy", "Di"]}).json()
    first, second = open_context(), open_context()
    for watched in (first, second):
        watched.page.goto(f"/e/{made['editToken']}")
    # Keep the second page stale: no live swap (the kernel's script would refresh it).
    second.page.evaluate("document.querySelectorAll('[data-live-region]')"
                         ".forEach(r => r.removeAttribute('data-live-region'))")
    tap_winner(first.page, 0, 0, "Ann")
    first.check("bracket-organiser-one-of-two")
    second.page.locator("li[data-match='0-0']").get_by_role("button", name="Di",
                                                            exact=True).click()
    error = second.page.locator("li[data-match='0-0'] [data-error]")
    expect(error).to_have_text("Two results landed at once — refresh and tap again.")
    # The browser logs the refused request itself; that one, and only that, is expected.
    assert [problem for problem in second.problems if "409" not in problem] == []
    assert len(second.problems) == 1
    second.problems.clear()
    second.check("bracket-organiser-stale")
    assert bracket(api, made["slug"])["rounds"][0]["matches"][0]["winner"] == "Ann"


LONG_NAMES = ["Alexandra Konstantinopoulou-Smythe", "Bo", "Christopher Montgomery-Fitzwilliam",
              "Di", "Maximiliana Featherstonehaugh", "Ed Nguyen-Wellington the Third", "Fay",
              "Gus"]
#: Each card's box, its slot's and its round column's, page coordinates.
GEOMETRY = """() => [...document.querySelectorAll('.bracket-round')].map(round => ({
  round: round.getBoundingClientRect().toJSON(),
  heading: round.querySelector('h2').getBoundingClientRect().toJSON(),
  column: round.querySelector('.bracket-column').getBoundingClientRect().toJSON(),
  slots: [...round.querySelectorAll('.bracket-slot')].map(slot => ({
    slot: slot.getBoundingClientRect().toJSON(),
    card: slot.firstElementChild.getBoundingClientRect().toJSON(),
    lines: Math.round(slot.querySelector('.bracket-name, .bracket-champion')
      .getBoundingClientRect().height / parseFloat(getComputedStyle(slot).lineHeight))}))}))"""


def middle(box: dict[str, float]) -> float:
    return box["top"] + box["height"] / 2


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width,height", [(320, 640), (390, 844)])
def test_long_names_wrap_inside_their_cards_and_the_wires_still_meet(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: str, width: int,
        height: int) -> None:
    """Names that wrap onto three lines stay inside their card, no card reaches into the
    next round's column (where the wires run), and every later match sits level with the
    middle of the two that feed it, so the connector lines meet the cards."""
    made = api.post("/api/bracket", json={"title": "Office table tennis", "seeding": "listed",
                                          "entrants": LONG_NAMES}).json()
    for match in range(4):
        view = bracket(api, made["slug"])
        winner = view["rounds"][0]["matches"][match]["sides"][0]["name"]
        api.post(f"/api/bracket/{made['editToken']}/result", json={
            "round": 0, "match": match, "winner": winner, "version": view["version"]
        }).raise_for_status()
    watched = open_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    page = watched.page
    page.goto(f"/s/{made['slug']}")
    watched.check(f"bracket-long-names-{width}x{height}-{scheme}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    rounds = page.evaluate(GEOMETRY)
    assert [len(r["slots"]) for r in rounds] == [4, 2, 1, 1]
    assert max(slot["lines"] for r in rounds for slot in r["slots"]) >= 3  # they do wrap
    # One heading row for every round: the columns start level.
    assert len({round(r["column"]["top"]) for r in rounds}) == 1
    for left, right in itertools.pairwise(rounds):
        for slot in left["slots"]:
            card = slot["card"]
            assert card["left"] >= left["round"]["left"] - 0.5
            assert card["right"] <= left["round"]["right"] + 0.5
            assert card["right"] < right["round"]["left"] - 4  # room for the wire
            assert abs(middle(card) - middle(slot["slot"])) <= 1  # the stub leaves mid-card
    for earlier, later in itertools.pairwise(rounds):
        fed = [middle(slot["slot"]) for slot in earlier["slots"]]
        for index, slot in enumerate(later["slots"]):
            pair = fed[2 * index:2 * index + 2] if len(fed) > 1 else fed
            assert abs(middle(slot["card"]) - sum(pair) / len(pair)) <= 1.5
