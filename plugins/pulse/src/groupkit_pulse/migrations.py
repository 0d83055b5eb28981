"""Weekly Pulse's tables, step by step.

Until `0002_held`, the tables held every response and the instance's data kept the current
week's last released batch (`release`: its counts and words), the results showing that batch
this week and every response of a past week. The step moves the responses no batch took
into `PulseHeld` and `PulseHeldWords`, so the tables are the results and the week's end
releases nothing.
"""

from __future__ import annotations

import secrets
from collections import Counter
from typing import Any

import peewee as pw

from groupkit import Instance

from .api import BATCH
from .models import PulseComments
from .models import PulseHeld
from .models import PulseHeldWords
from .models import PulseTally


def create_tables(database: pw.Database) -> None:
    database.create_tables([PulseTally, PulseComments], safe=True)


def _hold_back(instance: Instance, week: str, release: dict[str, Any]) -> None:
    """Move what the week holds beyond `release` (its last batch, if it is that week's)
    into the held tables, when that is fewer than a batch: more had no batch to wait for (the
    option of results at the week's end made none), so they stay in the results."""
    batch = release if release.get("week") == week else {"counts": {}, "texts": []}
    tallies = list(PulseTally.select().where((PulseTally.instance == instance)
                                             & (PulseTally.week == week)))
    left = {row.score: row.count - int(batch["counts"].get(str(row.score), 0))
            for row in tallies}
    if not 0 < sum(left.values()) < BATCH:
        return
    comments = (PulseComments.select().where((PulseComments.instance == instance)
                                             & (PulseComments.week == week)).first())
    words = Counter(comments.texts if comments is not None else []) - Counter(batch["texts"])
    for row in tallies:
        row.count -= left[row.score]
        if row.count:
            row.save()
        else:
            row.delete_instance()
    if comments is not None:
        kept, taken = [], Counter(words)
        for text in comments.texts:
            if taken[text]:
                taken[text] -= 1
            else:
                kept.append(text)
        comments.texts = kept
        comments.save()
    PulseHeld.create(instance=instance, week=week, responses=sum(left.values()),
                     scores=sorted(Counter(left).elements()))
    if words:
        texts = list(words.elements())
        secrets.SystemRandom().shuffle(texts)
        PulseHeldWords.create(instance=instance, week=week, texts=texts)


def hold_back_unreleased(database: pw.Database) -> None:
    """Each pulse's last week with responses gives back what no batch took; `release` goes."""
    database.create_tables([PulseHeld, PulseHeldWords], safe=True)
    for instance in Instance.select().where(Instance.tool == "pulse"):
        release = instance.data.get("release")
        if release is None:
            continue  # made before batches: every response showed as it came
        last = (PulseTally.select(pw.fn.MAX(PulseTally.week))
                .where(PulseTally.instance == instance).scalar())
        if last is not None:
            _hold_back(instance, last, release)
        instance.data = {key: value for key, value in instance.data.items()
                         if key != "release"}
        instance.version += 1  # no page kept from before may stand
        instance.save(only=[Instance.data, Instance.version])


MIGRATIONS = [("0001_initial", create_tables), ("0002_held", hold_back_unreleased)]
