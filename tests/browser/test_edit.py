"""The organiser fixes what they made, on a 390x844 phone: a wrong entry shows the create
rule's message next to its field (aria-invalid, aria-describedby, focus there, cleared on
change); then a typo is fixed and a spot added, and a guest's open share page shows both
without a reload while their claim stays put. For each sign-up board."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from browsing import Watched
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}

BOARDS = {
    # tool: (groups field, group name key, slot prefix, claim extras, detail field)
    "plate": ("categories", "name", "c", {"dish": "Pavlova"}, "eventDate",
              "Spots per category must be a whole number from 1 to 20."),
    "hens": ("categories", "name", "c", {"message": "on it"}, "when",
             "Spots per list must be a whole number from 1 to 20."),
    "roster": ("shifts", "label", "s", {"message": "ok"}, "eventDate",
               "Spots per shift must be a whole number from 1 to 30."),
}

#: The live region holding each board's spots on the share page.
REGIONS = {"plate": "plate-board", "hens": "hens-board", "roster": "roster-shifts"}


@pytest.mark.parametrize("tool", list(BOARDS))
def test_fix_a_typo_and_add_a_spot_live(tool: str, api: httpx.Client,
                                        open_context: Callable[[], Watched]) -> None:
    groups, key, prefix, extra, detail, capacity_message = BOARDS[tool]
    made = api.post(f"/api/{tool}", json={
        "title": "Street party", detail: "Satruday 6 December",
        groups: [{key: "Mains", "capacity": 2}, {key: "Sweets", "capacity": 1}]}).json()
    api.post(f"/api/{tool}/claim", json={"slug": made["slug"], "slotId": f"{prefix}1-1",
                                         "name": "Bo", **extra}).raise_for_status()

    guest = open_context()
    guest.page.set_viewport_size(PHONE)
    guest.page.goto(f"/s/{made['slug']}")
    expect(guest.page.get_by_text("Satruday 6 December")).to_be_visible()
    spots = guest.page.locator(f"#{REGIONS[tool]} li")
    before = spots.count()

    organiser = open_context()
    page = organiser.page
    page.set_viewport_size(PHONE)
    page.goto(f"/e/{made['editToken']}")
    page.get_by_text("Change details").click()
    rows = page.locator(f"form[data-api$='/edit'] [data-list='{groups}'] [data-row]")
    expect(rows).to_have_count(2)
    expect(page.locator(f"#edit-{detail}")).to_have_value("Satruday 6 December")

    # A wrong entry: the create rule's message, next to the field, focus moved there.
    rows.nth(0).locator("[data-key='capacity']").fill("0")
    page.get_by_role("button", name="Save changes").click()
    message = page.locator("[data-field-error]")
    expect(message).to_have_text(capacity_message)
    first = page.locator(f"form[data-api$='/edit'] [data-list='{groups}'] input").first
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

    # The typo fixed and a spot added; the guest sees both without reloading.
    page.fill(f"#edit-{detail}", "Saturday 6 December")
    with page.expect_navigation():
        page.get_by_role("button", name="Save changes").click()
    expect(guest.page.get_by_text("Saturday 6 December")).to_be_visible()
    expect(spots).to_have_count(before + 1)
    expect(guest.page.get_by_text("Bo", exact=True)).to_be_visible()
    assert guest.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    guest.check(f"edit-{tool}-guest-after")
    organiser.check(f"edit-{tool}-organiser-after")
    board = api.get(f"/api/{tool}/{made['slug']}").json()
    assert [group["capacity"] for group in board[groups]] == [3, 1]
    assert board[groups][1]["spots"][0]["name"] == "Bo"


def test_teams_a_new_starter_reshuffled_live(api: httpx.Client,
                                             open_context: Callable[[], Watched]) -> None:
    made = api.post("/api/teams", json={"title": "Trivia", "teams": [
        {"title": "Red", "members": ["Ann", "Bo"]}, {"title": "Blue", "members": ["Cy", "Di"]}]}
    ).json()
    guest = open_context()
    guest.page.set_viewport_size(PHONE)
    guest.page.goto(f"/s/{made['slug']}")
    expect(guest.page.get_by_text("4 people in 2 teams")).to_be_visible()

    organiser = open_context()
    page = organiser.page
    page.set_viewport_size(PHONE)
    page.goto(f"/e/{made['editToken']}")
    page.get_by_text("Change details").click()
    names = page.locator("#edit-teams-names")
    expect(names).to_have_value("Ann\nBo\nCy\nDi")
    names.fill("Ann\nBo\nCy\nDi\nEve")
    page.get_by_role("button", name="Shuffle into teams").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Save changes").click()
    expect(guest.page.get_by_text("5 people in 2 teams")).to_be_visible()
    expect(guest.page.get_by_text("Eve", exact=True)).to_be_visible()
    assert guest.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    guest.check("edit-teams-guest-after")
    organiser.check("edit-teams-organiser-after")


def test_sweeps_new_name_redraws_after_confirming(api: httpx.Client,
                                                  open_context: Callable[[], Watched]) -> None:
    made = api.post("/api/sweeps", json={"title": "Grand final", "outcomes": ["Lions", "Swans"],
                                         "names": ["Ann", "Bo"]}).json()
    guest = open_context()
    guest.page.goto(f"/s/{made['slug']}")
    organiser = open_context()
    page = organiser.page
    page.set_viewport_size(PHONE)
    page.goto(f"/e/{made['editToken']}")
    page.get_by_text("Change details").click()
    page.fill("#edit-names", "Ann\nBo\nCy")
    asked: list[str] = []
    page.on("dialog", lambda dialog: asked.append(dialog.message))  # Watched accepts it
    with page.expect_navigation():
        page.get_by_role("button", name="Save changes").click()
    assert asked == ["Changing the names or outcomes draws the sweep again — everyone may end "
                     "up with a different one. Go ahead?"]
    # The refused first try is the one console error; then the confirmed one went through.
    assert len(organiser.problems) == 1 and "status of 409" in organiser.problems[0]
    organiser.problems.clear()
    expect(guest.page.get_by_text("Cy", exact=True)).to_be_visible()
    assert sorted(pair["name"] for pair in api.get(f"/api/sweeps/{made['slug']}").json()["draw"]
                  ) in (["Ann", "Bo"], ["Ann", "Cy"], ["Bo", "Cy"])
    guest.check("edit-sweeps-guest-after")
