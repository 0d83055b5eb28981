"""Volunteer Roster: create, views, claiming, handing back and removing spots, the
coordinator's CSV and each shift's calendar entry."""

from __future__ import annotations

import datetime as dt
from typing import Any

from groupkit import N_
from groupkit import ApiError
from groupkit import Call
from groupkit import Edit
from groupkit import Instance
from groupkit import Line
from groupkit import Operations
from groupkit import Reply
from groupkit import checked_in_order
from groupkit import format_date
from groupkit import gettext
from groupkit import language
from groupkit import written_time
from groupkit.integrations import CalendarEvent
from groupkit.integrations import calendar_reply
from groupkit.signups import SignUp
from groupkit.signups import board_edit
from groupkit.signups import board_views
from groupkit.signups import claim_details
from groupkit.signups import csv_reply
from groupkit.signups import group_spots
from groupkit.signups import signup_operations
from groupkit.signups import spot_board
from groupkit.signups import spots_schema
from groupkit.signups import stored_groups

from .schema import MESSAGE_LIMIT
from .schema import SHIFT_HELD
from .schema import SHIFT_SHRUNK
from .schema import EditRoster

ops = Operations()

#: The heading of a roster with no title: a page says it in its reader's language (the API
#: speaks English).
DEFAULT_HEADING = N_("Volunteer roster")
PICK_A_SHIFT = N_("Pick a shift and put your name down")

BAD_SLOT = N_("That shift spot doesn't exist on this roster.")
NO_NAME = N_("Add your name so the coordinator knows who's on.")
TAKEN = N_("Someone just grabbed that shift — pick another.")
NOT_HELD = N_("That shift spot isn't held with that secret — it may already be free.")
NO_SHIFT = N_("That shift isn't on this roster.")
NO_TIME = N_("That shift has no date and time a calendar can use.")

SLOT_IDS = ("`s<shift position>-<n>`: the shift's position in the list from 0 (as Bring a "
            "Plate's category index), n from 1 to the shift's capacity; `s0-1` is the first "
            "spot of the first shift. An edit never changes a spot's id: a moved shift keeps "
            "its number, and a new shift takes a fresh one")


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"eventDate": data["eventDate"], "note": data["note"],
                     "shifts": stored_groups(data["shifts"], "label")}


def _when(instance: Instance, label: str) -> tuple[dt.datetime, dt.datetime] | None:
    """A shift's start and end when the event date and its label read as a time; a date
    without a year means its next occurrence from the day the roster was made."""
    return written_time(instance.data["eventDate"], label, instance.created.date())


WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _time_label(start: dt.datetime, end: dt.datetime) -> str:
    """`Sat 14 Mar 2026, 07:00–09:00` in English (the API's, whatever the server's locale);
    a page in another language writes the day its reader's way."""
    hours = f"{start:%H:%M}–{end:%H:%M}"
    if language() != "en":
        return f"{format_date(start.date(), 'full')}, {hours}"
    day = f"{WEEKDAYS[start.weekday()]} {start.day} {MONTHS[start.month - 1]} {start.year}"
    return f"{day}, {hours}"


def _roster(instance: Instance, organiser: bool) -> dict[str, Any]:
    data = instance.data

    # The volunteer's message is for the coordinator only.
    message = claim_details("message") if organiser else claim_details()
    shifts = []
    for index, shift in enumerate(spot_board(instance, data["shifts"], "s", extra=message,
                                             organiser=organiser)):
        when = _when(instance, shift["label"])
        shifts.append({
            "shiftId": f"s{index}", "label": shift["label"], "capacity": shift["capacity"],
            "taken": shift["taken"],
            "start": when[0].isoformat() if when else None,
            "end": when[1].isoformat() if when else None,
            "time": _time_label(*when) if when else None,
            "calendar": f"/api/roster/{instance.slug}/ics/s{index}" if when else None,
            "spots": shift["spots"]})
    return {"title": instance.title, "heading": instance.title or gettext(DEFAULT_HEADING),
            "eventDate": data["eventDate"], "note": data["note"], "shifts": shifts}


#: The public view: the roster as volunteers see it: who is on which shift, never their
#: messages. The organiser's: the public roster plus each volunteer's message and when they
#: signed up.
public_view, organiser_view = board_views(_roster)


def preview(instance: Instance) -> dict[str, Any]:
    event_date = instance.data["eventDate"]
    description = gettext(PICK_A_SHIFT)
    return {"title": instance.title or gettext(DEFAULT_HEADING),
            "description": f"{description} — {event_date}." if event_date else f"{description}."}


def roster_schema(organiser: bool = False) -> dict[str, Any]:
    return {"type": "object", "properties": {
        "title": {"type": "string"},
        "heading": {"type": "string", "description": f"title, or `{DEFAULT_HEADING}`"},
        "eventDate": {"type": "string"},
        "note": {"type": "string"},
        "shifts": spots_schema(
            "s", {"message": "the volunteer's note to the coordinator"} if organiser else {},
            organiser, "label", 30, more={
                "shiftId": {"type": "string", "pattern": "^s[0-9]+$",
                            "description": "`s<shift position>`, position from 0"},
                "start": {"type": ["string", "null"], "description":
                          "local wall-clock start (ISO 8601, no zone) when the event date "
                          "and the label read as a time, else null"},
                "end": {"type": ["string", "null"]},
                "time": {"type": ["string", "null"], "description":
                         "start and end for people: `Sat 14 Mar 2026, 07:00–09:00`"},
                "calendar": {"type": ["string", "null"],
                             "description": "path of the shift's .ics entry, or null"}})}}


BOARD = SignUp(
    spots=group_spots("shifts", "s"), bad_slot=BAD_SLOT, no_name=NO_NAME, taken=TAKEN,
    not_held=NOT_HELD, fields={"message": Line(MESSAGE_LIMIT)}, slot_doc=SLOT_IDS,
    secret_use="hand this spot back yourself",
    docs={"claim": f"Body `{{slug, slotId, name, message?}}`. Slot ids: {SLOT_IDS}. "
                   f"`message` is C({MESSAGE_LIMIT}) and seen by the coordinator only: it is "
                   "in no public page or response, only on the organiser page, the export "
                   "and the CSV.",
          "release": "Body `{slug, slotId, secret}`: hands the spot back.",
          "remove": "Body `{slotId}` (as every sign-up tool): clears that spot's claim."})
signup_operations(ops, BOARD)


def _plain_time(iso: str | None, length: int = 16) -> str:
    """`2026-03-14 07:00` from an ISO time: what a spreadsheet reads as a date and time."""
    return iso[:length].replace("T", " ") if iso else ""


CSV_HEADER = ("Shift", "Shift start", "Spot", "Slot ID", "Name", "Message", "Claimed at (UTC)")


@ops.organiser("admin", method="GET", content_type="text/csv", description=(
    "The roster as CSV for the coordinator: a header row "
    f"({', '.join(CSV_HEADER)}), then one row per spot in roster order, free spots with empty "
    "name, message and time. Cells that a spreadsheet would run as a formula are prefixed "
    "with `'`. Served `Cache-Control: no-store` and `X-Robots-Tag: noindex, nofollow`."))
def admin(call: Call) -> Reply:
    """Download the roster as CSV."""
    view = organiser_view(call.instance)
    rows = [(shift["label"], _plain_time(shift["start"]), n, spot["slotId"], spot["name"],
             spot["message"], _plain_time(spot["claimedAt"], 19))
            for shift in view["shifts"] for n, spot in enumerate(shift["spots"], start=1)]
    return csv_reply(CSV_HEADER, rows, f"roster-{call.instance.slug}.csv")


@ops.read("ics/{shiftId}", content_type="text/calendar", errors={
    404: checked_in_order("unknown slug", ("shift not on the roster", NO_SHIFT),
                          ("the event date or the label does not read as a time", NO_TIME))})
def shift_calendar(call: Call) -> Reply:
    """Download one shift's calendar entry.

    One shift as an iCalendar (.ics) event, offered only when the roster's event date names a day
    (2026-03-14, 14/3/2026, 14 March 2026, Saturday 14 March: a date without a year is its next
    occurrence from the day the roster was made, and a weekday must agree) and the shift's label a
    time (8am, 8:30, 7-9am, 10am–2pm, 11-1pm, noon to 2). Times carry no zone: the event uses
    floating local times. Without an end time the shift lasts an hour. `shiftId` is `s<shift
    position>`, position from 0.
    """
    instance = call.instance
    shift_id = call.params["shiftId"]
    shifts = instance.data["shifts"]
    positions = {f"s{index}": index for index in range(len(shifts))}
    if shift_id not in positions:
        raise ApiError(404, NO_SHIFT)
    event = shift_event(instance, positions[shift_id], call.base_url)
    if event is None:
        raise ApiError(404, NO_TIME)
    return calendar_reply([event], f"roster-{shift_id}.ics", call.now)


def shift_event(instance: Instance, position: int, base_url: str) -> CalendarEvent | None:
    """A shift's calendar event, when its date and label read as a time (the .ics download
    and the volunteer's subscription feed)."""
    shift = instance.data["shifts"][position]
    when = _when(instance, shift["label"])
    if when is None:
        return None
    heading = instance.title or DEFAULT_HEADING
    page = f"{base_url}/s/{instance.slug}" if base_url else ""  # a feed without base_url
    details = [instance.data["eventDate"], instance.data["note"], page]
    return CalendarEvent(
        uid=f"roster-{instance.slug}-s{position}@groupkit",
        summary=f"{shift['label']} — {heading}", start=when[0], end=when[1],
        description="\n\n".join(part for part in details if part), url=page)


EDIT = Edit(fields=("title", "eventDate", "note", "shifts"),
            apply=board_edit("shifts", "s", removed=SHIFT_HELD, shrunk=SHIFT_SHRUNK,
                             name_key="label"),
            schema=EditRoster, errors={
                409: "Would take away someone's shift: a shift someone is on was left out "
                     f"(`{SHIFT_HELD}`), or cut below its volunteers (`{SHIFT_SHRUNK}`); "
                     "`field` is `shifts`, and `confirm: true`. Once the organiser sends it "
                     "again with `\"confirm\": true`, those volunteers come off as with "
                     "`remove`: everyone on a shift left out, whoever signed up last on a "
                     "shift cut."},
            description="Volunteers stay with their shift, and so do its slot ids (a "
                        "volunteer's browser knows its spot by id), wherever the shift moves; "
                        "its calendar link `s<position>` follows its position.")
