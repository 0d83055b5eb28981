"""What the sign-up boards' browser tests share (groupkit/_spots.html): a spot's row, its claim
form opened in place, and claiming through it.

    from boards import claim, spot_form
    claim(page, "c0-1", name="Ann", dish="Pie")     # opens the spot, fills, submits, waits
"""

from __future__ import annotations

from playwright.sync_api import Locator
from playwright.sync_api import Page


def spot_row(page: Page, slot_id: str) -> Locator:
    return page.locator(f"li[data-slot='{slot_id}']")


def spot_form(page: Page, slot_id: str) -> Locator:
    """The claim form of an open spot (present, though folded away, until it is opened)."""
    return page.locator(f"form:has(input[name='slotId'][value='{slot_id}'])")


def open_spot(page: Page, slot_id: str) -> Locator:
    """Opens the spot's claim form in place (its row's one button) and returns the form."""
    details = page.locator(f"details:has(input[name='slotId'][value='{slot_id}'])")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    return spot_form(page, slot_id)


def claim(page: Page, slot_id: str, **fields: str) -> None:
    """Claims an open spot through its form and waits for the page to come back."""
    form = open_spot(page, slot_id)
    for name, value in fields.items():
        form.locator(f"input[name='{name}']").fill(value)
    with page.expect_navigation():
        form.locator("button[type='submit']").click()
