"""Group Vote in a real browser against a two-worker server: the organiser creates a poll
through its form; two voters open the share link, and each one's vote shows up on the
other's open page within a second, without a reload (live regions); a voter changes their
ballot on their own page; the organiser sees who voted for what, adds and removes options
and closes the vote. Every page is screenshotted and must be free of console errors and
CSP violations."""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from browsing import TIMEOUT_MS
from browsing import Watched
from browsing import code_of
from playwright.sync_api import Page
from playwright.sync_api import ViewportSize
from playwright.sync_api import expect

from groupkit.web._forms import decode

pytestmark = [pytest.mark.browser, pytest.mark.server]

LIVE_MS = 1000
PHONE: ViewportSize = {"width": 390, "height": 844}
SYDNEY = "Australia/Sydney"
EVENTS = re.compile(r"/api/poll/[^/]+/events(\?[^/]*)?$")


@pytest.fixture(scope="module")
def server(live_server: Callable[..., Any]) -> Any:
    """Two workers, so the voter's write and the watcher's event stream are often served by
    different processes."""
    return live_server(mode="development", workers=2)


def counts(api: httpx.Client, slug: str) -> dict[str, int]:
    view = api.get(f"/api/poll/{slug}").raise_for_status().json()
    return {option["text"]: option["count"] for option in view["tally"]}


def result(page: Page, text: str) -> Any:
    return page.locator("#poll-tally li.poll-result").filter(
        has=page.locator(".poll-result-text", has_text=re.compile(rf"^{re.escape(text)}")))


def pick(page: Page, text: str) -> None:
    page.locator("label.poll-check", has_text=text).locator("input").check()


def stay_marker(page: Page) -> None:
    """Set a value that only survives if the page is never reloaded."""
    page.evaluate("window.__stillHere = true")


def still_here(page: Page) -> bool:
    return bool(page.evaluate("window.__stillHere === true"))


def start_poll(page: Page, question: str, options: list[str]) -> Any:
    """Open the create form and fill the question and the three option rows; returns the
    rows."""
    page.goto("/new/poll")
    page.fill("#question", question)
    rows = page.locator("[data-list='options'] [data-row]")
    for row, text in zip(rows.all(), options, strict=True):
        row.locator("[data-key='text']").fill(text)
    return rows


def test_poll_create_vote_live_change_and_organise(server: Any, api: httpx.Client,
                                                   open_context: Callable[[], Watched]) -> None:
    organiser = open_context()
    page = organiser.page
    rows = start_poll(page, "Where's the end-of-year lunch?",
                      ["Thai on King St", "Pub bistro", "Picnic"])
    page.get_by_role("button", name="Add an option").click()
    rows.last.locator("[data-key='text']").fill("Dumpling house")
    page.get_by_label("Pick as many as they like").check()
    page.fill("#maxPicks", "2")
    page.get_by_label("Let people suggest another option when they vote").check()
    organiser.check("poll-create")
    page.get_by_role("button", name="Start the vote").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")
    organiser.check("poll-organiser-new")
    view = api.get(f"/api/poll/{slug}").raise_for_status().json()
    assert (view["mode"], view["maxPicks"], view["allowSuggestions"], view["secret"]) == (
        "multi", 2, True, False)
    assert [option["text"] for option in view["tally"]] == [
        "Thai on King St", "Pub bistro", "Picnic", "Dumpling house"]

    # Two voters open the share link.
    # Each page is "open" once its live stream is connected (its response has started).
    ann, bo = open_context(), open_context()
    for watched in (ann, bo):
        with watched.page.expect_response(EVENTS):
            watched.page.goto(share)
    ann.check("poll-public")
    expect(bo.page.locator("#poll-tally")).to_contain_text("0 votes")
    stay_marker(bo.page)

    # Ann votes; Bo's open page shows it within a second, without reloading.
    pick(ann.page, "Thai on King St")
    pick(ann.page, "Picnic")
    ann.page.fill("#voterName", "Ann")
    with ann.page.expect_response(EVENTS):  # Ann goes on to her ballot page
        with ann.page.expect_response(re.compile(r"/api/poll/vote$")) as voted:
            ann.page.get_by_role("button", name="Vote").click()
        assert voted.value.status == 201
        sent = time.monotonic()
        expect(result(bo.page, "Thai on King St").locator(".poll-count")).to_have_text(
            "1", timeout=LIVE_MS)
        assert time.monotonic() - sent < LIVE_MS / 1000 + 0.25
    expect(bo.page.locator("#poll-tally")).to_contain_text("1 vote")
    assert still_here(bo.page)
    bo.check("poll-public-live-after-ann")

    # Ann lands on her own ballot page, her picks ticked.
    ann.page.wait_for_url(re.compile(r"/p/[^/?]+$"))
    token = code_of(ann.page.url, "p")
    checked = ann.page.locator("input[data-choice]:checked")
    expect(checked).to_have_count(2)
    expect(ann.page.locator(".poll-mine")).to_have_count(2)
    ann.check("poll-voter-page")
    assert counts(api, slug) == {"Thai on King St": 1, "Pub bistro": 0, "Picnic": 1,
                                 "Dumpling house": 0}

    # Bo picks one and suggests another; Ann's open ballot page shows it live.
    stay_marker(ann.page)
    pick(bo.page, "Pub bistro")
    bo.page.fill("#suggestion", "Sushi train")
    bo.page.fill("#voterName", "Bo")
    with bo.page.expect_response(re.compile(r"/api/poll/vote$")) as voted:
        bo.page.get_by_role("button", name="Vote").click()
    assert voted.value.status == 201
    sent = time.monotonic()
    expect(result(ann.page, "Sushi train").locator(".poll-count")).to_have_text(
        "1", timeout=LIVE_MS)
    assert time.monotonic() - sent < LIVE_MS / 1000 + 0.25
    assert still_here(ann.page)
    expect(ann.page.locator("#poll-tally")).to_contain_text("2 votes")
    bo.page.wait_for_url(re.compile(r"/p/[^/?]+$"))
    bo.check("poll-voter-page-bo")
    ann.check("poll-voter-page-live")

    # Ann changes her ballot from her page.
    ann.page.locator("label.poll-check", has_text="Picnic").locator("input").uncheck()
    pick(ann.page, "Sushi train")
    with ann.page.expect_navigation():
        ann.page.get_by_role("button", name="Change my vote").click()
    expect(ann.page.locator("input[data-choice]:checked")).to_have_count(2)
    ann.check("poll-voter-page-changed")
    assert counts(api, slug) == {"Thai on King St": 1, "Pub bistro": 1, "Picnic": 0,
                                 "Dumpling house": 0, "Sushi train": 2}

    # Back on the share page, this browser is offered its ballot.
    with ann.page.expect_response(EVENTS):
        ann.page.goto(share)
    mine = ann.page.locator("[data-poll-mine]")
    expect(mine).to_be_visible()
    # Not a fresh ballot: "You voted — change your vote", a link to the ballot it cast.
    expect(mine.locator("p").first).to_have_text("You voted — change your vote")
    assert mine.locator("a").get_attribute("href") == f"/p/{token}"
    expect(ann.page.locator("form[data-poll-ballot]")).to_be_hidden()
    ann.check("poll-public-voted")
    # It stays that way across a reload; someone else on this device can still vote.
    with ann.page.expect_response(EVENTS):
        ann.page.reload()
    expect(ann.page.locator("form[data-poll-ballot]")).to_be_hidden()
    ann.page.get_by_role("button", name="Someone else voting on this device?").click()
    expect(ann.page.locator("form[data-poll-ballot]")).to_be_visible()
    ann.check("poll-public-voted-someone-else")

    # The organiser sees who voted for what, live.
    page.goto(f"/e/{edit_token}")
    table = page.locator("table.poll-ballots tbody tr")
    expect(table).to_have_count(2)
    expect(table.nth(0)).to_contain_text("Ann")
    expect(table.nth(0)).to_contain_text("Thai on King St, Sushi train")
    expect(table.nth(1)).to_contain_text("Bo")
    organiser.check("poll-organiser-votes")

    # Adds an option, removes one, and closes the vote.
    page.fill("#add-option", "Food trucks")
    with page.expect_navigation():
        page.get_by_role("button", name="Add option").click()
    expect(page.locator("#poll-options")).to_contain_text("Food trucks")
    row = page.locator("#poll-options li", has_text="Dumpling house")
    with page.expect_navigation():
        row.get_by_role("button", name="Remove").click()
    expect(page.locator("#poll-options")).not_to_contain_text("Dumpling house")
    organiser.check("poll-organiser-edited")
    stay_marker(ann.page)
    with page.expect_navigation():
        page.get_by_role("button", name="Close voting").click()
    expect(page.get_by_role("status")).to_contain_text("Voting has closed")
    organiser.check("poll-organiser-closed")
    # The open share page says so and drops its ballot form live.
    expect(ann.page.locator("#poll-status")).to_contain_text("Voting has closed",
                                                             timeout=LIVE_MS * 2)
    expect(ann.page.locator("form[data-poll-ballot]")).to_have_count(0)
    assert still_here(ann.page)
    ann.check("poll-public-closed")
    view = api.get(f"/api/poll/{slug}").raise_for_status().json()
    assert view["closed"] is True
    assert [option["text"] for option in view["tally"]] == [
        "Thai on King St", "Pub bistro", "Picnic", "Sushi train", "Food trucks"]


def test_secret_single_choice_poll(server: Any, api: httpx.Client,
                                   phone: Callable[..., Watched]) -> None:
    created = api.post("/api/poll", json={"question": "Secret santa budget?",
                                          "options": ["$20", "$30", "$50"],
                                          "secret": True}).raise_for_status().json()
    voter = phone()
    page = voter.page
    page.goto(f"/s/{created['slug']}")
    expect(page.locator("#voterName")).to_have_count(0)
    expect(page.locator("input[type=radio][data-choice]")).to_have_count(3)
    expect(page.locator(".lede")).to_contain_text("Secret ballot")
    voter.check("poll-secret-public")
    pick(page, "$30")
    with page.expect_navigation():
        page.get_by_role("button", name="Vote").click()
    page.wait_for_url(re.compile(r"/p/[^/?]+$"))
    expect(page.locator("input[data-choice]:checked")).to_have_count(1)
    voter.check("poll-secret-voter")
    organiser = phone(scheme="dark")
    with organiser.page.expect_response(EVENTS):
        organiser.page.goto(f"/e/{created['editToken']}")
    expect(organiser.page.locator("#poll-ballots")).to_contain_text("no names are kept")
    # A secret ballot's tally moves in batches: one ballot does not show, even here.
    expect(result(organiser.page, "$30").locator(".poll-count")).to_have_text("0")
    expect(organiser.page.locator("#poll-tally")).to_contain_text("Counted so far: 0 of 1.")
    fits(organiser.page)
    organiser.check("poll-secret-organiser")
    # Four more ballots make a batch: the open page shows all five at once, live.
    ids = {o["text"]: o["id"] for o in
           api.get(f"/api/poll/{created['slug']}").raise_for_status().json()["tally"]}
    for text in ("$20", "$50", "$30", "$20"):
        api.post("/api/poll/vote", json={"slug": created["slug"],
                                          "choices": [ids[text]]}).raise_for_status()
    expect(result(organiser.page, "$30").locator(".poll-count")).to_have_text(
        "2", timeout=LIVE_MS * 3)
    expect(result(organiser.page, "$20").locator(".poll-count")).to_have_text("2")
    expect(organiser.page.locator("#poll-tally")).to_contain_text("Counted so far: 5 of 5.")
    organiser.check("poll-secret-organiser-batch")


# --- the optional additions, on a phone in Sydney -------------------------------------------

@pytest.fixture
def phone(open_context: Callable[[], Watched]) -> Callable[..., Watched]:
    """`phone(javascript=True, scheme="light")`: a fresh 390x844 profile whose clock reads
    Sydney time, so the page's own time-zone handling is what is tested."""

    def start(javascript: bool = True, scheme: str = "light") -> Watched:
        watched = open_context()
        page = watched.page
        page.set_viewport_size(PHONE)
        page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
        devtools = page.context.new_cdp_session(page)
        devtools.send("Emulation.setTimezoneOverride", {"timezoneId": SYDNEY})
        if not javascript:
            devtools.send("Emulation.setScriptExecutionDisabled", {"value": True})
        return watched

    return start


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_ranked_poll_with_a_closing_time_and_results_after_voting(
        api: httpx.Client, phone: Callable[..., Watched]) -> None:
    organiser = phone()
    page = organiser.page
    start_poll(page, "Team lunch?", ["Thai", "Pub", "Picnic"])
    page.get_by_label("Ranked choice").check()
    page.get_by_label("Show the results only to people who have voted").check()
    closing = (dt.datetime.now(ZoneInfo(SYDNEY)) + dt.timedelta(days=2)).replace(
        hour=17, minute=30, second=0, microsecond=0, tzinfo=None)
    page.fill("#closesAtLocal", closing.strftime("%Y-%m-%dT%H:%M"))
    expect(page.get_by_label("Time zone")).to_have_value(SYDNEY)  # the browser's own
    fits(page)
    organiser.check("poll-phone-create-extras")
    page.get_by_role("button", name="Start the vote").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    slug = code_of(page.input_value("#share-link"), "s")
    view = api.get(f"/api/poll/{slug}").raise_for_status().json()
    utc = closing.replace(tzinfo=ZoneInfo(SYDNEY)).astimezone(dt.UTC)
    assert view["closesAt"] == utc.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert (view["mode"], view["resultsAfterVote"], view["tallyHidden"]) == (
        "ranked", True, True)

    voter = phone()
    vpage = voter.page
    vpage.goto(f"/s/{slug}")
    when = vpage.locator("time[data-poll-closes]")
    expect(when).to_contain_text("5:30")  # 17:30 in Sydney, not 06:30 UTC
    expect(when).to_contain_text(SYDNEY)
    expect(vpage.locator("[data-poll-countdown]")).to_contain_text(re.compile(r"in [12] day"))
    expect(vpage.locator("#poll-tally")).to_contain_text("Vote to see the results")
    expect(vpage.locator("#poll-tally .poll-count")).to_have_count(0)
    vpage.get_by_label("Your 1st choice").select_option(label="Picnic")
    vpage.get_by_label("Your 2nd choice").select_option(label="Thai")
    fits(vpage)
    voter.check("poll-phone-ranked-ballot")
    with vpage.expect_response(re.compile(r"/api/poll/vote$")) as voted:
        vpage.get_by_role("button", name="Vote").click()
    assert voted.value.status == 201
    ids = {o["text"]: o["id"] for o in view["tally"]}
    sent = voted.value.request.post_data_json
    assert sent is not None and [c for c in sent["choices"] if c] == [ids["Picnic"], ids["Thai"]]
    vpage.wait_for_url(re.compile(r"/p/[^/?]+$"))
    expect(vpage.locator(".poll-runoff")).to_contain_text("Round 1")
    expect(vpage.locator(".poll-winner")).to_contain_text("Leading: Picnic")
    expect(vpage.get_by_label("Your 1st choice")).to_have_value(ids["Picnic"])
    expect(vpage.get_by_label("Your 2nd choice")).to_have_value(ids["Thai"])
    expect(vpage.get_by_label("Your 3rd choice")).to_have_value("")
    fits(vpage)
    voter.check("poll-phone-ranked-voter")
    # The share page still hides the counts from someone who has not voted.
    other = phone(scheme="dark")
    other.page.goto(f"/s/{slug}")
    expect(other.page.locator("#poll-tally .poll-count")).to_have_count(0)
    other.check("poll-phone-hidden-dark")
    # Without JavaScript the closing time is given with its zone.
    plain = phone(javascript=False)
    plain.page.goto(f"/s/{slug}")
    expect(plain.page.locator("time[data-poll-closes]")).to_have_text(
        utc.strftime("%Y-%m-%d at %H:%M UTC"))
    fits(plain.page)
    plain.check("poll-phone-no-js")


def test_the_page_counts_down_and_closes(api: httpx.Client,
                                         phone: Callable[..., Watched]) -> None:
    """A secret ballot that hides its results until it closes, closing 12 s from now: the
    voter's own page keeps the counts hidden, then shows them once the clock closes it."""
    closes = dt.datetime.now(dt.UTC).replace(microsecond=0) + dt.timedelta(seconds=12)
    made = api.post("/api/poll", json={
        "question": "Quick one?", "options": ["Yes", "No"], "secret": True,
        "resultsAtClose": True, "closesAt": closes.isoformat()}).raise_for_status().json()
    voter = phone()
    page = voter.page
    page.goto(f"/s/{made['slug']}")
    expect(page.locator("[data-poll-countdown]")).to_contain_text(re.compile(r"in \d+ s"))
    expect(page.locator("#poll-tally")).to_contain_text("stay hidden until voting closes")
    voter.check("poll-phone-countdown")
    pick(page, "Yes")
    with page.expect_navigation():
        page.get_by_role("button", name="Vote").click()
    page.wait_for_url(re.compile(r"/p/[^/?]+$"))
    expect(page.locator("#poll-tally .poll-count")).to_have_count(0)
    expect(page.locator("#poll-tally")).to_contain_text("the organiser can't see them either")
    voter.check("poll-phone-hidden-until-close")
    expect(page.get_by_role("status")).to_contain_text("your vote is final",
                                                        timeout=TIMEOUT_MS + 12_000)
    expect(result(page, "Yes").locator(".poll-count")).to_have_text("1")
    expect(page.locator("form[data-poll-ballot]")).to_have_count(0)
    fits(page)
    voter.check("poll-phone-closed-by-time")
    late = api.post("/api/poll/vote", json={"slug": made["slug"],
                                            "choices": [api.get(f"/api/poll/{made['slug']}")
                                                        .json()["tally"][0]["id"]]})
    assert late.status_code == 409
    assert late.json() == {"error": "This poll has closed — the organiser has stopped "
                                    "the voting."}


@pytest.mark.parametrize("typed", ["2027-03-14T02:30", "2027-03-14T12:00", "2026-11-01T01:30",
                                   "2026-12-24T17:00:15", "soon"])
def test_a_closing_time_in_another_zone_is_sent_as_the_form_post_sends_it(
        phone: Callable[..., Watched], typed: str) -> None:
    """The script's body (groupkit.js `serialize`) equals the kernel's reading of the same
    form posted without it: a time typed in a zone that is not the browser's (New York,
    across its daylight-saving change) goes as the same UTC moment, odd text as typed."""
    organiser = phone()
    page = organiser.page
    start_poll(page, "Team lunch?", ["Thai", "Pub", "Picnic"])
    expect(page.get_by_label("Time zone")).to_have_value(SYDNEY)
    page.get_by_label("Time zone").select_option("America/New_York")
    page.locator("#closesAtLocal").evaluate("(field, text) => { field.type = 'text'; "
                                             "field.value = text; }", typed)
    with page.expect_response(re.compile(r"/api/poll$")) as answered:
        page.get_by_role("button", name="Start the vote").click()
    body = answered.value.request.post_data_json
    assert body is not None and "closesAt:zone" not in str(body)
    assert body["closesAt"] == decode([("closesAt:local", typed),
                                       ("closesAt:zone", "America/New_York")])["closesAt"]
    if typed != "soon":
        assert body["closesAt"].endswith("Z")
    if answered.value.status == 400:  # a time long gone or unreadable: said at the time
        expect(page.locator("[data-field-error=closesAt]")).to_be_visible()
        expect(page.locator("#closesAtLocal")).to_have_attribute("aria-invalid", "true")
        organiser.problems.clear()  # the console's note of that 400
    else:
        assert answered.value.status == 201


def test_closing_takes_the_countdown_off_an_open_page(api: httpx.Client,
                                                      open_context: Callable[[], Watched]
                                                      ) -> None:
    """Reported from Chromium: after the organiser closed a poll, a page left open showed
    the results while still counting down to the closing time. The visitor had picked an
    option, which holds the ballot's live region still (what they chose is never touched);
    the closing time and its countdown are a region of their own, so they go at once, and
    the page says voting has closed, without a reload."""
    closes = dt.datetime.now(dt.UTC).replace(microsecond=0) + dt.timedelta(hours=1)
    made = api.post("/api/poll", json={
        "question": "Friday lunch?", "options": ["Thai", "Pub"],
        "closesAt": closes.isoformat().replace("+00:00", "Z")}).raise_for_status().json()
    visitor = open_context()
    page = visitor.page
    page.goto(f"/s/{made['slug']}")
    expect(page.locator("[data-poll-countdown]")).to_contain_text(re.compile(r"in \d+ min"))
    pick(page, "Thai")
    stay_marker(page)
    closed = api.post(f"/api/poll/{made['editToken']}/close")
    assert closed.status_code == 200, closed.text
    expect(page.locator("#poll-status")).to_contain_text(
        "Voting has closed. These are the final results.")
    expect(page.locator("[data-poll-countdown]")).to_have_count(0)
    expect(page.locator("time[data-poll-closes]")).to_have_count(0)
    expect(result(page, "Thai").locator(".poll-count")).to_have_text("0")
    assert still_here(page)
    visitor.check("poll-closed-while-open")
