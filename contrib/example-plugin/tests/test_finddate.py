"""Find a Date through its JSON API and pages: proposing, answering, the best slot, choosing,
the calendar entry, and every message."""

from __future__ import annotations

from typing import Any

import pytest

from groupkit_finddate import schema
from groupkit_finddate.api import FULL
from groupkit_finddate.api import NOT_CHOSEN
from groupkit_testing import create

SLOTS = [{"date": "2026-12-11", "start": "18:30"},
         {"date": "2026-12-04", "start": "18:30", "end": "21:00"},
         {"date": "2026-12-05"}]

NOT_FOUND = {"error": "Nothing here — check the link you were given."}


async def error_of(response: Any) -> tuple[int, str]:
    return response.status_code, (await response.get_json())["error"]


@pytest.mark.parametrize(("body", "message"), [
    ({"slots": SLOTS}, schema.NO_TITLE),
    ({"title": "Dinner", "slots": SLOTS[:1]}, schema.TOO_FEW),
    ({"title": "Dinner", "slots": [{"date": f"2027-01-{d:02d}"} for d in range(1, 31)]
      + [{"date": f"2027-02-{d:02d}"} for d in range(1, 12)]}, schema.TOO_MANY),
    ({"title": "Dinner", "slots": [{"date": "2026-02-30"}, {"date": "2026-03-01"}]},
     schema.BAD_DATE),
    ({"title": "Dinner", "slots": [{"date": "5 Dec"}, {"date": "2026-03-01"}]},
     schema.BAD_DATE),
    ({"title": "Dinner", "slots": [{"date": "2026-03-01", "start": "25:00"},
                                   {"date": "2026-03-02"}]}, schema.BAD_TIME),
    ({"title": "Dinner", "slots": [{"date": "2026-03-01", "start": "19:00", "end": "18:00"},
                                   {"date": "2026-03-02"}]}, schema.BAD_TIME),
    ({"title": "Dinner", "slots": [{"date": "2026-03-01"}, {"date": "2026-03-01"}]},
     schema.TWICE),
    ({"title": "Dinner", "timezone": "Mars/Olympus", "slots": SLOTS}, schema.BAD_ZONE),
])
async def test_create_rules_in_check_order(client: Any, body: dict[str, Any],
                                           message: str) -> None:
    assert await error_of(await client.post("/api/finddate", json=body)) == (400, message)


async def answer(client: Any, slug: str, name: str, **answers: str) -> Any:
    return await client.post("/api/finddate/respond", json={
        "slug": slug, "name": name,
        "answers": [{"slotId": slot, "answer": value} for slot, value in answers.items()]})


async def test_slots_sorted_answers_counted_and_the_best_highlighted(client: Any) -> None:
    made = await create(client, "finddate", {"title": "Dinner", "slots": SLOTS})
    view = await (await client.get(f"/api/finddate/{made['slug']}")).get_json()
    assert [s["id"] for s in view["slots"]] == ["d1", "d2", "d3"]
    assert [s["date"] for s in view["slots"]] == ["2026-12-04", "2026-12-05", "2026-12-11"]
    assert view["best"] is None and view["timezone"] == "Australia/Sydney"
    first = await answer(client, made["slug"], "Ann", d1="maybe", d2="yes", d3="yes")
    assert first.status_code == 201
    assert len((await first.get_json())["token"]) == 22
    await answer(client, made["slug"], "Bo", d1="yes", d2="no", d3="yes")
    await answer(client, made["slug"], "Cy", d1="yes", d2="yes", d3="maybe")
    view = await (await client.get(f"/api/finddate/{made['slug']}")).get_json()
    # d1: 2 yes + 1 maybe; d2: 2 yes; d3: 2 yes + 1 maybe, later than d1.
    assert [(s["yes"], s["maybe"], s["no"]) for s in view["slots"]] == [(2, 1, 0), (2, 0, 1),
                                                                        (2, 1, 0)]
    assert view["best"] == "d1"
    assert [r["name"] for r in view["responses"]] == ["Ann", "Bo", "Cy"]
    assert all("id" not in r for r in view["responses"])


async def test_answer_rules(client: Any) -> None:
    made = await create(client, "finddate", {"title": "Dinner", "slots": SLOTS})
    slug = made["slug"]
    assert await error_of(await answer(client, slug, "", d1="yes")) == (400, schema.NO_NAME)
    assert await error_of(await answer(client, slug, "Ann")) == (400, schema.NO_ANSWERS)
    assert await error_of(await answer(client, slug, "Ann", d9="yes")) == (400, schema.NO_SLOT)
    assert (await answer(client, slug, "Ann", d1="perhaps")).status_code == 201
    view = await (await client.get(f"/api/finddate/{slug}")).get_json()
    assert view["responses"][0]["answers"] == {"d1": "no", "d2": "no", "d3": "no"}
    unknown = await answer(client, slug + "x", "Ann", d1="yes")
    assert unknown.status_code == 404 and await unknown.get_json() == NOT_FOUND


async def test_a_person_changes_their_own_answers_with_their_token(client: Any) -> None:
    made = await create(client, "finddate", {"title": "Dinner", "slots": SLOTS})
    token = (await (await answer(client, made["slug"], "Ann", d1="no", d2="no")).get_json()
             )["token"]
    page = await (await client.get(f"/p/{token}")).get_data(as_text=True)
    assert "Ann&#39;s private link" in page or "Ann's private link" in page
    changed = await client.post(f"/api/finddate/r/{token}", json={
        "answers": [{"slotId": "d2", "answer": "yes"}]})
    assert changed.status_code == 200
    assert (await changed.get_json())["answers"] == {"d1": "no", "d2": "yes"}
    # Another last character (a token that already ended in "x" was its own, now and then).
    wrong = token[:-1] + ("y" if token.endswith("x") else "x")
    assert (await client.post(f"/api/finddate/r/{wrong}", json={
        "answers": [{"slotId": "d2", "answer": "yes"}]})).status_code == 404


async def test_the_organiser_chooses_and_everyone_gets_a_calendar_entry(client: Any) -> None:
    made = await create(client, "finddate", {"title": "Dinner", "note": "Near work",
                                             "slots": SLOTS})
    slug, edit = made["slug"], made["editToken"]
    not_yet = await client.get(f"/api/finddate/{slug}/ics")
    assert await error_of(not_yet) == (409, NOT_CHOSEN)
    for wrong in ("d7", [], {"id": "d1"}, 1):
        assert await error_of(await client.post(f"/api/finddate/{edit}/choose",
                                                json={"slotId": wrong})) == (400, schema.NO_SLOT)
    assert (await client.post(f"/api/finddate/{edit}/choose", json={"slotId": "d1"})
            ).status_code == 200
    ics = await client.get(f"/api/finddate/{slug}/ics")
    assert ics.status_code == 200 and ics.headers["Content-Type"].startswith("text/calendar")
    text = (await ics.get_data()).decode()
    assert "SUMMARY:Dinner" in text and "DESCRIPTION:Near work" in text
    assert "DTSTART;TZID=Australia/Sydney:20261204T183000" in text
    assert "DTEND;TZID=Australia/Sydney:20261204T210000" in text
    page = await (await client.get(f"/s/{slug}")).get_data(as_text=True)
    assert "Add it to your calendar" in page
    await client.post(f"/api/finddate/{edit}/choose", json={"slotId": "d2"})
    all_day = (await (await client.get(f"/api/finddate/{slug}/ics")).get_data()).decode()
    assert "DTSTART;VALUE=DATE:20261205" in all_day
    await client.post(f"/api/finddate/{edit}/choose", json={"slotId": None})
    assert (await client.get(f"/api/finddate/{slug}/ics")).status_code == 409


async def test_the_organiser_removes_a_response_and_its_link_dies(client: Any) -> None:
    made = await create(client, "finddate", {"title": "Dinner", "slots": SLOTS})
    token = (await (await answer(client, made["slug"], "Ann", d1="yes")).get_json())["token"]
    exported = await (await client.post(f"/api/finddate/{made['editToken']}/export")
                      ).get_json()
    response_id = exported["data"]["responses"][0]["id"]
    removed = await client.post(f"/api/finddate/{made['editToken']}/remove",
                                json={"id": response_id})
    assert removed.status_code == 200
    assert (await client.get(f"/p/{token}")).status_code == 404
    assert (await client.post(f"/api/finddate/{made['editToken']}/remove",
                              json={"id": response_id})).status_code == 404


async def test_at_most_two_hundred_responses(client: Any, monkeypatch: Any) -> None:
    import groupkit_finddate.api as api

    monkeypatch.setattr(api, "MAX_RESPONSES", 2)
    made = await create(client, "finddate", {"title": "Dinner", "slots": SLOTS})
    for name in ("Ann", "Bo"):
        assert (await answer(client, made["slug"], name, d1="yes")).status_code == 201
    assert await error_of(await answer(client, made["slug"], "Cy", d1="yes")) == (409, FULL)


async def test_user_text_is_escaped_on_every_page(client: Any) -> None:
    evil = "<script>alert(1)</script>"
    made = await create(client, "finddate", {"title": evil, "note": evil, "slots": SLOTS})
    token = (await (await answer(client, made["slug"], evil, d1="yes")).get_json())["token"]
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}", f"/p/{token}"):
        html = await (await client.get(path)).get_data(as_text=True)
        assert evil not in html and "&lt;script&gt;" in html
