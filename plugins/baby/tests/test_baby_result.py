"""POST /api/baby/{editToken}/result: closing with a result, the leaderboard and what
"closest" means, reopening with a null result."""

from __future__ import annotations

from typing import Any

import pytest

NO_RESULT_DATE = "Add the day bub arrived."
BAD_DATE = "That date doesn't look right — use the date picker."
NO_SUCH_DAY = "That date doesn't look right — check the day and month."
BAD_WEIGHT = "Give a weight between 0.5 and 7 kg."
CLOSED = "Bub's already here — the guessing's closed."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


async def post_result(client: Any, edit: str, body: Any) -> Any:
    return await client.post(f"/api/baby/{edit}/result", json=body)


async def test_result_closes_and_ranks(h: Any, client: Any, pool: dict[str, str]) -> None:
    slug, edit = pool["slug"], pool["editToken"]
    ann = await h.guessed(client, slug, "Ann", "2026-03-12", 3300)   # 2 days, 100 g
    bo = await h.guessed(client, slug, "Bo", "2026-03-08", 3400)     # 2 days, 0 g
    cy = await h.guessed(client, slug, "Cy", "2026-03-11", 4000)     # 1 day, 600 g
    di = await h.guessed(client, slug, "Di", "2026-03-10", 3400)     # spot on
    response = await post_result(client, edit, {"date": "2026-03-10", "weightGrams": 3400,
                                                "arrivedAt": " 6:42am,\n  Royal Women's "})
    assert response.status_code == 200
    payload = await response.get_json()
    assert payload["ok"] is True and payload["open"] is False
    assert payload["result"] == {"date": "2026-03-10", "weightGrams": 3400,
                                 "arrivedAt": "6:42am, Royal Women's"}
    view = await h.read(client, slug)
    assert view["open"] is False and view["result"] == payload["result"]
    board = view["leaderboard"]
    assert [(e["rank"], e["id"], e["daysOff"], e["gramsOff"]) for e in board] == [
        (1, di["id"], 0, 0), (2, cy["id"], 1, 600), (3, bo["id"], 2, 0),
        (4, ann["id"], 2, 100)]
    assert set(board[0]) == {"rank", "id", "guesser", "date", "weightGrams", "message",
                             "daysOff", "gramsOff"}
    assert [e["id"] for e in payload["leaderboard"]] == [e["id"] for e in board]
    assert all("guessedAt" in e for e in payload["leaderboard"])


async def test_days_count_before_grams(h: Any, client: Any, pool: dict[str, str]) -> None:
    slug = pool["slug"]
    near_day = await h.guessed(client, slug, "Near day", "2026-03-11", 6000)
    near_weight = await h.guessed(client, slug, "Near weight", "2026-03-12", 3400)
    await post_result(client, pool["editToken"], {"date": "2026-03-10", "weightGrams": 3400})
    board = (await h.read(client, slug))["leaderboard"]
    assert [e["id"] for e in board] == [near_day["id"], near_weight["id"]]


async def test_days_off_either_side_count_the_same(h: Any, client: Any,
                                                   pool: dict[str, str]) -> None:
    slug = pool["slug"]
    early = await h.guessed(client, slug, "Early", "2026-03-07", 3500)
    late = await h.guessed(client, slug, "Late", "2026-03-13", 3450)
    await post_result(client, pool["editToken"], {"date": "2026-03-10", "weightGrams": 3400})
    board = (await h.read(client, slug))["leaderboard"]
    assert [(e["id"], e["daysOff"], e["gramsOff"]) for e in board] == [
        (late["id"], 3, 50), (early["id"], 3, 100)]


async def test_a_tie_goes_to_the_earliest_guess(h: Any, client: Any, pool: dict[str, str],
                                                clock: Any) -> None:
    import datetime as dt

    slug = pool["slug"]
    first = await h.guessed(client, slug, "First", "2026-03-12", 3500)
    clock.now += dt.timedelta(minutes=5)
    second = await h.guessed(client, slug, "Second", "2026-03-08", 3300)
    clock.now += dt.timedelta(minutes=5)
    third = await h.guessed(client, slug, "Third", "2026-03-12", 3300)
    await post_result(client, pool["editToken"], {"date": "2026-03-10", "weightGrams": 3400})
    board = (await h.read(client, slug))["leaderboard"]
    assert [e["id"] for e in board] == [first["id"], second["id"], third["id"]]
    assert {(e["daysOff"], e["gramsOff"]) for e in board} == {(2, 100)}


async def test_a_tie_in_the_same_instant_goes_to_the_first_in(h: Any, client: Any,
                                                              pool: dict[str, str]) -> None:
    # The clock stands still: insertion order decides.
    made = [await h.guessed(client, pool["slug"], f"G{n}", "2026-03-11", 3400)
            for n in range(5)]
    await post_result(client, pool["editToken"], {"date": "2026-03-10", "weightGrams": 3400})
    board = (await h.read(client, pool["slug"]))["leaderboard"]
    assert [e["id"] for e in board] == [m["id"] for m in made]


async def test_empty_pool_closes_with_an_empty_board(h: Any, client: Any,
                                                     pool: dict[str, str]) -> None:
    response = await post_result(client, pool["editToken"], {"date": "2026-03-10",
                                                             "weightGrams": "3400"})
    assert (await response.get_json())["leaderboard"] == []
    view = await h.read(client, pool["slug"])
    assert view["leaderboard"] == [] and view["open"] is False


async def test_result_can_be_corrected(h: Any, client: Any, pool: dict[str, str]) -> None:
    slug, edit = pool["slug"], pool["editToken"]
    a = await h.guessed(client, slug, "A", "2026-03-10", 3400)
    b = await h.guessed(client, slug, "B", "2026-03-20", 3400)
    await post_result(client, edit, {"date": "2026-03-10", "weightGrams": 3400,
                                     "arrivedAt": "Tuesday"})
    await post_result(client, edit, {"date": "2026-03-20", "weightGrams": 3399.5})
    view = await h.read(client, slug)
    assert view["result"] == {"date": "2026-03-20", "weightGrams": 3400, "arrivedAt": ""}
    assert [e["id"] for e in view["leaderboard"]] == [b["id"], a["id"]]


@pytest.mark.parametrize("body", [{"result": None}, {"result": None, "date": "2026-03-10",
                                                     "weightGrams": 3400}, None])
async def test_null_result_reopens(h: Any, client: Any, pool: dict[str, str],
                                   body: Any) -> None:
    slug, edit = pool["slug"], pool["editToken"]
    await h.guessed(client, slug, "Ann")
    await post_result(client, edit, {"date": "2026-03-10", "weightGrams": 3400})
    response = await post_result(client, edit, body)
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "open": True, "result": None,
                                         "leaderboard": None}
    view = await h.read(client, slug)
    assert (view["open"], view["result"], view["leaderboard"]) == (True, None, None)
    assert view["guessCount"] == 1
    await h.guessed(client, slug, "Bo")


@pytest.mark.parametrize("raw", [b"null", b" null ", b"\n null\r\n"])
async def test_raw_null_body_reopens(h: Any, client: Any, pool: dict[str, str],
                                     raw: bytes) -> None:
    edit = pool["editToken"]
    await post_result(client, edit, {"date": "2026-03-10", "weightGrams": 3400})
    response = await client.post(f"/api/baby/{edit}/result", data=raw,
                                 headers={"Content-Type": "application/json"})
    assert (await response.get_json())["open"] is True
    assert (await h.read(client, pool["slug"]))["open"] is True


@pytest.mark.parametrize("raw", [b"{}", b"", b"   ", b"{", b"nul", b"NULL", b"None",
                                 b"{\"result\": nul}", b"[null]", b"[]", b"\"null\"", b"0",
                                 b"false", b"{\"result\": NaN}", b"\xff\xfe"])
async def test_an_empty_or_unreadable_body_is_a_result_without_a_date(
        h: Any, client: Any, pool: dict[str, str], raw: bytes) -> None:
    """Only a JSON `null` (or a null `result`) reopens: an empty object, no body or broken
    JSON is a result like any other, and has no date."""
    edit = pool["editToken"]
    await post_result(client, edit, {"date": "2026-03-10", "weightGrams": 3400})
    response = await client.post(f"/api/baby/{edit}/result", data=raw,
                                 headers={"Content-Type": "application/json"})
    assert await h.error_of(response, 400) == NO_RESULT_DATE
    view = await h.read(client, pool["slug"])
    assert view["open"] is False and view["result"]["date"] == "2026-03-10"


@pytest.mark.parametrize("body", [{}, {"other": None}, {"result": "null"}, {"result": 0},
                                  {"Result": None}, [None], "null"])
async def test_only_a_null_result_reopens(h: Any, client: Any, pool: dict[str, str],
                                          body: Any) -> None:
    edit = pool["editToken"]
    await post_result(client, edit, {"date": "2026-03-10", "weightGrams": 3400})
    assert await h.error_of(await post_result(client, edit, body), 400) == NO_RESULT_DATE
    assert (await h.read(client, pool["slug"]))["open"] is False


async def test_reopening_an_open_pool_is_harmless(h: Any, client: Any,
                                                  pool: dict[str, str]) -> None:
    response = await post_result(client, pool["editToken"], {"result": None})
    assert (await response.get_json())["open"] is True
    assert (await h.read(client, pool["slug"]))["open"] is True


@pytest.mark.parametrize(("body", "message"), [
    ({"date": "", "weightGrams": 3400}, NO_RESULT_DATE),
    ({"weightGrams": 3400}, NO_RESULT_DATE),
    ({"date": None, "weightGrams": 1}, NO_RESULT_DATE),
    ({"arrivedAt": "6am"}, NO_RESULT_DATE),
    ({"result": {"date": "2026-03-10"}}, NO_RESULT_DATE),
    ({"result": False, "date": "2026-03-10", "weightGrams": 0}, BAD_WEIGHT),
    ({"date": "10/03/2026", "weightGrams": 1}, BAD_DATE),
    ({"date": "2026-02-30", "weightGrams": 1}, NO_SUCH_DAY),
    ({"date": "2026-03-10"}, BAD_WEIGHT),
    ({"date": "2026-03-10", "weightGrams": 7000.5}, BAD_WEIGHT),
    ({"date": "2026-03-10", "weightGrams": "big"}, BAD_WEIGHT),
    ({"date": "2026-03-10", "weightGrams": True}, BAD_WEIGHT),
])
async def test_bad_result(h: Any, client: Any, pool: dict[str, str], body: dict[str, Any],
                          message: str) -> None:
    response = await post_result(client, pool["editToken"], body)
    assert await h.error_of(response, 400) == message
    assert (await h.read(client, pool["slug"]))["open"] is True


async def test_result_date_has_no_window(h: Any, client: Any, pool: dict[str, str]) -> None:
    response = await post_result(client, pool["editToken"], {"date": "2031-01-01",
                                                             "weightGrams": 500})
    assert response.status_code == 200
    view = await h.read(client, pool["slug"])
    assert view["open"] is False
    assert view["result"] == {"date": "2031-01-01", "weightGrams": 500, "arrivedAt": ""}


async def test_arrived_at_is_cut_to_40(h: Any, client: Any, pool: dict[str, str]) -> None:
    await post_result(client, pool["editToken"], {"date": "2026-03-10", "weightGrams": 3400,
                                                  "arrivedAt": "a" * 300})
    assert (await h.read(client, pool["slug"]))["result"]["arrivedAt"] == "a" * 40
    await post_result(client, pool["editToken"], {"date": "2026-03-10", "weightGrams": 3400,
                                                  "arrivedAt": 7})
    assert (await h.read(client, pool["slug"]))["result"]["arrivedAt"] == ""


async def test_result_needs_the_edit_token(h: Any, client: Any, pool: dict[str, str]) -> None:
    made = await h.guessed(client, pool["slug"])
    body = {"date": "2026-03-10", "weightGrams": 3400}
    for credential in (pool["slug"], made["token"], "2" * 26):
        response = await post_result(client, credential, body)
        assert response.status_code == 404
        assert await response.get_json() == NOT_FOUND
    assert (await h.read(client, pool["slug"]))["open"] is True


async def test_closed_pool_guess_message(h: Any, client: Any, pool: dict[str, str]) -> None:
    await post_result(client, pool["editToken"], {"date": "2026-03-10", "weightGrams": 3400})
    assert await h.error_of(await h.guess(client, pool["slug"]), 409) == CLOSED
