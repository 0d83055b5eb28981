"""Compact sign-up boards on a 390x844 phone: a 14-spot board (each tool's own example, sized
to 14 spots) fits in under 1,400 px, an open spot is one row whose claim form opens in place
(for that spot only, with or without JavaScript), and a claim that loses a race says who got
there first and offers the group's next free spot in one tap."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from boards import claim
from boards import open_spot
from boards import spot_form
from boards import spot_row
from browsing import Watched
from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
MOST = 1400

#: Each board's example with 14 spots in all, and the slot of a first open spot.
BOARDS: dict[str, dict[str, Any]] = {
    "plate": {"title": "End-of-year lunch", "eventDate": "Friday 12 December, 12:30",
              "note": "Drop-off in the staff kitchen from noon.",
              "categories": [{"name": "Mains", "capacity": 4},
                             {"name": "Salads and sides", "capacity": 4},
                             {"name": "Desserts", "capacity": 3},
                             {"name": "Drinks", "capacity": 3}]},
    "hens": {"title": "Mia's hens", "forWhom": "Mia", "when": "Saturday 14 March, 2pm",
             "where": "The Boathouse, 12 River Rd", "note": "Dress code: pink.",
             "kitty": "$60 each covers lunch and the cruise.",
             "activities": ["Lunch", "Harbour cruise", "Karaoke"],
             "categories": [{"name": "Decorations", "capacity": 5},
                            {"name": "Games", "capacity": 4},
                            {"name": "Food and drinks", "capacity": 5}]},
    "roster": {"title": "Working bee", "eventDate": "Saturday 14 March 2026",
               "note": "Gloves and water provided. Wear closed shoes.",
               "shifts": [{"label": "Setup 7-9am", "capacity": 4},
                          {"label": "Gardening 9am-12pm", "capacity": 6},
                          {"label": "Pack down 12-1pm", "capacity": 4}]},
    "meal": {"forWhom": "the Nguyen family",
             "note": "Baby Mai arrived on Tuesday! Meals for the first fortnight.",
             "allergies": "No peanuts. Mild spice only for the kids.",
             "dropoff": "12 Example St — esky on the front porch, text Linh when there",
             "startDate": "2026-03-02", "days": 14, "capacityPerDay": 1,
             "helpLinks": [{"label": "Grocery delivery gift card",
                            "url": "https://example.com/gift"}]},
    "giftidea": {"recipient": "Priya", "occasion": "Farewell — last day Friday 28 March",
                 "budget": "About $20 each",
                 "note": "Priya loves hiking and good coffee. Chip in by Wednesday."},
}

IDEAS = ["Hiking socks", "Camp coffee kit", "Trail guidebook", "Insulated mug", "Head torch",
         "Map of the Blue Mountains", "Coffee grinder", "Merino beanie", "Picnic blanket",
         "Day pack", "Water filter", "Bean subscription", "Walking poles", "Gift voucher"]


def make(api: httpx.Client, tool: str) -> dict[str, Any]:
    made = dict(api.post(f"/api/{tool}", json=BOARDS[tool]).raise_for_status().json())
    if tool == "giftidea":
        for idea in IDEAS:
            api.post("/api/giftidea/suggest", json={
                "slug": made["slug"], "idea": idea,
                "link": "https://shop.example.com/item"}).raise_for_status()
    return made


def spot_count(api: httpx.Client, tool: str, slug: str) -> int:
    board = api.get(f"/api/{tool}/{slug}").raise_for_status().json()
    if tool == "giftidea":
        return len(board["ideas"])
    groups = board.get("categories") or board.get("shifts") or board.get("days", [])
    return sum(len(group["spots"]) for group in groups + board.get("tasks", []))


#: What 14 spots may span (the old boards took 3,216 px for 13), and what a page puts before
#: its board on top of MOST: Hens' guest list, Gift Idea Board's open suggest form.
BOARD_SPAN = 1000
EXTRA = {"hens": 700, "giftidea": 450}


@pytest.mark.parametrize("tool", list(BOARDS))
def test_a_14_spot_board_fits_in_1400_px_on_a_phone(
        tool: str, api: httpx.Client, open_context: Callable[..., Watched]) -> None:
    made = make(api, tool)
    assert spot_count(api, tool, made["slug"]) == 14
    watched = open_context(viewport=PHONE)
    page = watched.page
    page.goto(f"/s/{made['slug']}")
    # The board itself, from its first spot's top to its last spot's bottom: a page may put
    # more before it (Hens' guest list, Gift Idea Board's suggest form first).
    span = page.evaluate("""() => {
        const spots = [...document.querySelectorAll("details.spot-claim")];
        const first = spots[0].getBoundingClientRect(), last = spots.at(-1).getBoundingClientRect();
        return Math.round(last.bottom - first.top);
    }""")
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"{tool}: 14 spots over {span} px, the page {height} px at 390x844")
    assert span < BOARD_SPAN, f"{tool}: 14 spots over {span} px"
    assert height < MOST + EXTRA.get(tool, 0), f"{tool}: {height} px"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Every claim form is folded away: no name box shows until a spot's button is tapped.
    expect(page.locator("details.spot-claim input[name='name']:visible")).to_have_count(0)
    summaries = page.locator("details.spot-claim > summary")
    assert summaries.count() == 14
    summaries.nth(1).click()
    expect(page.locator("details.spot-claim input[name='name']:visible")).to_have_count(1)
    expect(page.locator("details.spot-claim[open] input[name='name']")).to_be_focused()
    # Another spot's button: that one opens, the first folds away again.
    summaries.nth(3).click()
    expect(page.locator("details.spot-claim[open]")).to_have_count(1)
    expect(page.locator("details.spot-claim input[name='name']:visible")).to_have_count(1)
    watched.check(f"boards-{tool}-phone")


def test_without_javascript_a_spot_opens_a_real_form(browser: Browser, server: Any,
                                                     api: httpx.Client) -> None:
    made = make(api, "plate")
    context = browser.new_context(base_url=server.base_url, viewport=PHONE,
                                  java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"/s/{made['slug']}")
        form = spot_form(page, "c1-2")
        expect(form).to_be_hidden()
        spot_row(page, "c1-2").locator("summary").click()
        expect(form).to_be_visible()
        assert form.get_attribute("method") == "post"
        assert form.get_attribute("action") == form.get_attribute("data-api") \
            == "/api/plate/claim"
        expect(form.locator("input[name='name']")).to_be_visible()
        expect(form.locator("button[type='submit']")).to_be_visible()
    finally:
        context.close()


def test_a_lost_race_says_who_won_and_offers_the_next_spot(
        api: httpx.Client, open_context: Callable[..., Watched]) -> None:
    made = api.post("/api/plate", json={"title": "Race", "categories": [
        {"name": "Mains", "capacity": 2}, {"name": "Desserts", "capacity": 1}]}).json()
    share = f"/s/{made['slug']}"
    ann, ben = open_context(viewport=PHONE), open_context(viewport=PHONE)
    for watched in (ann, ben):
        watched.page.goto(share)
    # Ben opens the first Mains spot and types; Ann takes it first.
    form = open_spot(ben.page, "c0-1")
    form.locator("input[name='name']").fill("Ben")
    form.locator("input[name='dish']").fill("Curry")
    claim(ann.page, "c0-1", name="Ann", dish="Lasagne")
    expect(ben.page.locator(".plate-count").first).to_have_text("1 of 2 taken")

    form.locator("button[type='submit']").click()
    expect(form.get_by_role("alert")).to_have_text(
        "Someone snapped that spot up seconds ago — pick another. Ann got there first.")
    take = form.get_by_role("button", name="Take Mains, spot 2 instead")
    expect(take).to_be_visible()
    assert len(ben.problems) == 1 and "status of 409" in ben.problems[0], ben.problems
    ben.problems.clear()
    ben.check("boards-lost-race")

    with ben.page.expect_navigation():
        take.click()
    mains = api.get(f"/api/plate/{made['slug']}").json()["categories"][0]["spots"]
    assert [(spot["name"], spot["dish"]) for spot in mains] == [
        ("Ann", "Lasagne"), ("Ben", "Curry")]
    expect(ben.page.locator(f"button[data-secret-key$=':{'c0-2'}']")).to_be_visible()
    ben.check("boards-lost-race-took-the-next")

    # A one-spot group that fills: who won, and that nothing else in it is free.
    form = open_spot(ben.page, "c1-1")
    form.locator("input[name='name']").fill("Ben")
    form.locator("input[name='dish']").fill("Pavlova")
    api.post("/api/plate/claim", json={"slug": made["slug"], "slotId": "c1-1",
                                       "name": "Cy", "dish": "Trifle"}).raise_for_status()
    form.locator("button[type='submit']").click()
    expect(form.get_by_role("alert")).to_have_text(
        "Someone snapped that spot up seconds ago — pick another. Cy got there first.")
    expect(form.locator(".spot-offer")).to_have_text("Every spot in Desserts is taken now.")
    ben.problems.clear()
    ben.check("boards-lost-race-group-full")


def lose_race(page: Page, api: httpx.Client, slug: str, slot_id: str, winner: str,
              dish: str) -> None:
    """Ben types into a spot's form while `winner` claims it, then sends it (no script)."""
    form = open_spot(page, slot_id)
    form.locator("input[name='name']").fill("Ben")
    form.locator("input[name='dish']").fill(dish)
    api.post("/api/plate/claim", json={"slug": slug, "slotId": slot_id, "name": winner,
                                       "dish": "Something"}).raise_for_status()
    with page.expect_navigation():
        form.locator("button[type='submit']").click()
    expect(spot_row(page, slot_id).locator("#groupkit-flash")).to_have_text(
        f"Someone snapped that spot up seconds ago — pick another. {winner} got there first.")


def test_without_javascript_a_lost_race_says_who_won_and_offers_the_next_spot(
        browser: Browser, server: Any, api: httpx.Client) -> None:
    made = api.post("/api/plate", json={"title": "Race", "categories": [
        {"name": "Mains", "capacity": 2}, {"name": "Desserts", "capacity": 1}]}).json()
    context = browser.new_context(base_url=server.base_url, viewport=PHONE,
                                  java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"/s/{made['slug']}")
        lose_race(page, api, made["slug"], "c0-1", "Ann", "Curry")
        # The next free spot's form is open with what Ben typed: one tap takes it.
        offered = spot_form(page, "c0-2")
        expect(offered).to_be_visible()
        expect(offered.locator("input[name='name']")).to_have_value("Ben")
        expect(offered.locator("input[name='dish']")).to_have_value("Curry")
        take = offered.get_by_role("button", name="Take Mains, spot 2 instead")
        with page.expect_navigation():
            take.click()
        expect(page.locator("#groupkit-flash")).to_contain_text("Saved.")
        mains = api.get(f"/api/plate/{made['slug']}").json()["categories"][0]["spots"]
        assert [(spot["name"], spot["dish"]) for spot in mains] == [
            ("Ann", "Something"), ("Ben", "Curry")]

        # A one-spot group that fills: who won, and that nothing else in it is free.
        lose_race(page, api, made["slug"], "c1-1", "Cy", "Pavlova")
        expect(spot_row(page, "c1-1").locator(".spot-offer")).to_have_text(
            "Every spot in Desserts is taken now.")
    finally:
        context.close()


@dataclasses.dataclass(frozen=True)
class Making:
    """A board's create form without JavaScript: its top fields, the list of groups (the row
    to clear, a spare row to fill, a wrong spots count and its message) and what it makes."""

    fields: tuple[tuple[str, str], ...]
    rows: str
    key: str
    clear: int
    fill: int
    wrong: str
    message: str
    made: list[tuple[str, int]]
    more: str | None = None  # the "More ..." disclosure the filled row sits under


MAKING = {
    "plate": Making((("title", "Lunch"),), "categories", "name", 2, 4, "25",
                    "Spots per category must be a whole number from 1 to 20.",
                    [("Mains", 4), ("Salads and sides", 4), ("Drinks", 2), ("Nibbles", 2)]),
    "hens": Making((("title", "Mia's hens"), ("activities:lines", "Lunch\nCruise")),
                   "categories", "name", 1, 3, "0",
                   "Spots per list must be a whole number from 1 to 20.",
                   [("Decorations", 3), ("Food and drinks", 4), ("Nibbles", 2)]),
    "roster": Making((("title", "Working bee"),), "shifts", "label", 0, 6, "31",
                     "Spots per shift must be a whole number from 1 to 30.",
                     [("Serving 9am–12pm", 4), ("Pack down 12–1pm", 3), ("Nibbles", 2)],
                     more="More shifts"),
}


def nojs_page(browser: Browser, server: Any) -> Page:
    context = browser.new_context(base_url=server.base_url, viewport=PHONE,
                                  java_script_enabled=False)
    context.set_default_timeout(15_000)
    return context.new_page()


def created(page: Page, api: httpx.Client, tool: str) -> dict[str, Any]:
    """The board the flash of a create hands over, as the API shows it."""
    expect(page.locator("#groupkit-flash")).to_contain_text("Created.")
    share = page.locator('#groupkit-flash a[href^="/s/"]').get_attribute("href")
    assert share is not None
    board: dict[str, Any] = api.get(f"/api/{tool}/{share.removeprefix('/s/')}").json()
    return board


@pytest.mark.parametrize("tool", list(MAKING))
def test_without_javascript_a_board_of_groups_is_created(
        tool: str, browser: Browser, server: Any, api: httpx.Client) -> None:
    making = MAKING[tool]
    page = nojs_page(browser, server)
    try:
        page.goto(f"/new/{tool}")
        form = page.locator(f'form[action="/api/{tool}"]')
        expect(form.get_by_role("button", name=re.compile("^Add a"))).to_be_hidden()
        rows = form.locator(f"[data-list='{making.rows}'] [data-row]")
        expect(rows).to_have_count(20 if tool == "roster" else 12)
        for name, value in making.fields:
            form.locator(f'[name="{name}"]').fill(value)
        # A row cleared is left out; a spare row filled is added, here with a wrong count.
        rows.nth(making.clear).locator(f"[data-key='{making.key}']").fill("")
        rows.nth(making.clear).locator("[data-key='capacity']").fill("")
        if making.more:
            form.get_by_text(making.more, exact=True).click()
        added = rows.nth(making.fill)
        added.locator(f"[data-key='{making.key}']").fill("Nibbles")
        added.locator("[data-key='capacity']").fill(making.wrong)
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        assert page.url.endswith(f"/new/{tool}#groupkit-flash")
        expect(page.locator("#groupkit-flash")).to_have_text(making.message)
        wrong = page.locator('[aria-describedby~="groupkit-flash"]')
        expect(wrong).to_have_attribute("aria-invalid", "true")
        assert wrong.get_attribute("name") == f"{making.rows}.{making.fill}.capacity:number"
        expect(wrong).to_be_visible()  # its disclosure opened
        expect(added.locator(f"[data-key='{making.key}']")).to_have_value("Nibbles")
        page.screenshot(path=str(SHOTS / f"boards-nojs-create-{tool}-refused.png"),
                        full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        added.locator("[data-key='capacity']").fill("2")
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        board = created(page, api, tool)
        groups = board.get("categories") or board["shifts"]
        assert [(group[making.key], group["capacity"]) for group in groups] == making.made
        for name, value in making.fields:
            if name == "activities:lines":
                assert board["activities"] == value.split("\n")
    finally:
        page.context.close()


def test_without_javascript_a_meal_train_is_created(
        browser: Browser, server: Any, api: httpx.Client) -> None:
    page = nojs_page(browser, server)
    try:
        page.goto("/new/meal")
        form = page.locator('form[action="/api/meal"]')
        page.get_by_label("First day").fill("2026-03-02")
        page.get_by_label("Days in a row").fill("3")
        page.get_by_label("Cooks per day").select_option("2")
        jobs = form.locator("[data-list='tasks'] [data-row]")
        expect(jobs).to_have_count(12)
        jobs.nth(0).locator("[data-key='label']").fill("Walk the dog")
        jobs.nth(2).locator("[data-key='label']").fill("Mow the lawn")
        jobs.nth(2).locator("[data-key='capacity']").fill("2")
        form.locator('[name="helpLinks.0.url"]').fill("https://example.com/gift")
        # Without a name for whom: the message at that field, the rest kept.
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        expect(page.locator("#groupkit-flash")).to_have_text(
            "Who are the meals for? Add a name — a family, a person, whoever.")
        expect(page.locator('[aria-describedby~="groupkit-flash"]')).to_have_attribute(
            "name", "forWhom")
        expect(jobs.nth(2).locator("[data-key='label']")).to_have_value("Mow the lawn")
        page.get_by_label("Who are the meals for?").fill("the Smiths")
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        board = created(page, api, "meal")
        assert [day["date"] for day in board["days"]] == [
            "2026-03-02", "2026-03-03", "2026-03-04"]
        assert board["capacityPerDay"] == 2
        assert [(task["label"], task["capacity"]) for task in board["tasks"]] == [
            ("Walk the dog", 1), ("Mow the lawn", 2)]
        assert [link["url"] for link in board["helpLinks"]] == ["https://example.com/gift"]
    finally:
        page.context.close()


def test_without_javascript_the_organiser_removes_a_category(
        browser: Browser, server: Any, api: httpx.Client) -> None:
    made = api.post("/api/plate", json=BOARDS["plate"]).raise_for_status().json()
    page = nojs_page(browser, server)
    try:
        page.goto(f"/e/{made['editToken']}")
        form = page.locator("form[data-api$='/edit']")
        page.get_by_text("Change details").click()
        rows = form.locator("[data-list='categories'] [data-row]")
        desserts = rows.nth(2)
        expect(desserts.locator("[data-key='name']")).to_have_value("Desserts")
        desserts.locator("[data-key='name']").fill("")
        desserts.locator("[data-key='capacity']").fill("")
        with page.expect_navigation():
            form.get_by_role("button", name="Save changes").click()
        board = api.get(f"/api/plate/{made['slug']}").json()
        assert [group["name"] for group in board["categories"]] == [
            "Mains", "Salads and sides", "Drinks"]
    finally:
        page.context.close()


@pytest.mark.parametrize(("tool", "slot_id", "extra"), [
    ("plate", "c0-1", {"dish": "Lasagne"}), ("hens", "c0-1", {}), ("roster", "s0-1", {})])
def test_the_organiser_sees_a_claim_arrive_without_reloading(
        api: httpx.Client, open_context: Callable[..., Watched], tool: str, slot_id: str,
        extra: dict[str, str]) -> None:
    made = make(api, tool)
    organiser = open_context(viewport=PHONE)
    organiser.page.goto(f"/e/{made['editToken']}")
    expect(organiser.page.get_by_text("Ann Example")).to_have_count(0)
    organiser.page.evaluate("window.groupkitStayed = true")
    api.post(f"/api/{tool}/claim", json={"slug": made["slug"], "slotId": slot_id,
                                         "name": "Ann Example", **extra}).raise_for_status()
    expect(organiser.page.get_by_text("Ann Example").first).to_be_visible()
    # Updated in place: the page was not reloaded.
    assert organiser.page.evaluate("window.groupkitStayed") is True
    organiser.check(f"boards-organiser-live-{tool}")
