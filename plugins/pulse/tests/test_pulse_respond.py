"""Checking in: the score rule and its message, words, weeks in Sydney time, the rule that a
week under four responses shows only its count (to everyone), and the organiser's edit."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

BAD_SCORE = "Pick a number from 1 to 5."
NOT_FOUND = "Nothing here — check the link you were given."
THIS_WEEK = "2026-11-16"  # the fake clock's week (see conftest)


async def counted_as(api: Any, slug: str, score: Any) -> dict[int, int]:
    """Send `score` a batch's worth of times (four), so the week shows it: {score: count}."""
    for number in range(1, 5):
        reply = await api.responded(slug, score)
        assert reply == {"ok": True, "week": THIS_WEEK, "responses": number}
    entry = await api.week(slug, THIS_WEEK)
    return {row["score"]: row["count"] for row in entry["scores"] if row["count"]}


@pytest.mark.parametrize("score", [1, 2, 3, 4, 5])
async def test_each_score_counts(api: Any, pulse: dict[str, str], score: int) -> None:
    assert await counted_as(api, pulse["slug"], score) == {score: 4}


@pytest.mark.parametrize(("score", "stored"), [("3", 3), (" 4 ", 4), (5.0, 5), ("2.0", 2)])
async def test_whole_numbers_in_other_dress_count(api: Any, pulse: dict[str, str],
                                                  score: Any, stored: int) -> None:
    assert await counted_as(api, pulse["slug"], score) == {stored: 4}


@pytest.mark.parametrize("score", [
    0, 6, -1, 10, 2.5, "0", "six", "", " ", None, True, False, [], [3], {}, {"score": 3},
    1e300, "4.5"])
async def test_score_outside_1_to_5_gets_the_spec_message(api: Any, pulse: dict[str, str],
                                                          score: Any) -> None:
    response = await api.respond(pulse["slug"], score, "words")
    assert await api.error_of(response, 400) == BAD_SCORE
    assert (await api.week(pulse["slug"], THIS_WEEK))["responses"] == 0


async def test_missing_score_and_unreadable_body(client: Any, api: Any,
                                                 pulse: dict[str, str]) -> None:
    response = await client.post("/api/pulse/respond", json={"slug": pulse["slug"]})
    assert await api.error_of(response, 400) == BAD_SCORE
    garbage = await client.post("/api/pulse/respond", data=b"{nope",
                                headers={"Content-Type": "application/json"})
    assert await api.error_of(garbage, 404) == NOT_FOUND  # no slug: the credential first


@pytest.mark.parametrize("slug", [None, "", "x" * 20, 5, ["a"]])
async def test_unknown_slug_is_404_before_the_score(api: Any, slug: Any) -> None:
    response = await api.respond(slug, 9)
    assert await api.error_of(response, 404) == NOT_FOUND


async def test_another_tools_slug_is_404(make_app: Any, clock: Any) -> None:
    app = make_app(tools=["pulse", "sweeps"], clock=clock)
    client = app.test_client()
    sweep = await client.post("/api/sweeps", json={"outcomes": ["a", "b"], "names": ["c", "d"]})
    slug = (await sweep.get_json())["slug"]
    response = await client.post("/api/pulse/respond", json={"slug": slug, "score": 3})
    assert response.status_code == 404


async def test_counts_add_up_and_each_reply_says_how_many(api: Any,
                                                          pulse: dict[str, str]) -> None:
    replies = [await api.responded(pulse["slug"], score) for score in (5, 3, 3)]
    assert [reply["responses"] for reply in replies] == [1, 2, 3]


async def test_fewer_than_four_shows_only_a_count(api: Any, pulse: dict[str, str]) -> None:
    for score, words in ((1, "Secret sorrow"), (5, "Hidden joy"), (2, "Quiet gripe")):
        await api.responded(pulse["slug"], score, words)
    entry = await api.week(pulse["slug"], THIS_WEEK)
    assert entry == {"week": THIS_WEEK, "label": "Week of 16 Nov 2026", "current": True,
                     "responses": 3, "shown": False, "inResults": None, "scores": None,
                     "average": None, "comments": None}
    # Nowhere: not the public read or page, not the organiser page, not the export.
    places = [json.dumps(await api.read(pulse["slug"]), ensure_ascii=False),
              await api.text(f"/s/{pulse['slug']}"),
              await api.text(f"/e/{pulse['editToken']}"),
              json.dumps(await api.export(pulse["editToken"]), ensure_ascii=False)]
    for place in places:
        for words in ("Secret sorrow", "Hidden joy", "Quiet gripe"):
            assert words not in place
    assert all("pulse-average" not in page and "<meter" not in page for page in places[1:3])


async def test_the_fourth_response_shows_the_week(api: Any, pulse: dict[str, str]) -> None:
    for score, words in ((1, "Rough one"), (5, "Shipped it"), (5, None), (3, "")):
        await api.responded(pulse["slug"], score, words)
    entry = await api.week(pulse["slug"], THIS_WEEK)
    assert entry["responses"] == 4 and entry["shown"] is True
    assert entry["scores"] == [{"score": 1, "count": 1}, {"score": 2, "count": 0},
                               {"score": 3, "count": 1}, {"score": 4, "count": 0},
                               {"score": 5, "count": 2}]
    assert entry["average"] == 3.5
    assert sorted(entry["comments"]) == ["Rough one", "Shipped it"]
    page = await api.text(f"/e/{pulse['editToken']}")
    assert "Rough one" in page and "Shipped it" in page
    exported = await api.export(pulse["editToken"])
    assert sorted(exported["data"]["weeks"][0]["comments"]) == sorted(entry["comments"])
    assert exported["data"]["weeks"][0]["scores"] == entry["scores"]


async def test_the_average_has_one_decimal(api: Any, pulse: dict[str, str]) -> None:
    for score in (5, 4, 4, 3, 2, 4, 4, 4):  # 30 / 8 = 3.75
        await api.responded(pulse["slug"], score)
    assert (await api.week(pulse["slug"], THIS_WEEK))["average"] == 3.8


async def test_words_are_t500_with_crlf_normalised(api: Any, pulse: dict[str, str]) -> None:
    await api.responded(pulse["slug"], 4, "  Good week.\r\n\r\nLong  lunch.  ")
    await api.responded(pulse["slug"], 4, "w" * 2000)
    await api.responded(pulse["slug"], 4, "   ")
    await api.responded(pulse["slug"], 4)
    comments = (await api.week(pulse["slug"], THIS_WEEK))["comments"]
    assert sorted(comments) == ["Good week.\n\nLong  lunch.", "w" * 500]


@pytest.mark.parametrize("words", [None, 5, ["so", "so"], {"a": 1}])
async def test_non_string_words_are_no_words(api: Any, pulse: dict[str, str],
                                             words: Any) -> None:
    for _ in range(4):
        assert (await api.respond(pulse["slug"], 3, words)).status_code == 201
    assert (await api.week(pulse["slug"], THIS_WEEK))["comments"] == []


async def test_words_are_dropped_when_the_pulse_does_not_ask(api: Any) -> None:
    made = await api.create({"askWords": False})
    for score in (1, 2, 3, 4):
        await api.responded(made["slug"], score, f"Unasked {score}")
    entry = await api.week(made["slug"], THIS_WEEK)
    assert entry["shown"] is True and entry["comments"] == []
    page = await api.text(f"/s/{made['slug']}")
    assert "Unasked" not in page
    assert 'name="words"' not in page


async def test_weeks_turn_at_midnight_monday_in_sydney(api: Any, pulse: dict[str, str],
                                                       clock: Any) -> None:
    # Sunday 22 November, 11:59:59 pm in Sydney (AEDT) is still the week of the 16th ...
    clock.set(dt.datetime(2026, 11, 22, 12, 59, 59, tzinfo=dt.UTC))
    assert (await api.responded(pulse["slug"]))["week"] == "2026-11-16"
    # ... and one second later it is the week of Monday the 23rd.
    clock.set(dt.datetime(2026, 11, 22, 13, 0, 0, tzinfo=dt.UTC))
    assert (await api.responded(pulse["slug"]))["week"] == "2026-11-23"
    view = await api.read(pulse["slug"])
    assert view["thisWeek"] == "2026-11-23"
    assert [(e["week"], e["current"], e["responses"]) for e in view["weeks"]] == [
        ("2026-11-23", True, 1), ("2026-11-16", False, 1)]


@pytest.mark.parametrize(("last_second", "first_second", "monday"), [
    # Daylight saving starts on Sunday 4 October 2026: Monday begins at 13:00 UTC (AEDT).
    (dt.datetime(2026, 10, 4, 12, 59, 59), dt.datetime(2026, 10, 4, 13, 0), "2026-10-05"),
    # Daylight saving ends on Sunday 4 April 2027: Monday begins at 14:00 UTC (AEST).
    (dt.datetime(2027, 4, 4, 13, 59, 59), dt.datetime(2027, 4, 4, 14, 0), "2027-04-05")])
async def test_week_turn_on_daylight_saving_weekends(api: Any, pulse: dict[str, str],
                                                     clock: Any, last_second: dt.datetime,
                                                     first_second: dt.datetime,
                                                     monday: str) -> None:
    clock.set(last_second.replace(tzinfo=dt.UTC))
    before = (await api.responded(pulse["slug"]))["week"]
    assert dt.date.fromisoformat(monday) - dt.date.fromisoformat(before) == dt.timedelta(7)
    clock.set(first_second.replace(tzinfo=dt.UTC))
    assert (await api.responded(pulse["slug"]))["week"] == monday


async def test_each_week_is_counted_and_shown_on_its_own(api: Any, pulse: dict[str, str],
                                                         clock: Any) -> None:
    for score in (2, 2, 2, 2, 2):
        await api.responded(pulse["slug"], score, "last week")
    clock.advance(days=7)
    await api.responded(pulse["slug"], 5, "this week")
    view = await api.read(pulse["slug"])
    current, last = view["weeks"]
    assert (current["week"], current["responses"], current["shown"]) == ("2026-11-23", 1, False)
    assert (last["week"], last["responses"], last["average"]) == ("2026-11-16", 5, 2.0)
    assert last["comments"] == ["last week"] * 4  # the fifth came after the last batch
    assert "this week" not in json.dumps(view)


async def test_an_empty_current_week_is_listed(api: Any, pulse: dict[str, str],
                                               clock: Any) -> None:
    await api.responded(pulse["slug"])
    clock.advance(days=21)
    view = await api.read(pulse["slug"])
    assert [(e["week"], e["responses"]) for e in view["weeks"]] == [
        ("2026-12-07", 0), ("2026-11-16", 1)]


async def test_pulses_do_not_share_counts(api: Any, pulse: dict[str, str]) -> None:
    other = await api.create({"team": "Other"})
    for _ in range(4):
        await api.responded(other["slug"], 1, "other team")
    assert (await api.week(pulse["slug"], THIS_WEEK))["responses"] == 0


async def test_a_reply_counts_its_own_pulse_and_week_released_or_held(
        api: Any, pulse: dict[str, str], clock: Any) -> None:
    """The count a reply gives is this pulse's this week: the other team's results and last
    week's are not in it, this week's results are."""
    other = await api.create({"team": "Other"})
    for _ in range(4):
        await api.responded(other["slug"], 1)
    replies = [await api.responded(pulse["slug"]) for _ in range(5)]
    assert [reply["responses"] for reply in replies] == [1, 2, 3, 4, 5]
    clock.advance(days=7)
    assert (await api.responded(pulse["slug"]))["responses"] == 1


# --- organiser --------------------------------------------------------------------------

async def test_organiser_changes_the_details(client: Any, api: Any,
                                             pulse: dict[str, str]) -> None:
    response = await client.post(f"/api/pulse/{pulse['editToken']}/details", json={
        "team": "  Ops  crew ", "question": "  Energy level?  ", "askWords": False})
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "team": "Ops crew",
                                         "question": "Energy level?", "askWords": False,
                                         "resultsAtWeekEnd": False}
    view = await api.read(pulse["slug"])
    assert (view["heading"], view["title"], view["question"], view["askWords"]) == (
        "Ops crew", "Ops crew", "Energy level?", False)
    again = await client.post(f"/api/pulse/{pulse['editToken']}/details", json={})
    assert await again.get_json() == {"ok": True, "team": "", "question": "How was your week?",
                                      "askWords": True, "resultsAtWeekEnd": False}


async def test_details_with_a_bad_token_is_404(client: Any, api: Any,
                                               pulse: dict[str, str]) -> None:
    for token in ("a" * 26, pulse["slug"]):
        response = await client.post(f"/api/pulse/{token}/details", json={"team": "x"})
        assert await api.error_of(response, 404) == NOT_FOUND


async def test_deleting_the_pulse_removes_every_answer(client: Any, api: Any,
                                                       pulse: dict[str, str]) -> None:
    from groupkit_pulse.models import PulseComments
    from groupkit_pulse.models import PulseHeld
    from groupkit_pulse.models import PulseHeldWords
    from groupkit_pulse.models import PulseTally

    tables = (PulseTally, PulseComments, PulseHeld, PulseHeldWords)
    for score in (1, 2, 3, 4, 5):  # the fifth waits for its batch
        await api.responded(pulse["slug"], score, "gone soon")
    assert [table.select().count() for table in tables] == [4, 1, 1, 1]
    response = await client.post(f"/api/pulse/{pulse['editToken']}/delete")
    assert response.status_code == 200
    assert [table.select().count() for table in tables] == [0, 0, 0, 0]
    assert (await api.respond(pulse["slug"], 3)).status_code == 404
