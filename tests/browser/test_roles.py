"""Secret Role Dealer in a real browser: setting a game up from a preset, players joining
from the share link, the organiser's hidden and revealed roles, and a player's page noticing
a re-deal, a reset, a restart and deletion without being reloaded. Every page is
screenshotted to artifacts/screenshots/ and must load without console errors or
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
REDEALT = "The organiser re-dealt the roles — this is your role now."
RESET = ("The organiser took you out of the game, so this role is gone. Join again from the "
         "game's page if you're still playing.")
RESTARTED = ("The organiser restarted the game, so this role is gone. Join again from the "
             "game's page.")
DELETED = "The organiser deleted this game."


def export(api: httpx.Client, edit: str) -> dict[str, Any]:
    data: dict[str, Any] = api.post(f"/api/roles/{edit}/export").raise_for_status().json()["data"]
    return data


def role_of(api: httpx.Client, edit: str, name: str) -> str:
    return next(str(player["role"]) for player in export(api, edit)["players"]
                if player["name"] == name)


def join(page: Page, share: str, name: str) -> str:
    """Join from the share page; returns the player's token from their page address."""
    page.goto(share)
    page.fill("#name", name)
    with page.expect_navigation():
        page.get_by_role("button", name="Deal me in").click()
    page.wait_for_url(re.compile(r"/p/[^/?]+$"))
    return code_of(page.url, "p")


def expected_failure(watched: Watched, status: int, path: str) -> None:
    """The browser logs a refused request as a console error. Where the page meant it (a
    form showing the refusal, a player page finding its link dead), take exactly that
    one out before the page is checked."""
    expected = [problem for problem in watched.problems
                if f"status of {status} ()" in problem and path in problem]
    assert len(expected) == 1, watched.problems
    watched.problems.remove(expected[0])


def mark_page(page: Page) -> None:
    """Leave a marker that a reload would wipe, to prove the page updated in place."""
    page.evaluate("window.stillHere = true")


def assert_not_reloaded(page: Page) -> None:
    assert page.evaluate("window.stillHere === true")


def test_roles_game(server: Any, api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    organiser = open_context()
    page = organiser.page
    page.goto("/new/roles")
    page.fill("#title", "Friday werewolf")
    page.fill("#note", "Eyes shut when the host says so.")
    # The preset fills the editor; the organiser trims the villagers to one.
    page.select_option("#preset", "werewolf")
    rows = page.locator("[data-list='roles'] [data-row]")
    expect(rows).to_have_count(4)
    expect(page.locator("[data-roles-total]")).to_have_text("8 roles in all, one per player")
    assert [rows.nth(i).locator("[data-key='name']").input_value() for i in range(4)] == [
        "Werewolf", "Seer", "Doctor", "Villager"]
    rows.nth(3).locator("[data-key='count']").fill("1")
    page.get_by_role("button", name="Add a role").click()
    expect(rows).to_have_count(5)
    rows.nth(4).locator("[data-key='name']").fill("Hunter")
    rows.nth(4).locator("[data-key='brief']").fill("If you're voted out,\ntake someone with you.")
    expect(page.locator("[data-roles-total]")).to_have_text("6 roles in all, one per player")
    page.get_by_label("Personal links", exact=False).uncheck()  # names are claimed here
    organiser.check("roles-create")
    page.get_by_role("button", name="Set up the game").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit = code_of(page.url, "e")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")
    organiser.check("roles-organiser-new")
    game = export(api, edit)
    assert game["title"] == "Friday werewolf" and game["preset"] == "werewolf"
    assert game["roles"] == ["Werewolf", "Werewolf", "Seer", "Doctor", "Villager", "Hunter"]
    assert game["briefs"]["Hunter"] == "If you're voted out,\ntake someone with you."
    assert set(game["briefs"]) == {"Werewolf", "Seer", "Doctor", "Villager", "Hunter"}

    # Ann joins on her phone and sees her role with its briefing directly under it.
    ann = open_context()
    ann.page.set_viewport_size(PHONE)
    ann.page.goto(share)
    ann.check("roles-public-phone")
    token = join(ann.page, share, "Ann")
    role = role_of(api, edit, "Ann")
    hand = ann.page.locator("#roles-hand")
    expect(hand.locator(".roles-role")).to_have_text(role)
    expect(hand.locator(".roles-role + .roles-brief")).to_have_text(game["briefs"][role])
    ann.check("roles-player-phone")

    # Back on the share page, her browser offers her own role again.
    ann.page.goto(share)
    mine = ann.page.locator("[data-roles-mine]")
    expect(mine).to_be_visible()
    assert mine.locator("a").get_attribute("href") == f"/p/{token}"
    # Joined already: no join form, unless someone else on this device asks for it.
    join_form = ann.page.locator("form[data-api='/api/roles/claim']")
    expect(join_form).to_be_hidden()
    another = mine.get_by_role("button", name="Someone else joining on this device?")
    another.click()
    expect(join_form).to_be_visible()
    expect(ann.page.locator("#name")).to_be_focused()
    expect(another).to_be_hidden()
    with ann.page.expect_navigation():
        mine.get_by_role("link", name="Open your role").click()
    expect(ann.page.locator(".roles-role")).to_have_text(role)

    # Bo joins through the API; Ann's name is taken for anyone else.
    api.post("/api/roles/claim", json={"slug": slug, "name": "Bo"}).raise_for_status()
    other = open_context()
    other.page.goto(share)
    other.page.fill("#name", "ann")
    other.page.get_by_role("button", name="Deal me in").click()
    expect(other.page.locator("[data-error]")).to_have_text(
        "Someone already joined with that name — add a surname initial.")
    expected_failure(other, 409, "/api/roles/claim")
    other.check("roles-public-name-taken")

    # The organiser's list (updated live) shows who joined and who looked, roles hidden.
    players = page.locator("#roles-players")
    expect(players).to_contain_text("2 of 6 roles dealt")
    expect(players.locator("li", has_text="Ann")).to_contain_text("has looked")
    expect(players.locator("li", has_text="Bo")).to_contain_text("hasn't looked yet")
    assert page.locator("#roles-players .roles-secret").count() == 0
    organiser.check("roles-organiser-joined")
    page.get_by_role("link", name="Show roles").click()
    page.wait_for_url(re.compile(r"\?reveal=1$"))
    expect(players.locator("li", has_text="Ann").locator(".roles-secret")).to_have_text(role)
    expect(players.locator("li", has_text="Bo").locator(".roles-secret")).to_have_text(
        role_of(api, edit, "Bo"))
    organiser.check("roles-organiser-revealed")
    page.get_by_role("link", name="Hide roles").click()
    expect(page.locator("#roles-players .roles-secret")).to_have_count(0)

    # A re-deal reaches Ann's open page without a reload.
    mark_page(ann.page)
    with page.expect_navigation():
        page.get_by_role("button", name="Re-deal roles").click()
    notice = ann.page.locator("[data-roles-notice]")
    expect(notice).to_have_text(REDEALT)
    expect(ann.page.locator(".roles-role")).to_have_text(role_of(api, edit, "Ann"))
    assert_not_reloaded(ann.page)
    ann.check("roles-player-redealt")

    # The organiser resets Ann: her page says so and offers the way back in.
    with page.expect_navigation():
        players.locator("li", has_text="Ann").get_by_role("button", name="Reset").click()
    expect(notice).to_have_text(RESET)
    expect(ann.page.locator("#roles-hand")).to_have_count(0)
    expect(ann.page.locator("[data-roles-rejoin]")).to_be_visible()
    assert_not_reloaded(ann.page)
    expected_failure(ann, 404, f"/p/{token}")  # the page's own re-read: its link is dead
    ann.check("roles-player-reset")
    with ann.page.expect_navigation():
        ann.page.get_by_role("link", name="Go to the game's page to join again").click()
    token = join(ann.page, share, "Ann")
    expect(ann.page.locator(".roles-role")).to_have_text(role_of(api, edit, "Ann"))

    # The organiser changes the roles in "Change details": new rows replace the old ones, so
    # the players holding them are dealt again from the new list, once the organiser confirms.
    page.reload()
    mark_page(ann.page)
    page.get_by_text("Change details").click()
    editor = page.locator("section.edit-details form")
    editor_rows = editor.locator("[data-list='roles'] [data-row]")
    old = editor_rows.count()
    for _ in range(2):
        editor.get_by_role("button", name="Add a role").click()
    editor_rows.nth(old).locator("[data-key='name']").fill("Spy")
    editor_rows.nth(old).locator("[data-key='count']").fill("1")
    editor_rows.nth(old).locator("[data-key='brief']").fill("Blend in.")
    editor_rows.nth(old + 1).locator("[data-key='name']").fill("Local")
    editor_rows.nth(old + 1).locator("[data-key='count']").fill("2")
    for _ in range(old):
        editor_rows.first.get_by_role("button", name="Remove this role").click()
    organiser.check("roles-organiser-editing")
    editor.get_by_role("button", name="Save changes").click()  # and yes to its question
    expect(notice).to_have_text(REDEALT)
    expected_failure(organiser, 409, f"/api/roles/{edit}/edit")
    assert export(api, edit)["roles"] == ["Spy", "Local", "Local"]
    ann_role = role_of(api, edit, "Ann")
    expect(ann.page.locator(".roles-role")).to_have_text(ann_role)
    expect(ann.page.locator(".roles-brief")).to_have_count(1 if ann_role == "Spy" else 0)
    assert_not_reloaded(ann.page)

    # A too-short list is refused at the roles, in the editor's words; the title changes.
    page.reload()
    page.get_by_text("Change details").click()
    for _ in range(editor_rows.count() - 1):
        editor_rows.last.get_by_role("button", name="Remove this role").click()
    editor_rows.nth(0).locator("[data-key='count']").fill("1")
    editor.get_by_role("button", name="Save changes").click()
    expect(editor).to_contain_text(
        "Add at least two roles: a name on each row, and how many players get it.")
    expected_failure(organiser, 400, f"/api/roles/{edit}/edit")
    organiser.check("roles-organiser-refused")
    page.reload()
    page.get_by_text("Change details").click()
    page.fill("#edit-title", "Saturday werewolf")
    editor.get_by_role("button", name="Save changes").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Saturday werewolf")

    # Restart: every link dies, and Ann's page says the game restarted.
    with page.expect_navigation():
        page.get_by_role("button", name="Restart the game").click()
    expect(notice).to_have_text(RESTARTED)
    assert_not_reloaded(ann.page)
    expected_failure(ann, 404, f"/p/{token}")
    ann.check("roles-player-restarted")
    expect(page.locator("#roles-players")).to_contain_text("Nobody has joined yet")
    organiser.check("roles-organiser-restarted")

    # Delete: a player's open page says the game is gone.
    join(ann.page, share, "Ann")
    mark_page(ann.page)
    page.get_by_role("button", name="Delete permanently").click()
    page.wait_for_url(re.compile(r"/$"))
    expect(notice).to_have_text(DELETED)
    expect(ann.page.locator("#roles-hand")).to_have_count(0)
    assert_not_reloaded(ann.page)
    ann.check("roles-player-deleted")
    assert api.get(f"/api/roles/{slug}").status_code == 404


def test_a_player_page_reached_by_a_personal_link_follows_a_reset(
        server: Any, api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    """A game with personal links: Bo's link opens his role on a phone; when the organiser
    resets him, his open page says to ask the organiser for a fresh link (nobody joins from
    the share page here), and the fresh link opens the same role."""
    made = api.post("/api/roles", json={"roles": ["Wolf", "Seer", "Villager"],
                                        "personalLinks": True,
                                        "names": ["Ann", "Bo"]}).raise_for_status().json()
    edit = made["editToken"]
    links = {entry["name"]: entry["link"] for entry in export(api, edit)["links"]}
    bo = open_context()
    bo.page.set_viewport_size(PHONE)
    bo.page.goto(links["Bo"])
    expect(bo.page.locator(".roles-role")).to_have_text(role_of(api, edit, "Bo"))
    api.post(f"/api/roles/{edit}/reset", json={"name": "Bo"}).raise_for_status()
    expect(bo.page.locator("[data-roles-notice]")).to_have_text(
        "The organiser reset your link, so this one is gone. Ask the organiser for your "
        "fresh link.")
    expect(bo.page.locator("[data-roles-rejoin]")).to_be_hidden()
    expected_failure(bo, 404, links["Bo"])  # the page's own re-read: its link is dead
    bo.check("roles-personal-link-reset")
    fresh = {entry["name"]: entry["link"] for entry in export(api, edit)["links"]}["Bo"]
    bo.page.goto(fresh)
    expect(bo.page.locator(".roles-role")).to_have_text(role_of(api, edit, "Bo"))
