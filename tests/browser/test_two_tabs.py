"""Nobody's work is lost with two organiser tabs open, for every tool with an edit, on a
390x844 phone (groupkit/core/_edits.py). While one tab saves a fix:

- a tab without JavaScript, opened before, saves its stale form untouched: the fix stays
  (its form posts every field; the kernel keeps only what was typed);
- a tab with JavaScript and the form open follows: the field shows the fix, and says so;
- a tab with JavaScript that had typed into the same field is asked, at the field, whether
  to take theirs or keep its own, and keeping its own saves it;
- a tab without JavaScript that typed into the same field gets the conflict at the field,
  with both values, and "Use mine" saves it; one with JavaScript whose page never heard of
  the fix gets the 409 at the field, and "Keep theirs" keeps the fix."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from browsing import Watched
from edit_fixes import FIXES
from edit_fixes import PHONE
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]


def open_form(page: Page, token: str) -> None:
    page.goto(f"/e/{token}")
    page.get_by_text("Change details").click()


def field_of(page: Page, name: str) -> Any:
    return page.locator(f"#edit-{name}")


def save(page: Page) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name="Save changes").click()


def deaf(watched: Watched) -> Watched:
    """A page whose live stream never connects: it cannot hear of another tab's save."""
    watched.page.route("**/events*", lambda route: route.fulfill(
        status=204, headers={"Cache-Control": "no-store"}))
    return watched


@pytest.mark.parametrize("tool", sorted(FIXES))
def test_two_tabs_never_undo_each_other(tool: str, api: httpx.Client,
                                        open_context: Callable[..., Watched]) -> None:
    fix = FIXES[tool]
    made = api.post(f"/api/{tool}", json=fix.create).json()
    token = made["editToken"]
    stale = open_context(viewport=PHONE, java_script=False)
    following = open_context(viewport=PHONE)
    typing = open_context(viewport=PHONE)
    for tab in (stale, following, typing):
        open_form(tab.page, token)
    typed = field_of(typing.page, fix.field).input_value()
    mine = typed.replace(fix.typo, fix.fixed + " (mine)")
    field_of(typing.page, fix.field).fill(mine)

    saver = open_context(viewport=PHONE)
    open_form(saver.page, token)
    fixed = typed.replace(fix.typo, fix.fixed)
    field_of(saver.page, fix.field).fill(fixed)
    save(saver.page)

    # The open form with the script follows, and says so.
    expect(field_of(following.page, fix.field)).to_have_value(fixed)
    expect(following.page.get_by_text("Someone else saved changes")).to_be_visible()
    following.check(f"two-tabs-{tool}-followed")

    # The stale form without the script, saved untouched, reverts nothing.
    save(stale.page)
    expect(stale.page.get_by_text("Saved.")).to_be_visible()
    expect(field_of(stale.page, fix.field)).to_have_value(fixed)

    # The tab that typed into the same field is asked; keeping its own saves it.
    box = typing.page.locator(f"[data-conflict='{fix.field}']")
    expect(box).to_contain_text("Someone else just saved this field")
    typing.check(f"two-tabs-{tool}-asked")
    box.get_by_role("button", name="Keep mine").click()
    expect(field_of(typing.page, fix.field)).to_have_value(mine)
    save(typing.page)
    expect(field_of(typing.page, fix.field)).to_have_value(mine)


@pytest.mark.parametrize("tool", ["card", "plate", "poll"])
def test_a_conflict_is_shown_at_the_field_with_and_without_the_script(
        tool: str, api: httpx.Client, open_context: Callable[..., Watched]) -> None:
    fix = FIXES[tool]
    token = api.post(f"/api/{tool}", json=fix.create).json()["editToken"]
    plain = open_context(viewport=PHONE, java_script=False)
    scripted = deaf(open_context(viewport=PHONE))
    for tab in (plain, scripted):
        open_form(tab.page, token)
    typed = field_of(plain.page, fix.field).input_value()
    fixed = typed.replace(fix.typo, fix.fixed)
    api.post(f"/api/{tool}/{token}/edit", json={fix.field: fixed}).raise_for_status()

    field_of(plain.page, fix.field).fill(typed.replace(fix.typo, "Plain"))
    save(plain.page)
    box = plain.page.locator(f"[data-conflict='{fix.field}']")
    expect(box).to_contain_text(f"Changed by someone else to “{fixed}”")
    expect(field_of(plain.page, fix.field)).to_have_value(typed.replace(fix.typo, "Plain"))
    plain.check(f"two-tabs-{tool}-conflict-nojs")
    with plain.page.expect_navigation():
        box.get_by_role("button", name="Use mine").click()
    expect(field_of(plain.page, fix.field)).to_have_value(typed.replace(fix.typo, "Plain"))

    field_of(scripted.page, fix.field).fill(typed.replace(fix.typo, "Scripted"))
    scripted.page.get_by_role("button", name="Save changes").click()
    box = scripted.page.locator(f"[data-conflict='{fix.field}']")
    expect(box).to_contain_text("Changed by someone else to “")
    # The refused request is the one console error the browser itself reports.
    assert len(scripted.problems) == 1 and "status of 409" in scripted.problems[0]
    scripted.problems.clear()
    scripted.check(f"two-tabs-{tool}-conflict-js")
    with scripted.page.expect_navigation():
        box.get_by_role("button", name="Keep theirs").click()
    expect(field_of(scripted.page, fix.field)).to_have_value(typed.replace(fix.typo, "Plain"))


@pytest.mark.parametrize("tool", sorted(name for name, fix in FIXES.items() if fix.add))
def test_one_tab_adds_while_another_fixes_and_both_stay(
        tool: str, api: httpx.Client, open_context: Callable[..., Watched]) -> None:
    """Edits of different fields from two tabs merge without a word: the tab that added a
    spot, option or name while the other fixed a typo keeps both."""
    fix = FIXES[tool]
    assert fix.add is not None
    made = api.post(f"/api/{tool}", json=fix.create).json()
    token = made["editToken"]
    if fix.take:  # someone took part first, as `fix.added` counts them
        operation, body, _ = fix.take
        api.post(f"/api/{tool}/{operation}", json={"slug": made["slug"], **body}
                 ).raise_for_status()
    adding = open_context(viewport=PHONE)
    open_form(adding.page, token)
    fix.add(adding.page)

    fixing = open_context(viewport=PHONE)
    open_form(fixing.page, token)
    typed = field_of(fixing.page, fix.field).input_value()
    fixed = typed.replace(fix.typo, fix.fixed)
    field_of(fixing.page, fix.field).fill(fixed)
    save(fixing.page)

    expect(field_of(adding.page, fix.field)).to_have_value(fixed)  # followed, untouched
    save(adding.page)
    if fix.asks:  # the refused first try is the one console error; the confirmed one saved
        assert len(adding.problems) == 1 and "status of 409" in adding.problems[0]
        adding.problems.clear()
    expect(adding.page.get_by_text("Someone else")).to_have_count(0)
    guest = open_context(viewport=PHONE)
    guest.page.goto(f"/s/{made['slug']}")
    expect(guest.page.get_by_text(fix.fixed).filter(visible=True).first).to_be_visible()
    for text in fix.added:
        expect(guest.page.get_by_text(text).filter(visible=True).first).to_be_visible()
    adding.check(f"two-tabs-{tool}-merged")
