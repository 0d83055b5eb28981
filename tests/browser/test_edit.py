"""The organiser fixes what they made, on a 390x844 phone, for every tool with edit: on the
organiser page's "Change details" form they fix a typo in a text field and, where the tool
has spots, options, shifts or people, add one; a guest's share page, already open, shows both
without a reload, and what the guest did before stays. One `Fix` row per tool in FIXES:
the create body holding the typo, the field to fix it in, how to add one (`row` for a list
of rows, `line` for a one-per-line box) and what the share page shows of it.

Then, for the sign-up boards: a wrong entry shows the create rule's message next to its
field (aria-invalid, aria-describedby, focus there, cleared on change)."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from browsing import Watched
from edit_fixes import EDIT_FORM
from edit_fixes import FIXES
from edit_fixes import PHONE
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]


@pytest.mark.parametrize("tool", sorted(FIXES))
def test_fix_a_typo_and_add_one_live(tool: str, api: httpx.Client,
                                     open_context: Callable[..., Watched]) -> None:
    fix = FIXES[tool]
    made = api.post(f"/api/{tool}", json=fix.create).json()
    if fix.take:
        operation, body, _ = fix.take
        api.post(f"/api/{tool}/{operation}", json={"slug": made["slug"], **body}
                 ).raise_for_status()

    guest = open_context(viewport=PHONE)
    guest.page.goto(f"/s/{made['slug']}")
    expect(guest.page.get_by_text(fix.typo).filter(visible=True).first).to_be_visible()

    organiser = open_context(viewport=PHONE)
    page = organiser.page
    asked: list[str] = []
    page.on("dialog", lambda dialog: asked.append(dialog.message))  # Watched accepts it
    page.goto(f"/e/{made['editToken']}")
    page.get_by_text("Change details").click()
    field = page.locator(f"#edit-{fix.field}")
    typed = field.input_value()
    assert fix.typo in typed
    field.fill(typed.replace(fix.typo, fix.fixed))
    if fix.add:
        fix.add(page)
    with page.expect_navigation():
        page.get_by_role("button", name="Save changes").click()
    assert asked == ([fix.asks] if fix.asks else [])
    if fix.asks:  # the refused first try is the one console error; the confirmed one saved
        assert len(organiser.problems) == 1 and "status of 409" in organiser.problems[0]
        organiser.problems.clear()

    # The guest's page, never reloaded, shows the fix and what was added; their part stays.
    expect(guest.page.get_by_text(fix.fixed).filter(visible=True).first).to_be_visible()
    expect(guest.page.get_by_text(fix.typo)).to_have_count(0)
    for text in fix.added:
        expect(guest.page.get_by_text(text).filter(visible=True).first).to_be_visible()
    if fix.choose:
        select, option = fix.choose
        guest.page.locator(select).select_option(option)
        expect(guest.page.locator(select)).to_have_value(option)
    if fix.take:
        expect(guest.page.get_by_text(fix.take[2]).filter(visible=True).first).to_be_visible()
    assert guest.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    guest.check(f"edit-{tool}-guest-after")
    organiser.check(f"edit-{tool}-organiser-after")


BOARDS = {
    # tool: (groups field, group name key, the create rule's capacity message)
    "plate": ("categories", "name", "Spots per category must be a whole number from 1 to 20."),
    "hens": ("categories", "name", "Spots per list must be a whole number from 1 to 20."),
    "roster": ("shifts", "label", "Spots per shift must be a whole number from 1 to 30."),
}


@pytest.mark.parametrize("tool", list(BOARDS))
def test_a_wrong_entry_is_shown_at_its_field(tool: str, api: httpx.Client,
                                            open_context: Callable[..., Watched]) -> None:
    groups, key, capacity_message = BOARDS[tool]
    made = api.post(f"/api/{tool}", json={
        "title": "Street party", groups: [{key: "Mains", "capacity": 2}]}).json()
    organiser = open_context(viewport=PHONE)
    page = organiser.page
    page.goto(f"/e/{made['editToken']}")
    page.get_by_text("Change details").click()
    rows = page.locator(f"{EDIT_FORM} [data-list='{groups}'] [data-row]")
    rows.nth(0).locator("[data-key='capacity']").fill("0")
    page.get_by_role("button", name="Save changes").click()
    message = page.locator("[data-field-error]")
    expect(message).to_have_text(capacity_message)
    # The row's own input: the spots of the first row, not the list as a whole.
    first = rows.nth(0).locator("[data-key='capacity']")
    expect(first).to_have_attribute("aria-invalid", "true")
    expect(first).to_have_attribute("aria-describedby", message.get_attribute("id") or "-")
    expect(first).to_be_focused()
    # The refused request is the one console error the browser itself reports.
    assert len(organiser.problems) == 1 and "status of 400" in organiser.problems[0]
    organiser.problems.clear()
    organiser.check(f"edit-{tool}-field-error")
    rows.nth(0).locator("[data-key='capacity']").fill("3")
    expect(message).to_have_count(0)
    expect(first).not_to_have_attribute("aria-invalid", "true")
    # A row added by the script, with no form names: its error still finds its own input.
    page.locator(f"{EDIT_FORM} button[data-add-row='{groups}']").click()
    rows.nth(1).locator(f"[data-key='{key}']").fill("Drinks")
    rows.nth(1).locator("[data-key='capacity']").fill("99")
    page.get_by_role("button", name="Save changes").click()
    expect(message).to_have_text(capacity_message)
    expect(rows.nth(1).locator("[data-key='capacity']")).to_have_attribute("aria-invalid", "true")
    expect(first).not_to_have_attribute("aria-invalid", "true")
    organiser.problems.clear()
