"""Find a Date (the example third-party plugin) in Chromium: propose dates through the
create page, answer on the share page by tapping the answer grid (yes → if need be → no),
change answers on the private page, choose the date as organiser, and see the calendar link,
on a phone-sized screen too; the grid with the keyboard and without JavaScript, and times in
the browser's own zone."""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from browsing import Watched
from browsing import code_of
from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect

SHOWN_STATE = """(cell) => [
  (cell.querySelector('input:checked') || {value: null}).value,
  [...cell.querySelectorAll('.finddate-state > span')]
    .filter((s) => getComputedStyle(s).display !== 'none')
    .map((s) => s.lastChild.textContent.trim())]"""


def cell(page: Page, slot: str) -> Any:
    return page.locator(f".finddate-cell[aria-labelledby='when-{slot}']")


def tap(page: Page, slot: str, times: int = 1) -> None:
    """Tap the middle of an option's cell, as a finger would."""
    for _ in range(times):
        cell(page, slot).click()


def state(page: Page, slot: str) -> tuple[str | None, str]:
    """(the ticked answer, the word of the one state the cell shows beside its icon)."""
    value, shown = cell(page, slot).evaluate(SHOWN_STATE)
    assert len(shown) == 1, shown
    return value, shown[0]


def test_find_a_date_from_proposal_to_calendar(api: httpx.Client,
                                               open_context: Callable[[], Watched]) -> None:
    organiser = open_context()
    page = organiser.page
    page.goto("/new/finddate")
    page.fill("#title", "Team dinner")
    rows = page.locator("[data-list='slots'] [data-row]")
    rows.nth(0).locator("[data-key='date']").fill("2026-12-04")
    rows.nth(0).locator("[data-key='start']").fill("18:30")
    rows.nth(1).locator("[data-key='date']").fill("2026-12-05")
    rows.nth(2).locator("[data-remove-row]").click()
    organiser.check("finddate-create")
    page.get_by_role("button", name="Start finding a date").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    organiser.check("finddate-organiser-new")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")

    guest = open_context()
    guest.page.goto(share)
    guest.check("finddate-public-empty")
    guest.page.fill("#name", "Ann")
    tap(guest.page, "d1")
    tap(guest.page, "d2", times=2)
    guest.page.get_by_role("button", name="Send my answers").click()
    guest.page.wait_for_url(re.compile(r"/p/[^/?]+$"))
    expect(guest.page.get_by_text("Ann's private link")).to_be_visible()
    guest.check("finddate-private")
    assert state(guest.page, "d1") == ("yes", "Yes")
    tap(guest.page, "d2")
    assert state(guest.page, "d2") == ("no", "No")
    with guest.page.expect_navigation():
        guest.page.get_by_role("button", name="Save my answers").click()
    view = api.get(f"/api/finddate/{slug}").json()
    assert view["responses"][0]["answers"] == {"d1": "yes", "d2": "no"}
    assert view["best"] == "d1"

    page.reload()
    expect(page.locator("th.best")).to_contain_text("Fri 4 Dec 2026, 18:30")
    with page.expect_navigation():
        page.get_by_role("button", name="Choose this one").first.click()
    organiser.check("finddate-organiser-chosen")
    assert api.get(f"/api/finddate/{slug}").json()["chosen"] == "d1"

    phone = open_context()
    phone.page.set_viewport_size({"width": 390, "height": 844})
    phone.page.goto(share)
    link = phone.page.get_by_role("link", name="Add it to your calendar")
    expect(link).to_be_visible()
    phone.check("finddate-public-chosen-phone")
    calendar = api.get(link.get_attribute("href") or "")
    assert calendar.status_code == 200 and "BEGIN:VEVENT" in calendar.text


POLL = {"title": "Team dinner", "timezone": "Australia/Sydney",
        "slots": [{"date": "2026-12-04", "start": "18:30", "end": "21:00"},
                  {"date": "2026-12-05"}, {"date": "2026-12-11", "start": "18:30"}]}


@contextmanager
def phone(browser: Browser, server: Any, screenshot: Callable[[Any, str], Any],
          zone: str = "Australia/Sydney", scheme: str = "light", width: int = 390,
          height: int = 844, javascript: bool = True) -> Iterator[Watched]:
    """A phone-sized page in a browser whose clock is in `zone`."""
    context = browser.new_context(base_url=server.base_url, timezone_id=zone,
                                  viewport={"width": width, "height": height},
                                  color_scheme=scheme,  # type: ignore[arg-type]
                                  java_script_enabled=javascript)
    context.set_default_timeout(10_000)
    try:
        watched = Watched(context.new_page(), screenshot)
        yield watched
        assert watched.problems == []
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_answer_grid_is_tapped_through_and_starts_unanswered(
        api: httpx.Client, browser: Browser, server: Any,
        screenshot: Callable[[Any, str], Any], scheme: str) -> None:
    made = api.post("/api/finddate", json=POLL).json()
    with phone(browser, server, screenshot, scheme=scheme) as watched:
        page = watched.page
        page.goto(f"/s/{made['slug']}")
        # Nothing is marked until the person says so, and it says so in words.
        for slot in ("d1", "d2", "d3"):
            assert state(page, slot) == (None, "Not answered")
            box = cell(page, slot).bounding_box()
            assert box is not None and box["width"] >= 300 and box["height"] >= 48
        watched.check(f"finddate-grid-unanswered-{scheme}")
        tap(page, "d1")
        assert state(page, "d1") == ("yes", "Yes")
        tap(page, "d2", times=2)
        assert state(page, "d2") == ("maybe", "If need be")
        tap(page, "d3", times=3)
        assert state(page, "d3") == ("no", "No")
        watched.check(f"finddate-grid-answered-{scheme}")
        tap(page, "d3")  # round again: no → yes
        assert state(page, "d3") == ("yes", "Yes")
        # Each option is a labelled radio group: the keyboard moves through the answers.
        group = page.get_by_role("radiogroup", name="Fri 11 Dec 2026, 18:30")
        expect(group.get_by_role("radio", name="Yes")).to_be_checked()
        group.get_by_role("radio", name="Yes").focus()
        page.keyboard.press("ArrowDown")
        assert state(page, "d3") == ("maybe", "If need be")
        focused = page.evaluate(
            "getComputedStyle(document.activeElement.closest('.finddate-cell')).outlineStyle")
        assert focused == "solid"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.fill("#name", "Ann")
        page.get_by_role("button", name="Send my answers").click()
        page.wait_for_url(re.compile(r"/p/[^/?]+$"))
        assert state(page, "d1") == ("yes", "Yes")
        assert state(page, "d2") == ("maybe", "If need be")
        watched.check(f"finddate-grid-private-{scheme}")
    answers = api.get(f"/api/finddate/{made['slug']}").json()["responses"][0]["answers"]
    assert answers == {"d1": "yes", "d2": "maybe", "d3": "maybe"}


def test_an_option_added_later_reads_unanswered_on_the_private_page(
        api: httpx.Client, browser: Browser, server: Any,
        screenshot: Callable[[Any, str], Any]) -> None:
    made = api.post("/api/finddate", json=POLL).json()
    token = api.post("/api/finddate/respond", json={
        "slug": made["slug"], "name": "Bo",
        "answers": [{"slotId": "d1", "answer": "no"}]}).json()["token"]
    with phone(browser, server, screenshot) as watched:
        watched.page.goto(f"/p/{token}")
        assert state(watched.page, "d1") == ("no", "No")
        assert state(watched.page, "d2") == (None, "Not answered")


def test_the_grid_cycles_and_submits_without_javascript(
        api: httpx.Client, browser: Browser, server: Any,
        screenshot: Callable[[Any, str], Any]) -> None:
    made = api.post("/api/finddate", json=POLL).json()
    with phone(browser, server, screenshot, javascript=False) as watched:
        page = watched.page
        page.goto(f"/s/{made['slug']}")
        assert state(page, "d1") == (None, "Not answered")
        tap(page, "d1", times=2)
        tap(page, "d2", times=4)
        assert (state(page, "d1"), state(page, "d2")) == (("maybe", "If need be"),
                                                         ("yes", "Yes"))
        watched.check("finddate-grid-nojs")
        page.fill("#name", "Cy")
        with page.expect_navigation():
            page.get_by_role("button", name="Send my answers").click()
        private = page.locator(".flash a[href*='/p/']")
        expect(private).to_be_visible()
        page.goto(private.get_attribute("href") or "")
        assert state(page, "d1") == ("maybe", "If need be")
        assert state(page, "d3") == ("no", "No")  # left unmarked: counted as no, as the API says
        watched.check("finddate-grid-nojs-private")
    view = api.get(f"/api/finddate/{made['slug']}").json()
    assert view["responses"][0] == {"name": "Cy", "answers": {
        "d1": "maybe", "d2": "yes", "d3": "no"}}


def test_times_are_also_shown_in_the_browsers_zone_which_the_create_form_takes(
        api: httpx.Client, browser: Browser, server: Any,
        screenshot: Callable[[Any, str], Any]) -> None:
    with phone(browser, server, screenshot, zone="Europe/London") as watched:
        page = watched.page
        page.goto("/new/finddate")
        expect(page.locator("#timezone")).to_have_value("Europe/London")
        for width in (390, 320):
            page.set_viewport_size({"width": width, "height": 700})
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            form = page.locator("main form").bounding_box()
            assert form is not None and form["x"] + form["width"] <= width
        watched.check("finddate-create-london")
    made = api.post("/api/finddate", json=POLL).json()
    slots = api.get(f"/api/finddate/{made['slug']}").json()["slots"]
    assert [(s["startsAt"], s["endsAt"]) for s in slots] == [
        ("2026-12-04T07:30:00Z", "2026-12-04T10:00:00Z"), (None, None),
        ("2026-12-11T07:30:00Z", None)]
    with phone(browser, server, screenshot, zone="Europe/London") as watched:
        watched.page.goto(f"/s/{made['slug']}")
        yours = watched.page.locator("#when-d1 .finddate-yours")
        expect(yours).to_have_text(
            re.compile(r"^Fri,? (4 Dec|Dec 4),? 0?7:30\D*–10:00\D* your time$"))
        expect(watched.page.locator("#when-d2 .finddate-yours")).to_have_count(0)
        expect(watched.page.locator("#when-d3 .finddate-yours")).to_contain_text(
            re.compile(r"\b0?7:30"))
        watched.check("finddate-public-london")
    with phone(browser, server, screenshot) as watched:  # in Sydney: the poll's own times
        watched.page.goto(f"/s/{made['slug']}")
        expect(watched.page.locator("#when-d1")).to_have_text("Fri 4 Dec 2026, 18:30–21:00")
        expect(watched.page.locator(".finddate-yours")).to_have_count(0)
