"""Calendar subscription feeds (groupkit.blocks._feeds) on the Volunteer Roster: the holder of a
claim's secret gets a private webcal address; the feed, parsed back with `icalendar`, holds
their shift as it stands now (a moved shift moves), empties when the spot is given up (and
stays empty when someone else takes it), and answers 404 once the organiser revokes it. The
address is on no page, response or export. The same feeds on the Hens & Shower Planner (the
party, for whoever holds a spot) and Find a Date (the chosen date, for whoever answered)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import icalendar
import pytest

from groupkit.core._storage import Instance
from groupkit_testing import create
from groupkit_testing import edit

ROSTER = {"title": "Working bee", "eventDate": "Saturday 14 March 2026", "note": "Bring gloves",
          "shifts": [{"label": "Setup 7-9am", "capacity": 2},
                     {"label": "Pack down 12-1pm", "capacity": 2}]}
NOT_HELD = "That shift spot isn't held with that secret — it may already be free."


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["roster", "meal", "hens", "finddate"])


async def claim(client: Any, slug: str, slot: str = "s0-1", name: str = "Priya") -> str:
    response = await client.post("/api/roster/claim", json={
        "slug": slug, "slotId": slot, "name": name, "message": "qzcoordinatoronly"})
    assert response.status_code == 201
    return str((await response.get_json())["secret"])


async def subscribe(client: Any, slug: str, secret: str, slot: str = "s0-1") -> dict[str, str]:
    response = await client.post("/api/roster/feed", json={
        "slug": slug, "slotId": slot, "secret": secret})
    assert response.status_code == 201, await response.get_json()
    return dict(await response.get_json())


async def events(client: Any, links: dict[str, str]) -> list[Any]:
    path = links["feedUrl"].split("://", 1)[1].split("/", 1)[1]
    response = await client.get("/" + path)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/calendar; charset=utf-8"
    assert response.headers["Cache-Control"] == "no-store"
    calendar = icalendar.Calendar.from_ical(await response.get_data())
    return list(calendar.walk("VEVENT"))


async def test_a_volunteers_feed_follows_their_shift(app: Any) -> None:
    client = app.test_client()
    made = await create(client, "roster", ROSTER)
    secret = await claim(client, made["slug"])
    links = await subscribe(client, made["slug"], secret)
    assert links["webcalUrl"].startswith("webcal://") and links["webcalUrl"].endswith(".ics")
    assert links["feedUrl"].replace("http://", "webcal://", 1) == links["webcalUrl"]
    [event] = await events(client, links)
    assert str(event["SUMMARY"]) == "Setup 7-9am — Working bee"
    assert event.decoded("DTSTART") == dt.datetime(2026, 3, 14, 7, 0)
    assert "qzcoordinatoronly" not in str(event.to_ical())

    def move() -> None:  # the organiser moves the shift
        instance = Instance.get(Instance.slug == made["slug"])
        data = dict(instance.data)
        data["shifts"] = [{"label": "Setup 8-10am", "capacity": 2}, data["shifts"][1]]
        Instance.update(data=data).where(Instance.id == instance.id).execute()

    app.config["GROUPKIT_STORAGE"].run_sync(move)
    [moved] = await events(client, links)
    assert moved.decoded("DTSTART") == dt.datetime(2026, 3, 14, 8, 0)
    assert str(moved["UID"]) == str(event["UID"])  # the same event, moved


async def test_a_feed_follows_its_claim_when_the_organiser_reorders_the_shifts(app: Any) -> None:
    """The organiser's edit puts the shift second (it keeps its number, so its volunteers
    keep `s0-*`): the feed still holds that shift, and revoking that spot's feeds stops it."""
    client = app.test_client()
    made = await create(client, "roster", ROSTER)
    links = await subscribe(client, made["slug"], await claim(client, made["slug"]))
    reordered = await edit(client, "roster", made["editToken"], {"shifts": [
        {"label": "Pack down 12-1pm", "capacity": 2, "was": 1},
        {"label": "Setup 8-10am", "capacity": 2, "was": 0}]})
    assert reordered[0] == 200, reordered
    [event] = await events(client, links)
    assert str(event["SUMMARY"]) == "Setup 8-10am — Working bee"
    assert event.decoded("DTSTART") == dt.datetime(2026, 3, 14, 8, 0)
    revoke = f"/api/roster/{made['editToken']}/feeds/revoke"
    answer = await client.post(revoke, json={"slotId": "s0-1"})
    assert (await answer.get_json()) == {"ok": True, "revoked": 1}


async def test_giving_the_spot_up_empties_the_feed_for_good(app: Any) -> None:
    client = app.test_client()
    made = await create(client, "roster", ROSTER)
    secret = await claim(client, made["slug"])
    links = await subscribe(client, made["slug"], secret)
    released = await client.post("/api/roster/unclaim", json={
        "slug": made["slug"], "slotId": "s0-1", "secret": secret})
    assert released.status_code == 200
    assert await events(client, links) == []
    await claim(client, made["slug"], name="Someone else")
    assert await events(client, links) == []


@pytest.mark.parametrize("body", [
    {"slotId": "s0-1", "secret": "x" * 22},
    {"slotId": "s0-1", "secret": ""},
    {"slotId": "s1-1"},
    {"slotId": 5, "secret": None},
])
async def test_only_the_claims_secret_gets_a_feed(app: Any, body: dict[str, Any]) -> None:
    client = app.test_client()
    made = await create(client, "roster", ROSTER)
    await claim(client, made["slug"])
    response = await client.post("/api/roster/feed", json={"slug": made["slug"], **body})
    assert response.status_code == 404
    assert (await response.get_json()) == {"error": NOT_HELD}


async def test_the_organiser_revokes_one_spots_feeds_or_all(app: Any) -> None:
    client = app.test_client()
    made = await create(client, "roster", ROSTER)
    first = await subscribe(client, made["slug"], await claim(client, made["slug"]))
    second_secret = await claim(client, made["slug"], "s1-1", "Bo")
    second = await subscribe(client, made["slug"], second_secret, "s1-1")
    revoke = f"/api/roster/{made['editToken']}/feeds/revoke"
    answer = await client.post(revoke, json={"slotId": "s0-1"})
    assert (await answer.get_json()) == {"ok": True, "revoked": 1}
    for links, status in ((first, 404), (second, 200)):
        path = "/" + links["feedUrl"].split("/", 3)[3]
        assert (await client.get(path)).status_code == status
    assert (await (await client.post(revoke, json={})).get_json()) == {"ok": True, "revoked": 1}
    assert (await client.get("/" + second["feedUrl"].split("/", 3)[3])).status_code == 404
    assert (await client.get("/feed/not-a-token.ics")).status_code == 404


async def test_the_feed_address_is_on_no_page_response_or_export(app: Any) -> None:
    client = app.test_client()
    made = await create(client, "roster", ROSTER)
    links = await subscribe(client, made["slug"], await claim(client, made["slug"]))
    token = links["feedUrl"].rsplit("/", 1)[1].removesuffix(".ics")
    surfaces = [await (await client.get(f"/s/{made['slug']}")).get_data(as_text=True),
                await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True),
                await (await client.get(f"/api/roster/{made['slug']}")).get_data(as_text=True),
                await (await client.post(f"/api/roster/{made['editToken']}/export")).get_data(
                    as_text=True),
                await (await client.get(f"/api/roster/{made['editToken']}/admin")).get_data(
                    as_text=True)]
    for text in surfaces:
        assert token not in text


async def test_a_shift_without_a_readable_time_gives_an_empty_feed(app: Any) -> None:
    client = app.test_client()
    made = await create(client, "roster", {**ROSTER, "eventDate": "some weekend"})
    links = await subscribe(client, made["slug"], await claim(client, made["slug"]))
    assert await events(client, links) == []


MEAL = {"forWhom": "the Nguyen family", "note": "Meals for the fortnight.", "allergies":
        "No peanuts.", "dropoff": "qzdropoffsecret 12 Example St", "startDate": "2026-03-02",
        "days": 3, "capacityPerDay": 1, "tasks": [{"label": "Walk the dog", "capacity": 1}]}


async def test_a_cooks_feed_holds_their_day_and_never_the_drop_off(app: Any) -> None:
    client = app.test_client()
    made = await create(client, "meal", MEAL)
    answer = await client.post("/api/meal/claim", json={
        "slug": made["slug"], "slotId": "d1-1", "name": "Ann", "dish": "Lasagne"})
    secret = (await answer.get_json())["secret"]
    response = await client.post("/api/meal/feed", json={
        "slug": made["slug"], "slotId": "d1-1", "secret": secret})
    assert response.status_code == 201
    links = await response.get_json()
    [event] = await events(client, links)
    assert str(event["SUMMARY"]) == "Meal for the Nguyen family: Lasagne"
    assert event.decoded("DTSTART") == dt.date(2026, 3, 3)
    path = "/" + links["feedUrl"].split("/", 3)[3]
    assert "qzdropoffsecret" not in (await (await client.get(path)).get_data(as_text=True))
    job = await client.post("/api/meal/claim", json={
        "slug": made["slug"], "slotId": "t0-1", "name": "Bo"})
    job_links = await (await client.post("/api/meal/feed", json={
        "slug": made["slug"], "slotId": "t0-1",
        "secret": (await job.get_json())["secret"]})).get_json()
    assert await events(client, job_links) == []  # a job has no day
    wrong = await client.post("/api/meal/feed", json={
        "slug": made["slug"], "slotId": "d1-1", "secret": "y" * 22})
    assert (await wrong.get_json()) == {
        "error": "That spot isn't held with that secret — it may already be free."}


HENS = {"title": "Mia's hens", "forWhom": "Mia", "when": "Saturday 13 March 2027, 2pm-6pm",
        "where": "The Boathouse, 12 River Rd", "note": "Dress code: pink.",
        "kitty": "qzkittybsb 062-000 12345678", "activities": ["Lunch", "Harbour cruise"],
        "categories": [{"name": "Decorations", "capacity": 2}, {"name": "Games", "capacity": 1}]}


async def test_a_hens_spot_holders_feed_holds_the_party_as_it_stands(app: Any) -> None:
    client = app.test_client()
    made = await create(client, "hens", HENS)
    answer = await client.post("/api/hens/claim", json={
        "slug": made["slug"], "slotId": "c1-1", "name": "Ann", "message": "qzmessage"})
    secret = (await answer.get_json())["secret"]
    links = await (await client.post("/api/hens/feed", json={
        "slug": made["slug"], "slotId": "c1-1", "secret": secret})).get_json()
    [event] = await events(client, links)
    assert str(event["SUMMARY"]) == "Mia's hens"
    assert event.decoded("DTSTART") == dt.datetime(2027, 3, 13, 14, 0)
    assert event.decoded("DTEND") == dt.datetime(2027, 3, 13, 18, 0)
    assert str(event["LOCATION"]) == "The Boathouse, 12 River Rd"
    description = str(event["DESCRIPTION"])
    assert "You're down for: Games." in description and "2. Harbour cruise" in description
    text = str(event.to_ical())
    assert "qzkittybsb" not in text and "qzmessage" not in text
    # The organiser moves the party and puts Games first: the feed follows both.
    changed = await edit(client, "hens", made["editToken"], {
        "when": "Sunday 14 March 2027", "categories": [
            {"name": "Games", "capacity": 1, "was": 1},
            {"name": "Decorations", "capacity": 2, "was": 0}]})
    assert changed[0] == 200, changed
    [moved] = await events(client, links)
    assert moved.decoded("DTSTART") == dt.date(2027, 3, 14)  # no time written: all day
    assert str(moved["UID"]) == str(event["UID"])
    await client.post("/api/hens/unclaim", json={  # Games keeps its number, so its ids
        "slug": made["slug"], "slotId": "c1-1", "secret": secret})
    assert await events(client, links) == []


FIND_A_DATE = {"title": "Team dinner", "note": "Near the office.", "timezone": "Australia/Sydney",
               "slots": [{"date": "2026-12-04", "start": "18:30", "end": "21:00"},
                         {"date": "2026-12-05"}]}


async def test_a_find_a_date_feed_holds_the_chosen_date_once_there_is_one(app: Any) -> None:
    client = app.test_client()
    made = await create(client, "finddate", FIND_A_DATE)
    answered = await (await client.post("/api/finddate/respond", json={
        "slug": made["slug"], "name": "Ann",
        "answers": [{"slotId": "d1", "answer": "yes"}]})).get_json()
    response = await client.post(f"/api/finddate/r/{answered['token']}/feed")
    assert response.status_code == 201
    links = await response.get_json()
    assert links["webcalUrl"].startswith("webcal://")
    assert await events(client, links) == []  # nothing chosen yet
    choose = f"/api/finddate/{made['editToken']}/choose"
    assert (await client.post(choose, json={"slotId": "d1"})).status_code == 200
    [event] = await events(client, links)
    sydney = dt.timezone(dt.timedelta(hours=11))
    assert event.decoded("DTSTART") == dt.datetime(2026, 12, 4, 18, 30, tzinfo=sydney)
    assert event.decoded("DTEND") == dt.datetime(2026, 12, 4, 21, 0, tzinfo=sydney)
    assert (await client.post(choose, json={"slotId": "d2"})).status_code == 200
    [moved] = await events(client, links)
    assert moved.decoded("DTSTART") == dt.date(2026, 12, 5)
    for surface in (f"/s/{made['slug']}", f"/e/{made['editToken']}", f"/p/{answered['token']}",
                    f"/api/finddate/{made['slug']}"):
        page = await (await client.get(surface)).get_data(as_text=True)
        assert links["feedUrl"].rsplit("/", 1)[1] not in page
    bad = await client.post("/api/finddate/r/" + "x" * 22 + "/feed")
    assert bad.status_code == 404
    # Removing the person's answers empties their feed; revoking stops it.
    removed = await client.post(f"/api/finddate/{made['editToken']}/remove",
                                json={"id": answered["id"]})
    assert removed.status_code == 200
    assert await events(client, links) == []
    revoked = await client.post(f"/api/finddate/{made['editToken']}/feeds/revoke", json={})
    assert (await revoked.get_json()) == {"ok": True, "revoked": 1}
    path = "/" + links["feedUrl"].split("/", 3)[3]
    assert (await client.get(path)).status_code == 404


async def test_every_feed_operation_is_in_the_openapi_document(app: Any) -> None:
    paths = (await (await app.test_client().get("/openapi.json")).get_json())["paths"]
    for path in ("/api/roster/feed", "/api/meal/feed", "/api/hens/feed",
                 "/api/finddate/r/{token}/feed", "/api/roster/{editToken}/feeds/revoke",
                 "/api/meal/{editToken}/feeds/revoke", "/api/hens/{editToken}/feeds/revoke",
                 "/api/finddate/{editToken}/feeds/revoke"):
        assert "post" in paths[path], path
        assert paths[path]["post"]["responses"], path
