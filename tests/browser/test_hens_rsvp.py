"""The Hens & Shower guest list on a phone (390x844), light and dark, with and without
JavaScript: a guest answers on the share page (a missing answer refused at its field), lands
on their own page, changes the answer there, finds it again from the share page in the same
browser; the share page counts the answers (live, with the script) and never shows the
note; the organiser sees the note and takes an answer off."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

import httpx
import pytest
from browsing import Watched
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}
NOTE = "Vegetarian, arriving after the cruise"
NO_ANSWER = "Pick one: going, maybe or can't make it."
PLANNER = {"title": "Mia's hens", "forWhom": "Mia", "when": "Saturday 14 March, 2pm",
           "categories": [{"name": "Games", "capacity": 2}]}


@pytest.mark.parametrize("java_script", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_guest_answers_changes_and_the_organiser_sees_the_note(
        api: httpx.Client, open_context: Callable[..., Watched],
        scheme: Literal["light", "dark"], java_script: bool) -> None:
    made = api.post("/api/hens", json=PLANNER).json()
    slug, edit = made["slug"], made["editToken"]
    name = f"hens-rsvp-{scheme}-{'js' if java_script else 'nojs'}"
    watched = open_context(viewport=PHONE, color_scheme=scheme, java_script=java_script)
    page = watched.page
    page.goto(f"/s/{slug}")
    rsvp = page.locator("section.hens-rsvp")
    expect(rsvp).to_contain_text("Nobody has answered yet.")
    for label in ("Going", "Maybe", "Can't make it"):
        box = rsvp.get_by_label(label, exact=True).locator("xpath=..").bounding_box()
        assert box and box["height"] >= 24  # the whole row is the target
    send = rsvp.get_by_role("button", name="Send my answer")

    # No answer picked: refused next to the choices, the name kept.
    rsvp.get_by_label("Your name").fill("Ann")
    rsvp.get_by_label("Note to the organiser").fill(NOTE)
    if java_script:
        send.click()
        expect(rsvp.get_by_text(NO_ANSWER)).to_be_visible()
        problems = [p for p in watched.problems if "status of 400" in p]
        assert len(problems) == 1, watched.problems
        watched.problems.remove(problems[0])
    else:
        with page.expect_navigation():
            send.click()
        expect(rsvp.get_by_text(NO_ANSWER)).to_be_visible()
        expect(rsvp.get_by_label("Your name")).to_have_value("Ann")
    choices, error = rsvp.locator("fieldset.hens-answers").bounding_box(), \
        rsvp.get_by_text(NO_ANSWER).bounding_box()
    assert choices and error and 0 <= error["y"] - (choices["y"] + choices["height"]) <= 40
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    watched.check(f"{name}-refused")

    rsvp.get_by_label("Going", exact=True).check()
    rsvp.get_by_label("Note to the organiser").fill(NOTE)
    with page.expect_navigation():
        send.click()
    if java_script:  # straight to the guest's own page
        page.wait_for_url(re.compile(r"/p/[A-Za-z0-9_-]+$"))
    else:  # back on the share page, with the guest's own link in the notice
        link = page.locator("#groupkit-flash a[href*='/p/']")
        expect(link).to_be_visible()
        page.goto(link.get_attribute("href") or "")
    own = page.url
    expect(page.get_by_label("Going", exact=True)).to_be_checked()
    expect(page.get_by_label("Note to the organiser")).to_have_value(NOTE)
    watched.check(f"{name}-own-page")

    # Changed on their own page: the answer and the note as now sent.
    page.get_by_label("Maybe", exact=True).check()
    with page.expect_navigation():
        page.get_by_role("button", name="Change my answer").click()
    expect(page.get_by_label("Maybe", exact=True)).to_be_checked()
    [stored] = api.post(f"/api/hens/{edit}/export").json()["data"]["guests"]["answers"]
    assert (stored["name"], stored["answer"], stored["note"]) == ("Ann", "maybe", NOTE)

    # The share page counts it and never shows the note; with the script, this browser is
    # led back to its own page, and another guest's answer arrives without a reload.
    page.goto(f"/s/{slug}")
    guests = page.locator("#hens-guests")
    expect(guests).to_contain_text("0 going · 1 maybe · 0 can't make it")
    assert NOTE not in page.content()
    if java_script:
        back = page.get_by_role("link", name="See or change your answer")
        expect(back).to_be_visible()
        assert own.endswith(back.get_attribute("href") or "-")
        page.evaluate("window.notReloaded = true")
        api.post("/api/hens/rsvp", json={"slug": slug, "name": "Bo", "answer": "going"})
        expect(guests).to_contain_text("1 going · 1 maybe", timeout=3000)
        expect(guests).to_contain_text("Going: Bo")
        assert page.evaluate("window.notReloaded") is True
    else:
        expect(page.locator("[data-hens-answered]")).to_be_hidden()
    watched.check(f"{name}-share")

    # The organiser: every answer with its note; one taken off.
    page.goto(f"/e/{edit}")
    listed = page.locator("#hens-guest-list")
    expect(listed).to_contain_text(NOTE)
    watched.check(f"{name}-organiser")
    with page.expect_navigation():
        listed.locator("li", has_text="Ann").get_by_role("button", name="Remove").click()
    if not java_script:  # the page asks first, at that button's form
        with page.expect_navigation():
            listed.locator("form.asking").get_by_role("button", name="Remove").click()
    expect(listed).not_to_contain_text(NOTE)
    assert [row["name"] for row in api.post(f"/api/hens/{edit}/export").json()["data"][
        "guests"]["answers"]] == (["Bo"] if java_script else [])
