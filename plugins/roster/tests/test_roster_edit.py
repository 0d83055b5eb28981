"""The organiser's edit: title, date, note and shifts (times, spots, new shifts) change with
the create rules and messages; nobody's shift is ever lost (409 instead)."""

from __future__ import annotations

from typing import Any

import pytest

from groupkit_testing import edit

CAPACITY = "Spots per shift must be a whole number from 1 to 30."
HELD = "Someone is on {name} — remove them from it first, then the shift can go."
SHRUNK = "{name} has {taken} volunteers — remove someone first, or keep at least {taken} spots."


async def organiser(client: Any, roster: dict[str, str]) -> dict[str, Any]:
    response = await client.post(f"/api/roster/{roster['editToken']}/export")
    return dict((await response.get_json())["data"])


async def claim(client: Any, roster: dict[str, str], slot_id: str, name: str) -> None:
    response = await client.post("/api/roster/claim", json={
        "slug": roster["slug"], "slotId": slot_id, "name": name, "message": "call me"})
    assert response.status_code == 201


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


async def test_the_form_is_prefilled(client: Any, roster: dict[str, str]) -> None:
    html = await (await client.get(f"/e/{roster['editToken']}")).get_data(as_text=True)
    assert 'id="edit-eventDate" name="eventDate" maxlength="60"' in html
    assert 'data-key="label" name="shifts.1.label" maxlength="50" value="Pack down"' in html
    assert 'max="30"' in html
    assert 'data-key="was" name="shifts.1.was:number" data-type="number" value="1"' in html
