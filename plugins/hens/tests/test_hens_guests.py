"""The guest list (RSVP): a guest answers going, maybe or can't with their name and an
optional note for the organiser, changes it with the token the answer returns, and the
organiser removes an answer. Stored state is read back through the views and the export;
the note never reaches the share page or the public read."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from urllib.parse import urlencode

import pytest

NO_NAME = "Add your name so the organiser knows who's answering."
BAD_ANSWER = "Pick one: going, maybe or can't make it."
FULL = "The guest list is full — 300 answers is the limit."
UNKNOWN = "That answer isn't on the guest list any more."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}
NOTE = "Vegetarian, and arriving after the cruise"


async def answer(client: Any, slug: str, name: str, said: str, note: str = "") -> dict[str, Any]:
    response = await client.post("/api/hens/rsvp", json={"slug": slug, "name": name,
                                                         "answer": said, "note": note})
    payload = await response.get_json()
    assert response.status_code == 201, payload
    return dict(payload)


async def public(client: Any, slug: str) -> dict[str, Any]:
    return dict(await (await client.get(f"/api/hens/{slug}")).get_json())


async def exported(client: Any, made: dict[str, str]) -> dict[str, Any]:
    response = await client.post(f"/api/hens/{made['editToken']}/export")
    assert response.status_code == 200
    return dict((await response.get_json())["data"])


async def text(client: Any, path: str) -> str:
    response = await client.get(path)
    assert response.status_code == 200
    return str(await response.get_data(as_text=True))


async def test_answers_are_counted_and_going_names_are_public(
        client: Any, planner: dict[str, str]) -> None:
    slug = planner["slug"]
    made = await answer(client, slug, "  Ann  ", "going", NOTE)
    assert set(made) == {"token", "id"} and len(made["token"]) == 22
    await answer(client, slug, "Bo", "maybe")
    await answer(client, slug, "Cy", "no", "Sorry, I'm away")
    await answer(client, slug, "Di", "going")
    guests = (await public(client, slug))["guests"]
    assert guests == {"limit": 300, "counts": {"going": 2, "maybe": 1, "no": 1},
                      "going": ["Ann", "Di"]}
    # The organiser's side: every answer, note and all, in the order they came.
    full = (await exported(client, planner))["guests"]
    assert [(row["name"], row["answer"], row["note"]) for row in full["answers"]] == [
        ("Ann", "going", NOTE), ("Bo", "maybe", ""), ("Cy", "no", "Sorry, I'm away"),
        ("Di", "going", "")]
    assert full["answers"][0]["id"] == made["id"]
    assert dt.datetime.fromisoformat(full["answers"][0]["answeredAt"]).tzinfo is not None


async def test_notes_stay_off_the_public_side(client: Any, planner: dict[str, str]) -> None:
    slug = planner["slug"]
    made = await answer(client, slug, "Ann", "going", NOTE)
    for shown in (await text(client, f"/s/{slug}"),
                  (await (await client.get(f"/api/hens/{slug}")).get_data()).decode()):
        assert NOTE not in shown and made["token"] not in shown
        assert "Ann" in shown
    organiser = await text(client, f"/e/{planner['editToken']}")
    assert NOTE in organiser and made["token"] not in organiser
    own = await text(client, f"/p/{made['token']}")
    assert NOTE in own and f"/p/{made['token']}" in own


async def test_a_guest_changes_their_answer(client: Any, planner: dict[str, str]) -> None:
    slug = planner["slug"]
    made = await answer(client, slug, "Ann", "maybe", NOTE)
    response = await client.post(f"/api/hens/r/{made['token']}",
                                 json={"name": "Ann B", "answer": "going"})
    assert (response.status_code, await response.get_json()) == (200, {"ok": True})
    assert (await public(client, slug))["guests"]["counts"] == {"going": 1, "maybe": 0, "no": 0}
    [row] = (await exported(client, planner))["guests"]["answers"]
    assert (row["id"], row["name"], row["answer"], row["note"]) == (
        made["id"], "Ann B", "going", "")
    own = await (await client.get(f"/api/hens/{slug}")).get_json()
    assert own["guests"]["going"] == ["Ann B"]


@pytest.mark.parametrize(("body", "message"), [
    ({"answer": "going"}, NO_NAME), ({"name": "   ", "answer": "going"}, NO_NAME),
    ({"name": "Ann"}, BAD_ANSWER), ({"name": "Ann", "answer": "yes"}, BAD_ANSWER),
    ({"name": "Ann", "answer": None}, BAD_ANSWER), ({"name": "Ann", "answer": ["going"]},
                                                    BAD_ANSWER),
    ({"answer": "nope"}, NO_NAME)])
async def test_bad_answers_are_refused_in_order(client: Any, planner: dict[str, str],
                                                body: dict[str, Any], message: str) -> None:
    response = await client.post("/api/hens/rsvp", json={"slug": planner["slug"], **body})
    assert (response.status_code, await response.get_json()) == (400, {"error": message})
    made = await answer(client, planner["slug"], "Ann", "maybe")
    response = await client.post(f"/api/hens/r/{made['token']}", json=body)
    assert (response.status_code, await response.get_json()) == (400, {"error": message})
    [row] = (await exported(client, planner))["guests"]["answers"]
    assert (row["name"], row["answer"]) == ("Ann", "maybe")


async def test_a_page_hears_which_field(client: Any, planner: dict[str, str]) -> None:
    response = await client.post("/api/hens/rsvp", headers={"X-Groupkit-Errors": "all"},
                                 json={"slug": planner["slug"], "name": "Ann"})
    assert (await response.get_json())["field"] == "answers"  # the radios' fieldset


async def test_the_organiser_removes_an_answer(client: Any, planner: dict[str, str]) -> None:
    slug, edit = planner["slug"], planner["editToken"]
    made = await answer(client, slug, "Ann", "going", NOTE)
    kept = await answer(client, slug, "Bo", "going")
    response = await client.post(f"/api/hens/{edit}/rsvp/remove", json={"guestId": made["id"]})
    assert (response.status_code, await response.get_json()) == (200, {"ok": True})
    assert (await public(client, slug))["guests"]["going"] == ["Bo"]
    assert [row["id"] for row in (await exported(client, planner))["guests"]["answers"]] == [
        kept["id"]]
    # The guest's link died with the answer; removing again is the tool's 404.
    assert (await client.get(f"/p/{made['token']}")).status_code == 404
    response = await client.post(f"/api/hens/r/{made['token']}",
                                 json={"name": "Ann", "answer": "no"})
    assert (response.status_code, await response.get_json()) == (404, NOT_FOUND)
    for guest_id in (made["id"], "", None, 7, {"a": 1}):
        response = await client.post(f"/api/hens/{edit}/rsvp/remove", json={"guestId": guest_id})
        assert (response.status_code, await response.get_json()) == (404, {"error": UNKNOWN})


async def test_the_list_is_capped(client: Any, planner: dict[str, str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from groupkit_hens import guests
    monkeypatch.setattr(guests, "MAX_GUESTS", 2)
    await answer(client, planner["slug"], "Ann", "going")
    await answer(client, planner["slug"], "Bo", "no")
    response = await client.post("/api/hens/rsvp", json={
        "slug": planner["slug"], "name": "Cy", "answer": "going"})
    assert (response.status_code, await response.get_json()) == (409, {"error": FULL})
    assert len((await exported(client, planner))["guests"]["answers"]) == 2


async def test_without_javascript_the_answer_lands_with_its_link(
        client: Any, planner: dict[str, str]) -> None:
    """The share page's form as a browser without the script posts it: back on the share
    page with a notice holding the guest's own link; a missing answer comes back at its
    field with the name kept."""
    slug = planner["slug"]
    headers = {"Content-Type": "application/x-www-form-urlencoded",
               "Sec-Fetch-Site": "same-origin", "Referer": f"http://localhost/s/{slug}"}
    await client.post("/api/hens/rsvp", headers=headers,
                      data=urlencode({"slug": slug, "name": "Ann", "note": NOTE}))
    shown = await text(client, f"/s/{slug}")
    assert BAD_ANSWER.replace("'", "&#39;") in shown or BAD_ANSWER in shown
    assert 'value="Ann"' in shown
    await client.post("/api/hens/rsvp", headers=headers, data=urlencode(
        {"slug": slug, "name": "Ann", "answer": "going", "note": NOTE}))
    shown = await text(client, f"/s/{slug}")
    link = re.search(r'/p/([A-Za-z0-9_-]{22})', shown)
    assert link is not None
    assert "Going: Ann" in shown and NOTE not in shown
    own = await text(client, f"/p/{link[1]}")
    assert NOTE in own and 'value="going" checked' in own


async def test_openapi_documents_the_guest_list(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    for path in ("/api/hens/rsvp", "/api/hens/r/{token}", "/api/hens/{editToken}/rsvp/remove"):
        assert path in document["paths"]
    rsvp = document["paths"]["/api/hens/rsvp"]["post"]
    assert NO_NAME in rsvp["responses"]["400"]["description"]
    assert BAD_ANSWER in rsvp["responses"]["400"]["description"]
    assert FULL in rsvp["responses"]["409"]["description"]
    assert "never appears on the share page" in rsvp["description"]
