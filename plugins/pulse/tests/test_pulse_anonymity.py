"""Anonymity at the storage level: read the database rows themselves, not the pages. A
response leaves no row of its own, nothing pairs a score with words, and neither the tables'
columns nor the order of what they hold follows the order people answered in."""

from __future__ import annotations

import itertools
import json
from typing import Any

from groupkit_pulse.models import PulseComments
from groupkit_pulse.models import PulseHeld
from groupkit_pulse.models import PulseHeldWords
from groupkit_pulse.models import PulseTally

THIS_WEEK = "2026-11-16"


def rows(table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Column names and every row of `table`, as the database holds them."""
    cursor = PulseTally._meta.database.execute_sql(f"SELECT * FROM {table} ORDER BY id")
    return [column[0] for column in cursor.description], list(cursor.fetchall())


async def test_tables_hold_no_timestamp_no_response_id_no_link(api: Any,
                                                               pulse: dict[str, str]) -> None:
    await api.responded(pulse["slug"], 4, "Fine")
    tally_columns, _ = rows("pulse_tally")
    comment_columns, _ = rows("pulse_comments")
    assert sorted(tally_columns) == ["count", "id", "instance_id", "score", "week"]
    assert sorted(comment_columns) == ["id", "instance_id", "texts", "week"]
    # What the two tables share says which pulse and which week, nothing about a response.
    assert set(tally_columns) & set(comment_columns) == {"id", "instance_id", "week"}
    # So do the two where a response waits for its batch: its score and words apart too.
    held_columns, held = rows("pulse_held")
    words_columns, said = rows("pulse_held_words")
    assert sorted(held_columns) == ["id", "instance_id", "responses", "scores", "week"]
    assert sorted(words_columns) == ["id", "instance_id", "texts", "week"]
    assert set(held_columns) & set(words_columns) == {"id", "instance_id", "week"}
    assert (len(held), len(said)) == (1, 1)


async def test_a_response_leaves_no_row_of_its_own(api: Any, pulse: dict[str, str]) -> None:
    scores = [5, 3, 5, 1, 3, 5, 5, 2, 3, 5, 1, 3]
    for number, score in enumerate(scores):
        await api.responded(pulse["slug"], score, f"note {number}")
    _, tally = rows("pulse_tally")
    assert sorted((row[2], row[3], row[4]) for row in tally) == [
        (THIS_WEEK, 1, 2), (THIS_WEEK, 2, 1), (THIS_WEEK, 3, 4), (THIS_WEEK, 5, 5)]
    _, comments = rows("pulse_comments")
    assert len(comments) == 1  # one row for the whole week's words
    stored = json.loads(comments[0][3])
    assert sorted(stored) == sorted(f"note {n}" for n in range(len(scores)))


async def test_stored_words_do_not_follow_the_order_of_answers(api: Any,
                                                               pulse: dict[str, str],
                                                               clock: Any) -> None:
    """24 answers in a known order: the stored list is the same words in another order
    (1 in 24! that a shuffle returns arrival order), and two weeks shuffle independently."""
    orders = []
    for week in range(2):
        sent = [f"week {week} answer {n:02d}" for n in range(24)]
        for number, words in enumerate(sent):
            await api.responded(pulse["slug"], number % 5 + 1, words)
        _, comments = rows("pulse_comments")
        stored = json.loads(comments[week][3])
        assert sorted(stored) == sent
        assert stored not in (sent, sent[::-1])
        orders.append([int(words[-2:]) for words in stored])
        clock.advance(days=7)
    assert orders[0] != orders[1]


async def test_a_row_never_mentions_when(api: Any, pulse: dict[str, str]) -> None:
    for score in (1, 2, 3, 4, 5):
        await api.responded(pulse["slug"], score, f"answer {score}")
    for table in ("pulse_tally", "pulse_comments", "pulse_held", "pulse_held_words"):
        _, found = rows(table)
        for row in found:
            for value in row:
                assert not hasattr(value, "isoformat"), (table, row)
                assert ":" not in str(value), (table, row)


async def test_models_declare_no_shared_key() -> None:
    for scores, words in ((PulseTally, PulseComments), (PulseHeld, PulseHeldWords)):
        assert set(scores._meta.fields) & set(words._meta.fields) == {"id", "instance", "week"}
        assert all(not hasattr(field, "formats") for field in
                   [*scores._meta.fields.values(), *words._meta.fields.values()])


# --- a watcher comparing the results over time ------------------------------------------------

async def test_this_weeks_results_move_only_in_batches_of_four(api: Any,
                                                               pulse: dict[str, str]) -> None:
    """After the first four, results stay put until four more have come in; the count is
    live. Each batch reshuffles the words."""
    seen = []
    for index in range(13):
        await api.responded(pulse["slug"], index % 5 + 1, f"words {index}")
        entry = await api.week(pulse["slug"], THIS_WEEK)
        assert entry["responses"] == index + 1
        seen.append((entry["inResults"], sorted(entry["comments"] or [])))
    assert [in_results for in_results, _ in seen] == \
        [None, None, None, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12]
    for (before, old), (after, new) in itertools.pairwise(seen):
        assert before == after or len(set(new) - set(old)) == 4


async def test_batches_reshuffle_the_words(api: Any, pulse: dict[str, str]) -> None:
    """The new words of a batch are not appended in arrival order: across many batches the
    order differs from arrival order."""
    for index in range(40):
        await api.responded(pulse["slug"], 3, f"w{index:02d}")
    comments = (await api.week(pulse["slug"], THIS_WEEK))["comments"]
    assert sorted(comments) == [f"w{index:02d}" for index in range(40)]
    assert comments != sorted(comments)


async def test_a_past_week_shows_its_full_batches(api: Any, pulse: dict[str, str],
                                                  clock: Any) -> None:
    """The week's end releases nothing: the two after the last batch stay out (see
    test_pulse_week_end.py for the watcher)."""
    for index in range(10):
        await api.responded(pulse["slug"], 2, f"late {index}")
    assert (await api.week(pulse["slug"], THIS_WEEK))["inResults"] == 8
    clock.advance(days=7)
    entry = await api.week(pulse["slug"], THIS_WEEK)
    assert (entry["current"], entry["responses"], entry["inResults"],
            len(entry["comments"])) == (False, 10, 8, 8)


async def test_results_at_week_end_hide_the_current_week(api: Any, clock: Any,
                                                         client: Any) -> None:
    """The organiser's stricter option: this week shows only its count, however many
    respond; once the week is over, its full batches at once. Not the last few: the option
    can be turned off at any moment, so its batches may have been seen already."""
    made = await api.create({"team": "Ops", "resultsAtWeekEnd": True})
    for index in range(9):
        await api.responded(made["slug"], 4, f"quiet {index}")
    entry = await api.week(made["slug"], THIS_WEEK)
    assert (entry["responses"], entry["shown"], entry["comments"]) == (9, False, None)
    page = await api.text(f"/s/{made['slug']}")
    assert "quiet 0" not in page and "when the week ends" in page
    clock.advance(days=7)
    entry = await api.week(made["slug"], THIS_WEEK)
    assert (entry["shown"], entry["responses"], entry["inResults"]) == (True, 9, 8)
    # Turned off mid-week, the results show the batches so far.
    response = await client.post(f"/api/pulse/{made['editToken']}/details",
                                 json={"team": "Ops", "resultsAtWeekEnd": True})
    assert (await response.get_json())["resultsAtWeekEnd"] is True
    for _ in range(5):
        await api.responded(made["slug"], 1)
    assert not (await api.read(made["slug"]))["weeks"][0]["shown"]
    await client.post(f"/api/pulse/{made['editToken']}/details", json={"team": "Ops"})
    assert (await api.read(made["slug"]))["weeks"][0]["inResults"] == 4
