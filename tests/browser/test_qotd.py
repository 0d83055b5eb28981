"""Question of the Day in a real browser against a two-worker server: the organiser starts a
board through its form; two teammates open the share link, the bars load empty and fill from
the tally, and each one's answer fills the other's bars within a second without a reload
(live regions); an answer is changed from the same browser; the organiser skips, adds and
removes questions and open pages follow. Every page is screenshotted and must be free of
console errors and CSP violations."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from browsing import Watched
from browsing import code_of
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

LIVE_MS = 1000


@pytest.fixture(scope="module")
def server(live_server: Callable[..., Any]) -> Any:
    """Two workers, so the answer and the watcher's event stream are often served by
    different processes."""
    return live_server(mode="development", workers=2)


def tally(api: httpx.Client, slug: str) -> dict[str, Any]:
    return dict(api.get(f"/api/qotd/{slug}/tally").raise_for_status().json())


def count(page: Page, key: str) -> Any:
    return page.locator(f"[data-qotd-count='{key}']")


def width(page: Page, key: str) -> str:
    return str(page.locator(f"[data-qotd-fill='{key}']").evaluate("e => e.style.width"))


def answer(page: Page, key: str) -> None:
    page.locator(f"input[name=choice][value='{key}']").check()


EVENTS = re.compile(r"/api/qotd/[^/]+/events(\?[^/]*)?$")


def stay_marker(page: Page) -> None:
    page.evaluate("window.__stillHere = true")


def still_here(page: Page) -> bool:
    return bool(page.evaluate("window.__stillHere === true"))


def test_qotd_answer_live_change_and_organise(server: Any, api: httpx.Client,
                                              open_context: Callable[[], Watched]) -> None:
    organiser = open_context()
    page = organiser.page
    page.goto("/new/qotd")
    page.fill("#teamName", "Owls")
    organiser.check("qotd-create")
    page.get_by_role("button", name="Start the daily question").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")
    today = tally(api, slug)
    expect(page.locator(".qotd-question")).to_have_text(today["question"])
    expect(page.locator("[data-qotd-total]")).to_have_text("No answers yet today.")
    expect(page.locator("#qotd-upcoming li")).to_have_count(7)
    organiser.check("qotd-organiser-new")

    # The page arrives with empty bars; the script fills them from the tally.
    raw = api.get(share).text
    assert '<span data-qotd-count="a"></span>' in raw

    # Each page is "open" once its live stream is connected (its response has started).
    ann, bo = open_context(), open_context()
    for watched in (ann, bo):
        with watched.page.expect_response(EVENTS):
            watched.page.goto(share)
    for watched in (ann, bo):
        expect(watched.page.locator("[data-qotd-total]")).to_have_text("No answers yet today.")
        expect(count(watched.page, "a")).to_have_text("0 picks")
    expect(ann.page.locator("h1")).to_have_text("Owls: question of the day")
    expect(ann.page.locator("label.qotd-pick").first).to_contain_text(today["options"]["a"])
    ann.check("qotd-public")
    stay_marker(bo.page)

    # Ann answers; Bo's bars move within a second, without a reload.
    answer(ann.page, "a")
    ann.page.fill("#voterName", "Ann")
    with ann.page.expect_response(EVENTS):  # Ann's page reloads after answering
        with ann.page.expect_response(re.compile(r"/api/qotd/vote$")) as sent:
            ann.page.get_by_role("button", name="Answer").click()
        assert sent.value.status == 201
        started = time.monotonic()
        expect(count(bo.page, "a")).to_have_text("1 pick · 100%", timeout=LIVE_MS)
        assert time.monotonic() - started < LIVE_MS / 1000 + 0.25
    expect(bo.page.locator("[data-qotd-names='a']")).to_have_text("Ann")
    expect(bo.page.locator("[data-qotd-total]")).to_have_text("1 answer so far today.")
    assert width(bo.page, "a") == "100%" and width(bo.page, "b") == "0%"
    assert still_here(bo.page)
    bo.check("qotd-public-live-after-ann")

    # Ann's page (reloaded after answering) knows her answer and offers to change it.
    expect(ann.page.locator("[data-qotd-answered]")).to_be_visible()
    expect(ann.page.locator("[data-qotd-name-field]")).to_be_hidden()
    expect(ann.page.locator("input[name=choice][value='a']")).to_be_checked()
    expect(count(ann.page, "a")).to_have_text("1 pick · 100%")
    ann.check("qotd-public-answered")

    # Bo answers the other way; then Ann changes her mind. Each shows on the other page.
    stay_marker(ann.page)
    answer(bo.page, "b")
    bo.page.fill("#voterName", "Bo")
    with bo.page.expect_response(EVENTS):  # Bo's page reloads after answering
        bo.page.get_by_role("button", name="Answer").click()
    expect(count(ann.page, "b")).to_have_text("1 pick · 50%", timeout=LIVE_MS)
    assert still_here(ann.page)
    stay_marker(bo.page)
    answer(ann.page, "b")
    with ann.page.expect_response(re.compile(r"/api/qotd/v/[^/]+$")) as sent:
        ann.page.get_by_role("button", name="Change my answer").click()
    assert sent.value.status == 200
    started = time.monotonic()
    expect(count(bo.page, "b")).to_have_text("2 picks · 100%", timeout=LIVE_MS)
    assert time.monotonic() - started < LIVE_MS / 1000 + 0.25
    expect(bo.page.locator("[data-qotd-names='b']")).to_have_text("Ann, Bo")
    assert still_here(bo.page)
    bo.check("qotd-public-live-after-change")
    now = tally(api, slug)
    assert now["tally"] == {"a": 0, "b": 2, "total": 2}

    # The organiser watches the same split, then skips today's question: open pages follow.
    page.goto(f"/e/{edit_token}")
    expect(count(page, "b")).to_have_text("2 picks · 100%")
    expect(page.locator("[data-qotd-names='b']")).to_have_text("Ann, Bo")
    organiser.check("qotd-organiser-answers")
    upcoming = [day["question"] for day in api.post(
        f"/api/qotd/{edit_token}/export").raise_for_status().json()["data"]["upcoming"]]
    stay_marker(bo.page)
    with page.expect_navigation():
        page.get_by_role("button", name="Skip today's question").click()
    expect(page.locator(".qotd-question")).to_have_text(upcoming[1])
    expect(bo.page.locator(".qotd-question")).to_have_text(upcoming[1], timeout=LIVE_MS * 2)
    expect(bo.page.locator("[data-qotd-total]")).to_have_text("No answers yet today.")
    # A new question: Bo's page is back to answering, not changing.
    expect(bo.page.locator("[data-qotd-submit]")).to_have_text("Answer")
    expect(bo.page.locator("[data-qotd-name-field]")).to_be_visible()
    expect(bo.page.locator("#voterName")).to_have_value("Bo")  # remembered
    assert still_here(bo.page)
    bo.check("qotd-public-after-skip")

    # The organiser adds a question: it is queued for tomorrow.
    page.fill("#add-question", "Office dog or office cat?")
    page.fill("#add-a", "Dog")
    page.fill("#add-b", "Cat")
    with page.expect_navigation():
        page.get_by_role("button", name="Add question").click()
    rows = page.locator("#qotd-upcoming li")
    expect(rows.nth(1)).to_contain_text("Office dog or office cat?")
    expect(page.locator("#qotd-custom")).to_contain_text("Office dog or office cat?")
    organiser.check("qotd-organiser-added")

    # Removing today's question moves everyone on to the next one: the added question.
    with page.expect_navigation():
        rows.nth(0).get_by_role("button", name="Remove").click()
    expect(page.locator(".qotd-question")).to_have_text("Office dog or office cat?")
    expect(bo.page.locator(".qotd-question")).to_have_text("Office dog or office cat?",
                                                           timeout=LIVE_MS * 2)
    expect(bo.page.locator("label.qotd-pick").nth(1)).to_contain_text("Cat")
    organiser.check("qotd-organiser-removed")
    answer(bo.page, "b")
    with bo.page.expect_navigation():
        bo.page.get_by_role("button", name="Answer").click()
    expect(count(bo.page, "b")).to_have_text("1 pick · 100%")
    bo.check("qotd-public-custom-answered")
    assert tally(api, slug)["qi"] == 10_000
