"""Meal Train: create, views, claiming days and jobs, the coordinator's edits, the CSV and
each claimed day's calendar entry."""

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
from groupkit import bad_request
from groupkit import checked_in_order
from groupkit import conflict
from groupkit import format_date
from groupkit import gettext
from groupkit import language
from groupkit import message
from groupkit import whole_number
from groupkit.integrations import CalendarEvent
from groupkit.integrations import calendar_reply
from groupkit.signups import SignUp
from groupkit.signups import SlotClaim
from groupkit.signups import board_views
from groupkit.signups import claims_by_slot
from groupkit.signups import csv_reply
from groupkit.signups import remove_slot
from groupkit.signups import signup_operations

from .schema import BAD_DAYS
from .schema import BAD_SPACING
from .schema import BAD_START
from .schema import DISH_LIMIT
from .schema import MAX_DAYS
from .schema import MAX_TASKS
from .schema import NO_FOR_WHOM
from .schema import NO_TASK_LABEL
from .schema import SPACINGS
from .schema import TOO_MANY_DAYS
from .schema import AddDays
from .schema import AddTask
from .schema import Details
from .schema import TaskBody
from .schema import day_run
from .schema import title_for

ops = Operations()

BAD_SLOT = N_("That day isn't on this roster.")
NO_NAME = N_("Add your name so the family knows who's cooking.")
DAY_TAKEN = N_("Someone's already got that day — pick another.")
JOB_TAKEN = N_("Someone's already on that job — pick another spot.")
START_AFTER = N_("Start the new days after {last} — that's the last day on the roster now.")
TOO_MANY_TASKS = N_("Twelve jobs is the limit — remove one before adding another.")
NO_TASK = N_("That job isn't on this roster.")
NOT_COOKING = N_("Nobody has claimed that day yet, so there's nothing to put in a calendar.")
#: A link preview's title and invitation, in the reader's language (the stored title is the
#: English `Meals for <forWhom>`).
MEALS_FOR = N_("Meals for {name}")
COOK_FOR = N_("Sign up to cook a meal for {name}.")

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

SLOT_IDS = ("a day's spots are `d<day position>-<n>`: the day's position in the date-sorted "
            "roster from 0 (as Bring a Plate and Volunteer Roster count positions), n from 1 "
            "to capacityPerDay; `d0-1` is the first cook of the first day. Added days go after "
            "the last day, so positions never change. A job's spots are `<taskId>-<n>`: task "
            "ids are `t<k>`, k counting every job ever added from 0 and never reused, so a "
            "job keeps its id when others are removed")


def day_label(iso: str) -> str:
    """`Sun 1 Mar 2026` in English (the API's, whatever the server's locale); a page in
    another language writes the day its reader's way."""
    day = dt.date.fromisoformat(iso)
    if language() != "en":
        return format_date(day, "full")
    return f"{WEEKDAYS[day.weekday()]} {day.day} {MONTHS[day.month - 1]} {day.year}"


def create(instance: Instance, data: dict[str, Any]) -> None:
    tasks = [{"id": f"t{k}", "label": task["label"], "capacity": task["capacity"]}
             for k, task in enumerate(data["tasks"])]
    instance.data = {
        "forWhom": data["forWhom"], "note": data["note"], "allergies": data["allergies"],
        "dropoff": data["dropoff"], "days": [day.isoformat() for day in data["dayList"]],
        "capacityPerDay": data["capacityPerDay"], "tasks": tasks, "nextTask": len(tasks),
        "helpLinks": data["helpLinks"]}


def title_of(data: dict[str, Any]) -> str:
    return title_for(data["forWhom"])


def known_slots(instance: Instance) -> dict[str, str]:
    """Every spot: slot id -> "day" or "task"."""
    data = instance.data
    slots = {f"d{index}-{n}": "day"
             for index in range(len(data["days"]))
             for n in range(1, data["capacityPerDay"] + 1)}
    slots.update({f"{task['id']}-{n}": "task"
                  for task in data["tasks"] for n in range(1, task["capacity"] + 1)})
    return slots


def _iso(moment: dt.datetime) -> str:
    return moment.replace(tzinfo=dt.UTC).isoformat()


def _spot(instance: Instance, slot_id: str, claim: SlotClaim | None, organiser: bool,
          day: bool) -> dict[str, Any]:
    spot: dict[str, Any] = {"slotId": slot_id, "taken": claim is not None,
                            "name": claim.name if claim else None}
    if day:
        spot["dish"] = claim.extra.get("dish", "") if claim else None
        spot["calendar"] = f"/api/meal/{instance.slug}/ics/{slot_id}" if claim else None
    if organiser:
        spot["claimedAt"] = _iso(claim.created) if claim else None
    return spot


def _board(instance: Instance, organiser: bool) -> dict[str, Any]:
    data = instance.data
    claims = claims_by_slot(instance)
    days = []
    for index, iso in enumerate(data["days"]):
        spots = [_spot(instance, f"d{index}-{n}", claims.get(f"d{index}-{n}"), organiser, True)
                 for n in range(1, data["capacityPerDay"] + 1)]
        days.append({"dayId": f"d{index}", "date": iso, "label": day_label(iso),
                     "taken": sum(spot["taken"] for spot in spots), "spots": spots})
    tasks = []
    for task in data["tasks"]:
        spots = [_spot(instance, f"{task['id']}-{n}", claims.get(f"{task['id']}-{n}"),
                       organiser, False)
                 for n in range(1, task["capacity"] + 1)]
        tasks.append({"taskId": task["id"], "label": task["label"],
                      "capacity": task["capacity"],
                      "taken": sum(spot["taken"] for spot in spots), "spots": spots})
    view: dict[str, Any] = {
        "title": instance.title, "forWhom": data["forWhom"], "note": data["note"],
        "allergies": data["allergies"], "capacityPerDay": data["capacityPerDay"],
        "days": days, "tasks": tasks, "helpLinks": data["helpLinks"]}
    if organiser:  # the drop-off address is for the coordinator's eyes only
        view["dropoff"] = data["dropoff"]
    return view


#: The public view: the board as helpers see it: who cooks when and what, allergies; never the
#: drop-off. The organiser's: the public board plus the drop-off details and when each spot was
#: claimed.
public_view, organiser_view = board_views(_board)


def preview(instance: Instance) -> dict[str, Any]:
    """Link previews: the title and an invitation; no drop-off, no note."""
    name = instance.data["forWhom"]
    return {"title": gettext(MEALS_FOR).format(name=name),
            "description": gettext(COOK_FOR).format(name=name)}


def _spot_schema(day: bool, organiser: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "slotId": {"type": "string"}, "taken": {"type": "boolean"},
        "name": {"type": ["string", "null"]}}
    if day:
        properties["dish"] = {"type": ["string", "null"], "description": "public"}
        properties["calendar"] = {"type": ["string", "null"],
                                  "description": "path of the cook's .ics entry, when taken"}
    if organiser:
        properties["claimedAt"] = {"type": ["string", "null"], "format": "date-time"}
    return {"type": "object", "properties": properties}


def board_schema(organiser: bool = False) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "title": {"type": "string", "description": "`Meals for <forWhom>`, cut to 120"},
        "forWhom": {"type": "string"}, "note": {"type": "string"},
        "allergies": {"type": "string", "description": "deliberately public"},
        "capacityPerDay": {"type": "integer", "minimum": 1, "maximum": 3},
        "days": {"type": "array", "items": {"type": "object", "properties": {
            "dayId": {"type": "string", "pattern": "^d[0-9]+$"},
            "date": {"type": "string", "format": "date", "description": "a UTC day"},
            "label": {"type": "string"}, "taken": {"type": "integer"},
            "spots": {"type": "array", "items": _spot_schema(True, organiser)}}}},
        "tasks": {"type": "array", "items": {"type": "object", "properties": {
            "taskId": {"type": "string", "pattern": "^t[0-9]+$"},
            "label": {"type": "string"}, "capacity": {"type": "integer"},
            "taken": {"type": "integer"},
            "spots": {"type": "array", "items": _spot_schema(False, organiser)}}}},
        "helpLinks": {"type": "array", "items": {"type": "object", "properties": {
            "label": {"type": "string"}, "url": {"type": "string"}}}}}
    if organiser:
        properties["dropoff"] = {"type": "string"}
    return {"type": "object", "properties": properties}


OK_REPLY = {"type": "object", "properties": {"ok": {"type": "boolean"}}}


def _save(instance: Instance) -> None:
    instance.save(only=[Instance.data, Instance.title])


#: What a cook reads with their spot's secret when no drop-off details are written yet.
NO_DROPOFF = N_("No drop-off details yet: ask the coordinator.")
DROPOFF_IS = N_("Drop-off: {where}")


def for_the_cook(instance: Instance, claim: Any) -> str:
    """The drop-off details, for whoever holds a spot (the cook, a helper): kept off
    every page but the coordinator's, and read by the holder with their spot's secret."""
    where = instance.data.get("dropoff")
    return gettext(DROPOFF_IS).format(where=where) if where else gettext(NO_DROPOFF)


BOARD = SignUp(
    spots=known_slots, bad_slot=BAD_SLOT, no_name=NO_NAME,
    taken={"day": DAY_TAKEN, "task": JOB_TAKEN},
    fields={"dish": Line(DISH_LIMIT)}, keeps={"day": ("dish",), "task": ()},
    release="uncook", slot_doc=SLOT_IDS, secret_use="hand this spot back yourself",
    docs={"claim": f"Body `{{slug, slotId, name, dish?}}`. Slot ids: {SLOT_IDS}. `name` is "
                   f"C(40), `dish` C({DISH_LIMIT}), optional and public; a job's spot takes "
                   "no dish (ignored). A day's spot taken answers the day's 409, a job's the "
                   "job's.",
          "release": "Body `{slug, slotId, secret}`: hands the day (or job spot) back.",
          "remove": "Body `{slotId}` (as every sign-up tool): clears that spot's claim."},
    for_holder=for_the_cook)
signup_operations(ops, BOARD)


@ops.organiser("details", body=Details, returns={"type": "object", "properties": {
    "ok": {"type": "boolean"}, "title": {"type": "string"}}}, errors={
    400: f"forWhom empty after cleaning: `{NO_FOR_WHOM}`"})
def details(call: Call) -> dict[str, Any]:
    """Change who the meals are for, the note, allergies and drop-off details.

    Body `{forWhom, note, allergies, dropoff}` with the create limits; every field is replaced (an
    absent one becomes empty). The title follows forWhom: `Meals for <forWhom>`, cut to 120. The
    share link does not change.
    """
    instance = call.instance
    instance.data = {**instance.data, **{key: call.data[key] for key in
                                         ("forWhom", "note", "allergies", "dropoff")}}
    instance.title = title_for(call.data["forWhom"])
    _save(instance)
    return {"ok": True, "title": instance.title}


@ops.organiser("addDays", body=AddDays, returns={"type": "object", "properties": {
    "ok": {"type": "boolean"},
    "added": {"type": "array", "items": {"type": "string", "format": "date"}},
    "totalDays": {"type": "integer"}}}, errors={
    400: f"`{BAD_START}`; `{BAD_DAYS}`; `{BAD_SPACING}`",
    409: f"More than 60 days in all: `{TOO_MANY_DAYS}`; startDate not after the last day: "
         f"`{START_AFTER.format(last='<last day>')}`"})
def add_days(call: Call) -> dict[str, Any]:
    """Append more days after the current last day.

    Body `{startDate, days, spacing}`: appends `days` days from `startDate`, `spacing` days apart
    (1, 2 or 7; absent or null means 1). startDate is YYYY-MM-DD (trimmed, UTC) and must be after
    the current last day, so existing slot ids never move; the roster holds at most 60 days in all.
    Checked in this order: startDate, days, spacing (400), then the 60-day total, then startDate
    after the last day (409: both depend on the roster as it is, so re-read it).
    """
    start, count = call.data.get("startDate"), call.data.get("days")
    if start is None:
        raise bad_request(BAD_START)
    if count is None:
        raise bad_request(BAD_DAYS)
    raw_spacing = call.data.get("spacing")
    spacing = 1 if raw_spacing is None else whole_number(raw_spacing)
    if spacing not in SPACINGS:
        raise bad_request(BAD_SPACING)
    instance = call.instance
    days: list[str] = instance.data["days"]
    if len(days) + count > MAX_DAYS:
        raise conflict(TOO_MANY_DAYS)
    if start <= dt.date.fromisoformat(days[-1]):
        raise conflict(message(START_AFTER, last=day_label(days[-1])))
    added = day_run(start, count, spacing)
    if added is None:
        raise bad_request(BAD_START)
    instance.data = {**instance.data, "days": [*days, *(day.isoformat() for day in added)]}
    _save(instance)
    return {"ok": True, "added": [day.isoformat() for day in added],
            "totalDays": len(instance.data["days"])}


TASK_REPLY = {"type": "object", "properties": {"ok": {"type": "boolean"}, "task": {
    "type": "object", "properties": {"taskId": {"type": "string"}, "label": {"type": "string"},
                                     "capacity": {"type": "integer"}}}}}


@ops.organiser("addTask", body=AddTask, status=201, returns=TASK_REPLY, errors={
    400: f"label empty after cleaning: `{NO_TASK_LABEL}`",
    409: f"12 jobs already: `{TOO_MANY_TASKS}`"})
def add_task(call: Call) -> dict[str, Any]:
    """Add another job (mowing, school runs...) with a few spots.

    Body `{label, capacity}` with the create rules (label C(70) required here, capacity whole 1 to
    20, else 1). The job gets the next id `t<k>`; at most 12 jobs.
    """
    instance = call.instance
    tasks = instance.data["tasks"]
    if len(tasks) >= MAX_TASKS:
        raise conflict(TOO_MANY_TASKS)
    number = instance.data["nextTask"]
    task = {"id": f"t{number}", "label": call.data["label"], "capacity": call.data["capacity"]}
    instance.data = {**instance.data, "tasks": [*tasks, task], "nextTask": number + 1}
    _save(instance)
    return {"ok": True, "task": {"taskId": task["id"], "label": task["label"],
                                 "capacity": task["capacity"]}}


@ops.organiser("removeTask", body=TaskBody, returns=OK_REPLY,
    errors={400: f"No such job: `{NO_TASK}`"})
def remove_task(call: Call) -> dict[str, Any]:
    """Remove a job and its claims.

    Body `{taskId}`: removes the job and every claim on it; its id is never reused.
    """
    instance = call.instance
    task_id = call.data.get("taskId")
    tasks = instance.data["tasks"]
    found = next((task for task in tasks if task["id"] == task_id), None)
    if found is None:
        raise bad_request(NO_TASK)
    for n in range(1, found["capacity"] + 1):
        remove_slot(instance, f"{found['id']}-{n}")
    instance.data = {**instance.data, "tasks": [task for task in tasks if task is not found]}
    _save(instance)
    return {"ok": True}


CSV_HEADER = ("Kind", "Day or job", "Date", "Spot", "Slot ID", "Name", "Dish",
              "Claimed at (UTC)")


@ops.organiser("admin", method="GET", content_type="text/csv", description=(
    "The roster as CSV for the coordinator: a header row "
    f"({', '.join(CSV_HEADER)}), then one row per spot: every day's spots in date order, "
    "then every job's. Free spots have empty name, dish and time. Cells a spreadsheet "
    "would run as a formula are prefixed with `'`. Served `Cache-Control: no-store` and "
    "`X-Robots-Tag: noindex, nofollow`."))
def admin(call: Call) -> Reply:
    """Download the roster as CSV."""
    view = organiser_view(call.instance)

    def when(spot: dict[str, Any]) -> str:
        stamp = spot["claimedAt"]
        return stamp[:19].replace("T", " ") if stamp else ""

    rows: list[tuple[object, ...]] = [
        ("Meal", day["label"], day["date"], n, spot["slotId"], spot["name"], spot["dish"],
         when(spot))
        for day in view["days"] for n, spot in enumerate(day["spots"], start=1)]
    rows += [("Job", task["label"], "", n, spot["slotId"], spot["name"], "", when(spot))
             for task in view["tasks"] for n, spot in enumerate(task["spots"], start=1)]
    return csv_reply(CSV_HEADER, rows, f"meal-{call.instance.slug}.csv")


def cook_event(instance: Instance, claim: SlotClaim, base_url: str) -> CalendarEvent:
    """A claimed day's all-day event (the .ics download and the cook's subscription feed):
    never the drop-off details, which stay with the claimer's page and the coordinator."""
    data = instance.data
    day = dt.date.fromisoformat(data["days"][int(claim.slot_id[1:].split("-")[0])])
    dish = claim.extra.get("dish", "")
    page = f"{base_url}/s/{instance.slug}" if base_url else ""  # a feed without base_url
    lines = [f"{claim.name} is cooking" + (f": {dish}." if dish else "."),
             f"Allergies and dislikes: {data['allergies']}" if data["allergies"] else "",
             data["note"], page]
    return CalendarEvent(
        uid=f"meal-{instance.slug}-{claim.slot_id}@groupkit",
        summary=f"Meal for {data['forWhom']}" + (f": {dish}" if dish else ""),
        start=day, description="\n\n".join(line for line in lines if line), url=page)


@ops.read("ics/{slotId}", content_type="text/calendar", errors={
    404: checked_in_order("unknown slug", ("not a day's spot", BAD_SLOT),
                          ("nobody has claimed it", NOT_COOKING))})
def cook_calendar(call: Call) -> Reply:
    """Download a claimed day's calendar entry.

    The calendar entry (.ics, an all-day event on that UTC day) for the cook who claimed a day's
    spot `d<day position>-<n>`: who is cooking, the dish, allergies, the note and the share link;
    never the drop-off details. The public page offers it only in the browser that made the claim.
    """
    instance = call.instance
    slot_id = call.params["slotId"]
    if known_slots(instance).get(slot_id) != "day":
        raise ApiError(404, BAD_SLOT)
    claim = claims_by_slot(instance).get(slot_id)
    if claim is None:
        raise ApiError(404, NOT_COOKING)
    event = cook_event(instance, claim, call.base_url)
    return calendar_reply([event], f"meal-{event.start.isoformat()}.ics", call.now)


EDIT = Edit(fields=("forWhom", "note", "allergies", "dropoff"), schema=Details,
            template="meal/_details.html",
            description="As `details`, but partial: only the fields sent change. Days are "
                        "added with `addDays`; every claim stays.")
