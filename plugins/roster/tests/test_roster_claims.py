"""Claiming, handing back and removing spots; the coordinator-only message."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
BAD_SLOT = "That shift spot doesn't exist on this roster."
NO_NAME = "Add your name so the coordinator knows who's on."
TAKEN = "Someone just grabbed that shift — pick another."
NOT_HELD = "That shift spot isn't held with that secret — it may already be free."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}
PRIVATE = "Can bring my trailer, call 0400 111 222"


async def claim(client: Any, slug: Any, slot_id: Any = "s0-1", name: Any = "Ann",
                message: Any = None) -> Any:
    body: dict[str, Any] = {"slug": slug, "slotId": slot_id, "name": name}
    if message is not None:
        body["message"] = message
    return await client.post("/api/roster/claim", json=body)


async def claimed(client: Any, slug: str, slot_id: str = "s0-1", name: str = "Ann",
                  message: str | None = None) -> str:
    response = await claim(client, slug, slot_id, name, message)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    return str(payload["secret"])


async def read(client: Any, slug: str) -> dict[str, Any]:
    response = await client.get(f"/api/roster/{slug}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def export(client: Any, edit_token: str) -> dict[str, Any]:
    response = await client.post(f"/api/roster/{edit_token}/export")
    assert response.status_code == 200
    return dict((await response.get_json())["data"])


def spot(roster: dict[str, Any], slot_id: str) -> dict[str, Any]:
    for shift in roster["shifts"]:
        for found in shift["spots"]:
            if found["slotId"] == slot_id:
                return dict(found)
    raise AssertionError(f"no spot {slot_id}")


async def error_of(response: Any, status: int) -> str:
    payload = await response.get_json()
    assert response.status_code == status, payload
    assert set(payload) == {"error"}
    return str(payload["error"])


# --- claim --------------------------------------------------------------------------------

async def test_claim_returns_a_16_character_secret(client: Any, roster: dict[str, str]) -> None:
    response = await claim(client, roster["slug"])
    assert response.status_code == 201
    payload = await response.get_json()
    assert set(payload) == {"secret"}
    assert re.fullmatch(rf"[{ALPHABET}]{{16}}", payload["secret"])


async def test_claim_shows_on_the_roster(client: Any, roster: dict[str, str]) -> None:
    await claimed(client, roster["slug"], "s1-2", "Bo")
    view = await read(client, roster["slug"])
    assert spot(view, "s1-2") == {"slotId": "s1-2", "taken": True, "name": "Bo"}
    assert spot(view, "s1-1")["taken"] is False
    assert [shift["taken"] for shift in view["shifts"]] == [0, 1]


async def test_secrets_differ_per_claim(client: Any, roster: dict[str, str]) -> None:
    secrets = {await claimed(client, roster["slug"], f"s0-{n}") for n in range(1, 4)}
    assert len(secrets) == 3


async def test_name_and_message_are_cleaned(client: Any, roster: dict[str, str]) -> None:
    await claimed(client, roster["slug"], "s0-1", "  Ann \n  Lee ", "  Late\n\n by   ten  ")
    await claimed(client, roster["slug"], "s0-2", "n" * 100, "m" * 500)
    data = await export(client, roster["editToken"])
    assert (spot(data, "s0-1")["name"], spot(data, "s0-1")["message"]) == ("Ann Lee",
                                                                          "Late by ten")
    assert (spot(data, "s0-2")["name"], spot(data, "s0-2")["message"]) == ("n" * 40, "m" * 120)


@pytest.mark.parametrize("message", [None, "", "   ", 5, ["x"], {"m": 1}])
async def test_message_is_optional(client: Any, roster: dict[str, str], message: Any) -> None:
    body = {"slug": roster["slug"], "slotId": "s0-1", "name": "Ann"}
    if message is not None:
        body["message"] = message
    response = await client.post("/api/roster/claim", json=body)
    assert response.status_code == 201
    assert spot(await export(client, roster["editToken"]), "s0-1")["message"] == ""


async def test_second_claim_on_a_spot_is_409(client: Any, roster: dict[str, str]) -> None:
    await claimed(client, roster["slug"], "s0-3", "Ann")
    response = await claim(client, roster["slug"], "s0-3", "Bo")
    assert await error_of(response, 409) == TAKEN
    assert spot(await read(client, roster["slug"]), "s0-3")["name"] == "Ann"


@pytest.mark.parametrize("slot_id", [
    "s2-1", "s0-0", "s0-4", "s1-3", "s-1-1", "s0-1 ", " s0-1", "S0-1", "s00-1", "s0-01",
    "s1-1-1", "s0", "s0-", "c0-1", "d0-1", "s1-1\n", "", None, 1, ["s0-1"], {"id": "s0-1"}])
async def test_unknown_slot_id(client: Any, roster: dict[str, str], slot_id: Any) -> None:
    response = await claim(client, roster["slug"], slot_id)
    assert await error_of(response, 400) == BAD_SLOT


async def test_missing_slot_id(client: Any, roster: dict[str, str]) -> None:
    response = await client.post("/api/roster/claim", json={"slug": roster["slug"],
                                                            "name": "Ann"})
    assert await error_of(response, 400) == BAD_SLOT


@pytest.mark.parametrize("name", ["", "   ", "\n", None, 7, ["Ann"], {"n": "Ann"}])
async def test_name_required(client: Any, roster: dict[str, str], name: Any) -> None:
    response = await claim(client, roster["slug"], name=name, message="hi")
    assert await error_of(response, 400) == NO_NAME


async def test_missing_name_key(client: Any, roster: dict[str, str]) -> None:
    response = await client.post("/api/roster/claim", json={
        "slug": roster["slug"], "slotId": "s0-1", "message": "hi"})
    assert await error_of(response, 400) == NO_NAME


async def test_claim_check_order(client: Any, roster: dict[str, str]) -> None:
    slug = roster["slug"]
    assert await error_of(await claim(client, slug, "s9-9", ""), 400) == BAD_SLOT
    assert await error_of(await claim(client, slug, "s0-1", ""), 400) == NO_NAME
    await claimed(client, slug, "s0-1")
    # Validation comes before the conflict: a taken spot with a bad body is still a 400.
    assert await error_of(await claim(client, slug, "s0-1", " "), 400) == NO_NAME
    assert await error_of(await claim(client, slug, "s0-1", "Bo"), 409) == TAKEN


async def test_failed_claims_leave_the_spot_open(client: Any, roster: dict[str, str]) -> None:
    await claim(client, roster["slug"], "s0-1", "", "note")
    assert spot(await read(client, roster["slug"]), "s0-1")["taken"] is False


@pytest.mark.parametrize("slug", [None, "", "nope", "working-bee-23456789abcdef", 5])
async def test_claim_with_unknown_slug_is_404(client: Any, slug: Any) -> None:
    response = await claim(client, slug)
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND


async def test_unknown_slug_wins_over_body_errors(client: Any) -> None:
    response = await client.post("/api/roster/claim", data=b"{oops",
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND


async def test_credentials_of_another_tool_are_404(make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["roster", "plate"]).test_client()
    board = await create(client, "plate", {"categories": [{"name": "Mains", "capacity": 1}]})
    assert await (await claim(client, board["slug"])).get_json() == NOT_FOUND
    for method, path in (("POST", f"/api/roster/{board['editToken']}/remove"),
                         ("GET", f"/api/roster/{board['editToken']}/admin"),
                         ("GET", f"/api/roster/{board['slug']}"),
                         ("GET", f"/api/roster/{board['slug']}/ics/s0")):
        response = await (client.post(path, json={"slotId": "s0-1"}) if method == "POST"
                          else client.get(path))
        assert response.status_code == 404, path
        assert await response.get_json() == NOT_FOUND


async def test_claims_on_two_rosters_are_separate(client: Any, roster: dict[str, str]) -> None:
    other = await create(client, "roster", {"shifts": [{"label": "Setup", "capacity": 1}]})
    await claimed(client, roster["slug"], "s0-1", "Ann")
    await claimed(client, other["slug"], "s0-1", "Bo")
    assert spot(await read(client, roster["slug"]), "s0-1")["name"] == "Ann"
    assert spot(await read(client, other["slug"]), "s0-1")["name"] == "Bo"


# --- the message is for the coordinator only ----------------------------------------------

async def test_message_is_never_public(client: Any, roster: dict[str, str]) -> None:
    slug, edit = roster["slug"], roster["editToken"]
    secret = await claimed(client, slug, "s0-2", "Ann", PRIVATE)
    public_json = (await (await client.get(f"/api/roster/{slug}")).get_data()).decode()
    public_page = (await (await client.get(f"/s/{slug}")).get_data()).decode()
    calendar = (await (await client.get(f"/api/roster/{slug}/ics/s0")).get_data()).decode()
    for text in (public_json, public_page, calendar):
        assert "Ann" in text or "BEGIN:VCALENDAR" in text
        assert "trailer" not in text and "0400 111 222" not in text
        assert secret not in text
    assert "message" not in json.dumps(await read(client, slug))
    # The coordinator sees it on their page, in the export and in the CSV.
    organiser_page = (await (await client.get(f"/e/{edit}")).get_data()).decode()
    assert PRIVATE in organiser_page
    assert spot(await export(client, edit), "s0-2")["message"] == PRIVATE
    csv_text = (await (await client.get(f"/api/roster/{edit}/admin")).get_data()).decode()
    assert PRIVATE in csv_text


async def test_claim_reply_carries_only_the_secret(client: Any, roster: dict[str, str]) -> None:
    response = await claim(client, roster["slug"], "s0-1", "Ann", PRIVATE)
    assert PRIVATE not in (await response.get_data()).decode()


async def test_public_read_has_no_secrets_or_private_keys(client: Any,
                                                          roster: dict[str, str]) -> None:
    secret = await claimed(client, roster["slug"], "s0-1", "Ann", PRIVATE)
    payload = await read(client, roster["slug"])
    assert secret not in json.dumps(payload)

    def keys(value: Any) -> set[str]:
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        if isinstance(value, list):
            return {k for v in value for k in keys(v)}
        return set()

    assert not {key for key in keys(payload) if "secret" in key.lower()}
    assert {"message", "claimedAt"}.isdisjoint(keys(payload))
    assert set(payload) == {"title", "heading", "eventDate", "note", "shifts"}


# --- unclaim ------------------------------------------------------------------------------

async def unclaim(client: Any, slug: Any, slot_id: Any, secret: Any) -> Any:
    return await client.post("/api/roster/unclaim",
                             json={"slug": slug, "slotId": slot_id, "secret": secret})


async def test_unclaim_with_the_secret_frees_the_spot(client: Any,
                                                      roster: dict[str, str]) -> None:
    secret = await claimed(client, roster["slug"], "s0-2", "Ann", PRIVATE)
    response = await unclaim(client, roster["slug"], "s0-2", secret)
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    assert spot(await read(client, roster["slug"]), "s0-2") == {
        "slotId": "s0-2", "taken": False, "name": None}
    assert spot(await export(client, roster["editToken"]), "s0-2")["message"] is None
    await claimed(client, roster["slug"], "s0-2", "Bo")


async def test_unclaim_with_a_wrong_secret_is_404(client: Any, roster: dict[str, str]) -> None:
    slug = roster["slug"]
    secret = await claimed(client, slug, "s0-1")
    other = await claimed(client, slug, "s0-2")
    wrong = "".join("2" if ch != "2" else "3" for ch in secret)
    for slot_id, attempt in [("s0-1", wrong), ("s0-1", other), ("s0-1", secret.upper()),
                             ("s0-1", secret[:15]), ("s0-1", ""), ("s0-1", None),
                             ("s0-1", 5), ("s0-3", secret), ("s9-9", secret),
                             (None, secret), (["s0-1"], secret)]:
        response = await unclaim(client, slug, slot_id, attempt)
        assert await error_of(response, 404) == NOT_HELD
    response = await client.post("/api/roster/unclaim", json={"slug": slug, "slotId": "s0-1"})
    assert await error_of(response, 404) == NOT_HELD
    view = await read(client, slug)
    assert spot(view, "s0-1")["taken"] and spot(view, "s0-2")["taken"]


async def test_unclaim_twice_is_404(client: Any, roster: dict[str, str]) -> None:
    secret = await claimed(client, roster["slug"])
    assert (await unclaim(client, roster["slug"], "s0-1", secret)).status_code == 200
    assert await error_of(await unclaim(client, roster["slug"], "s0-1", secret), 404) \
        == NOT_HELD


async def test_old_secret_does_not_release_the_next_claim(client: Any,
                                                          roster: dict[str, str]) -> None:
    old = await claimed(client, roster["slug"])
    assert (await unclaim(client, roster["slug"], "s0-1", old)).status_code == 200
    await claimed(client, roster["slug"], "s0-1", "Bo")
    assert await error_of(await unclaim(client, roster["slug"], "s0-1", old), 404) == NOT_HELD
    assert spot(await read(client, roster["slug"]), "s0-1")["name"] == "Bo"


async def test_secret_only_works_on_its_own_roster(client: Any, roster: dict[str, str]) -> None:
    other = await create(client, "roster", {"shifts": [{"label": "Setup", "capacity": 1}]})
    secret = await claimed(client, roster["slug"])
    await claimed(client, other["slug"])
    assert await error_of(await unclaim(client, other["slug"], "s0-1", secret), 404) \
        == NOT_HELD


async def test_unclaim_with_unknown_slug_is_404(client: Any, roster: dict[str, str]) -> None:
    secret = await claimed(client, roster["slug"])
    response = await unclaim(client, roster["slug"] + "x", "s0-1", secret)
    assert await response.get_json() == NOT_FOUND


# --- organiser remove ---------------------------------------------------------------------

async def remove(client: Any, edit_token: str, slot_id: Any) -> Any:
    return await client.post(f"/api/roster/{edit_token}/remove", json={"slotId": slot_id})


async def test_organiser_removes_a_claim(client: Any, roster: dict[str, str]) -> None:
    secret = await claimed(client, roster["slug"], "s1-1", "Ann")
    response = await remove(client, roster["editToken"], "s1-1")
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "removed": True}
    assert spot(await read(client, roster["slug"]), "s1-1")["taken"] is False
    assert await error_of(await unclaim(client, roster["slug"], "s1-1", secret), 404) \
        == NOT_HELD
    await claimed(client, roster["slug"], "s1-1", "Bo")


async def test_removing_a_free_spot_is_fine(client: Any, roster: dict[str, str]) -> None:
    response = await remove(client, roster["editToken"], "s0-3")
    assert await response.get_json() == {"ok": True, "removed": False}
    await claimed(client, roster["slug"], "s0-3")
    assert await (await remove(client, roster["editToken"], "s0-3")).get_json() == {
        "ok": True, "removed": True}


async def test_remove_only_touches_that_spot(client: Any, roster: dict[str, str]) -> None:
    for slot_id in ("s0-1", "s0-2", "s1-1"):
        await claimed(client, roster["slug"], slot_id)
    await remove(client, roster["editToken"], "s0-2")
    view = await read(client, roster["slug"])
    assert [s["taken"] for shift in view["shifts"] for s in shift["spots"]] == [
        True, False, False, True, False]


@pytest.mark.parametrize("slot_id", ["s2-1", "s0-0", "s0-4", "S0-1", "", None, 3, ["s0-1"]])
async def test_remove_unknown_slot_is_400(client: Any, roster: dict[str, str],
                                          slot_id: Any) -> None:
    assert await error_of(await remove(client, roster["editToken"], slot_id), 400) == BAD_SLOT


async def test_remove_without_a_body_is_400(client: Any, roster: dict[str, str]) -> None:
    response = await client.post(f"/api/roster/{roster['editToken']}/remove")
    assert await error_of(response, 400) == BAD_SLOT


@pytest.mark.parametrize("token", ["x", "2" * 26, "a" * 27])
async def test_remove_with_a_bad_edit_token_is_404(client: Any, roster: dict[str, str],
                                                   token: str) -> None:
    response = await remove(client, token, "s0-1")
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND


async def test_the_slug_is_not_an_edit_token(client: Any, roster: dict[str, str]) -> None:
    await claimed(client, roster["slug"])
    response = await remove(client, roster["slug"], "s0-1")
    assert response.status_code == 404
    assert spot(await read(client, roster["slug"]), "s0-1")["taken"] is True


# --- export and OpenAPI -------------------------------------------------------------------

async def test_export_has_claims_messages_and_times_but_no_secrets(
        client: Any, roster: dict[str, str]) -> None:
    secret = await claimed(client, roster["slug"], "s0-3", "Ann", "Late")
    response = await client.post(f"/api/roster/{roster['editToken']}/export")
    text = (await response.get_data()).decode()
    assert secret not in text
    payload = json.loads(text)
    assert (payload["tool"], payload["slug"]) == ("roster", roster["slug"])
    taken = spot(payload["data"], "s0-3")
    assert (taken["name"], taken["message"], taken["taken"]) == ("Ann", "Late", True)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00", taken["claimedAt"])
    assert spot(payload["data"], "s0-1")["claimedAt"] is None


async def test_openapi_documents_roster_operations(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    claim_op = paths["/api/roster/claim"]["post"]
    assert set(claim_op["responses"]) >= {"201", "400", "404", "409", "429"}
    for message in (BAD_SLOT, NO_NAME):
        assert message in claim_op["responses"]["400"]["description"]
    assert TAKEN in claim_op["responses"]["409"]["description"]
    assert "from 0" in claim_op["description"]
    assert NOT_HELD in paths["/api/roster/unclaim"]["post"]["responses"]["404"]["description"]
    assert BAD_SLOT in paths["/api/roster/{editToken}/remove"]["post"]["responses"]["400"][
        "description"]
    admin = paths["/api/roster/{editToken}/admin"]["get"]
    assert "text/csv" in admin["responses"]["200"]["content"]
    ics = paths["/api/roster/{slug}/ics/{shiftId}"]["get"]
    assert "text/calendar" in ics["responses"]["200"]["content"]
    for path in ("/api/roster", "/api/roster/{slug}", "/api/roster/{editToken}/delete",
                 "/api/roster/{editToken}/export"):
        assert path in paths
    tag = next(tag for tag in document["tags"] if tag["name"] == "roster")
    assert "from 0" in tag["description"]
