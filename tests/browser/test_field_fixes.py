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


@pytest.fixture(params=SCHEMES)
def scheme(request: pytest.FixtureRequest) -> Scheme:
    """Each test runs light and dark."""
    value: Scheme = request.param
    return value


def phone(open_context: Callable[..., Watched], scheme: Scheme, path: str,
          java_script: bool = True) -> Watched:
    """A phone-sized page in this colour scheme, opened at `path`."""
    watched = open_context(viewport=PHONE, color_scheme=scheme, java_script=java_script)
    watched.page.goto(path)
    return watched


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


def test_teams_shuffle_on_the_server_without_javascript(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: Scheme) -> None:
    watched = phone(open_context, scheme, "/new/teams", java_script=False)
    page = watched.page
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


def test_teams_names_message_outlines_the_names_box(
        open_context: Callable[..., Watched], scheme: Scheme) -> None:
    watched = phone(open_context, scheme, "/new/teams")
    page = watched.page
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


def test_teams_names_message_outlines_the_names_box_without_javascript(
        open_context: Callable[..., Watched], scheme: Scheme) -> None:
    """Without the script, names typed but never shuffled: the refusal comes back at the
    names box (outlined, focused on load, the message right under it), as it does with the script,
    not at the first team's name."""
    watched = phone(open_context, scheme, "/new/teams", java_script=False)
    page = watched.page
    page.fill("#teams-names", "Ann")
    with page.expect_navigation():
        page.get_by_role("button", name="Save these teams").click()
    error = page.locator("[data-field-error]")
    expect(error).to_have_text("Add at least two names — one person is just practice.")
    names = page.locator("#teams-names")
    expect(names).to_have_attribute("aria-invalid", "true")
    expect(page.locator("[aria-invalid]")).to_have_count(1)
    expect(page.locator("[autofocus]")).to_have_attribute("id", "teams-names")
    field, message = box(page, "#teams-names"), box(page, "[data-field-error]")
    assert 0 <= message["y"] - (field["y"] + field["height"]) < 24  # right under it
    watched.check(f"fixes-teams-names-error-nojs-{scheme}")


def test_roles_preset_fills_the_editor_without_javascript(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: Scheme) -> None:
    watched = phone(open_context, scheme, "/new/roles", java_script=False)
    page = watched.page
    page.select_option("#preset", "mafia")
    page.get_by_role("button", name="Fill in the roles").click()
    page.wait_for_url("**/new/roles?preset=mafia")
    names = page.locator("[data-list='roles'] [data-key='name']")
    expect(names.first).not_to_have_value("")
    filled = [value for value in (name.input_value() for name in names.all()) if value]
    assert len(filled) >= 2
    watched.check(f"fixes-roles-nojs-preset-{scheme}")
    page.get_by_label("Personal links", exact=False).uncheck()  # players join by name
    page.get_by_role("button", name="Set up the game").click()
    slug, edit = created_links(page)
    watched.check(f"fixes-roles-nojs-created-{scheme}")
    game = api.post(f"/api/roles/{edit}/export").raise_for_status().json()["data"]
    assert game["preset"] == "mafia" and slug
    assert list(dict.fromkeys(game["roles"])) == filled


def test_roles_too_few_message_sits_at_the_focused_row(
        open_context: Callable[..., Watched], scheme: Scheme) -> None:
    watched = phone(open_context, scheme, "/new/roles")
    page = watched.page
    page.locator("[data-list='roles'] [data-key='name']").first.fill("Seer")
    page.get_by_role("button", name="Set up the game").click()
    error = page.locator("[data-field-error='roles']")
    expect(error).to_have_text(
        "Add at least two roles: a name on each row, and how many players get it.")
    focused = page.locator("[data-list='roles'] [data-key='name']").first
    expect(focused).to_be_focused()
    at, field = box(page, "[data-field-error='roles']"), box(page, "[data-list='roles']")
    assert 0 <= field["y"] - (at["y"] + at["height"]) <= 16  # just above the first row
    assert abs(at["y"] - field["y"]) < 844 / 4  # both in view at once
    refused(watched, "/api/roles")
    watched.check(f"fixes-roles-few-{scheme}")


def test_roles_too_few_message_sits_above_the_rows_without_javascript(
        open_context: Callable[..., Watched], scheme: Scheme) -> None:
    """Without the script the editor is rows of fields too: the message speaks of rows (the
    spec's "one per line" is for a list of roles sent to the API), above the rows."""
    watched = phone(open_context, scheme, "/new/roles", java_script=False)
    page = watched.page
    page.locator("[data-list='roles'] [data-key='name']").first.fill("Seer")
    page.get_by_role("button", name="Set up the game").click()
    expect(page.locator("[data-field-error='roles']")).to_have_text(
        "Add at least two roles: a name on each row, and how many players get it.")
    # The roles editor's words (the players' list for personal links is one name per line).
    editor = page.locator("[data-list='roles']").locator("xpath=..")
    assert "per line" not in editor.inner_text()
    at, field = box(page, "[data-field-error='roles']"), box(page, "[data-list='roles']")
    assert 0 <= field["y"] - (at["y"] + at["height"]) <= 16
    watched.check(f"fixes-roles-few-nojs-{scheme}")


def test_find_a_date_message_names_no_format_beside_the_picker(
        open_context: Callable[..., Watched], scheme: Scheme) -> None:
    watched = phone(open_context, scheme, "/new/finddate")
    page = watched.page
    page.fill("#title", "Team dinner")
    dates = page.locator("[data-list='slots'] [data-key='date']")
    dates.nth(0).fill("2026-12-03")
    dates.nth(1).fill("2026-12-04")
    page.locator("[data-list='slots'] [data-key='start']").nth(2).fill("18:30")
    page.get_by_role("button", name="Start finding a date").click()
    error = page.locator("[data-field-error]")
    expect(error).to_have_text("Each option needs a real date — pick one with the date picker.")
    expect(dates.nth(2)).to_be_focused()
    assert dates.nth(2).get_attribute("type") == "date"  # the browser's own picker and format
    refused(watched, "/api/finddate")
    watched.check(f"fixes-finddate-date-{scheme}")


def test_sweep_page_never_calls_a_redrawable_draw_fixed(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: Scheme) -> None:
    made = api.post("/api/sweeps", json={"title": "Cup sweep", "outcomes": ["Lions", "Swans"],
                                         "names": ["Ann", "Bo"]}).raise_for_status().json()
    watched = phone(open_context, scheme, f"/s/{made['slug']}")
    lede = watched.page.locator(".lede")
    expect(lede).to_contain_text("Only the organiser can redraw it, and this page would say so.")
    assert "fixed" not in watched.page.inner_text("main")
    watched.check(f"fixes-sweeps-public-{scheme}")
    api.post(f"/api/sweeps/{made['editToken']}/redraw").raise_for_status()
    watched.page.reload()
    expect(watched.page.locator("[data-sweeps-redrawn]")).to_contain_text(
        "The organiser redrew the sweep")
    assert "fixed" not in watched.page.inner_text("main")
    watched.check(f"fixes-sweeps-redrawn-{scheme}")


def test_secret_ballot_says_its_votes_are_counted_in_batches(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: Scheme) -> None:
    made = api.post("/api/poll", json={"question": "Lunch?", "options": ["Thai", "Pub", "Park"],
                                       "secret": True}).raise_for_status().json()
    view = api.get(f"/api/poll/{made['slug']}").raise_for_status().json()
    for option in view["tally"]:
        api.post("/api/poll/vote", json={"slug": made["slug"], "choices": [option["id"]]}
                 ).raise_for_status()
    watched = phone(open_context, scheme, f"/s/{made['slug']}")
    tally = watched.page.locator("#poll-tally")
    expect(tally.locator(".poll-total")).to_have_text("3 votes, 0 counted")
    expect(tally.locator(".poll-count")).to_have_text(["0", "0", "0"])
    note = tally.locator("[data-poll-batch]")
    expect(note).to_contain_text("votes are counted in batches of 5")
    expect(note).to_contain_text("Counted so far: 0 of 3.")
    # Said before the bars, so the zeros are read as "not counted yet".
    assert box(watched.page, "[data-poll-batch]")["y"] < box(watched.page, ".poll-results")["y"]
    watched.check(f"fixes-poll-secret-batch-{scheme}")


def test_ranked_choice_says_an_option_ranked_twice_before_sending(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: Scheme) -> None:
    made = api.post("/api/poll", json={"question": "Lunch?", "options": ["Thai", "Pub", "Park"],
                                       "ranked": True}).raise_for_status().json()
    watched = phone(open_context, scheme, f"/s/{made['slug']}")
    page = watched.page
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url)
            if request.method == "POST" else None)
    first, second = page.locator("#poll-rank-1"), page.locator("#poll-rank-2")
    first.select_option(label="Thai")
    second.select_option(label="Thai")
    error = page.locator("[data-poll-twice-error]")
    expect(error).to_have_text(
        "You ranked Thai 1st already — pick another option here, or leave it blank.")
    expect(second).to_have_attribute("aria-invalid", "true")
    at, field = box(page, "[data-poll-twice-error]"), box(page, "#poll-rank-2")
    assert 0 <= at["y"] - (field["y"] + field["height"]) < 24  # right under the 2nd place
    page.get_by_role("button", name="Vote").click()
    expect(second).to_be_focused()
    assert posts == []  # the ballot waited
    watched.check(f"fixes-poll-ranked-twice-{scheme}")
    second.select_option(label="Pub")
    expect(error).to_have_count(0)
    page.get_by_role("button", name="Vote").click()
    page.wait_for_url("**/p/*")
    tally = api.get(f"/api/poll/{made['slug']}").raise_for_status().json()["tally"]
    assert [option["count"] for option in tally] == [1, 0, 0]


def test_fact_board_says_facts_are_counted_in_batches(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: Scheme) -> None:
    made = api.post("/api/fact", json={"names": ["Ann", "Bo", "Cy", "Di"]}
                    ).raise_for_status().json()
    for name, text in (("Ann", "I kept bees"), ("Bo", "I met a queen")):
        token = api.post("/api/fact/claim", json={"slug": made["slug"], "name": name}
                         ).raise_for_status().json()["token"]
        api.post(f"/api/fact/p/{token}/save", json={"text": text}).raise_for_status()
    watched = phone(open_context, scheme, f"/s/{made['slug']}")
    count = watched.page.locator("[data-fact-count]")
    expect(count).to_contain_text("0 of 4 facts on the grid. Facts are counted in batches")
    assert "facts in." not in watched.page.inner_text("main")
    assert "No facts yet" not in watched.page.inner_text("main")
    watched.check(f"fixes-fact-batches-{scheme}")
