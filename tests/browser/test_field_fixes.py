"""Pages that work without JavaScript and messages that agree with their field, on a phone
(390x844), light and dark: Team Picker shuffles and Secret Role Dealer fills a preset on the
server, a create without the script lands on the created page, and each message sits at (and
speaks of) the field it is about."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

import httpx
import pytest
from browsing import Watched
from browsing import code_of
from playwright.sync_api import FloatRect
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}
Scheme = Literal["light", "dark"]
SCHEMES: list[Scheme] = ["light", "dark"]
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]


def phone(open_context: Callable[..., Watched], scheme: Scheme,
          java_script: bool = True) -> Watched:
    return open_context(viewport=PHONE, color_scheme=scheme, java_script=java_script)


def box(page: Page, selector: str) -> FloatRect:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def refused(watched: Watched, path: str) -> None:
    """The one 400 the page was meant to get (the browser logs it), then nothing else."""
    assert len(watched.problems) == 1 and "status of 400" in watched.problems[0] \
        and watched.problems[0].endswith(f"{path})"), watched.problems
    watched.problems.clear()


def team_rows(page: Page) -> list[list[str]]:
    rows = page.locator("[data-list='teams'] [data-row] [data-key='members']")
    return [[line for line in row.input_value().split("\n") if line] for row in rows.all()]


def created_links(page: Page) -> tuple[str, str]:
    """The created page without the script: (slug, edit token) from its two links, and no
    create form left to send again."""
    notice = page.locator("#groupkit-flash")
    expect(notice).to_contain_text("Save your organiser link")
    expect(page.locator("form[action^='/api/']")).to_have_count(0)
    edit = notice.locator("a[href^='/e/']").get_attribute("href") or ""
    share = notice.locator("a[href^='/s/']").get_attribute("href") or ""
    return code_of(share, "s"), code_of(edit, "e")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_teams_shuffle_on_the_server_without_javascript(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: Scheme) -> None:
    watched = phone(open_context, scheme, java_script=False)
    page = watched.page
    page.goto("/new/teams")
    page.fill("#title", "Futsal")
    page.fill("#teams-names", "\n".join(NAMES))
    page.fill("#teams-count", "3")
    page.get_by_role("button", name="Shuffle into teams").click()
    page.wait_for_url(re.compile(r"/new/teams\?"))
    expect(page.locator("[data-teams-status]")).to_have_text(
        "Shuffled 7 names into 3 teams. Shuffle again, or save these teams.")
    rows = team_rows(page)
    assert sorted(name for row in rows for name in row) == sorted(NAMES)
    assert sorted(len(row) for row in rows) == [2, 2, 3]
    # No button that needs the script: a team more or less is a count and a shuffle.
    expect(page.get_by_role("button", name="Remove this team")).to_have_count(0)
    expect(page.get_by_role("button", name="Add a team")).to_have_count(0)
    watched.check(f"fixes-teams-nojs-shuffled-{scheme}")
    page.fill("#title", "Futsal")  # the title is the teams form's, not the shuffle's
    page.get_by_role("button", name="Save these teams").click()
    slug, _ = created_links(page)
    watched.check(f"fixes-teams-nojs-created-{scheme}")
    saved = api.get(f"/api/teams/{slug}").raise_for_status().json()
    assert saved["title"] == "Futsal"
    assert [team["members"] for team in saved["teams"]] == rows


@pytest.mark.parametrize("scheme", SCHEMES)
def test_teams_names_message_outlines_the_names_box(
        open_context: Callable[..., Watched], scheme: Scheme) -> None:
    watched = phone(open_context, scheme)
    page = watched.page
    page.goto("/new/teams")
    page.get_by_role("button", name="Save these teams").click()
    error = page.locator("[data-field-error]")
    expect(error).to_have_text("Add at least two names — one person is just practice.")
    names = page.locator("#teams-names")
    expect(names).to_be_focused()
    expect(names).to_have_attribute("aria-invalid", "true")
    expect(page.locator("[aria-invalid]")).to_have_count(1)
    field, message = box(page, "#teams-names"), box(page, "[data-field-error]")
    assert 0 <= message["y"] - (field["y"] + field["height"]) < 24  # right under it
    refused(watched, "/api/teams")
    watched.check(f"fixes-teams-names-error-{scheme}")
