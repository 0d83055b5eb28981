"""POST /api/baby/guess: every message in the spec's order, the window, the weight, the cap,
the closed pool; taking a guess back, and the organiser removing one."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create

NO_GUESSER = "Add your name so we know whose guess it is."
NO_DATE = "Pick a date for your guess."
BAD_DATE = "That date doesn't look right — use the date picker."
NO_SUCH_DAY = "That date doesn't look right — check the day and month."
OUT_OF_WINDOW = "Keep the date within a year or so — it's a guess, not a prophecy."
BAD_WEIGHT = "Give a weight between 0.5 and 7 kg."
FULL = "This pool's chockers — that's the limit on guesses."
CLOSED = "Bub's already here — the guessing's closed."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"

# The clock stands at 2026-03-01 22:30 UTC (see conftest): the window is 2025-01-25 ..
# 2027-09-02.
FIRST_DAY, LAST_DAY = "2025-01-25", "2027-09-02"


async def test_guess_returns_token_and_id(h: Any, client: Any, pool: dict[str, str]) -> None:
    response = await h.guess(client, pool["slug"])
    assert response.status_code == 201
    payload = await response.get_json()
    assert set(payload) == {"token", "id"}
    assert re.fullmatch(rf"[{ALPHABET}]{{22}}", payload["token"])
    assert isinstance(payload["id"], str) and payload["id"]


async def test_guess_shows_in_the_pool(h: Any, client: Any, pool: dict[str, str]) -> None:
    made = await h.guessed(client, pool["slug"], "  Ann \n Lee ", " 2026-03-20 ", 3456,
                         message="  Go team\n  bub!  ")
    view = await h.read(client, pool["slug"])
    assert view["guessCount"] == 1
    assert view["guesses"] == [{"id": made["id"], "guesser": "Ann Lee", "date": "2026-03-20",
                                "weightGrams": 3456, "message": "Go team\n  bub!"}]
    assert view["crowd"] == {"date": "2026-03-20", "weightGrams": 3456}
    assert made["token"] not in str(view)


async def test_guesser_cut_to_40_and_message_to_200(h: Any, client: Any,
                                                    pool: dict[str, str]) -> None:
    await h.guessed(client, pool["slug"], "n" * 100, message="m" * 900)
    (entry,) = (await h.read(client, pool["slug"]))["guesses"]
    assert entry["guesser"] == "n" * 40 and entry["message"] == "m" * 200


@pytest.mark.parametrize("message", [None, 5, ["hi"], {"a": "b"}, "   "])
async def test_message_optional(h: Any, client: Any, pool: dict[str, str], message: Any) -> None:
    await h.guessed(client, pool["slug"], message=message)
    assert (await h.read(client, pool["slug"]))["guesses"][0]["message"] == ""


async def test_message_key_missing(h: Any, client: Any, pool: dict[str, str]) -> None:
    response = await client.post("/api/baby/guess", json={
        "slug": pool["slug"], "guesser": "Ann", "date": "2026-03-14", "weightGrams": 3400})
    made = await response.get_json()
    assert response.status_code == 201, made
    assert (await h.read(client, pool["slug"]))["guesses"] == [
        {"id": made["id"], "guesser": "Ann", "date": "2026-03-14", "weightGrams": 3400,
         "message": ""}]


# --- messages, one at a time ----------------------------------------------------------------

@pytest.mark.parametrize("guesser", [None, "", "  \n ", 5, True, ["Ann"], {"n": "Ann"}])
async def test_missing_guesser(h: Any, client: Any, pool: dict[str, str], guesser: Any) -> None:
    assert await h.error_of(await h.guess(client, pool["slug"], guesser=guesser), 400) == NO_GUESSER


@pytest.mark.parametrize("date", [None, "", "   ", 20260314, ["2026-03-14"], {"d": 1}, True])
async def test_blank_date(h: Any, client: Any, pool: dict[str, str], date: Any) -> None:
    assert await h.error_of(await h.guess(client, pool["slug"], date=date), 400) == NO_DATE


@pytest.mark.parametrize("date", [
    "14/03/2026", "2026-3-14", "2026-03-4", "26-03-14", "2026/03/14", "2026-03-14T00:00",
    "20260314", "March 14", "2026-03-14 x", "+2026-03-14", "２０２６-03-14", "2026-0３-14",
    "abcd-ef-gh", "2026-03"])
async def test_malformed_date(h: Any, client: Any, pool: dict[str, str], date: str) -> None:
    assert await h.error_of(await h.guess(client, pool["slug"], date=date), 400) == BAD_DATE


@pytest.mark.parametrize("date", ["2026-02-29", "2026-02-30", "2026-04-31", "2026-13-01",
                                  "2026-00-10", "2026-03-00", "2026-03-32", "0000-01-01"])
async def test_impossible_day(h: Any, client: Any, pool: dict[str, str], date: str) -> None:
    assert await h.error_of(await h.guess(client, pool["slug"], date=date), 400) == NO_SUCH_DAY


async def test_leap_day_is_real(h: Any, client: Any, pool: dict[str, str]) -> None:
    await h.guessed(client, pool["slug"], date="2027-02-28")
    assert await h.error_of(await h.guess(client, pool["slug"], date="2027-02-29"), 400) == \
        NO_SUCH_DAY


@pytest.mark.parametrize("date", [FIRST_DAY, LAST_DAY, "2026-03-01", "2026-03-02",
                                  "2025-06-30"])
async def test_window_edges_are_inside(h: Any, client: Any,
                                       pool: dict[str, str], date: str) -> None:
    await h.guessed(client, pool["slug"], date=date)


@pytest.mark.parametrize("date", ["2025-01-24", "2027-09-03", "1999-12-31", "9999-12-31",
                                  "0001-01-01"])
async def test_outside_window(h: Any, client: Any, pool: dict[str, str], date: str) -> None:
    assert await h.error_of(await h.guess(client, pool["slug"], date=date), 400) == OUT_OF_WINDOW


async def test_window_moves_with_the_request_time(h: Any, client: Any, pool: dict[str, str],
                                                  clock: Any) -> None:
    assert await h.error_of(await h.guess(client, pool["slug"], date="2027-09-03"), 400) == \
        OUT_OF_WINDOW
    clock.now += dt.timedelta(hours=2)  # 2026-03-02 00:30 UTC: one day later
    await h.guessed(client, pool["slug"], date="2027-09-03")
    assert await h.error_of(await h.guess(client, pool["slug"], date=FIRST_DAY), 400) == \
        OUT_OF_WINDOW


@pytest.mark.parametrize(("sent", "stored"), [
    (500, 500), (7000, 7000), (499.5, 500), (7000.49, 7000), (3400.5, 3401), (3400.4, 3400),
    ("3400", 3400), (" 3200.7 ", 3201), ("3.5e3", 3500), (3500.0, 3500)])
async def test_weight_rounded_then_checked(h: Any, client: Any, pool: dict[str, str], sent: Any,
                                           stored: int) -> None:
    await h.guessed(client, pool["slug"], weight=sent)
    assert (await h.read(client, pool["slug"]))["guesses"][0]["weightGrams"] == stored


@pytest.mark.parametrize("weight", [499, 499.49, 7001, 7000.5, 0, -3400, 3.4, 1e300, None,
                                    "", "heavy", "3,4 kg", True, False, [3400], {"g": 3400},
                                    "NaN", "Infinity"])
async def test_bad_weight(h: Any, client: Any, pool: dict[str, str], weight: Any) -> None:
    assert await h.error_of(await h.guess(client, pool["slug"], weight=weight), 400) == BAD_WEIGHT


async def test_missing_weight(h: Any, client: Any, pool: dict[str, str]) -> None:
    response = await client.post("/api/baby/guess", json={
        "slug": pool["slug"], "guesser": "Ann", "date": "2026-03-14"})
    assert await h.error_of(response, 400) == BAD_WEIGHT


async def test_check_order(h: Any, client: Any, pool: dict[str, str]) -> None:
    slug = pool["slug"]
    cases = [
        (("", "", 1), NO_GUESSER),
        (("", "2099-99-99", 1), NO_GUESSER),
        (("Ann", "", 1), NO_DATE),
        (("Ann", "14/03/2026", 1), BAD_DATE),
        (("Ann", "2026-02-30", 1), NO_SUCH_DAY),
        (("Ann", "2030-01-01", 1), OUT_OF_WINDOW),
        (("Ann", "2026-03-14", 1), BAD_WEIGHT),
    ]
    for (name, date, weight), message in cases:
        assert await h.error_of(await h.guess(client, slug, name, date, weight), 400) == message
    assert (await h.read(client, slug))["guesses"] == []


async def test_unknown_slug_is_404(h: Any, client: Any) -> None:
    for slug in (None, "", "nope", "baby-pool-for-x-23456789abcdef", 7):
        response = await h.guess(client, slug)
        assert response.status_code == 404
        assert await response.get_json() == NOT_FOUND


async def test_slug_of_another_tool_is_404(h: Any, make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["baby", "sweeps"]).test_client()
    sweep = await create(client, "sweeps", {"outcomes": ["a", "b"], "names": ["x", "y"]})
    response = await h.guess(client, sweep["slug"])
    assert await response.get_json() == NOT_FOUND
    response = await client.post(f"/api/baby/{sweep['editToken']}/result",
                                  json={"result": None})
    assert await response.get_json() == NOT_FOUND


# --- the cap and the closed pool ------------------------------------------------------------

async def fill(h: Any, client: Any, slug: str, count: int) -> None:
    for n in range(count):
        await h.guessed(client, slug, f"Guesser {n}", "2026-03-14", 3000 + n)


async def test_three_hundred_guesses_then_chockers(h: Any, client: Any,
                                                   pool: dict[str, str]) -> None:
    slug = pool["slug"]
    await fill(h, client, slug, 299)
    last = await h.guessed(client, slug, "Number 300")
    assert await h.error_of(await h.guess(client, slug, "Number 301"), 409) == FULL
    view = await h.read(client, slug)
    assert view["guessCount"] == 300 and len(view["guesses"]) == 300
    # Validation still comes first on a full pool.
    assert await h.error_of(await h.guess(client, slug, ""), 400) == NO_GUESSER
    assert await h.error_of(await h.guess(client, slug, weight=1), 400) == BAD_WEIGHT
    # Taking one back makes room for exactly one more.
    response = await client.post(f"/api/baby/g/{last['token']}/remove")
    assert response.status_code == 200
    await h.guessed(client, slug, "Number 300 again")
    assert await h.error_of(await h.guess(client, slug, "Number 301"), 409) == FULL
    # Full beats closed: the 300 cap is checked first, in the spec's order.
    result = await client.post(f"/api/baby/{pool['editToken']}/result",
                               json={"date": "2026-03-10", "weightGrams": 3300})
    assert result.status_code == 200
    assert await h.error_of(await h.guess(client, slug, "Late"), 409) == FULL


async def test_closed_pool_refuses_guesses(h: Any, client: Any, pool: dict[str, str]) -> None:
    slug, edit = pool["slug"], pool["editToken"]
    await h.guessed(client, slug, "Ann")
    await client.post(f"/api/baby/{edit}/result", json={"date": "2026-03-10",
                                                         "weightGrams": 3300})
    assert await h.error_of(await h.guess(client, slug, "Bo"), 409) == CLOSED
    # Validation still comes first on a closed pool.
    assert await h.error_of(await h.guess(client, slug, "Bo", date=""), 400) == NO_DATE
    assert (await h.read(client, slug))["guessCount"] == 1
    # Reopened, it takes guesses again.
    await client.post(f"/api/baby/{edit}/result", json={"result": None})
    await h.guessed(client, slug, "Bo")
    assert (await h.read(client, slug))["guessCount"] == 2


# --- taking a guess back --------------------------------------------------------------------

async def test_remove_own_guess(h: Any, client: Any, pool: dict[str, str]) -> None:
    slug = pool["slug"]
    mine = await h.guessed(client, slug, "Ann")
    other = await h.guessed(client, slug, "Bo")
    response = await client.post(f"/api/baby/g/{mine['token']}/remove")
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    view = await h.read(client, slug)
    assert [entry["id"] for entry in view["guesses"]] == [other["id"]]
    # The token is spent.
    again = await client.post(f"/api/baby/g/{mine['token']}/remove")
    assert again.status_code == 404 and await again.get_json() == NOT_FOUND


@pytest.mark.parametrize("token", ["2" * 22, "short", "2" * 23, "ABCDEFGHJKMNPQRSTUVWXY"])
async def test_remove_with_a_bad_token_is_404(h: Any, client: Any, pool: dict[str, str],
                                              token: str) -> None:
    await h.guessed(client, pool["slug"])
    response = await client.post(f"/api/baby/g/{token}/remove")
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND
    assert (await h.read(client, pool["slug"]))["guessCount"] == 1


async def test_a_token_removes_only_its_own_guess(h: Any, client: Any,
                                                  pool: dict[str, str]) -> None:
    other = await create(client, "baby", {"parents": "Someone else"})
    mine = await h.guessed(client, pool["slug"], "Ann")
    theirs = await h.guessed(client, other["slug"], "Ann")
    await client.post(f"/api/baby/g/{mine['token']}/remove")
    assert (await h.read(client, pool["slug"]))["guessCount"] == 0
    assert [e["id"] for e in (await h.read(client, other["slug"]))["guesses"]] == [theirs["id"]]


async def test_remove_own_guess_after_the_result(h: Any, client: Any, pool: dict[str, str]) -> None:
    mine = await h.guessed(client, pool["slug"], "Ann")
    await h.guessed(client, pool["slug"], "Bo")
    await client.post(f"/api/baby/{pool['editToken']}/result",
                      json={"date": "2026-03-10", "weightGrams": 3300})
    assert (await client.post(f"/api/baby/g/{mine['token']}/remove")).status_code == 200
    view = await h.read(client, pool["slug"])
    assert [entry["guesser"] for entry in view["leaderboard"]] == ["Bo"]


# --- the organiser removes one --------------------------------------------------------------

async def test_organiser_removes_one_guess(h: Any, client: Any, pool: dict[str, str]) -> None:
    slug, edit = pool["slug"], pool["editToken"]
    first = await h.guessed(client, slug, "Ann")
    second = await h.guessed(client, slug, "Bo")
    response = await client.post(f"/api/baby/{edit}/remove", json={"id": first["id"]})
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "removed": True}
    assert [e["id"] for e in (await h.read(client, slug))["guesses"]] == [second["id"]]
    # The guesser's token died with the guess.
    gone = await client.post(f"/api/baby/g/{first['token']}/remove")
    assert gone.status_code == 404
    # Removing again, or an id that never was, changes nothing.
    for body in ({"id": first["id"]}, {"id": "nope"}, {"id": None}, {"id": 5}, {}):
        response = await client.post(f"/api/baby/{edit}/remove", json=body)
        assert await response.get_json() == {"ok": True, "removed": False}
    assert (await h.read(client, slug))["guessCount"] == 1


async def test_organiser_cannot_remove_another_pools_guess(h: Any, client: Any,
                                                           pool: dict[str, str]) -> None:
    other = await create(client, "baby", {"parents": "Someone else"})
    theirs = await h.guessed(client, other["slug"], "Ann")
    response = await client.post(f"/api/baby/{pool['editToken']}/remove",
                                 json={"id": theirs["id"]})
    assert await response.get_json() == {"ok": True, "removed": False}
    assert (await h.read(client, other["slug"]))["guessCount"] == 1


async def test_organiser_remove_with_a_public_slug_is_404(h: Any, client: Any,
                                                         pool: dict[str, str]) -> None:
    made = await h.guessed(client, pool["slug"])
    response = await client.post(f"/api/baby/{pool['slug']}/remove", json={"id": made["id"]})
    assert response.status_code == 404
    assert (await h.read(client, pool["slug"]))["guessCount"] == 1
