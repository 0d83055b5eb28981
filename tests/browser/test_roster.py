"""Volunteer Roster in a real browser: creating a roster through its form, the organiser
page, volunteers claiming spots with a note only the coordinator sees, a shift's calendar
entry, handing a spot back, the coordinator removing a volunteer and downloading the CSV.
Every page is screenshotted and must load without console errors or CSP violations."""

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
NOTE = "I can bring a trailer"


def give_back(page: Page, slot_id: str) -> Any:
    return page.locator(f"button[data-post$='/unclaim'][data-secret-key$=':{slot_id}']")


def claim(page: Page, slot_id: str, name: str, message: str = "") -> None:
    claim_spot(page, slot_id, name=name, message=message)


def roster_spot(api: httpx.Client, slug: str, slot_id: str) -> dict[str, Any]:
    roster = api.get(f"/api/roster/{slug}").raise_for_status().json()
    return next(spot for shift in roster["shifts"] for spot in shift["spots"]
                if spot["slotId"] == slot_id)


def test_roster_create_claim_calendar_remove_csv(server: Any, api: httpx.Client,
                                                 open_context: Callable[[], Watched],
                                                 tmp_path: Path) -> None:
    watched = open_context()
    page = watched.page
    page.goto("/")
    page.get_by_role("link", name="Volunteer Roster").click()
    page.wait_for_url("**/new/roster")
    page.fill("#title", "School working bee")
    page.fill("#eventDate", "Saturday 14 March 2026")
    page.fill("#note", "Gloves provided.\nWear closed shoes.")
    rows = page.locator("[data-list='shifts'] [data-row]")
    default_rows = rows.count()
    page.get_by_role("button", name="Add a shift").click()
    assert rows.count() == default_rows + 1
    rows.last.locator("[data-key='label']").fill("Barbecue")
    rows.last.locator("[data-key='capacity']").fill("2")
    watched.check("roster-create")
    page.get_by_role("button", name="Make the roster").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")
    assert page.locator("button[data-copy]").count() == 2
    watched.check("roster-organiser-new")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")
    roster = api.get(f"/api/roster/{slug}").raise_for_status().json()
    assert roster["title"] == "School working bee"
    assert [shift["label"] for shift in roster["shifts"]][-1] == "Barbecue"
    barbecue = f"s{default_rows}"

    # A volunteer claims the first setup spot with a note for the coordinator.
    page.goto(share)
    watched.check("roster-public")
    claim(page, "s0-1", "Ann", NOTE)
    taken = page.locator("li.taken")
    assert taken.count() == 1 and "Ann" in taken.inner_text()
    assert NOTE not in page.content()
    assert give_back(page, "s0-1").is_visible()
    watched.check("roster-public-claimed")
    assert roster_spot(api, slug, "s0-1") == {"slotId": "s0-1", "taken": True, "name": "Ann"}

    # The first shift ("Setup 7–9am") reads as a time: its calendar entry downloads.
    first = page.locator("section.roster-shift").first
    with page.expect_download() as download_info:
        first.get_by_role("link", name="Calendar file (.ics)").click()
    download = download_info.value
    assert download.suggested_filename == "roster-s0.ics"
    saved = tmp_path / "shift.ics"
    download.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert "DTSTART:20260314T070000" in text and "DTEND:20260314T090000" in text
    # "Barbecue" has no time: no calendar link for it.
    barbecue_card = page.locator(f"section:has(h2#shift-{default_rows})")
    assert barbecue_card.get_by_role("link", name="Calendar file (.ics)").count() == 0

    # Another browser, on a phone, sees the claim but cannot give it back, and claims a spot.
    other = open_context()
    other.page.set_viewport_size(PHONE)
    other.page.goto(share)
    assert "Ann" in other.page.locator("li.taken").inner_text()
    assert give_back(other.page, "s0-1").is_hidden()
    other.check("roster-public-phone")
    claim(other.page, f"{barbecue}-1", "Bo", "Vegetarian sausages please")
    assert give_back(other.page, f"{barbecue}-1").is_visible()
    other.check("roster-public-phone-claimed")

    # Ann gives her spot back.
    with page.expect_navigation():
        give_back(page, "s0-1").click()
    assert spot_form(page, "s0-1").count() == 1
    watched.check("roster-public-given-back")
    assert roster_spot(api, slug, "s0-1")["taken"] is False

    # The coordinator sees Bo and his note, downloads the CSV, then takes him off.
    page.goto(f"/e/{edit_token}")
    claimed = page.locator("li.taken")
    assert claimed.count() == 1
    assert "Bo" in claimed.inner_text() and "Vegetarian sausages please" in claimed.inner_text()
    watched.check("roster-organiser-claimed")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download the roster (CSV)").click()
    csv_download = download_info.value
    assert csv_download.suggested_filename == f"roster-{slug}.csv"
    saved = tmp_path / "roster.csv"
    csv_download.save_as(saved)
    assert saved.read_bytes().startswith(b"\xef\xbb\xbf")  # UTF-8 for spreadsheets
    sheet = list(csv.reader(io.StringIO(saved.read_text(encoding="utf-8-sig"), newline="")))
    assert sheet[0][:6] == ["Shift", "Shift start", "Spot", "Slot ID", "Name", "Message"]
    assert [row[4:6] for row in sheet[1:] if row[4]] == [["Bo", "Vegetarian sausages please"]]
    with page.expect_navigation():
        claimed.get_by_role("button", name="Remove").click()
    assert page.locator("li.taken").count() == 0
    watched.check("roster-organiser-removed")
    assert roster_spot(api, slug, f"{barbecue}-1")["taken"] is False

    # The volunteer's page, left open, shows the spot open again without a reload.
    expect(spot_form(other.page, f"{barbecue}-1")).to_have_count(1, timeout=5000)
    other.check("roster-public-phone-after-remove")
