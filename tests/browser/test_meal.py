"""Meal Train in a real browser: starting a train through its form, the coordinator page with
the private drop-off, cooks claiming days (with their own calendar entry) and jobs, handing a
day back, and the coordinator adding days and a job, removing a job, editing the details,
removing a cook and downloading the CSV. Every page is screenshotted and must load without
console errors or CSP violations."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from boards import claim as claim_spot
from boards import spot_form
from browsing import Watched
from browsing import code_of
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}
DROPOFF = "7 Banksia Street, esky by the door"
ALLERGIES = "No nuts or shellfish"


def owned(page: Page, slot_id: str, name: str) -> Any:
    return page.locator(f"[data-secret-key$=':{slot_id}']", has_text=name)


def claim(page: Page, slot_id: str, name: str, dish: str | None = None) -> None:
    claim_spot(page, slot_id, name=name, **({"dish": dish} if dish is not None else {}))


def board(api: httpx.Client, slug: str) -> dict[str, Any]:
    return dict(api.get(f"/api/meal/{slug}").raise_for_status().json())


def test_meal_train_from_start_to_csv(server: Any, api: httpx.Client,
                                      open_context: Callable[[], Watched],
                                      tmp_path: Path) -> None:
    watched = open_context()
    page = watched.page
    page.goto("/")
    page.get_by_role("link", name="Meal Train").click()
    page.wait_for_url("**/new/meal")
    page.fill("#forWhom", "the Okafor family")
    page.fill("#note", "Twins arrived early.\nDrop meals by 5pm.")
    page.fill("#allergies", ALLERGIES)
    page.fill("#dropoff", DROPOFF)
    page.fill("#startDate", "2026-03-02")
    page.fill("#days", "3")
    page.select_option("#capacityPerDay", "2")
    jobs = page.locator("[data-list='tasks'] [data-row]")
    jobs.first.locator("[data-key='label']").fill("Walk the dog")
    jobs.first.locator("[data-key='capacity']").fill("2")
    links = page.locator("[data-list='helpLinks'] [data-row]")
    links.first.locator("[data-key='url']").fill("https://example.com/groceries")
    watched.check("meal-create")
    page.get_by_role("button", name="Start the meal train").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")
    assert DROPOFF in page.locator("section.meal-private").inner_text()
    watched.check("meal-organiser-new")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")
    data = board(api, slug)
    assert data["title"] == "Meals for the Okafor family"
    assert [day["date"] for day in data["days"]] == ["2026-03-02", "2026-03-03", "2026-03-04"]
    assert data["capacityPerDay"] == 2
    assert [(t["taskId"], t["label"], t["capacity"]) for t in data["tasks"]] == [
        ("t0", "Walk the dog", 2)]
    assert data["helpLinks"] == [{"label": "example.com",
                                  "url": "https://example.com/groceries"}]

    # A cook on a phone: allergies are on the page, the drop-off is not.
    page.set_viewport_size(PHONE)
    page.goto(share)
    assert ALLERGIES in page.locator(".meal-allergies").inner_text()
    assert "Banksia" not in page.content()
    watched.check("meal-public-phone")
    claim(page, "d1-1", "Ann", "Lentil soup")
    assert "Lentil soup" in page.locator("li.taken").first.inner_text()
    calendar_link = owned(page, "d1-1", "Or download a one-off calendar file (.ics)")
    assert calendar_link.is_visible()
    assert owned(page, "d1-1", "Give my spot back").is_visible()
    watched.check("meal-public-phone-claimed")
    # Only the cook reads the drop-off, with the secret their browser kept.
    owned(page, "d1-1", "Show where to drop off").click()
    held = page.locator("#meal-days p.spot-held:not([hidden])")
    held.wait_for()
    assert "Banksia" in held.inner_text()
    assert owned(page, "d1-1", "Show where to drop off").is_hidden()
    watched.check("meal-public-phone-drop-off")
    with page.expect_download() as download_info:
        calendar_link.click()
    entry = tmp_path / "meal.ics"
    download_info.value.save_as(entry)
    text = entry.read_text(encoding="utf-8")
    assert "DTSTART;VALUE=DATE:20260303" in text
    assert "Meal for the Okafor family: Lentil soup" in text
    assert "Banksia" not in text

    # Another browser sees Ann's day, without her controls, and takes a dog walk.
    other = open_context()
    other.page.goto(share)
    assert "Ann" in other.page.locator("#meal-days li.taken").inner_text()
    assert owned(other.page, "d1-1", "Or download a one-off calendar file (.ics)").is_hidden()
    assert owned(other.page, "d1-1", "Give my spot back").is_hidden()
    assert owned(other.page, "d1-1", "Show where to drop off").is_hidden()
    assert "Banksia" not in other.page.content()
    claim(other.page, "t0-1", "Bo")
    assert "Bo" in other.page.locator("#meal-tasks li.taken").inner_text()
    other.check("meal-public-job-claimed")

    # Ann hands her day back.
    with page.expect_navigation():
        owned(page, "d1-1", "Give my spot back").click()
    assert spot_form(page, "d1-1").count() == 1
    watched.check("meal-public-handed-back")
    page.set_viewport_size({"width": 1024, "height": 800})

    # The coordinator adds weekly days, a job, removes the dog walks, edits the details.
    page.goto(f"/e/{edit_token}")
    page.fill("#add-startDate", "2026-03-09")
    page.fill("#add-days", "2")
    page.select_option("#add-spacing", "7")
    with page.expect_navigation():
        page.get_by_role("button", name="Add days").click()
    assert [day["date"] for day in board(api, slug)["days"]][-2:] == ["2026-03-09",
                                                                      "2026-03-16"]
    page.fill("#add-startDate", "2026-03-01")
    page.get_by_role("button", name="Add days").click()
    expect(page.locator("form[data-api$='/addDays'] [data-error]")).to_have_text(
        "Start the new days after Mon 16 Mar 2026 — that's the last day on the roster now.")
    # The browser logs the refused request itself; that, and only that, is expected here.
    assert len(watched.problems) == 1 and "409" in watched.problems[0], watched.problems
    assert "/addDays" in watched.problems[0]
    watched.problems.clear()
    watched.check("meal-organiser-add-days-refused")
    page.fill("#task-label", "School pick-up")
    with page.expect_navigation():
        page.get_by_role("button", name="Add the job").click()
    dog = page.locator("section.meal-task", has_text="Walk the dog")
    assert "Bo" in dog.inner_text()
    with page.expect_navigation():
        dog.get_by_role("button", name="Remove this job").click()
    assert [t["label"] for t in board(api, slug)["tasks"]] == ["School pick-up"]
    page.get_by_text("Change details").click()
    page.fill("#edit-forWhom", "Ada and Tunde")
    page.fill("#edit-dropoff", "Side gate, 7 Banksia Street")
    with page.expect_navigation():
        page.get_by_role("button", name="Save changes").click()
    assert page.get_by_role("heading", level=1).inner_text() == "Meals for Ada and Tunde"
    watched.check("meal-organiser-edited")

    # A cook signs up in the other browser; the coordinator sees it live, downloads the CSV
    # and removes the cook.
    other.page.reload()
    assert "Banksia" not in other.page.content()
    claim(other.page, "d4-2", "Cy", "Roast veg")
    expect(page.locator("#meal-admin-days li.taken")).to_have_count(1, timeout=5000)
    assert "Cy" in page.locator("#meal-admin-days li.taken").inner_text()
    watched.check("meal-organiser-claimed")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download the roster (CSV)").click()
    saved = tmp_path / "meal.csv"
    download_info.value.save_as(saved)
    assert saved.read_bytes().startswith(b"\xef\xbb\xbf")  # UTF-8 for spreadsheets
    rows = list(csv.reader(io.StringIO(saved.read_text(encoding="utf-8-sig"), newline="")))
    assert rows[0][:7] == ["Kind", "Day or job", "Date", "Spot", "Slot ID", "Name", "Dish"]
    assert [row[4:7] for row in rows[1:] if row[5]] == [["d4-2", "Cy", "Roast veg"]]
    assert len(rows) == 1 + 5 * 2 + 1
    with page.expect_navigation():
        page.locator("#meal-admin-days li.taken").get_by_role("button", name="Remove").click()
    assert page.locator("#meal-admin-days li.taken").count() == 0
    watched.check("meal-organiser-removed")
    expect(spot_form(other.page, "d4-2")).to_have_count(1, timeout=5000)
    other.check("meal-public-after-remove")
