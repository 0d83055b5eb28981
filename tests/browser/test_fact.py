"""Fact Matcher in a real browser: creating a board, claiming a name and writing a fact on the
private page, the room's shuffled guessing grid with guesses kept in the browser, the reveal
reaching an open share page live (with guesses marked), hiding it again, and a reset. Every
page is screenshotted to artifacts/screenshots/ and must load without console errors or
Content-Security-Policy violations."""

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


def claim(page: Page, share: str, name: str) -> str:
    page.goto(share)
    page.select_option("#name", name)
    with page.expect_navigation():
        page.get_by_role("button", name="Claim my name").click()
    page.wait_for_url(re.compile(r"/p/[^/?]+$"))
    return code_of(page.url, "p")


def save_fact(page: Page, text: str) -> None:
    page.fill("#text", text)
    with page.expect_navigation():
        page.locator("form[data-api] button[type=submit]").click()


def grid_entry(page: Page, text: str) -> Any:
    return page.locator("ol.fact-grid li", has_text=text)


def test_fact_board(server: Any, api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    organiser = open_context()
    page = organiser.page
    page.goto("/new/fact")
    page.fill("#title", "Offsite icebreaker")
    page.fill("#prompt", "Something nobody here knows about you")
    page.fill("#names", "Ann\nBo\nCy\n\nDi")
    page.get_by_label("Personal links", exact=False).uncheck()  # names are claimed here
    organiser.check("fact-create")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit = code_of(page.url, "e")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")
    expect(page.locator("#fact-people li")).to_have_count(4)
    organiser.check("fact-organiser-new")
    board = api.post(f"/api/fact/{edit}/export").raise_for_status().json()["data"]
    assert (board["title"], board["prompt"]) == ("Offsite icebreaker",
                                                 "Something nobody here knows about you")
    assert board["names"] == ["Ann", "Bo", "Cy", "Di"]

    # Ann claims her name on her phone and writes her fact privately.
    ann = open_context()
    ann.page.set_viewport_size(PHONE)
    ann.page.goto(share)
    ann.check("fact-public-phone")
    token = claim(ann.page, share, "Ann")
    expect(ann.page.get_by_text("Hi Ann.")).to_be_visible()
    expect(ann.page.locator("label[for=text]")).to_have_text(
        "Something nobody here knows about you")
    ann.check("fact-private-phone")
    save_fact(ann.page, "I was once chased by an emu.")
    expect(ann.page.locator("#text")).to_have_value("I was once chased by an emu.")
    expect(ann.page.locator(".fact-saved")).to_be_visible()
    save_fact(ann.page, "I was once chased by two emus.")
    expect(ann.page.locator("#text")).to_have_value("I was once chased by two emus.")
    ann.check("fact-private-saved")

    # Back on the share page her browser offers her page; her name is no longer offered.
    ann.page.goto(share)
    mine = ann.page.locator("[data-fact-mine]")
    expect(mine).to_be_visible()
    assert mine.locator("a").get_attribute("href") == f"/p/{token}"
    expect(ann.page.locator("#name option")).to_have_text(["Choose your name…", "Bo", "Cy",
                                                            "Di"])
    ann.check("fact-public-already-claimed")

    # Bo and Cy send theirs through the API.
    facts = {"Ann": "I was once chased by two emus.", "Bo": "I have never seen snow.",
             "Cy": "I can name every Test captain."}
    for name in ("Bo", "Cy"):
        reply = api.post("/api/fact/claim", json={"slug": slug, "name": name})
        api.post(f"/api/fact/p/{reply.raise_for_status().json()['token']}/save",
                 json={"text": facts[name]}).raise_for_status()

    # The room's screen: a shuffled grid; guesses stay in this browser.
    room = open_context()
    room.page.goto(share)
    grid = room.page.locator("ol.fact-grid li")
    expect(grid).to_have_count(3)
    order = [fact["text"] for fact in api.get(f"/api/fact/{slug}").json()["facts"]]
    assert [item.locator(".fact-text").inner_text() for item in grid.all()] == order
    assert room.page.locator("[data-fact-answer]").count() == 0
    guesses = {facts["Ann"]: "Ann", facts["Bo"]: "Cy", facts["Cy"]: "Bo"}
    for text, name in guesses.items():
        grid_entry(room.page, text).locator("select").select_option(name)
    room.page.reload()
    for text, name in guesses.items():
        expect(grid_entry(room.page, text).locator("select")).to_have_value(name)
    room.check("fact-public-guessing")

    # The organiser sees who has claimed, never who has written or what; then reveals.
    people = page.locator("#fact-people")
    expect(people.locator("li", has_text="Ann")).to_contain_text("claimed")
    assert "fact in" not in people.inner_text()
    expect(people.locator("li", has_text="Di")).to_contain_text("not claimed yet")
    for text in facts.values():
        assert text not in people.inner_text()
    organiser.check("fact-organiser-before-reveal")
    room.page.evaluate("window.stillHere = true")
    with page.expect_navigation():
        page.get_by_role("button", name="Reveal the answers").click()
    organiser.check("fact-organiser-revealed")

    # The room's open page turns into the answer key by itself, guesses marked.
    answers = room.page.locator("table.fact-answers tbody tr")
    expect(answers).to_have_count(4)
    assert [row.locator("th").inner_text() for row in answers.all()] == ["Ann", "Bo", "Cy", "Di"]
    for name, text in facts.items():
        expect(answers.filter(has_text=name).locator("td")).to_have_text(text)
    expect(answers.filter(has_text="Di").locator("td")).to_have_text("No fact sent")
    expect(grid_entry(room.page, facts["Ann"]).locator("[data-fact-mark]")).to_have_text("Right!")
    expect(grid_entry(room.page, facts["Bo"]).locator("[data-fact-mark]")).to_have_text(
        "It was Bo")
    expect(room.page.locator("[data-fact-score]")).to_have_text("You matched 1 of 3 you guessed.")
    assert room.page.evaluate("window.stillHere === true")
    room.check("fact-public-revealed")

    # Hidden again: back to the grid.
    with page.expect_navigation():
        page.get_by_role("button", name="Hide the answers again").click()
    expect(room.page.locator("table.fact-answers")).to_have_count(0)
    expect(room.page.locator("ol.fact-grid li")).to_have_count(3)
    room.check("fact-public-hidden-again")

    # The organiser resets Ann: her fact is wiped and her old link stops working.
    with page.expect_navigation():
        people.locator("li", has_text="Ann").get_by_role("button", name="Reset").click()
    expect(people.locator("li", has_text="Ann")).to_contain_text("not claimed yet")
    organiser.check("fact-organiser-after-reset")
    expect(room.page.locator("ol.fact-grid li")).to_have_count(2)
    # Everyone's board says so: a reset to peek at whose fact leaves the grid is seen.
    expect(room.page.locator(".fact-notices")).to_contain_text(
        "The organiser reset Ann and their fact left the grid")
    ann.page.goto(f"/p/{token}")
    expect(ann.page.locator(".notice")).to_have_text(
        "This was Ann's private link. The organiser reset it, so it no longer shows or "
        "changes a fact.")
    expect(ann.page.locator("#text")).to_have_count(0)
    expect(ann.page.get_by_role("link", name="claim your name again on the guessing board")
           ).to_have_attribute("href", share)
    ann.check("fact-private-after-reset", not_found=ann.page.url)
    assert api.post(f"/api/fact/p/{token}/save", json={"text": "x"}).status_code == 404
    fresh = claim(ann.page, share, "Ann")
    assert fresh != token
    expect(ann.page.locator("#text")).to_have_value("")
    ann.check("fact-private-reclaimed")


def test_after_the_reveal_nothing_is_left_to_claim_or_change(
        api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    """Once the answers are out the share page offers no claim form and the guesses are
    final (disabled), still showing what this browser guessed."""
    made = api.post("/api/fact", json={"title": "Offsite", "prompt": "A fact about you",
                                       "names": ["Ann", "Bo", "Cy"]}).raise_for_status().json()
    slug, edit = made["slug"], made["editToken"]
    for name, text in (("Ann", "I sailed to Tonga"), ("Bo", "I keep bees")):
        token = api.post("/api/fact/claim", json={"slug": slug, "name": name}).json()["token"]
        api.post(f"/api/fact/p/{token}/save", json={"text": text}).raise_for_status()
    api.post(f"/api/fact/{edit}/show", json={}).raise_for_status()
    watched = open_context()
    page = watched.page
    page.goto(f"/s/{slug}")
    expect(page.locator("form[data-api='/api/fact/claim']")).to_have_count(1)
    page.locator("select[data-fact-guess]").first.select_option("Ann")
    api.post(f"/api/fact/{edit}/reveal", json={"reveal": True}).raise_for_status()
    page.reload()
    expect(page.locator("table.fact-answers tbody tr")).to_have_count(3)
    expect(page.locator("form[data-api='/api/fact/claim']")).to_have_count(0)
    guesses = page.locator("select[data-fact-guess]")
    expect(guesses).to_have_count(2)
    for index in range(2):
        expect(guesses.nth(index)).to_be_disabled()
    expect(page.get_by_text("The answers are out, so guesses are final.")).to_be_visible()
    watched.check("fact-public-revealed-final")
