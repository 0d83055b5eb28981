"""POST /api/meal: every field rule and every create message, in the spec's check order."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import marshmallow as ma
import pytest

from groupkit_meal.schema import CreateMeal
from groupkit_testing import create

NO_FOR_WHOM = "Who are the meals for? Add a name — a family, a person, whoever."
BAD_DATE = "One of those days isn't a real calendar date."
BAD_START = "Pick a valid first day."
BAD_DAYS = "How many days need a meal? At least one."
TOO_MANY = "Sixty days is the limit — start a second roster if it runs longer."
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
START = {"startDate": "2026-03-02", "days": 2}


def iso_days(first: str, count: int, step: int = 1) -> list[str]:
    start = dt.date.fromisoformat(first)
    return [(start + dt.timedelta(days=i * step)).isoformat() for i in range(count)]


async def refused(client: Any, body: Any) -> str:
    response = await client.post("/api/meal", json=body)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert response.content_type == "application/json"
    assert set(payload) == {"error"}
    return str(payload["error"])


async def board_of(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    made = await create(client, "meal", body)
    response = await client.post(f"/api/meal/{made['editToken']}/export")
    assert response.status_code == 200
    return dict((await response.get_json())["data"])


async def dates_of(client: Any, body: dict[str, Any]) -> list[str]:
    return [day["date"] for day in (await board_of(client, body))["days"]]


# --- forWhom and the title ----------------------------------------------------------------

async def test_create_returns_slug_and_edit_token(client: Any) -> None:
    response = await client.post("/api/meal", json={"forWhom": "Jo", **START})
    assert response.status_code == 201
    made = await response.get_json()
    assert set(made) == {"slug", "editToken"}
    assert re.fullmatch(rf"meals-for-jo-[{ALPHABET}]{{14}}", made["slug"])
    assert re.fullmatch(rf"[{ALPHABET}]{{26}}", made["editToken"])


@pytest.mark.parametrize("for_whom", [None, "", "   ", "\n\t", 5, True, ["Jo"], {"n": "Jo"}])
async def test_for_whom_required(client: Any, for_whom: Any) -> None:
    assert await refused(client, {"forWhom": for_whom, **START}) == NO_FOR_WHOM


async def test_for_whom_missing_and_bodies_that_are_not_objects(client: Any) -> None:
    assert await refused(client, {**START}) == NO_FOR_WHOM
    for body in (b"{oops", b"", b"[1]", b"null", b'"x"'):
        response = await client.post("/api/meal", data=body,
                                     headers={"Content-Type": "application/json"})
        assert await response.get_json() == {"error": NO_FOR_WHOM}


async def test_for_whom_is_checked_first(client: Any) -> None:
    assert await refused(client, {"forWhom": "", "dates": ["nope"]}) == NO_FOR_WHOM
    assert await refused(client, {"forWhom": " ", "startDate": "x", "days": 0}) == NO_FOR_WHOM


async def test_title_follows_for_whom(client: Any) -> None:
    board = await board_of(client, {"forWhom": "  the   Nguyen\nfamily ", **START})
    assert board["forWhom"] == "the Nguyen family"
    assert board["title"] == "Meals for the Nguyen family"
    board = await board_of(client, {"forWhom": "x" * 500, **START})
    assert board["forWhom"] == "x" * 80
    assert board["title"] == "Meals for " + "x" * 80
    assert len(board["title"]) <= 120


async def test_optional_text_fields(client: Any) -> None:
    board = await board_of(client, {
        "forWhom": "Jo", "note": "  Line one\n\n  two  " + "n" * 500,
        "allergies": "  No \n nuts  " + "a" * 300, "dropoff": " 12  Main\tSt " + "d" * 300,
        **START})
    assert board["note"] == ("Line one\n\n  two  " + "n" * 500)[:400]
    assert board["allergies"] == ("No nuts " + "a" * 300)[:200]
    assert board["dropoff"] == ("12 Main St " + "d" * 300)[:120]
    board = await board_of(client, {"forWhom": "Jo", "note": 5, "allergies": None,
                                    "dropoff": ["x"], **START})
    assert (board["note"], board["allergies"], board["dropoff"]) == ("", "", "")


# --- dates ----------------------------------------------------------------------------------

async def test_dates_deduplicated_and_sorted(client: Any) -> None:
    dates = ["2026-03-05", "2026-03-01", "2026-03-05", "2026-02-28", "2026-03-01"]
    assert await dates_of(client, {"forWhom": "Jo", "dates": dates}) == [
        "2026-02-28", "2026-03-01", "2026-03-05"]


async def test_dates_make_start_and_days_irrelevant(client: Any) -> None:
    assert await dates_of(client, {"forWhom": "Jo", "dates": ["2026-03-01"],
                                   "startDate": "garbage", "days": -4}) == ["2026-03-01"]


@pytest.mark.parametrize("bad", [
    "2026-3-01", "2026-03-1", "26-03-01", "2026/03/01", "2026-02-30", "2026-13-01",
    "2026-00-10", "2025-02-29", "0000-01-01", " 2026-03-01", "2026-03-01 ", "2026-03-01\n",
    "2026-03-01T00:00", "", "٢٠٢٦-٠٣-٠١", None, 20260301, ["2026-03-01"], {"d": 1}, True])
async def test_each_date_must_be_an_exact_real_day(client: Any, bad: Any) -> None:
    body = {"forWhom": "Jo", "dates": ["2026-03-01", bad], **START}
    assert await refused(client, body) == BAD_DATE


async def test_leap_day_is_real_in_a_leap_year(client: Any) -> None:
    assert await dates_of(client, {"forWhom": "Jo", "dates": ["2028-02-29"]}) == ["2028-02-29"]


async def test_sixty_unique_dates_is_fine(client: Any) -> None:
    dates = iso_days("2026-01-01", 60)
    assert await dates_of(client, {"forWhom": "Jo", "dates": list(reversed(dates))}) == dates


async def test_sixty_one_unique_dates_is_the_error(client: Any) -> None:
    assert await refused(client, {"forWhom": "Jo",
                                  "dates": iso_days("2026-01-01", 61)}) == TOO_MANY


async def test_sixty_one_entries_with_a_repeat_is_fine(client: Any) -> None:
    dates = [*iso_days("2026-01-01", 60), "2026-01-01"]
    assert len(await dates_of(client, {"forWhom": "Jo", "dates": dates})) == 60


async def test_only_the_first_61_entries_are_read(client: Any) -> None:
    dates = [*iso_days("2026-01-01", 59), "2026-01-01", "2026-01-02", "not a date",
             "2027-05-05"]
    assert await dates_of(client, {"forWhom": "Jo", "dates": dates}) == \
        iso_days("2026-01-01", 59)
    # 61 unique valid days and more after them: still the 60-day error.
    assert await refused(client, {"forWhom": "Jo",
                                  "dates": iso_days("2026-01-01", 200)}) == TOO_MANY


async def test_a_bad_date_comes_before_the_count(client: Any) -> None:
    dates = [*iso_days("2026-01-01", 61)]
    dates[60] = "2026-02-31"
    assert await refused(client, {"forWhom": "Jo", "dates": dates}) == BAD_DATE


@pytest.mark.parametrize("dates", [[], None, "2026-03-01", {"0": "2026-03-01"}, 5])
async def test_empty_or_non_array_dates_fall_back_to_start_and_days(client: Any,
                                                                    dates: Any) -> None:
    assert await dates_of(client, {"forWhom": "Jo", "dates": dates, **START}) == [
        "2026-03-02", "2026-03-03"]
    assert await refused(client, {"forWhom": "Jo", "dates": dates}) == BAD_START


# --- startDate and days ---------------------------------------------------------------------

@pytest.mark.parametrize("start", [None, "", "   ", "2026-3-2", "2026-02-30", "02/03/2026",
                                   "tomorrow", 20260302, ["2026-03-02"], "2026-03-02T09:00"])
async def test_bad_start_date(client: Any, start: Any) -> None:
    assert await refused(client, {"forWhom": "Jo", "startDate": start, "days": 3}) == BAD_START


async def test_start_date_is_trimmed(client: Any) -> None:
    assert await dates_of(client, {"forWhom": "Jo", "startDate": "  2026-03-02\n",
                                   "days": 1}) == ["2026-03-02"]


@pytest.mark.parametrize("days", [None, 0, -1, "0", "", "three", 1.5, "2.5", True, [3],
                                  {"n": 3}])
async def test_bad_days(client: Any, days: Any) -> None:
    assert await refused(client, {"forWhom": "Jo", "startDate": "2026-03-02",
                                  "days": days}) == BAD_DAYS


async def test_days_missing(client: Any) -> None:
    assert await refused(client, {"forWhom": "Jo", "startDate": "2026-03-02"}) == BAD_DAYS


async def test_start_date_is_checked_before_days(client: Any) -> None:
    assert await refused(client, {"forWhom": "Jo", "startDate": "x", "days": 0}) == BAD_START
    assert await refused(client, {"forWhom": "Jo"}) == BAD_START


@pytest.mark.parametrize("days,count", [(1, 1), ("7", 7), (" 14 ", 14), (3.0, 3), (60, 60),
                                        (61, 60), ("1000", 60), (10**9, 60)])
async def test_days_from_the_start_date(client: Any, days: Any, count: int) -> None:
    dates = await dates_of(client, {"forWhom": "Jo", "startDate": "2026-12-30", "days": days})
    assert dates == iso_days("2026-12-30", count)


async def test_days_that_would_run_past_the_calendar(client: Any) -> None:
    assert await refused(client, {"forWhom": "Jo", "startDate": "9999-12-31",
                                  "days": 2}) == BAD_START
    assert await dates_of(client, {"forWhom": "Jo", "startDate": "9999-12-31",
                                   "days": 1}) == ["9999-12-31"]


# --- capacityPerDay -------------------------------------------------------------------------

@pytest.mark.parametrize("value,stored", [
    (None, 1), (1, 1), (2, 2), (3, 3), (4, 3), (100, 3), ("2", 2), ("9", 3), (0, 1), (-2, 1),
    (2.5, 1), ("two", 1), (True, 1), ([2], 1), ("", 1)])
async def test_capacity_per_day_never_fails(client: Any, value: Any, stored: int) -> None:
    body = {"forWhom": "Jo", **START}
    if value is not None:
        body["capacityPerDay"] = value
    board = await board_of(client, body)
    assert board["capacityPerDay"] == stored
    assert [[spot["slotId"] for spot in day["spots"]] for day in board["days"]] == [
        [f"d{index}-{n}" for n in range(1, stored + 1)] for index in range(2)]


# --- slot ids ---------------------------------------------------------------------------------

async def test_day_slot_ids_follow_day_position_from_zero(client: Any) -> None:
    board = await board_of(client, {"forWhom": "Jo", "capacityPerDay": 2,
                                    "dates": ["2026-03-09", "2026-03-01", "2026-03-05"]})
    assert [(day["dayId"], day["date"], [s["slotId"] for s in day["spots"]])
            for day in board["days"]] == [
        ("d0", "2026-03-01", ["d0-1", "d0-2"]), ("d1", "2026-03-05", ["d1-1", "d1-2"]),
        ("d2", "2026-03-09", ["d2-1", "d2-2"])]
    assert [day["label"] for day in board["days"]] == [
        "Sun 1 Mar 2026", "Thu 5 Mar 2026", "Mon 9 Mar 2026"]


# --- tasks ----------------------------------------------------------------------------------

async def test_tasks_get_stable_ids_and_spots(client: Any) -> None:
    board = await board_of(client, {"forWhom": "Jo", **START, "tasks": [
        {"label": " Walk  the\ndog ", "capacity": 2}, {"label": "Mow", "capacity": "3"}]})
    assert [(t["taskId"], t["label"], t["capacity"], [s["slotId"] for s in t["spots"]])
            for t in board["tasks"]] == [
        ("t0", "Walk the dog", 2, ["t0-1", "t0-2"]), ("t1", "Mow", 3, ["t1-1", "t1-2", "t1-3"])]


@pytest.mark.parametrize("capacity,stored", [
    (None, 1), (1, 1), (20, 20), ("5", 5), (0, 1), (21, 1), (-3, 1), (2.5, 1), ("x", 1),
    (True, 1), ([2], 1)])
async def test_task_capacity_defaults_to_one(client: Any, capacity: Any, stored: int) -> None:
    task: dict[str, Any] = {"label": "Mow"}
    if capacity is not None:
        task["capacity"] = capacity
    board = await board_of(client, {"forWhom": "Jo", **START, "tasks": [task]})
    assert board["tasks"][0]["capacity"] == stored


async def test_tasks_with_empty_labels_dropped_then_twelve_kept(client: Any) -> None:
    tasks: list[Any] = [{"label": ""}, {"label": "  "}, "Mow", None, {"capacity": 2},
                        {"label": 5}]
    tasks += [{"label": f"Job {n}"} for n in range(15)]
    board = await board_of(client, {"forWhom": "Jo", **START, "tasks": tasks})
    assert [t["label"] for t in board["tasks"]] == [f"Job {n}" for n in range(12)]
    assert [t["taskId"] for t in board["tasks"]] == [f"t{n}" for n in range(12)]


async def test_task_label_cut_to_70(client: Any) -> None:
    board = await board_of(client, {"forWhom": "Jo", **START, "tasks": [{"label": "j" * 99}]})
    assert board["tasks"][0]["label"] == "j" * 70


@pytest.mark.parametrize("tasks", [None, "Mow", {"label": "Mow"}, 3, []])
async def test_tasks_not_an_array_means_none(client: Any, tasks: Any) -> None:
    assert (await board_of(client, {"forWhom": "Jo", **START, "tasks": tasks}))["tasks"] == []


# --- helpLinks ------------------------------------------------------------------------------

async def test_help_links_kept_and_labelled(client: Any) -> None:
    board = await board_of(client, {"forWhom": "Jo", **START, "helpLinks": [
        {"label": "  Gift \n card ", "url": "https://example.com/gift"},
        {"url": "http://Shop.Example.org:8080/x?y=1"},
        {"label": "", "url": "  HTTPS://user:pw@food.example.net/path  "},
        {"label": "l" * 100, "url": "https://example.com/long"}]})
    assert board["helpLinks"] == [
        {"label": "Gift card", "url": "https://example.com/gift"},
        {"label": "shop.example.org", "url": "http://Shop.Example.org:8080/x?y=1"},
        {"label": "food.example.net", "url": "HTTPS://user:pw@food.example.net/path"},
        {"label": "l" * 70, "url": "https://example.com/long"}]


@pytest.mark.parametrize("url", [
    "javascript:alert(1)", "JavaScript:alert('http://x')", "data:text/html,hi",
    "ftp://example.com/file", "mailto:jo@example.com", "//example.com/x", "example.com",
    "http://", "https:///path", "http://[::1", "", None, 5, ["https://example.com"]])
async def test_only_http_and_https_links_kept(client: Any, url: Any) -> None:
    board = await board_of(client, {"forWhom": "Jo", **START, "helpLinks": [
        {"label": "bad", "url": url}, {"label": "good", "url": "https://example.com"}]})
    assert board["helpLinks"] == [{"label": "good", "url": "https://example.com"}]


async def test_link_url_cut_to_300(client: Any) -> None:
    url = "https://example.com/" + "p" * 400
    board = await board_of(client, {"forWhom": "Jo", **START, "helpLinks": [{"url": url}]})
    assert board["helpLinks"] == [{"label": "example.com", "url": url[:300]}]


async def test_first_eight_usable_links_kept(client: Any) -> None:
    links: list[Any] = [{"url": "ftp://x.example"}, "https://no.example", None]
    links += [{"label": f"L{n}", "url": f"https://example.com/{n}"} for n in range(10)]
    board = await board_of(client, {"forWhom": "Jo", **START, "helpLinks": links})
    assert [link["label"] for link in board["helpLinks"]] == [f"L{n}" for n in range(8)]


@pytest.mark.parametrize("links", [None, "https://example.com", {"url": "https://x.io"}, 1])
async def test_help_links_not_an_array_means_none(client: Any, links: Any) -> None:
    board = await board_of(client, {"forWhom": "Jo", **START, "helpLinks": links})
    assert board["helpLinks"] == []


def test_the_no_days_guard() -> None:
    """Unreachable through the API (a non-empty `dates` or `days` >= 1 always yields a day);
    the guard still answers with the spec's message if the day list ever comes out empty."""
    with pytest.raises(ma.ValidationError) as refused_load:
        CreateMeal().days_of({"dates": []})
    assert refused_load.value.messages == ["Add at least one day that needs a meal."]
