"""Scrum Poker's story list on a phone (390x844), light and dark, with and without
JavaScript: the facilitator pastes a backlog on the create page, votes through it story by
story from the organiser page (an empty "Next story" takes the next on the list), adds one
in "Change details", and downloads the estimates with the average."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pytest
from browsing import Watched
from browsing import code_of
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}
BACKLOG = ["PAY-1 Refunds", "PAY-2 Receipts", "PAY-3 Disputes"]


@pytest.mark.parametrize("java_script", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_pasted_backlog_is_voted_through_and_exported(
        open_context: Callable[..., Watched],
        scheme: Literal["light", "dark"], java_script: bool) -> None:
    watched = open_context(viewport=PHONE, color_scheme=scheme, java_script=java_script)
    page = watched.page
    page.goto("/new/poker")
    page.fill("#team", "Payments")
    page.get_by_label("Stories to vote through").fill("\n".join(BACKLOG) + "\n\n")
    watched.check(f"poker-stories-create-{scheme}-{'js' if java_script else 'nojs'}")
    page.get_by_role("button", name="Set up the board").click()
    if java_script:
        page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    else:
        link = page.locator("#groupkit-flash a[href^='/e/']").get_attribute("href") or ""
        edit = code_of(link, "e")
        page.goto(f"/e/{edit}")
    up_next = page.locator("#poker-up-next")
    expect(page.locator("#poker-board")).to_contain_text(BACKLOG[0])
    expect(up_next.get_by_role("heading")).to_have_text("Up next: 2 stories")
    expect(up_next.locator("li")).to_have_text(BACKLOG[1:])
    heading = up_next.get_by_role("heading").bounding_box()
    assert heading and heading["width"] <= PHONE["width"]
    watched.check(f"poker-stories-organiser-{scheme}-{'js' if java_script else 'nojs'}")

    expect(page.get_by_role("link", name="Download the estimates (CSV)")).to_have_count(0)

    # Vote on the first story, reveal, and take the next from the list.
    page.fill("#seat-name", "Sam")
    page.get_by_role("button", name="Take a seat and vote").click()
    page.locator("#poker-cards").get_by_role("button", name="8", exact=True).click()
    expect(page.get_by_role("button", name="Reveal the cards")).to_be_enabled()
    page.get_by_role("button", name="Reveal the cards").click()
    expect(page.locator("#poker-board")).to_contain_text("8")
    expect(page.get_by_role("link", name="Download the estimates (CSV)")).to_be_visible()
    page.get_by_role("button", name="Start the next story").click()
    expect(page.locator("#poker-board")).to_contain_text(BACKLOG[1])
    expect(up_next.get_by_role("heading")).to_have_text("Up next: 1 story")
    expect(up_next.locator("li")).to_have_text(BACKLOG[2:])

    # "Change details": the stories still to vote on, one a line; one more added.
    page.get_by_text("Change details", exact=True).click()
    stories = page.get_by_label("Stories still to vote on")
    expect(stories).to_have_value(BACKLOG[2])
    stories.fill(f"{BACKLOG[2]}\nPAY-4 Chargebacks")
    with page.expect_navigation():
        page.get_by_role("button", name="Save changes").click()
    expect(up_next.locator("li")).to_have_text([BACKLOG[2], "PAY-4 Chargebacks"])
    expect(page.locator("#poker-board")).to_contain_text(BACKLOG[1])  # the story voted on

    # The estimates: each revealed story with its low, high and average.
    download = page.get_by_role("link", name="Download the estimates (CSV)")
    box = download.bounding_box()
    assert box and box["height"] >= 24
    with page.expect_download() as started:
        download.click()
    text = Path(started.value.path()).read_text(encoding="utf-8-sig")
    assert list(csv.DictReader(io.StringIO(text))) == [
        {"round": "1", "story": BACKLOG[0], "votes": "1", "low": "8", "high": "8",
         "average": "8.0"}]
