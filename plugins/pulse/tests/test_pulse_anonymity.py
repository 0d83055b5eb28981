"""Anonymity at the storage level: read the database rows themselves, not the pages. A
response leaves no row of its own, nothing pairs a score with words, and neither the tables'
columns nor the order of what they hold follows the order people answered in."""

from __future__ import annotations

import json
from typing import Any

from groupkit_pulse.models import PulseComments, PulseTally

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
    for table in ("pulse_tally", "pulse_comments"):
        _, found = rows(table)
        for row in found:
            for value in row:
                assert not hasattr(value, "isoformat"), (table, row)
                assert ":" not in str(value), (table, row)


async def test_models_declare_no_shared_key() -> None:
    tally_fields = set(PulseTally._meta.fields)
    comment_fields = set(PulseComments._meta.fields)
    assert tally_fields & comment_fields == {"id", "instance", "week"}
    assert all(not hasattr(field, "formats") for field in
               [*PulseTally._meta.fields.values(), *PulseComments._meta.fields.values()])
