"""The organiser's edit: title, date, note and shifts (times, spots, new shifts) change with
the create rules and messages; nobody's shift is ever lost (409 instead)."""

from __future__ import annotations

from typing import Any

import icalendar
import pytest

from groupkit import Instance
from groupkit_testing import edit

CAPACITY = "Spots per shift must be a whole number from 1 to 30."
HELD = "Someone is on {name} — remove them from it first, then the shift can go."
SHRUNK = "{name} has {taken} volunteers — remove someone first, or keep at least {taken} spots."


async def organiser(client: Any, roster: dict[str, str]) -> dict[str, Any]:
    response = await client.post(f"/api/roster/{roster['editToken']}/export")
    return dict((await response.get_json())["data"])


async def claim(client: Any, roster: dict[str, str], slot_id: str, name: str) -> str:
    response = await client.post("/api/roster/claim", json={
        "slug": roster["slug"], "slotId": slot_id, "name": name, "message": "call me"})
    assert response.status_code == 201
    return str((await response.get_json())["secret"])


def version(roster: dict[str, str]) -> int:
    return int(Instance.get(Instance.slug == roster["slug"]).version)


def shifts(view: dict[str, Any]) -> list[tuple[str, int, int]]:
    return [(shift["label"], shift["capacity"], shift["taken"]) for shift in view["shifts"]]


@pytest.mark.parametrize(("field", "sent", "stored"), [
    ("title", " Spring   working bee ", "Spring working bee"),
    ("eventDate", "Sunday 15 March 2026", "Sunday 15 March 2026"),
    ("note", "Gloves and hats provided.", "Gloves and hats provided."),
    ("note", "", ""),
])
async def test_each_detail_changes_alone(client: Any, roster: dict[str, str], field: str,
                                         sent: str, stored: str) -> None:
    changed = await edit(client, "roster", roster["editToken"], {field: sent})
    assert changed == (200, {"ok": True, "changed": [field]})
    view = await organiser(client, roster)
    assert view[field] == stored
    assert shifts(view) == [("Setup 7-9am", 3, 0), ("Pack down", 2, 0)]


@pytest.mark.parametrize(("value", "message", "field"), [
    ([], "Add at least one shift.", "shifts"),
    ([{"label": str(n), "capacity": 1} for n in range(21)],
     "Twenty shifts is the limit — split the day if you need more.", "shifts"),
    ([{"label": "  ", "capacity": 1}], "Every shift needs a label — a job and a time.",
     "shifts.0.label"),
    ([{"label": "Setup", "capacity": 31}], CAPACITY, "shifts.0.capacity"),
    ([{"label": "Setup", "capacity": 2}, {"label": "Pack", "capacity": "two"}], CAPACITY,
     "shifts.1.capacity"),
])
async def test_shifts_keep_the_create_rules(client: Any, roster: dict[str, str], value: Any,
                                            message: str, field: str) -> None:
    assert await edit(client, "roster", roster["editToken"], {"shifts": value, "note": "x"}) == (
        400, {"error": message, "field": field})
    assert (await organiser(client, roster))["note"] == "Gloves provided."


async def test_fix_a_time_add_spots_and_a_shift_keeping_volunteers(
        client: Any, roster: dict[str, str]) -> None:
    await claim(client, roster, "s0-2", "Ann")
    await claim(client, roster, "s1-1", "Bo")
    status, _ = await edit(client, "roster", roster["editToken"], {"shifts": [
        {"label": "Setup 7-10am", "capacity": 5, "was": 0},
        {"label": "Lunch 12-1pm", "capacity": 2, "was": None},
        {"label": "Pack down 1-2pm", "capacity": 2, "was": 1}]})
    assert status == 200
    view = await organiser(client, roster)
    assert shifts(view) == [("Setup 7-10am", 5, 1), ("Lunch 12-1pm", 2, 0),
                            ("Pack down 1-2pm", 2, 1)]
    # Slot ids stay with their shift (a volunteer's browser knows its spot by it); the new
    # shift takes a number no shift has had.
    spot = view["shifts"][2]["spots"][0]
    assert (spot["slotId"], spot["name"], spot["message"]) == ("s1-1", "Bo", "call me")
    assert [spot["slotId"] for spot in view["shifts"][1]["spots"]] == ["s3-1", "s3-2"]
    assert view["shifts"][0]["spots"][1]["slotId"] == "s0-2"
    await claim(client, roster, "s3-2", "Cy")


async def test_a_shift_someone_holds_cannot_be_removed(client: Any,
                                                       roster: dict[str, str]) -> None:
    await claim(client, roster, "s1-2", "Bo")
    body = {"shifts": [{"label": "Setup 7-9am", "capacity": 3}]}
    assert await edit(client, "roster", roster["editToken"], body) == (
        409, {"error": HELD.format(name="Pack down"), "field": "shifts", "confirm": True})
    assert len((await organiser(client, roster))["shifts"]) == 2
    await client.post(f"/api/roster/{roster['editToken']}/remove", json={"slotId": "s1-2"})
    assert (await edit(client, "roster", roster["editToken"], body))[0] == 200


async def test_spots_cannot_drop_below_the_volunteers(client: Any,
                                                      roster: dict[str, str]) -> None:
    for slot in ("s0-1", "s0-2", "s0-3"):
        await claim(client, roster, slot, "Vol")
    assert await edit(client, "roster", roster["editToken"], {"shifts": [
        {"label": "Setup 7-9am", "capacity": 2}, {"label": "Pack down", "capacity": 2}]}) == (
        409, {"error": SHRUNK.format(name="Setup 7-9am", taken=3), "field": "shifts",
              "confirm": True})


async def feed_path(client: Any, roster: dict[str, str], slot_id: str, secret: str) -> str:
    response = await client.post("/api/roster/feed", json={
        "slug": roster["slug"], "slotId": slot_id, "secret": secret})
    assert response.status_code == 201
    return "/" + str((await response.get_json())["feedUrl"]).split("/", 3)[3]


async def shifts_in(client: Any, path: str) -> list[str]:
    """The summaries of the events a calendar feed holds now."""
    calendar = icalendar.Calendar.from_ical(await (await client.get(path)).get_data())
    return [str(event["SUMMARY"]) for event in calendar.walk("VEVENT")]


async def test_a_confirmed_cut_lets_the_latest_volunteers_go(client: Any,
                                                             roster: dict[str, str]) -> None:
    """Cy signed up last, so Cy goes, though on the first spot; Bo, beyond the new size,
    moves into it. Cy's feed empties for good (Bo now holds its slot id), Bo's follows Bo,
    and Pack down is untouched."""
    secret_of = {name: await claim(client, roster, slot, name)
               for slot, name in (("s0-2", "Ann"), ("s0-3", "Bo"), ("s0-1", "Cy"), ("s1-1", "Di"))}
    bo = await feed_path(client, roster, "s0-3", secret_of["Bo"])
    cy = await feed_path(client, roster, "s0-1", secret_of["Cy"])
    body = {"shifts": [{"label": "Setup 7-9am", "capacity": 2}, {"label": "Pack down",
                                                                 "capacity": 2}]}
    before, unchanged = version(roster), await organiser(client, roster)
    assert (await edit(client, "roster", roster["editToken"], body))[1]["confirm"] is True
    assert (await organiser(client, roster), version(roster)) == (unchanged, before)
    assert await shifts_in(client, cy) == ["Setup 7-9am — Working bee"]
    assert await edit(client, "roster", roster["editToken"], {**body, "confirm": True}) == (
        200, {"ok": True, "changed": ["shifts"]})
    view = await organiser(client, roster)
    assert [[(spot["slotId"], spot["name"]) for spot in shift["spots"]]
            for shift in view["shifts"]] == [[("s0-1", "Bo"), ("s0-2", "Ann")],
                                             [("s1-1", "Di"), ("s1-2", None)]]
    assert version(roster) == before + 1
    assert await shifts_in(client, bo) == ["Setup 7-9am — Working bee"]
    assert await shifts_in(client, cy) == []


async def test_the_form_is_prefilled(client: Any, roster: dict[str, str]) -> None:
    html = await (await client.get(f"/e/{roster['editToken']}")).get_data(as_text=True)
    assert 'id="edit-eventDate" name="eventDate" maxlength="60"' in html
    assert 'data-key="label" name="shifts.1.label" maxlength="50" value="Pack down"' in html
    assert 'max="30"' in html
    assert 'data-key="was" name="shifts.1.was:number" data-type="number" value="1"' in html
