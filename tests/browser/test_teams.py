"""Team Picker in a real browser: the create page shuffles the names into teams right there
(nothing leaves the browser until the teams are saved), the organiser may tweak them, and
what is saved is exactly what the form showed. Every page is screenshotted."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from browsing import Watched
from browsing import code_of
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]


def team_rows(watched: Watched) -> list[list[str]]:
    rows = watched.page.locator("[data-list='teams'] [data-row]")
    return [[line for line in row.locator("[data-key='members']").input_value().split("\n")
             if line] for row in rows.all()]


def test_teams_shuffle_in_the_browser_then_save(api: httpx.Client,
                                                open_context: Callable[[], Watched]) -> None:
    watched = open_context()
    page = watched.page
    requests: list[str] = []
    page.on("request", lambda request: requests.append(f"{request.method} {request.url}"))
    page.goto("/")
    page.get_by_role("link", name="Team Picker").click()
    page.wait_for_url("**/new/teams")
    watched.check("teams-create-empty")
    page.fill("#title", "Friday futsal")
    page.fill("#teams-names", "\n".join(NAMES[:6]) + "\n\n  \n" + "\n".join(NAMES[6:]))
    page.fill("#teams-count", "3")
    posts_before = [r for r in requests if r.startswith("POST")]

    page.get_by_role("button", name="Shuffle into teams").click()
    expect(page.locator("[data-teams-status]")).to_have_text(
        "Shuffled 10 names into 3 teams. Shuffle again, or save these teams.")
    first = team_rows(watched)
    assert len(first) == 3
    assert sorted(name for team in first for name in team) == sorted(NAMES)
    assert sorted(len(team) for team in first) == [3, 3, 4]
    # The shuffle happened in the page: nothing was posted to the server.
    assert [r for r in requests if r.startswith("POST")] == posts_before
    watched.check("teams-create-shuffled")

    # Shuffling again deals a fresh grouping (10 names into 3 teams: the chance of the
    # same grouping five times running is negligible).
    groupings = {tuple(tuple(sorted(team)) for team in first)}
    for _ in range(5):
        page.get_by_role("button", name="Shuffle into teams").click()
        groupings.add(tuple(tuple(sorted(team)) for team in team_rows(watched)))
    assert len(groupings) > 1

    # Fewer teams: rows go; the organiser names one team and leaves the other blank.
    page.fill("#teams-count", "2")
    page.get_by_role("button", name="Shuffle into teams").click()
    rows = page.locator("[data-list='teams'] [data-row]")
    expect(rows).to_have_count(2)
    rows.first.locator("[data-key='title']").fill("Reds")
    shown = team_rows(watched)
    assert sorted(len(team) for team in shown) == [5, 5]
    watched.check("teams-create-ready")

    page.get_by_role("button", name="Save these teams").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    watched.check("teams-organiser")
    slug = code_of(page.input_value("#share-link"), "s")
    saved = api.get(f"/api/teams/{slug}").raise_for_status().json()
    assert saved["title"] == "Friday futsal"
    assert saved["teams"] == [{"title": "Reds", "members": shown[0]},
                              {"title": "Team 2", "members": shown[1]}]
    cards = page.locator(".teams-card")
    expect(cards).to_have_count(2)
    assert "Need to shuffle again" in page.inner_text("main")  # the edit form shuffles again

    # Everyone else reads the teams at the share link, on a phone too.
    guest = open_context()
    guest.page.set_viewport_size({"width": 390, "height": 844})
    guest.page.goto(f"/s/{slug}")
    expect(guest.page.get_by_role("heading", level=1)).to_have_text("Friday futsal")
    headings = guest.page.locator(".teams-card h2")
    assert [text.split()[0] for text in headings.all_text_contents()] == ["Reds", "Team"]
    members = [card.locator("li").all_text_contents() for card in
               guest.page.locator(".teams-card").all()]
    assert members == shown
    assert guest.page.evaluate("document.documentElement.scrollWidth") <= 390
    guest.check("teams-public-phone")


def test_teams_form_without_a_shuffle_is_refused_with_the_spec_message(
        open_context: Callable[[], Watched]) -> None:
    watched = open_context()
    page = watched.page
    page.goto("/new/teams")
    page.get_by_role("button", name="Shuffle into teams").click()
    expect(page.locator("[data-teams-status]")).to_have_text(
        "Add at least two names to shuffle.")
    page.get_by_role("button", name="Save these teams").click()
    expect(page.locator("form p.error:not([hidden])")).to_have_text(
        "Add at least two names — one person is just practice.")
    assert "/new/teams" in page.url
    assert [p for p in watched.problems if "400" not in p] == []
    watched.problems.clear()  # the refused save is logged by the browser; expected here
    watched.check("teams-create-refused")
