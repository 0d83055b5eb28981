"""The organiser's edit, as a third-party plugin declares it: title, note, time zone and the
options (add, remove) with the create rules; answers are never dropped unconfirmed and the
chosen date never goes."""

from __future__ import annotations

from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import edit

BODY = {"title": "Team dinner", "note": "Near the office.",
        "slots": [{"date": "2026-12-04", "start": "18:30"}, {"date": "2026-12-05"}]}
ANSWERED = ("1 person has already answered Sat 5 Dec 2026 — remove it anyway? "
            "Their answers for it go with it.")


async def made(client: Any) -> dict[str, str]:
    return await create(client, "finddate", BODY)


async def read(client: Any, slug: str) -> dict[str, Any]:
    return dict(await (await client.get(f"/api/finddate/{slug}")).get_json())


async def respond(client: Any, slug: str, answers: dict[str, str]) -> str:
    response = await client.post("/api/finddate/respond", json={
        "slug": slug, "name": "Ann",
        "answers": [{"slotId": k, "answer": v} for k, v in answers.items()]})
    assert response.status_code == 201
    return str((await response.get_json())["token"])


@pytest.mark.parametrize(("field", "sent", "stored"), [
    ("title", " Xmas   dinner ", "Xmas dinner"), ("note", "", ""),
    ("timezone", "Europe/London", "Europe/London")])
async def test_details_change_alone(client: Any, field: str, sent: str, stored: str) -> None:
    instance = await made(client)
    assert await edit(client, "finddate", instance["editToken"], {field: sent}) == (
        200, {"ok": True, "changed": [field]})
    view = await read(client, instance["slug"])
    assert view[field] == stored and len(view["slots"]) == 2


@pytest.mark.parametrize(("body", "message"), [
    ({"title": " "}, "Name the event so people know what they're picking a date for."),
    ({"timezone": "Mars/Olympus"},
     "That time zone isn't one we know — use a name like Australia/Sydney."),
    ({"slots": [{"date": "2026-12-04"}]}, "Propose at least two dates or times to choose between."),
    ({"slots": [{"date": "2026-12-04"}, {"date": "4/12/2026"}]},
     "Each option needs a real date — pick one with the date picker."),
    ({"slots": [{"date": "2026-12-04", "start": "19:00", "end": "18:00"}, {"date": "2026-12-05"}]},
     "Each time needs to be a real time, and the end comes after the start."),
    ({"slots": [{"date": "2026-12-04"}, {"date": "2026-12-04"}]},
     "The same date and time is proposed twice — remove one."),
])
async def test_the_create_rules_apply(client: Any, body: dict[str, Any], message: str) -> None:
    instance = await made(client)
    field = next(iter(body))
    if message.startswith("Each option needs a real date"):
        field = "slots.1.date"  # the row's date, where the page puts the message
    assert await edit(client, "finddate", instance["editToken"], body) == (
        400, {"error": message, "field": field})


async def test_an_added_option_keeps_every_answer(client: Any) -> None:
    instance = await made(client)
    await respond(client, instance["slug"], {"d1": "yes", "d2": "maybe"})
    status, _ = await edit(client, "finddate", instance["editToken"], {"slots": [
        {"date": "2026-12-05"}, {"date": "2026-12-03", "start": "12:00"},
        {"date": "2026-12-04", "start": "18:30"}]})
    assert status == 200
    view = await read(client, instance["slug"])
    assert [(s["id"], s["date"], s["yes"], s["maybe"]) for s in view["slots"]] == [
        ("d3", "2026-12-03", 0, 0), ("d1", "2026-12-04", 1, 0), ("d2", "2026-12-05", 0, 1)]


async def test_removing_an_answered_option_asks_first(client: Any) -> None:
    instance = await made(client)
    token = await respond(client, instance["slug"], {"d1": "yes", "d2": "maybe"})
    body = {"slots": [{"date": "2026-12-04", "start": "18:30"}, {"date": "2026-12-06"}]}
    assert await edit(client, "finddate", instance["editToken"], body) == (
        409, {"error": ANSWERED, "field": "slots", "confirm": True})
    assert [s["id"] for s in (await read(client, instance["slug"]))["slots"]] == ["d1", "d2"]
    assert (await edit(client, "finddate", instance["editToken"],
                       {**body, "confirm": True}))[0] == 200
    view = await read(client, instance["slug"])
    assert [(s["id"], s["yes"]) for s in view["slots"]] == [("d1", 1), ("d3", 0)]
    page = await client.get(f"/p/{token}")
    assert page.status_code == 200  # the private link still works


async def test_an_unanswered_option_just_goes(client: Any) -> None:
    instance = await made(client)
    await respond(client, instance["slug"], {"d1": "yes"})
    assert (await edit(client, "finddate", instance["editToken"], {"slots": [
        {"date": "2026-12-04", "start": "18:30"}, {"date": "2026-12-07"}]}))[0] == 200


async def test_the_chosen_date_cannot_be_removed(client: Any) -> None:
    instance = await made(client)
    await client.post(f"/api/finddate/{instance['editToken']}/choose", json={"slotId": "d2"})
    body = {"slots": [{"date": "2026-12-04", "start": "18:30"}, {"date": "2026-12-06"}],
            "confirm": True}
    assert await edit(client, "finddate", instance["editToken"], body) == (409, {
        "error": "Sat 5 Dec 2026 is the date you chose — clear the choice first, then remove it.",
        "field": "slots"})


async def test_the_form_is_prefilled(client: Any) -> None:
    instance = await made(client)
    html = await (await client.get(f"/e/{instance['editToken']}")).get_data(as_text=True)
    assert 'id="edit-timezone" name="timezone" value="Australia/Sydney"' in html
    assert 'data-key="date" aria-label="Date" value="2026-12-05"' in html
    assert 'data-key="start" aria-label="Start (optional)" value="18:30"' in html
