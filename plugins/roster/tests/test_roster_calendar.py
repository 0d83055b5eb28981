"""Calendar entries: reading a day and a time out of free text, and the .ics of a shift."""

from __future__ import annotations

import datetime as dt
from typing import Any

import icalendar
import pytest

from groupkit import Instance
from groupkit import read_day
from groupkit import read_hours
from groupkit import written_time as shift_time
from groupkit_testing import create

NOT_FOUND = {"error": "Nothing here — check the link you were given."}
NO_SHIFT = "That shift isn't on this roster."
NO_TIME = "That shift has no date and time a calendar can use."
TODAY = dt.date(2026, 2, 10)  # a Tuesday


def hhmm(minutes: int) -> str:
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    return f"{'+' if days else ''}{hours:02d}:{mins:02d}"


@pytest.mark.parametrize("label,expected", [
    ("Setup 7-9am", ("07:00", "09:00")),
    ("8am-10am", ("08:00", "10:00")),
    ("8am – 10am", ("08:00", "10:00")),
    ("Gates 8am—10am", ("08:00", "10:00")),
    ("8 to 10am", ("08:00", "10:00")),
    ("8am until 10am", ("08:00", "10:00")),
    ("11-1pm", ("11:00", "13:00")),
    ("3-5pm", ("15:00", "17:00")),
    ("1:30-3pm", ("13:30", "15:00")),
    ("8.30am-10.30am", ("08:30", "10:30")),
    ("8:30 a.m. to 10 a.m.", ("08:30", "10:00")),
    ("08:00-12:00", ("08:00", "12:00")),
    ("8:00-2:00", ("08:00", "14:00")),
    ("9:00-17", ("09:00", "17:00")),
    ("20:00-2:00", ("20:00", "+02:00")),
    ("Night 10pm-2am", ("22:00", "+02:00")),
    ("Midday to 2", ("12:00", "14:00")),
    ("9am - 12 noon", ("09:00", "12:00")),
    ("noon-midnight", ("12:00", "+00:00")),
    ("12am-2am", ("00:00", "02:00")),
    ("8am-10", ("08:00", "10:00")),
    ("Shift 2: 8am-10am", ("08:00", "10:00")),
    ("Table 3-4 from 8am", ("08:00", "09:00")),
    ("BBQ 5pm till late", ("17:00", "18:00")),
    ("2PM", ("14:00", "15:00")),
    ("14:00", ("14:00", "15:00")),
    ("12pm", ("12:00", "13:00")),
    ("3pm 4pm", ("15:00", "16:00")),
])
def test_times_read_from_labels(label: str, expected: tuple[str, str]) -> None:
    hours = read_hours(label)
    assert hours is not None
    assert (hhmm(hours[0]), hhmm(hours[1])) == expected


@pytest.mark.parametrize("label", [
    "Sausage sizzle", "Table 3-4", "8.30-10.30", "Aisle 2.5", "13pm", "0am", "25:00",
    "7:60am", "8 amazing", "Shift 2", "Room 101", "2026", "", "1/2 day", "8:0am"])
def test_labels_without_a_time(label: str) -> None:
    assert read_hours(label) is None


@pytest.mark.parametrize("text,expected", [
    ("Saturday 14 March 2026", dt.date(2026, 3, 14)),
    ("2026-03-14", dt.date(2026, 3, 14)),
    ("2026-3-5", dt.date(2026, 3, 5)),
    ("14/3/2026", dt.date(2026, 3, 14)),
    ("14/03/26", dt.date(2026, 3, 14)),
    ("14.03.2026", dt.date(2026, 3, 14)),
    ("March 14, 2026", dt.date(2026, 3, 14)),
    ("Sat, Mar 14th 2026", dt.date(2026, 3, 14)),
    ("14th of March", dt.date(2026, 3, 14)),
    ("Sat 14 March", dt.date(2026, 3, 14)),
    ("Sat 14 Mar 2026, 8am", dt.date(2026, 3, 14)),
    ("1 Jan", dt.date(2027, 1, 1)),
    ("10 February", dt.date(2026, 2, 10)),
    ("9 Feb", dt.date(2027, 2, 9)),
    ("Tuesday 9 Feb", dt.date(2027, 2, 9)),
    ("Long weekend: 2025-01-01", dt.date(2025, 1, 1)),
])
def test_days_read_from_event_dates(text: str, expected: dt.date) -> None:
    assert read_day(text, TODAY) == expected


@pytest.mark.parametrize("text", [
    "TBC", "", "Sun 14 March 2026", "31/2/2026", "2026-02-30", "Saturday", "March 2026",
    "29 Feb", "Sat 7 Feb", "Next week", "14/13/2026", "Friday 12 December, 12:30"])
def test_event_dates_without_a_day(text: str) -> None:
    assert read_day(text, TODAY) is None


def test_shift_time_needs_both() -> None:
    assert shift_time("Saturday 14 March 2026", "Setup 7-9am", TODAY) == (
        dt.datetime(2026, 3, 14, 7), dt.datetime(2026, 3, 14, 9))
    assert shift_time("Saturday 14 March 2026", "Night 10pm-2am", TODAY) == (
        dt.datetime(2026, 3, 14, 22), dt.datetime(2026, 3, 15, 2))
    assert shift_time("TBC", "Setup 7-9am", TODAY) is None
    assert shift_time("Saturday 14 March 2026", "Setup", TODAY) is None


# --- the endpoint -------------------------------------------------------------------------

def event_of(body: bytes) -> Any:
    calendar = icalendar.Calendar.from_ical(body)
    events = list(calendar.walk("VEVENT"))
    assert len(events) == 1
    return events[0]


async def test_shift_calendar_entry(client: Any, roster: dict[str, str]) -> None:
    response = await client.get(f"/api/roster/{roster['slug']}/ics/s0")
    assert response.status_code == 200
    assert response.content_type == "text/calendar; charset=utf-8"
    assert response.headers["Content-Disposition"].startswith(
        'attachment; filename="roster-s0.ics";')
    body = await response.get_data()
    event = event_of(body)
    assert str(event["summary"]) == "Setup 7-9am — Working bee"
    start, end = event.decoded("dtstart"), event.decoded("dtend")
    assert (start, end) == (dt.datetime(2026, 3, 14, 7), dt.datetime(2026, 3, 14, 9))
    assert start.tzinfo is None  # floating: the event's own wall-clock time
    assert b"DTSTART:20260314T070000\r\n" in body
    assert f"/s/{roster['slug']}" in str(event["url"])
    assert "Gloves provided." in str(event["description"])
    assert str(event["uid"]) == f"roster-{roster['slug']}-s0@groupkit"


async def test_view_offers_calendars_only_where_a_time_reads(client: Any,
                                                             roster: dict[str, str]) -> None:
    view = await (await client.get(f"/api/roster/{roster['slug']}")).get_json()
    setup, pack = view["shifts"]
    assert setup["calendar"] == f"/api/roster/{roster['slug']}/ics/s0"
    assert (setup["start"], setup["end"]) == ("2026-03-14T07:00:00", "2026-03-14T09:00:00")
    assert setup["time"] == "Sat 14 Mar 2026, 07:00–09:00"
    assert (pack["calendar"], pack["start"], pack["end"], pack["time"]) == (
        None, None, None, None)
    response = await client.get(f"/api/roster/{roster['slug']}/ics/s1")
    assert response.status_code == 404
    assert await response.get_json() == {"error": NO_TIME}


async def test_no_event_date_no_calendar(client: Any) -> None:
    made = await create(client, "roster", {"shifts": [{"label": "Setup 7-9am", "capacity": 1}]})
    view = await (await client.get(f"/api/roster/{made['slug']}")).get_json()
    assert view["shifts"][0]["calendar"] is None
    assert await (await client.get(f"/api/roster/{made['slug']}/ics/s0")).get_json() == {
        "error": NO_TIME}


async def test_a_date_without_a_year_follows_the_day_the_roster_was_made(client: Any) -> None:
    made = await create(client, "roster", {"eventDate": "1 January",
                                           "shifts": [{"label": "Fireworks 9pm", "capacity": 1}]})
    created = Instance.get(Instance.slug == made["slug"]).created.date()
    year = created.year if created == dt.date(created.year, 1, 1) else created.year + 1
    event = event_of(await (await client.get(f"/api/roster/{made['slug']}/ics/s0")).get_data())
    assert event.decoded("dtstart") == dt.datetime(year, 1, 1, 21)


@pytest.mark.parametrize("shift_id", ["s2", "s-1", "S0", "s00", "0", "s0-1", "x"])
async def test_unknown_shift_is_404(client: Any, roster: dict[str, str], shift_id: str) -> None:
    response = await client.get(f"/api/roster/{roster['slug']}/ics/{shift_id}")
    assert response.status_code == 404
    assert await response.get_json() == {"error": NO_SHIFT}


async def test_unknown_slug_is_404(client: Any, roster: dict[str, str]) -> None:
    response = await client.get(f"/api/roster/{roster['slug']}x/ics/s0")
    assert await response.get_json() == NOT_FOUND
    response = await client.get(f"/api/roster/{roster['editToken']}/ics/s0")
    assert await response.get_json() == NOT_FOUND


async def test_non_ascii_titles_and_labels(client: Any) -> None:
    made = await create(client, "roster", {
        "title": "Fête du quartier 李", "eventDate": "2026-07-14",
        "shifts": [{"label": "Café 9–11am ☕", "capacity": 1}]})
    response = await client.get(f"/api/roster/{made['slug']}/ics/s0")
    assert response.status_code == 200
    event = event_of(await response.get_data())
    assert str(event["summary"]) == "Café 9–11am ☕ — Fête du quartier 李"
    assert event.decoded("dtstart") == dt.datetime(2026, 7, 14, 9)
