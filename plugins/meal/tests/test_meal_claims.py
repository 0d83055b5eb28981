"""Claiming days and jobs, uncooking, organiser remove; what the public read shows."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
BAD_SLOT = "That day isn't on this roster."
NO_NAME = "Add your name so the family knows who's cooking."
DAY_TAKEN = "Someone's already got that day — pick another."
JOB_TAKEN = "Someone's already on that job — pick another spot."
NOT_HELD = "That spot isn't held with that secret — it may already be free."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


async def claim(client: Any, slug: Any, slot_id: Any = "d0-1", name: Any = "Ann",
                dish: Any = None) -> Any:
    body: dict[str, Any] = {"slug": slug, "slotId": slot_id, "name": name}
    if dish is not None:
        body["dish"] = dish
    return await client.post("/api/meal/claim", json=body)


async def claimed(client: Any, slug: str, slot_id: str = "d0-1", name: str = "Ann",
                  dish: str | None = None) -> str:
    response = await claim(client, slug, slot_id, name, dish)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    return str(payload["secret"])


async def read(client: Any, slug: str) -> dict[str, Any]:
    response = await client.get(f"/api/meal/{slug}")
    assert response.status_code == 200
    return dict(await response.get_json())


def spot(board: dict[str, Any], slot_id: str) -> dict[str, Any]:
    for group in (*board["days"], *board["tasks"]):
        for found in group["spots"]:
            if found["slotId"] == slot_id:
                return dict(found)
    raise AssertionError(f"no spot {slot_id}")


async def error_of(response: Any, status: int) -> str:
    payload = await response.get_json()
    assert response.status_code == status, payload
    assert set(payload) == {"error"}
    return str(payload["error"])


# --- claim a day --------------------------------------------------------------------------

async def test_claim_returns_a_16_character_secret(client: Any, train: dict[str, str]) -> None:
    response = await claim(client, train["slug"], dish="Lasagne")
    assert response.status_code == 201
    payload = await response.get_json()
    assert set(payload) == {"secret"}
    assert re.fullmatch(rf"[{ALPHABET}]{{16}}", payload["secret"])


async def test_claimed_day_shows_name_and_dish_publicly(client: Any,
                                                        train: dict[str, str]) -> None:
    slug = train["slug"]
    await claimed(client, slug, "d1-2", "Bo", "Chicken soup")
    view = await read(client, slug)
    assert spot(view, "d1-2") == {"slotId": "d1-2", "taken": True, "name": "Bo",
                                  "dish": "Chicken soup",
                                  "calendar": f"/api/meal/{slug}/ics/d1-2"}
    assert spot(view, "d1-1") == {"slotId": "d1-1", "taken": False, "name": None,
                                  "dish": None, "calendar": None}
    assert [day["taken"] for day in view["days"]] == [0, 1, 0]


async def test_dish_is_optional_and_cleaned(client: Any, train: dict[str, str]) -> None:
    slug = train["slug"]
    await claimed(client, slug, "d0-1", "  Ann \n Lee ")
    await claimed(client, slug, "d0-2", "n" * 99, "  Spag \n\n bol " + "x" * 200)
    await claim(client, slug, "d1-1", "Cy", 5)
    view = await read(client, slug)
    assert (spot(view, "d0-1")["name"], spot(view, "d0-1")["dish"]) == ("Ann Lee", "")
    assert (spot(view, "d0-2")["name"], spot(view, "d0-2")["dish"]) == (
        "n" * 40, ("Spag bol " + "x" * 200)[:120])
    assert spot(view, "d1-1")["dish"] == ""


async def test_second_claim_on_a_day_spot_is_409(client: Any, train: dict[str, str]) -> None:
    await claimed(client, train["slug"], "d2-1", "Ann")
    assert await error_of(await claim(client, train["slug"], "d2-1", "Bo"), 409) == DAY_TAKEN
    # The day's other cook spot is still free.
    await claimed(client, train["slug"], "d2-2", "Bo")
    assert spot(await read(client, train["slug"]), "d2-1")["name"] == "Ann"


@pytest.mark.parametrize("slot_id", [
    "d3-1", "d0-0", "d0-3", "d-1-1", "D0-1", "d00-1", "d0-01", " d0-1", "d0-1 ", "d0", "d0-",
    "c0-1", "s0-1", "t0-3", "t1-2", "t2-1", "t0", "t-0-1", "", None, 1, ["d0-1"],
    {"slotId": "d0-1"}])
async def test_unknown_slot_id(client: Any, train: dict[str, str], slot_id: Any) -> None:
    assert await error_of(await claim(client, train["slug"], slot_id), 400) == BAD_SLOT


async def test_missing_slot_id(client: Any, train: dict[str, str]) -> None:
    response = await client.post("/api/meal/claim", json={"slug": train["slug"], "name": "A"})
    assert await error_of(response, 400) == BAD_SLOT


@pytest.mark.parametrize("name", ["", "   ", "\n", None, 7, ["Ann"], {"n": "Ann"}])
async def test_name_required(client: Any, train: dict[str, str], name: Any) -> None:
    response = await claim(client, train["slug"], "d0-1", name, "Soup")
    assert await error_of(response, 400) == NO_NAME


async def test_claim_check_order(client: Any, train: dict[str, str]) -> None:
    slug = train["slug"]
    assert await error_of(await claim(client, slug, "d9-9", ""), 400) == BAD_SLOT
    assert await error_of(await claim(client, slug, "d0-1", ""), 400) == NO_NAME
    await claimed(client, slug, "d0-1")
    assert await error_of(await claim(client, slug, "d0-1", " "), 400) == NO_NAME
    assert await error_of(await claim(client, slug, "d0-1", "Bo"), 409) == DAY_TAKEN


@pytest.mark.parametrize("slug", [None, "", "nope", "meals-for-jo-23456789abcdef", 5])
async def test_claim_with_unknown_slug_is_404(client: Any, slug: Any) -> None:
    response = await claim(client, slug)
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND


async def test_credentials_of_another_tool_are_404(make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["meal", "roster"]).test_client()
    roster = await create(client, "roster", {"shifts": [{"label": "Setup", "capacity": 1}]})
    assert await (await claim(client, roster["slug"])).get_json() == NOT_FOUND
    edit = roster["editToken"]
    for path, body in ((f"/api/meal/{edit}/remove", {"slotId": "d0-1"}),
                       (f"/api/meal/{edit}/details", {"forWhom": "x"}),
                       (f"/api/meal/{edit}/addDays", {"startDate": "2030-01-01", "days": 1}),
                       (f"/api/meal/{edit}/addTask", {"label": "x"}),
                       (f"/api/meal/{edit}/removeTask", {"taskId": "t0"}),
                       ("/api/meal/uncook", {"slug": roster["slug"], "slotId": "d0-1",
                                             "secret": "x" * 16})):
        response = await client.post(path, json=body)
        assert await response.get_json() == NOT_FOUND, path
    for path in (f"/api/meal/{edit}/admin", f"/api/meal/{roster['slug']}",
                 f"/api/meal/{roster['slug']}/ics/d0-1"):
        assert await (await client.get(path)).get_json() == NOT_FOUND, path


# --- claim a job --------------------------------------------------------------------------

async def test_job_spots_are_claimed_like_days(client: Any, train: dict[str, str]) -> None:
    slug = train["slug"]
    secret = await claimed(client, slug, "t0-2", "Cy", "ignored dish")
    view = await read(client, slug)
    assert spot(view, "t0-2") == {"slotId": "t0-2", "taken": True, "name": "Cy"}
    assert [task["taken"] for task in view["tasks"]] == [1, 0]
    assert await error_of(await claim(client, slug, "t0-2", "Di"), 409) == JOB_TAKEN
    assert await error_of(await claim(client, slug, "t1-1", ""), 400) == NO_NAME
    response = await client.post("/api/meal/uncook", json={
        "slug": slug, "slotId": "t0-2", "secret": secret})
    assert response.status_code == 200
    assert spot(await read(client, slug), "t0-2")["taken"] is False


# --- uncook -------------------------------------------------------------------------------

async def uncook(client: Any, slug: Any, slot_id: Any, secret: Any) -> Any:
    return await client.post("/api/meal/uncook",
                             json={"slug": slug, "slotId": slot_id, "secret": secret})


async def test_uncook_with_the_secret_hands_the_day_back(client: Any,
                                                         train: dict[str, str]) -> None:
    secret = await claimed(client, train["slug"], "d1-1", "Ann", "Pie")
    response = await uncook(client, train["slug"], "d1-1", secret)
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    assert spot(await read(client, train["slug"]), "d1-1")["taken"] is False
    await claimed(client, train["slug"], "d1-1", "Bo")


async def test_uncook_with_a_wrong_secret_is_404(client: Any, train: dict[str, str]) -> None:
    slug = train["slug"]
    secret = await claimed(client, slug, "d0-1")
    other = await claimed(client, slug, "d0-2")
    wrong = "".join("2" if ch != "2" else "3" for ch in secret)
    for slot_id, attempt in [("d0-1", wrong), ("d0-1", other), ("d0-1", secret.upper()),
                             ("d0-1", secret[:15]), ("d0-1", ""), ("d0-1", None),
                             ("d1-1", secret), ("d9-1", secret), (None, secret)]:
        assert await error_of(await uncook(client, slug, slot_id, attempt), 404) == NOT_HELD
    view = await read(client, slug)
    assert spot(view, "d0-1")["taken"] and spot(view, "d0-2")["taken"]


async def test_uncook_twice_and_stale_secrets(client: Any, train: dict[str, str]) -> None:
    slug = train["slug"]
    old = await claimed(client, slug)
    assert (await uncook(client, slug, "d0-1", old)).status_code == 200
    assert await error_of(await uncook(client, slug, "d0-1", old), 404) == NOT_HELD
    await claimed(client, slug, "d0-1", "Bo")
    assert await error_of(await uncook(client, slug, "d0-1", old), 404) == NOT_HELD
    assert spot(await read(client, slug), "d0-1")["name"] == "Bo"


async def test_unclaim_is_not_the_meal_path(client: Any, train: dict[str, str]) -> None:
    secret = await claimed(client, train["slug"])
    response = await client.post("/api/meal/unclaim", json={
        "slug": train["slug"], "slotId": "d0-1", "secret": secret})
    assert response.status_code in (404, 405)
    assert spot(await read(client, train["slug"]), "d0-1")["taken"] is True


# --- organiser remove ---------------------------------------------------------------------

async def remove(client: Any, edit_token: str, slot_id: Any) -> Any:
    return await client.post(f"/api/meal/{edit_token}/remove", json={"slotId": slot_id})


async def test_organiser_removes_a_day_or_job_claim(client: Any, train: dict[str, str]) -> None:
    secret = await claimed(client, train["slug"], "d2-2", "Ann", "Stew")
    await claimed(client, train["slug"], "t1-1", "Bo")
    response = await remove(client, train["editToken"], "d2-2")
    assert await response.get_json() == {"ok": True, "removed": True}
    assert await (await remove(client, train["editToken"], "t1-1")).get_json() == {
        "ok": True, "removed": True}
    assert await (await remove(client, train["editToken"], "t1-1")).get_json() == {
        "ok": True, "removed": False}
    view = await read(client, train["slug"])
    assert not spot(view, "d2-2")["taken"] and not spot(view, "t1-1")["taken"]
    assert await error_of(await uncook(client, train["slug"], "d2-2", secret), 404) == NOT_HELD


@pytest.mark.parametrize("slot_id", ["d3-1", "d0-3", "t2-1", "", None, 3, ["d0-1"]])
async def test_remove_unknown_slot_is_400(client: Any, train: dict[str, str],
                                          slot_id: Any) -> None:
    assert await error_of(await remove(client, train["editToken"], slot_id), 400) == BAD_SLOT


async def test_remove_with_a_bad_edit_token_is_404(client: Any, train: dict[str, str]) -> None:
    for token in ("x", "2" * 26, train["slug"]):
        response = await remove(client, token, "d0-1")
        assert await response.get_json() == NOT_FOUND


# --- the public read ------------------------------------------------------------------------

async def test_public_read_shape(client: Any, train: dict[str, str]) -> None:
    secret = await claimed(client, train["slug"], "d0-1", "Ann", "Soup")
    view = await read(client, train["slug"])
    assert set(view) == {"title", "forWhom", "note", "allergies", "capacityPerDay", "days",
                         "tasks", "helpLinks"}
    assert view["title"] == "Meals for the Smiths"
    assert view["helpLinks"] == [{"label": "Gift card", "url": "https://example.com/gift"}]
    assert secret not in json.dumps(view)
    assert "claimedAt" not in json.dumps(view)
