"""Claiming, releasing and removing spots; what the public read shows and never shows."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
BAD_SLOT = "That spot doesn't exist on this board."
NO_NAME = "Add your name so people know who's bringing it."
NO_DISH = "Add what you're bringing so nobody doubles up."
TAKEN = "Someone snapped that spot up seconds ago — pick another."
NOT_HELD = "That spot isn't held with that secret — it may already be free."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


async def claim(client: Any, slug: str, slot_id: Any = "c0-1", name: Any = "Ann",
                dish: Any = "Lasagne", **extra: Any) -> Any:
    body = {"slug": slug, "slotId": slot_id, "name": name, "dish": dish, **extra}
    return await client.post("/api/plate/claim", json=body)


async def claimed(client: Any, slug: str, slot_id: str = "c0-1", name: str = "Ann",
                  dish: str = "Lasagne") -> str:
    response = await claim(client, slug, slot_id, name, dish)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    return str(payload["secret"])


async def read(client: Any, slug: str) -> dict[str, Any]:
    response = await client.get(f"/api/plate/{slug}")
    assert response.status_code == 200
    return dict(await response.get_json())


def spot(board: dict[str, Any], slot_id: str) -> dict[str, Any]:
    for category in board["categories"]:
        for found in category["spots"]:
            if found["slotId"] == slot_id:
                return dict(found)
    raise AssertionError(f"no spot {slot_id}")


async def error_of(response: Any, status: int) -> str:
    payload = await response.get_json()
    assert response.status_code == status, payload
    assert set(payload) == {"error"}
    return str(payload["error"])


# --- claim --------------------------------------------------------------------------------

async def test_claim_returns_a_16_character_secret(client: Any, board: dict[str, str]) -> None:
    response = await claim(client, board["slug"])
    assert response.status_code == 201
    payload = await response.get_json()
    assert set(payload) == {"secret"}
    assert re.fullmatch(rf"[{ALPHABET}]{{16}}", payload["secret"])


async def test_claim_shows_on_the_board(client: Any, board: dict[str, str]) -> None:
    await claimed(client, board["slug"], "c1-2", "Bo", "Pavlova")
    view = await read(client, board["slug"])
    assert spot(view, "c1-2") == {"slotId": "c1-2", "taken": True, "name": "Bo",
                                  "dish": "Pavlova"}
    assert spot(view, "c1-1")["taken"] is False
    assert [category["taken"] for category in view["categories"]] == [0, 1]


async def test_secrets_differ_per_claim(client: Any, board: dict[str, str]) -> None:
    secrets = {await claimed(client, board["slug"], f"c0-{n}") for n in range(1, 5)}
    assert len(secrets) == 4


async def test_name_and_dish_are_cleaned(client: Any, board: dict[str, str]) -> None:
    await claimed(client, board["slug"], "c0-1", "  Ann \n  Lee ", "  Spag\t\tbol  ")
    await claimed(client, board["slug"], "c0-2", "n" * 100, "d" * 500)
    view = await read(client, board["slug"])
    assert (spot(view, "c0-1")["name"], spot(view, "c0-1")["dish"]) == ("Ann Lee", "Spag bol")
    assert (spot(view, "c0-2")["name"], spot(view, "c0-2")["dish"]) == ("n" * 40, "d" * 80)


async def test_second_claim_on_a_spot_is_409(client: Any, board: dict[str, str]) -> None:
    await claimed(client, board["slug"], "c0-3", "Ann", "Lasagne")
    response = await claim(client, board["slug"], "c0-3", "Bo", "Curry")
    assert await error_of(response, 409) == TAKEN
    assert spot(await read(client, board["slug"]), "c0-3")["name"] == "Ann"


@pytest.mark.parametrize("slot_id", [
    "c2-1", "c0-0", "c0-5", "c1-3", "c-1-1", "c0-1 ", " c0-1", "C0-1", "c00-1", "c0-01",
    "c0", "c0-", "s0-1", "c0-1-1", "", None, 1, ["c0-1"], {"id": "c0-1"}])
async def test_unknown_slot_id(client: Any, board: dict[str, str], slot_id: Any) -> None:
    response = await claim(client, board["slug"], slot_id)
    assert await error_of(response, 400) == BAD_SLOT


async def test_missing_slot_id(client: Any, board: dict[str, str]) -> None:
    response = await client.post("/api/plate/claim", json={
        "slug": board["slug"], "name": "Ann", "dish": "Pie"})
    assert await error_of(response, 400) == BAD_SLOT


@pytest.mark.parametrize("name", ["", "   ", "\n", None, 7, ["Ann"]])
async def test_name_required(client: Any, board: dict[str, str], name: Any) -> None:
    assert await error_of(await claim(client, board["slug"], name=name), 400) == NO_NAME


@pytest.mark.parametrize("dish", ["", "  \t ", None, 3, {"dish": "Pie"}])
async def test_dish_required(client: Any, board: dict[str, str], dish: Any) -> None:
    assert await error_of(await claim(client, board["slug"], dish=dish), 400) == NO_DISH


async def test_missing_name_and_dish_keys(client: Any, board: dict[str, str]) -> None:
    response = await client.post("/api/plate/claim", json={
        "slug": board["slug"], "slotId": "c0-1", "dish": "Pie"})
    assert await error_of(response, 400) == NO_NAME
    response = await client.post("/api/plate/claim", json={
        "slug": board["slug"], "slotId": "c0-1", "name": "Ann"})
    assert await error_of(response, 400) == NO_DISH


async def test_claim_check_order(client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    assert await error_of(await claim(client, slug, "c9-9", "", ""), 400) == BAD_SLOT
    assert await error_of(await claim(client, slug, "c9-9", "Ann", ""), 400) == BAD_SLOT
    assert await error_of(await claim(client, slug, "c0-1", "", ""), 400) == NO_NAME
    assert await error_of(await claim(client, slug, "c0-1", "Ann", ""), 400) == NO_DISH
    # Validation comes before the conflict: a taken spot with a bad body is still a 400.
    await claimed(client, slug, "c0-1")
    assert await error_of(await claim(client, slug, "c0-1", "", "Pie"), 400) == NO_NAME
    assert await error_of(await claim(client, slug, "c0-1", "Bo", " "), 400) == NO_DISH
    assert await error_of(await claim(client, slug, "c0-1", "Bo", "Pie"), 409) == TAKEN


async def test_failed_claims_leave_the_spot_open(client: Any, board: dict[str, str]) -> None:
    await claim(client, board["slug"], "c0-1", "", "Pie")
    await claim(client, board["slug"], "c0-1", "Ann", "")
    assert spot(await read(client, board["slug"]), "c0-1")["taken"] is False


@pytest.mark.parametrize("slug", [None, "", "nope", "street-party-23456789abcdef", 5])
async def test_claim_with_unknown_slug_is_404(client: Any, slug: Any) -> None:
    response = await claim(client, slug)
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND


async def test_unknown_slug_wins_over_body_errors(client: Any) -> None:
    response = await client.post("/api/plate/claim", data=b"{oops",
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND


async def test_slug_of_another_tool_is_404(make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["plate", "sweeps"]).test_client()
    sweep = await create(client, "sweeps", {"outcomes": ["a", "b"], "names": ["x", "y"]})
    response = await claim(client, sweep["slug"])
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND
    response = await client.post(f"/api/plate/{sweep['editToken']}/remove",
                                 json={"slotId": "c0-1"})
    assert await response.get_json() == NOT_FOUND
    assert (await client.get(f"/api/plate/{sweep['slug']}")).status_code == 404


async def test_claims_on_two_boards_are_separate(client: Any, board: dict[str, str]) -> None:
    other = await create(client, "plate", {"categories": [{"name": "Mains", "capacity": 1}]})
    await claimed(client, board["slug"], "c0-1", "Ann", "Pie")
    await claimed(client, other["slug"], "c0-1", "Bo", "Soup")
    assert spot(await read(client, board["slug"]), "c0-1")["name"] == "Ann"
    assert spot(await read(client, other["slug"]), "c0-1")["name"] == "Bo"


# --- unclaim ------------------------------------------------------------------------------

async def unclaim(client: Any, slug: Any, slot_id: Any, secret: Any) -> Any:
    return await client.post("/api/plate/unclaim",
                             json={"slug": slug, "slotId": slot_id, "secret": secret})


async def test_unclaim_with_the_secret_frees_the_spot(client: Any,
                                                      board: dict[str, str]) -> None:
    secret = await claimed(client, board["slug"], "c0-2")
    response = await unclaim(client, board["slug"], "c0-2", secret)
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    assert spot(await read(client, board["slug"]), "c0-2") == {
        "slotId": "c0-2", "taken": False, "name": None, "dish": None}
    await claimed(client, board["slug"], "c0-2", "Bo", "Curry")
    assert spot(await read(client, board["slug"]), "c0-2")["name"] == "Bo"


async def test_unclaim_with_a_wrong_secret_is_404(client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    secret = await claimed(client, slug, "c0-1")
    other = await claimed(client, slug, "c0-2")
    wrong = "".join("2" if ch != "2" else "3" for ch in secret)
    for slot_id, attempt in [("c0-1", wrong), ("c0-1", other), ("c0-1", secret.upper()),
                             ("c0-1", secret[:15]), ("c0-1", ""), ("c0-1", None),
                             ("c0-3", secret), ("c9-9", secret), (None, secret)]:
        response = await unclaim(client, slug, slot_id, attempt)
        assert await error_of(response, 404) == NOT_HELD
    response = await client.post("/api/plate/unclaim", json={"slug": slug, "slotId": "c0-1"})
    assert await error_of(response, 404) == NOT_HELD
    view = await read(client, slug)
    assert spot(view, "c0-1")["taken"] and spot(view, "c0-2")["taken"]


async def test_unclaim_twice_is_404(client: Any, board: dict[str, str]) -> None:
    secret = await claimed(client, board["slug"])
    assert (await unclaim(client, board["slug"], "c0-1", secret)).status_code == 200
    assert await error_of(await unclaim(client, board["slug"], "c0-1", secret), 404) \
        == NOT_HELD


async def test_old_secret_does_not_release_the_next_claim(client: Any,
                                                          board: dict[str, str]) -> None:
    old = await claimed(client, board["slug"])
    assert (await unclaim(client, board["slug"], "c0-1", old)).status_code == 200
    await claimed(client, board["slug"], "c0-1", "Bo", "Curry")
    assert await error_of(await unclaim(client, board["slug"], "c0-1", old), 404) == NOT_HELD
    assert spot(await read(client, board["slug"]), "c0-1")["name"] == "Bo"


async def test_secret_only_works_on_its_own_board(client: Any, board: dict[str, str]) -> None:
    other = await create(client, "plate", {"categories": [{"name": "Mains", "capacity": 1}]})
    secret = await claimed(client, board["slug"])
    await claimed(client, other["slug"])
    assert await error_of(await unclaim(client, other["slug"], "c0-1", secret), 404) \
        == NOT_HELD


async def test_unclaim_with_unknown_slug_is_404(client: Any, board: dict[str, str]) -> None:
    secret = await claimed(client, board["slug"])
    response = await unclaim(client, board["slug"] + "x", "c0-1", secret)
    assert await response.get_json() == NOT_FOUND


# --- organiser remove ---------------------------------------------------------------------

async def remove(client: Any, edit_token: str, slot_id: Any) -> Any:
    return await client.post(f"/api/plate/{edit_token}/remove", json={"slotId": slot_id})


async def test_organiser_removes_a_claim(client: Any, board: dict[str, str]) -> None:
    secret = await claimed(client, board["slug"], "c1-1", "Ann", "Trifle")
    response = await remove(client, board["editToken"], "c1-1")
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "removed": True}
    assert spot(await read(client, board["slug"]), "c1-1")["taken"] is False
    assert await error_of(await unclaim(client, board["slug"], "c1-1", secret), 404) \
        == NOT_HELD
    await claimed(client, board["slug"], "c1-1", "Bo", "Eton mess")


async def test_removing_a_free_spot_is_fine(client: Any, board: dict[str, str]) -> None:
    response = await remove(client, board["editToken"], "c0-4")
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "removed": False}
    await claimed(client, board["slug"], "c0-4")
    assert await (await remove(client, board["editToken"], "c0-4")).get_json() == {
        "ok": True, "removed": True}
    assert await (await remove(client, board["editToken"], "c0-4")).get_json() == {
        "ok": True, "removed": False}


async def test_remove_only_touches_that_spot(client: Any, board: dict[str, str]) -> None:
    for slot_id in ("c0-1", "c0-2", "c1-1"):
        await claimed(client, board["slug"], slot_id)
    await remove(client, board["editToken"], "c0-2")
    view = await read(client, board["slug"])
    assert [s["taken"] for c in view["categories"] for s in c["spots"]] == [
        True, False, False, False, True, False]


@pytest.mark.parametrize("slot_id", ["c2-1", "c0-0", "c0-5", "C0-1", "", None, 3])
async def test_remove_unknown_slot_is_400(client: Any, board: dict[str, str],
                                          slot_id: Any) -> None:
    assert await error_of(await remove(client, board["editToken"], slot_id), 400) == BAD_SLOT


async def test_remove_without_a_body_is_400(client: Any, board: dict[str, str]) -> None:
    response = await client.post(f"/api/plate/{board['editToken']}/remove")
    assert await error_of(response, 400) == BAD_SLOT


@pytest.mark.parametrize("token", ["x", "2" * 26, "a" * 27])
async def test_remove_with_a_bad_edit_token_is_404(client: Any, board: dict[str, str],
                                                   token: str) -> None:
    await claimed(client, board["slug"])
    response = await remove(client, token, "c0-1")
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND
    assert spot(await read(client, board["slug"]), "c0-1")["taken"] is True


async def test_the_slug_is_not_an_edit_token(client: Any, board: dict[str, str]) -> None:
    response = await remove(client, board["slug"], "c0-1")
    assert await response.get_json() == NOT_FOUND


# --- what is public -----------------------------------------------------------------------

async def test_public_read_never_holds_a_secret(client: Any, board: dict[str, str]) -> None:
    secrets = [await claimed(client, board["slug"], slot_id, f"Cook {slot_id}", "Stew")
               for slot_id in ("c0-1", "c0-2", "c1-2")]
    response = await client.get(f"/api/plate/{board['slug']}")
    text = (await response.get_data()).decode()
    for secret in secrets:
        assert secret not in text
    assert board["editToken"] not in text
    payload = json.loads(text)

    def keys(value: Any) -> set[str]:
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        if isinstance(value, list):
            return {k for v in value for k in keys(v)}
        return set()

    assert not {key for key in keys(payload) if "secret" in key.lower()}
    assert "claimedAt" not in keys(payload)
    assert set(payload) == {"title", "heading", "eventDate", "note", "categories"}
    assert payload["title"] == "Street party"
    assert payload["eventDate"] == "Sat 6 Dec, 4pm"
    assert payload["note"] == "Bring a chair."


async def test_export_has_claims_and_times_but_no_secrets(client: Any,
                                                          board: dict[str, str]) -> None:
    secret = await claimed(client, board["slug"], "c0-3", "Ann", "Lasagne")
    response = await client.post(f"/api/plate/{board['editToken']}/export")
    assert response.status_code == 200
    text = (await response.get_data()).decode()
    assert secret not in text
    export = json.loads(text)
    assert export["tool"] == "plate"
    assert export["toolVersion"] == "0.1.0"
    assert export["slug"] == board["slug"]
    taken = spot(export["data"], "c0-3")
    assert (taken["name"], taken["dish"], taken["taken"]) == ("Ann", "Lasagne", True)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00", taken["claimedAt"])
    assert spot(export["data"], "c0-1")["claimedAt"] is None


async def test_openapi_documents_plate_operations(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    claim_op = paths["/api/plate/claim"]["post"]
    assert set(claim_op["responses"]) >= {"201", "400", "404", "409", "429"}
    described = claim_op["responses"]["400"]["description"]
    for message in (BAD_SLOT, NO_NAME, NO_DISH):
        assert message in described
    assert TAKEN in claim_op["responses"]["409"]["description"]
    assert NOT_HELD in paths["/api/plate/unclaim"]["post"]["responses"]["404"]["description"]
    remove_op = paths["/api/plate/{editToken}/remove"]["post"]
    assert BAD_SLOT in remove_op["responses"]["400"]["description"]
    for path in ("/api/plate", "/api/plate/{slug}", "/api/plate/{editToken}/delete",
                 "/api/plate/{editToken}/export"):
        assert path in paths
    read_schema = paths["/api/plate/{slug}"]["get"]["responses"]["200"]["content"][
        "application/json"]["schema"]
    assert "categories" in read_schema["properties"]
