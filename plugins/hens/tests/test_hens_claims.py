"""Claiming, releasing and removing spots, in the spec's check order, with its messages."""

from __future__ import annotations

import re
from typing import Any

import pytest

NOT_FOUND = {"error": "Nothing here — check the link you were given."}
BAD_SLOT = "That spot doesn't exist on this board."
NO_NAME = "Add your name so people know who's got it."
TAKEN = "Someone grabbed that spot seconds ago — pick another."
NOT_HELD = "That spot isn't held with that secret — it may already be free."
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


async def claim(client: Any, slug: Any, slot_id: Any = "c0-1", name: Any = "Ann",
                **extra: Any) -> Any:
    return await client.post("/api/hens/claim", json={"slug": slug, "slotId": slot_id,
                                                      "name": name, **extra})


async def claimed(client: Any, slug: str, slot_id: str = "c0-1", name: str = "Ann",
                  message: str = "") -> str:
    response = await claim(client, slug, slot_id, name, message=message)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    return str(payload["secret"])


async def read(client: Any, slug: str) -> dict[str, Any]:
    response = await client.get(f"/api/hens/{slug}")
    assert response.status_code == 200
    return dict(await response.get_json())


def spot(board: dict[str, Any], slot_id: str) -> dict[str, Any]:
    return next(dict(found) for category in board["categories"]
                for found in category["spots"] if found["slotId"] == slot_id)


async def error_of(response: Any, status: int) -> str:
    payload = await response.get_json()
    assert response.status_code == status, payload
    assert set(payload) == {"error"}
    return str(payload["error"])


# --- claim ----------------------------------------------------------------------------------

async def test_claim_returns_a_16_character_secret(client: Any, planner: dict[str, str]) -> None:
    response = await claim(client, planner["slug"], message="Balloons!")
    assert response.status_code == 201
    payload = await response.get_json()
    assert set(payload) == {"secret"}
    assert re.fullmatch(rf"[{ALPHABET}]{{16}}", payload["secret"])
    board = await read(client, planner["slug"])
    assert spot(board, "c0-1") == {"slotId": "c0-1", "taken": True, "name": "Ann",
                                   "message": "Balloons!"}
    assert [category["taken"] for category in board["categories"]] == [1, 0]


async def test_message_is_optional(client: Any, planner: dict[str, str]) -> None:
    response = await claim(client, planner["slug"], "c1-2", "Bo")
    assert response.status_code == 201
    assert spot(await read(client, planner["slug"]), "c1-2")["message"] == ""
    response = await claim(client, planner["slug"], "c1-1", "Cy", message=None)
    assert response.status_code == 201
    assert spot(await read(client, planner["slug"]), "c1-1")["message"] == ""


async def test_name_and_message_are_cleaned(client: Any, planner: dict[str, str]) -> None:
    await claimed(client, planner["slug"], "c0-1", "  Ann \n  Lee ", "  Pink\t\tstreamers  ")
    await claimed(client, planner["slug"], "c0-2", "n" * 100, "m" * 500)
    board = await read(client, planner["slug"])
    assert (spot(board, "c0-1")["name"], spot(board, "c0-1")["message"]) == (
        "Ann Lee", "Pink streamers")
    assert (spot(board, "c0-2")["name"], spot(board, "c0-2")["message"]) == ("n" * 40, "m" * 120)


@pytest.mark.parametrize("slot_id", ["c0-0", "c0-4", "c1-3", "c2-1", "c-1", "C0-1", "c0-01",
                                     " c0-1", "", None, 5, ["c0-1"], "s0-1", "c00-1"])
async def test_bad_slot_id(client: Any, planner: dict[str, str], slot_id: Any) -> None:
    assert await error_of(await claim(client, planner["slug"], slot_id), 400) == BAD_SLOT


@pytest.mark.parametrize("name", ["", "   ", "\n", None, 5, ["Ann"]])
async def test_missing_name(client: Any, planner: dict[str, str], name: Any) -> None:
    assert await error_of(await claim(client, planner["slug"], "c0-1", name), 400) == NO_NAME


async def test_slot_is_checked_before_name(client: Any, planner: dict[str, str]) -> None:
    assert await error_of(await claim(client, planner["slug"], "c9-9", ""), 400) == BAD_SLOT


async def test_taken_spot_is_409(client: Any, planner: dict[str, str]) -> None:
    await claimed(client, planner["slug"], "c0-3", "Ann")
    assert await error_of(await claim(client, planner["slug"], "c0-3", "Bo"), 409) == TAKEN
    assert spot(await read(client, planner["slug"]), "c0-3")["name"] == "Ann"


async def test_name_is_checked_before_taken(client: Any, planner: dict[str, str]) -> None:
    await claimed(client, planner["slug"], "c0-3", "Ann")
    assert await error_of(await claim(client, planner["slug"], "c0-3", ""), 400) == NO_NAME


@pytest.mark.parametrize("slug", [None, "", "nope", "mia-s-hens-23456789abcdef", 5])
async def test_claim_with_unknown_slug_is_404(client: Any, planner: dict[str, str],
                                              slug: Any) -> None:
    response = await claim(client, slug)
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND


async def test_claim_with_another_tools_slug_is_404(make_app: Any) -> None:
    client = make_app(tools=["hens", "plate"]).test_client()
    made = await client.post("/api/plate", json={"categories": [{"name": "M", "capacity": 1}]})
    slug = (await made.get_json())["slug"]
    response = await claim(client, slug)
    assert await response.get_json() == NOT_FOUND


# --- unclaim --------------------------------------------------------------------------------

async def test_unclaim_with_the_secret(client: Any, planner: dict[str, str]) -> None:
    secret = await claimed(client, planner["slug"], "c1-1")
    response = await client.post("/api/hens/unclaim", json={
        "slug": planner["slug"], "slotId": "c1-1", "secret": secret})
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    assert spot(await read(client, planner["slug"]), "c1-1")["taken"] is False
    # The spot can be claimed again; the old secret is dead.
    await claimed(client, planner["slug"], "c1-1", "Bo")
    response = await client.post("/api/hens/unclaim", json={
        "slug": planner["slug"], "slotId": "c1-1", "secret": secret})
    assert await error_of(response, 404) == NOT_HELD
    assert spot(await read(client, planner["slug"]), "c1-1")["name"] == "Bo"


@pytest.mark.parametrize("change", [
    {"secret": "x" * 16}, {"secret": ""}, {"secret": None}, {"slotId": "c0-2"},
    {"slotId": "c9-9"}, {"slotId": None}])
async def test_unclaim_refused(client: Any, planner: dict[str, str], change: dict[str, Any]
                               ) -> None:
    secret = await claimed(client, planner["slug"], "c0-1")
    body = {"slug": planner["slug"], "slotId": "c0-1", "secret": secret, **change}
    assert await error_of(await client.post("/api/hens/unclaim", json=body), 404) == NOT_HELD
    assert spot(await read(client, planner["slug"]), "c0-1")["taken"] is True


async def test_a_secret_frees_only_its_own_spot(client: Any, planner: dict[str, str]) -> None:
    mine = await claimed(client, planner["slug"], "c0-1", "Ann")
    await claimed(client, planner["slug"], "c0-2", "Bo")
    response = await client.post("/api/hens/unclaim", json={
        "slug": planner["slug"], "slotId": "c0-2", "secret": mine})
    assert await error_of(response, 404) == NOT_HELD


# --- organiser remove -----------------------------------------------------------------------

async def remove(client: Any, edit: str, slot_id: Any) -> Any:
    return await client.post(f"/api/hens/{edit}/remove", json={"slotId": slot_id})


async def test_organiser_removes_a_claim(client: Any, planner: dict[str, str]) -> None:
    secret = await claimed(client, planner["slug"], "c1-2", "Bo")
    response = await remove(client, planner["editToken"], "c1-2")
    assert await response.get_json() == {"ok": True, "removed": True}
    assert spot(await read(client, planner["slug"]), "c1-2")["taken"] is False
    response = await client.post("/api/hens/unclaim", json={
        "slug": planner["slug"], "slotId": "c1-2", "secret": secret})
    assert await error_of(response, 404) == NOT_HELD


async def test_removing_an_open_spot(client: Any, planner: dict[str, str]) -> None:
    response = await remove(client, planner["editToken"], "c0-1")
    assert await response.get_json() == {"ok": True, "removed": False}


@pytest.mark.parametrize("slot_id", ["c5-1", "c0-9", "", None, 3])
async def test_remove_bad_slot(client: Any, planner: dict[str, str], slot_id: Any) -> None:
    assert await error_of(await remove(client, planner["editToken"], slot_id), 400) == BAD_SLOT


async def test_remove_without_body(client: Any, planner: dict[str, str]) -> None:
    response = await client.post(f"/api/hens/{planner['editToken']}/remove")
    assert await error_of(response, 400) == BAD_SLOT


@pytest.mark.parametrize("token", ["x", "2" * 26, "slug-like-token"])
async def test_remove_with_a_bad_edit_token(client: Any, planner: dict[str, str],
                                            token: str) -> None:
    await claimed(client, planner["slug"], "c0-1")
    response = await remove(client, token, "c0-1")
    assert await response.get_json() == NOT_FOUND
    response = await remove(client, planner["slug"], "c0-1")
    assert await response.get_json() == NOT_FOUND
    assert spot(await read(client, planner["slug"]), "c0-1")["taken"] is True


# --- export and OpenAPI ---------------------------------------------------------------------

async def test_export_has_claims_and_times_but_no_secrets(client: Any, planner: dict[str, str]
                                                          ) -> None:
    secret = await claimed(client, planner["slug"], "c0-2", "Ann", "Streamers")
    response = await client.post(f"/api/hens/{planner['editToken']}/export")
    text = (await response.get_data()).decode()
    assert secret not in text
    export = await response.get_json()
    assert (export["tool"], export["slug"]) == ("hens", planner["slug"])
    taken = spot(export["data"], "c0-2")
    assert (taken["name"], taken["message"]) == ("Ann", "Streamers")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00", taken["claimedAt"])
    assert export["data"]["where"] == "Bellbird Cottage, 7 Wattle Lane"


async def test_openapi_documents_every_operation(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    claim_op = paths["/api/hens/claim"]["post"]
    assert BAD_SLOT in claim_op["responses"]["400"]["description"]
    assert NO_NAME in claim_op["responses"]["400"]["description"]
    assert TAKEN in claim_op["responses"]["409"]["description"]
    assert "201" in claim_op["responses"]
    assert NOT_HELD in paths["/api/hens/unclaim"]["post"]["responses"]["404"]["description"]
    remove_op = paths["/api/hens/{editToken}/remove"]["post"]
    assert set(remove_op["requestBody"]["content"]["application/json"]["schema"][
        "properties"]) == {"slotId"}
    for path in ("/api/hens", "/api/hens/{slug}", "/api/hens/{editToken}/delete",
                 "/api/hens/{editToken}/export"):
        assert path in paths
    tag = next(tag for tag in document["tags"] if tag["name"] == "hens")
    assert "never in the share page's link-preview metadata" in tag["description"]
