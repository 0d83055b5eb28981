"""The coordinator's edits: details, more days, and adding and removing jobs."""

from __future__ import annotations

from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import edit

NO_FOR_WHOM = "Who are the meals for? Add a name — a family, a person, whoever."
BAD_START = "Pick a valid first day."
BAD_DAYS = "How many days need a meal? At least one."
BAD_SPACING = "Space the new days 1, 2 or 7 days apart — every day, every second day or weekly."
TOO_MANY = "Sixty days is the limit — start a second roster if it runs longer."
START_AFTER = "Start the new days after Wed 4 Mar 2026 — that's the last day on the roster now."
NO_TASK_LABEL = "Give the job a name — what needs doing?"
TOO_MANY_TASKS = "Twelve jobs is the limit — remove one before adding another."
NO_TASK = "That job isn't on this roster."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


async def export(client: Any, edit_token: str) -> dict[str, Any]:
    response = await client.post(f"/api/meal/{edit_token}/export")
    assert response.status_code == 200
    return dict(await response.get_json())


async def board(client: Any, edit_token: str) -> dict[str, Any]:
    return dict((await export(client, edit_token))["data"])


async def error_of(response: Any, status: int) -> str:
    payload = await response.get_json()
    assert response.status_code == status, payload
    assert set(payload) == {"error"}
    return str(payload["error"])


# --- details --------------------------------------------------------------------------------

async def details(client: Any, edit_token: str, body: Any) -> Any:
    return await client.post(f"/api/meal/{edit_token}/details", json=body)


async def test_details_update_and_title_follows(client: Any, train: dict[str, str]) -> None:
    response = await details(client, train["editToken"], {
        "forWhom": "  Linh and  the kids ", "note": " New note\n\nline ",
        "allergies": "Dairy", "dropoff": "Back door"})
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "title": "Meals for Linh and the kids"}
    data = await board(client, train["editToken"])
    assert (data["title"], data["forWhom"], data["note"], data["allergies"], data["dropoff"]) \
        == ("Meals for Linh and the kids", "Linh and the kids", "New note\n\nline", "Dairy",
            "Back door")
    assert (await export(client, train["editToken"]))["title"] == "Meals for Linh and the kids"
    public = await (await client.get(f"/api/meal/{train['slug']}")).get_json()
    assert public["title"] == "Meals for Linh and the kids"
    page = (await (await client.get(f"/s/{train['slug']}")).get_data()).decode()
    assert "<title>Meals for Linh and the kids</title>" in page


async def test_details_keep_the_days_jobs_and_claims(client: Any, train: dict[str, str]) -> None:
    await client.post("/api/meal/claim", json={"slug": train["slug"], "slotId": "d1-1",
                                               "name": "Ann"})
    before = await board(client, train["editToken"])
    await details(client, train["editToken"], {"forWhom": "Jo"})
    after = await board(client, train["editToken"])
    for key in ("days", "tasks", "helpLinks", "capacityPerDay"):
        assert after[key] == before[key]


async def test_details_limits_as_create(client: Any, train: dict[str, str]) -> None:
    await details(client, train["editToken"], {
        "forWhom": "f" * 200, "note": "n" * 900, "allergies": "a" * 900, "dropoff": "d" * 900})
    data = await board(client, train["editToken"])
    assert (data["forWhom"], data["note"], data["allergies"], data["dropoff"]) == (
        "f" * 80, "n" * 400, "a" * 200, "d" * 120)
    assert data["title"] == "Meals for " + "f" * 80


async def test_absent_details_become_empty(client: Any, train: dict[str, str]) -> None:
    await details(client, train["editToken"], {"forWhom": "Jo", "note": 5})
    data = await board(client, train["editToken"])
    assert (data["note"], data["allergies"], data["dropoff"]) == ("", "", "")


@pytest.mark.parametrize("for_whom", [None, "", "  ", 7, ["Jo"]])
async def test_details_need_for_whom(client: Any, train: dict[str, str], for_whom: Any) -> None:
    response = await details(client, train["editToken"], {"forWhom": for_whom, "note": "x"})
    assert await error_of(response, 400) == NO_FOR_WHOM
    assert (await board(client, train["editToken"]))["forWhom"] == "the Smiths"


async def test_details_with_no_body(client: Any, train: dict[str, str]) -> None:
    response = await client.post(f"/api/meal/{train['editToken']}/details", data=b"nope",
                                 headers={"Content-Type": "application/json"})
    assert await error_of(response, 400) == NO_FOR_WHOM


# --- addDays --------------------------------------------------------------------------------

async def add_days(client: Any, edit_token: str, body: Any) -> Any:
    return await client.post(f"/api/meal/{edit_token}/addDays", json=body)


async def dates(client: Any, edit_token: str) -> list[str]:
    return [day["date"] for day in (await board(client, edit_token))["days"]]


@pytest.mark.parametrize("spacing,added", [
    (1, ["2026-03-10", "2026-03-11", "2026-03-12"]),
    (2, ["2026-03-10", "2026-03-12", "2026-03-14"]),
    (7, ["2026-03-10", "2026-03-17", "2026-03-24"]),
    ("7", ["2026-03-10", "2026-03-17", "2026-03-24"]),
    (None, ["2026-03-10", "2026-03-11", "2026-03-12"])])
async def test_add_days_with_spacing(client: Any, train: dict[str, str], spacing: Any,
                                     added: list[str]) -> None:
    body: dict[str, Any] = {"startDate": "2026-03-10", "days": 3}
    if spacing is not None:
        body["spacing"] = spacing
    response = await add_days(client, train["editToken"], body)
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "added": added, "totalDays": 6}
    data = await board(client, train["editToken"])
    assert [day["date"] for day in data["days"]] == ["2026-03-02", "2026-03-03",
                                                     "2026-03-04", *added]
    assert [day["dayId"] for day in data["days"]] == [f"d{n}" for n in range(6)]
    assert [s["slotId"] for s in data["days"][5]["spots"]] == ["d5-1", "d5-2"]


async def test_added_days_keep_existing_claims_in_place(client: Any,
                                                        train: dict[str, str]) -> None:
    await client.post("/api/meal/claim", json={"slug": train["slug"], "slotId": "d2-1",
                                               "name": "Ann", "dish": "Pie"})
    await add_days(client, train["editToken"], {"startDate": "2026-03-05", "days": 1})
    data = await board(client, train["editToken"])
    assert data["days"][2]["date"] == "2026-03-04"
    assert data["days"][2]["spots"][0]["name"] == "Ann"
    response = await client.post("/api/meal/claim", json={
        "slug": train["slug"], "slotId": "d3-2", "name": "Bo"})
    assert response.status_code == 201


@pytest.mark.parametrize("start", [None, "", "2026-3-10", "2026-02-30", "next week", 5,
                                   ["2026-03-10"]])
async def test_add_days_bad_start(client: Any, train: dict[str, str], start: Any) -> None:
    response = await add_days(client, train["editToken"], {"startDate": start, "days": 2})
    assert await error_of(response, 400) == BAD_START


async def test_add_days_start_is_trimmed(client: Any, train: dict[str, str]) -> None:
    response = await add_days(client, train["editToken"], {"startDate": " 2026-03-05 ",
                                                           "days": "1"})
    assert response.status_code == 200
    assert (await dates(client, train["editToken"]))[-1] == "2026-03-05"


@pytest.mark.parametrize("days", [None, 0, -2, "0", "x", 1.5, True, [1]])
async def test_add_days_bad_count(client: Any, train: dict[str, str], days: Any) -> None:
    response = await add_days(client, train["editToken"], {"startDate": "2026-03-10",
                                                           "days": days})
    assert await error_of(response, 400) == BAD_DAYS


@pytest.mark.parametrize("spacing", [0, 3, 14, -1, "2.5", "weekly", 1.5, True, [1], {"s": 1},
                                     ""])
async def test_add_days_bad_spacing(client: Any, train: dict[str, str], spacing: Any) -> None:
    response = await add_days(client, train["editToken"], {"startDate": "2026-03-10",
                                                           "days": 2, "spacing": spacing})
    assert await error_of(response, 400) == BAD_SPACING


async def test_add_days_check_order(client: Any, train: dict[str, str]) -> None:
    edit = train["editToken"]
    assert await error_of(await add_days(client, edit, {}), 400) == BAD_START
    assert await error_of(await add_days(client, edit, {
        "startDate": "x", "days": 0, "spacing": 3}), 400) == BAD_START
    assert await error_of(await add_days(client, edit, {
        "startDate": "2026-01-01", "days": 0, "spacing": 3}), 400) == BAD_DAYS
    assert await error_of(await add_days(client, edit, {
        "startDate": "2026-01-01", "days": 99, "spacing": 3}), 400) == BAD_SPACING
    # Both state checks fail: the 60-day total is reported first.
    assert await error_of(await add_days(client, edit, {
        "startDate": "2026-01-01", "days": 58}), 409) == TOO_MANY
    assert await error_of(await add_days(client, edit, {
        "startDate": "2026-01-01", "days": 57}), 409) == START_AFTER


@pytest.mark.parametrize("start", ["2026-03-04", "2026-03-03", "2025-12-25"])
async def test_start_must_be_after_the_last_day(client: Any, train: dict[str, str],
                                                start: str) -> None:
    response = await add_days(client, train["editToken"], {"startDate": start, "days": 1})
    assert await error_of(response, 409) == START_AFTER
    assert await dates(client, train["editToken"]) == ["2026-03-02", "2026-03-03",
                                                       "2026-03-04"]


async def test_total_stays_within_sixty(client: Any, train: dict[str, str]) -> None:
    edit = train["editToken"]
    assert await error_of(await add_days(client, edit, {"startDate": "2026-04-01",
                                                        "days": 58}), 409) == TOO_MANY
    assert await error_of(await add_days(client, edit, {"startDate": "2026-04-01",
                                                        "days": 10**9}), 409) == TOO_MANY
    response = await add_days(client, edit, {"startDate": "2026-04-01", "days": 57,
                                             "spacing": 2})
    assert (await response.get_json())["totalDays"] == 60
    assert await error_of(await add_days(client, edit, {"startDate": "2030-01-01",
                                                        "days": 1}), 409) == TOO_MANY
    assert len(await dates(client, edit)) == 60


async def test_dates_roster_can_grow_after_its_last_date(client: Any) -> None:
    made = await create(client, "meal", {"forWhom": "Jo", "dates": ["2026-05-01", "2026-04-01"]})
    response = await add_days(client, made["editToken"], {"startDate": "2026-04-15", "days": 1})
    assert (await response.get_json())["error"] == (
        "Start the new days after Fri 1 May 2026 — that's the last day on the roster now.")
    response = await add_days(client, made["editToken"], {"startDate": "2026-05-02", "days": 1})
    assert response.status_code == 200
    assert await dates(client, made["editToken"]) == ["2026-04-01", "2026-05-01", "2026-05-02"]


async def test_days_past_the_calendar_end(client: Any) -> None:
    made = await create(client, "meal", {"forWhom": "Jo", "dates": ["9999-12-20"]})
    response = await add_days(client, made["editToken"], {"startDate": "9999-12-30",
                                                          "days": 2, "spacing": 7})
    assert await error_of(response, 400) == BAD_START
    assert await dates(client, made["editToken"]) == ["9999-12-20"]


# --- tasks ----------------------------------------------------------------------------------

async def add_task(client: Any, edit_token: str, body: Any) -> Any:
    return await client.post(f"/api/meal/{edit_token}/addTask", json=body)


async def remove_task(client: Any, edit_token: str, task_id: Any) -> Any:
    return await client.post(f"/api/meal/{edit_token}/removeTask", json={"taskId": task_id})


async def test_add_task(client: Any, train: dict[str, str]) -> None:
    response = await add_task(client, train["editToken"], {"label": "  School  run ",
                                                           "capacity": "3"})
    assert response.status_code == 201
    assert await response.get_json() == {"ok": True, "task": {
        "taskId": "t2", "label": "School run", "capacity": 3}}
    task = (await board(client, train["editToken"]))["tasks"][-1]
    assert [s["slotId"] for s in task["spots"]] == ["t2-1", "t2-2", "t2-3"]
    claim = await client.post("/api/meal/claim", json={"slug": train["slug"], "slotId": "t2-3",
                                                       "name": "Cy"})
    assert claim.status_code == 201


@pytest.mark.parametrize("capacity,stored", [(None, 1), (20, 20), (21, 1), (0, 1), ("x", 1)])
async def test_add_task_capacity(client: Any, train: dict[str, str], capacity: Any,
                                 stored: int) -> None:
    body: dict[str, Any] = {"label": "Mow"}
    if capacity is not None:
        body["capacity"] = capacity
    response = await add_task(client, train["editToken"], body)
    assert (await response.get_json())["task"]["capacity"] == stored


@pytest.mark.parametrize("label", [None, "", "   ", 5, ["Mow"]])
async def test_add_task_needs_a_label(client: Any, train: dict[str, str], label: Any) -> None:
    response = await add_task(client, train["editToken"], {"label": label, "capacity": 2})
    assert await error_of(response, 400) == NO_TASK_LABEL


async def test_at_most_twelve_tasks(client: Any, train: dict[str, str]) -> None:
    for n in range(10):
        assert (await add_task(client, train["editToken"], {"label": f"Job {n}"})
                ).status_code == 201
    response = await add_task(client, train["editToken"], {"label": "One more"})
    assert await error_of(response, 409) == TOO_MANY_TASKS
    assert len((await board(client, train["editToken"]))["tasks"]) == 12
    assert (await remove_task(client, train["editToken"], "t5")).status_code == 200
    response = await add_task(client, train["editToken"], {"label": "One more"})
    assert (await response.get_json())["task"]["taskId"] == "t12"


async def test_remove_task_clears_its_claims_and_keeps_other_ids(
        client: Any, train: dict[str, str]) -> None:
    slug, edit = train["slug"], train["editToken"]
    for slot_id in ("t0-1", "t0-2", "t1-1"):
        await client.post("/api/meal/claim", json={"slug": slug, "slotId": slot_id,
                                                   "name": "Ann"})
    response = await remove_task(client, edit, "t0")
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    tasks = (await board(client, edit))["tasks"]
    assert [(t["taskId"], t["label"]) for t in tasks] == [("t1", "Mow the lawn")]
    assert tasks[0]["spots"][0]["name"] == "Ann"
    claim = await client.post("/api/meal/claim", json={"slug": slug, "slotId": "t0-1",
                                                       "name": "Bo"})
    assert claim.status_code == 400
    # A new job never takes the removed job's id, so no old claim can come back.
    response = await add_task(client, edit, {"label": "Walk the dog", "capacity": 2})
    assert (await response.get_json())["task"]["taskId"] == "t2"
    assert all(not s["taken"] for s in (await board(client, edit))["tasks"][1]["spots"])


@pytest.mark.parametrize("task_id", ["t9", "T0", "t0 ", "0", "", None, 0, ["t0"]])
async def test_remove_unknown_task(client: Any, train: dict[str, str], task_id: Any) -> None:
    assert await error_of(await remove_task(client, train["editToken"], task_id), 400) == NO_TASK
    assert len((await board(client, train["editToken"]))["tasks"]) == 2


async def test_remove_task_twice(client: Any, train: dict[str, str]) -> None:
    assert (await remove_task(client, train["editToken"], "t1")).status_code == 200
    assert await error_of(await remove_task(client, train["editToken"], "t1"), 400) == NO_TASK


async def test_coordinator_operations_need_the_edit_token(client: Any,
                                                          train: dict[str, str]) -> None:
    for op, body in (("details", {"forWhom": "x"}), ("addDays", {"startDate": "2027-01-01",
                                                                 "days": 1}),
                     ("addTask", {"label": "x"}), ("removeTask", {"taskId": "t0"})):
        for token in (train["slug"], "2" * 26, "x"):
            response = await client.post(f"/api/meal/{token}/{op}", json=body)
            assert await response.get_json() == NOT_FOUND
    assert (await board(client, train["editToken"]))["forWhom"] == "the Smiths"


@pytest.mark.parametrize(("field", "sent", "stored"), [
    ("forWhom", " the  Nguyens ", "the Nguyens"), ("note", "Back Tuesday.", "Back Tuesday."),
    ("allergies", "", ""), ("dropoff", "Front porch esky", "Front porch esky")])
async def test_the_edit_changes_one_field_and_keeps_every_claim(
        client: Any, train: dict[str, str], field: str, sent: str, stored: str) -> None:
    claimed = await client.post("/api/meal/claim", json={
        "slug": train["slug"], "slotId": "d1-1", "name": "Ann", "dish": "Lasagne"})
    assert claimed.status_code == 201
    before = await board(client, train["editToken"])
    assert await edit(client, "meal", train["editToken"], {field: sent}) == (
        200, {"ok": True, "changed": [field]})
    after = await board(client, train["editToken"])
    assert after[field] == stored
    assert after["days"] == before["days"] and after["tasks"] == before["tasks"]
    others = {"forWhom", "note", "allergies", "dropoff"} - {field}
    assert all(after[key] == before[key] for key in others)
    if field == "forWhom":
        assert after["title"] == "Meals for the Nguyens"


async def test_the_edit_keeps_the_create_rule(client: Any, train: dict[str, str]) -> None:
    assert await edit(client, "meal", train["editToken"], {"forWhom": " ", "note": "x"}) == (
        400, {"error": NO_FOR_WHOM, "field": "forWhom"})
    assert (await board(client, train["editToken"]))["note"] == "Home from hospital Monday."


async def test_the_organiser_page_has_one_prefilled_details_form(
        client: Any, train: dict[str, str]) -> None:
    html = (await (await client.get(f"/e/{train['editToken']}")).get_data()).decode()
    assert html.count('id="edit-dropoff"') == 1
    assert 'value="14 Wattle Lane, side gate code 4471"' in html
    assert f'data-api="/api/meal/{train["editToken"]}/edit"' in html


async def test_claims_keep_their_slot_ids_through_every_coordinator_change(
        client: Any, train: dict[str, str]) -> None:
    """A helper's browser finds its "Give my spot back" button by slot id: days are only ever
    added after the last one and jobs keep their ids, so no edit moves a claim."""
    secrets = {}
    for slot_id in ("d1-1", "t1-1"):
        response = await client.post("/api/meal/claim", json={
            "slug": train["slug"], "slotId": slot_id, "name": "Ann", "dish": "Soup"})
        assert response.status_code == 201
        secrets[slot_id] = (await response.get_json())["secret"]
    token = train["editToken"]
    assert (await edit(client, "meal", token, {"forWhom": "the Smith family"}))[0] == 200
    assert (await client.post(f"/api/meal/{token}/addDays",
                              json={"startDate": "2026-03-10", "days": 2})).status_code == 200
    assert (await client.post(f"/api/meal/{token}/removeTask",
                              json={"taskId": "t0"})).status_code == 200
    page = await (await client.get(f"/s/{train['slug']}")).get_data(as_text=True)
    for slot_id, secret in secrets.items():
        assert f'data-secret-key="groupkit:meal:{train["slug"]}:{slot_id}"' in page
        released = await client.post("/api/meal/uncook", json={
            "slug": train["slug"], "slotId": slot_id, "secret": secret})
        assert released.status_code == 200
