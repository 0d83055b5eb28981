"""The week's end against a watcher: the one to three responses that come in after a week's
last full batch never join its results, not when they arrive, not when the week ends, not
later. A watcher reads every view the public and the organiser have (the public JSON and
page, the organiser page and the export) after the batch, after each late response, at the
week's last second and first second after it, and once the next week has begun, and
compares any two readings: whenever the results differ, at least four new responses must
be behind the difference, or a score and its words are tied."""

from __future__ import annotations

import datetime as dt
import html
import itertools
import json
import re
from collections import Counter
from typing import Any

import pytest

from groupkit_pulse.api import BATCH

THIS_WEEK = "2026-11-16"  # the fake clock's week (see conftest)
#: The last moment of that week and the first of the next, in Sydney (AEDT, UTC+11).
LAST_SECOND = dt.datetime(2026, 11, 22, 12, 59, 59, 999999, tzinfo=dt.UTC)
NEXT_WEEK = dt.datetime(2026, 11, 22, 13, 0, tzinfo=dt.UTC)

BATCH_ANSWERS = [(5, "batch words alpha"), (4, "batch words bravo"), (4, None),
                 (2, "batch words delta")]
#: Scores the batch has none of, so a late one joining would show in the counts too.
LATE_ANSWERS = [(1, "late words kilo"), (3, "late words lima"), (1, "late words mike")]

#: What one surface shows of the week: the count per score and the words, or None.
Results = tuple[tuple[int, ...], tuple[str, ...]] | None


def _from_json(weeks: list[dict[str, Any]]) -> Results:
    week = next(entry for entry in weeks if entry["week"] == THIS_WEEK)
    if not week["shown"]:
        return None
    return (tuple(row["count"] for row in week["scores"]), tuple(sorted(week["comments"])))


def _from_page(page: str) -> Results:
    start = page.index(f'aria-labelledby="week-{THIS_WEEK}"')
    article = page[start:page.index("</article>", start)]
    counts = tuple(int(n) for n in re.findall(r'<span class="pulse-n">(\d+)</span>', article))
    if not counts:
        return None
    words = sorted(html.unescape(text) for text in re.findall(r"<li>([^<]*)</li>", article))
    return counts, tuple(words)


async def _readings(api: Any, pulse: dict[str, str]) -> dict[str, tuple[Results, str]]:
    """Every view of the week: surface name -> (its results, its whole text)."""
    public = await api.read(pulse["slug"])
    exported = await api.export(pulse["editToken"])
    share = await api.text(f"/s/{pulse['slug']}")
    organiser = await api.text(f"/e/{pulse['editToken']}")
    return {
        "public JSON": (_from_json(public["weeks"]), json.dumps(public, ensure_ascii=False)),
        "export": (_from_json(exported["data"]["weeks"]),
                   json.dumps(exported, ensure_ascii=False)),
        "public page": (_from_page(share), share),
        "organiser page": (_from_page(organiser), organiser)}


def _ties(history: list[dict[str, tuple[Results, str]]]) -> list[str]:
    """Every pair of readings of one surface whose results differ by fewer than BATCH new
    responses: what differencing them would tie together."""
    found = []
    for (at, before), (later, after) in itertools.combinations(enumerate(history), 2):
        for surface, (old, _) in before.items():
            new = after[surface][0]
            if old == new or new is None:
                continue
            old_counts = old[0] if old is not None else (0,) * 5
            moved = sum(new[0]) - sum(old_counts)
            words = Counter(new[1]) - Counter(old[1] if old is not None else ())
            if moved < BATCH:
                found.append(f"{surface}, reading {at} to {later}: {moved} new responses, "
                             f"words {sorted(words)}")
    return found


@pytest.mark.parametrize("at_week_end", [False, True], ids=["live", "resultsAtWeekEnd"])
@pytest.mark.parametrize("late", [1, 2, 3])
async def test_responses_after_the_last_batch_never_show(api: Any, clock: Any, late: int,
                                                         at_week_end: bool) -> None:
    pulse = await api.create({"team": "Platform team", "resultsAtWeekEnd": at_week_end})
    for score, words in BATCH_ANSWERS:
        await api.responded(pulse["slug"], score, words)
    history = [await _readings(api, pulse)]
    for score, words in LATE_ANSWERS[:late]:
        await api.responded(pulse["slug"], score, words)
        history.append(await _readings(api, pulse))
    for moment in (LAST_SECOND, NEXT_WEEK):
        clock.set(moment)
        history.append(await _readings(api, pulse))
    await api.responded(pulse["slug"], 3, "next week's first")
    history.append(await _readings(api, pulse))
    clock.advance(days=7)
    history.append(await _readings(api, pulse))

    assert _ties(history) == []
    batch = ((0, 1, 0, 2, 1), ("batch words alpha", "batch words bravo", "batch words delta"))
    for number, reading in enumerate(history):
        week_over = number >= late + 2
        for surface, (results, text) in reading.items():
            # The batch shows (with the option, only once the week is over), and only it.
            assert results == (batch if week_over or not at_week_end else None), \
                (number, surface)
            for _, words in LATE_ANSWERS[:late]:
                assert words not in text, (number, surface)
    # The counts say how many stayed private, and the pages say so in plain words.
    week = next(entry for entry in (await api.read(pulse["slug"]))["weeks"]
                if entry["week"] == THIS_WEEK)
    assert (week["responses"], week["inResults"]) == (BATCH + late, BATCH)
    said = (f"1 response came in after the last batch of {BATCH} and stays private."
            if late == 1 else
            f"{late} responses came in after the last batch of {BATCH} and stay private.")
    for path in (f"/s/{pulse['slug']}", f"/e/{pulse['editToken']}"):
        assert said in await api.text(path)


async def test_a_week_that_never_filled_a_batch_shows_only_its_count(api: Any, clock: Any,
                                                                     pulse: dict[str, str]
                                                                     ) -> None:
    for score, words in LATE_ANSWERS:
        await api.responded(pulse["slug"], score, words)
    clock.set(NEXT_WEEK)
    week = await api.week(pulse["slug"], THIS_WEEK)
    assert (week["responses"], week["shown"], week["comments"]) == (3, False, None)
    page = await api.text(f"/s/{pulse['slug']}")
    assert "Fewer than 4 people checked in, so only the count shows." in page
    assert "late words" not in page


# --- a database from before: the current week's last batch kept in the instance's data -----

def _as_before(slug: str) -> None:
    """Store a pulse the way it was stored before responses were held: every response in
    the tables, the current week's last batch (if any) in `release`."""
    from groupkit import Instance
    from groupkit_pulse.models import PulseComments
    from groupkit_pulse.models import PulseHeld
    from groupkit_pulse.models import PulseHeldWords
    from groupkit_pulse.models import PulseTally

    instance = Instance.get(Instance.slug == slug)
    rows = {row.score: row for row in PulseTally.select().where(PulseTally.instance == instance)}
    comments = PulseComments.get_or_none(PulseComments.instance == instance)
    texts = list(comments.texts) if comments is not None else []
    release = ({"week": THIS_WEEK, "responses": sum(row.count for row in rows.values()),
                "counts": {str(score): row.count for score, row in rows.items()},
                "texts": list(texts)} if rows else {"week": ""})
    for held in PulseHeld.select().where(PulseHeld.instance == instance):
        for score in held.scores:
            row = rows.get(score) or PulseTally(instance=instance, week=held.week, score=score)
            row.count += 1
            row.save()
            rows[score] = row
        held.delete_instance()
    for said in PulseHeldWords.select().where(PulseHeldWords.instance == instance):
        texts += said.texts
        said.delete_instance()
    PulseComments.delete().where(PulseComments.instance == instance).execute()
    PulseComments.create(instance=instance, week=THIS_WEEK, texts=texts)
    instance.data = {**instance.data, "release": release}
    instance.save()


async def test_the_migration_holds_back_what_no_batch_took(api: Any, clock: Any) -> None:
    from groupkit import Instance
    from groupkit_pulse.migrations import MIGRATIONS
    from groupkit_testing import rerun_migrations

    # Made before batches (no `release`): the migration passes it by and goes on.
    legacy = await api.create({"team": "Before batches"})
    await api.responded(legacy["slug"], 3)
    after_batch = await api.create({"team": "Batched"})
    for score, words in BATCH_ANSWERS + LATE_ANSWERS[:2]:
        await api.responded(after_batch["slug"], score, words)
    no_batch = await api.create({"team": "Quiet"})
    for score, words in LATE_ANSWERS:
        await api.responded(no_batch["slug"], score, words)
    expected = [await api.read(made["slug"]) for made in (after_batch, no_batch)]
    for made in (after_batch, no_batch):
        _as_before(made["slug"])
    versions = {made["slug"]: Instance.get(Instance.slug == made["slug"]).version
                for made in (after_batch, no_batch)}
    assert rerun_migrations("tool:pulse", MIGRATIONS, keep=["0001_initial"]) == ["0002_held"]
    assert [await api.read(made["slug"]) for made in (after_batch, no_batch)] == expected
    for slug, version in versions.items():
        # `release` goes, and no page kept from before the migration stands.
        migrated = Instance.get(Instance.slug == slug)
        assert "release" not in migrated.data and migrated.version == version + 1
    # What was held back is held as if it had come in now: the next two make a batch.
    for score, words in [*LATE_ANSWERS[2:], (5, "after the upgrade")]:
        await api.responded(after_batch["slug"], score, words)
    week = await api.week(after_batch["slug"], THIS_WEEK)
    assert (week["responses"], week["inResults"]) == (8, 8)
    assert sorted(week["comments"]) == sorted(
        [*(words for _, words in BATCH_ANSWERS + LATE_ANSWERS if words), "after the upgrade"])
    clock.set(NEXT_WEEK)
    quiet = await api.week(no_batch["slug"], THIS_WEEK)
    assert (quiet["responses"], quiet["shown"]) == (3, False)
