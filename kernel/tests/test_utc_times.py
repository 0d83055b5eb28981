"""One time rule: a plugin sees aware UTC datetimes; the database keeps naive UTC exactly as
peewee's own `DateTimeField` wrote it before (no migration, SQLite still compares text)."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import peewee as pw
from test_storage import _with_tables

from groupkit import UTCDateTimeField
from groupkit import utc_iso
from groupkit import utcnow
from groupkit.core._storage import Instance
from groupkit.core._storage import database
from groupkit.core._storage import is_postgres

SYDNEY = ZoneInfo("Australia/Sydney")
AT = dt.datetime(2026, 11, 23, 6, 43, tzinfo=dt.UTC)


class PlainInstance(pw.Model):
    """The instance table as peewee's plain field wrote it before the time rule."""

    slug = pw.CharField(max_length=80, unique=True)
    tool = pw.CharField(max_length=40)
    edit_digest = pw.CharField(max_length=64, unique=True)
    title = pw.TextField(default="")
    data = pw.TextField(default="{}")
    version = pw.IntegerField(default=0)
    created = pw.DateTimeField()

    class Meta:
        database = database
        table_name = "instance"


def _raw(slug: str) -> Any:
    return database.execute_sql("SELECT created FROM instance WHERE slug = "
                                + database.param, (slug,)).fetchone()[0]


def test_stored_form_is_what_the_plain_field_stored(database_url: str) -> None:
    storage = _with_tables(database_url)
    moments = [AT, AT + dt.timedelta(microseconds=5), AT.replace(second=59)]

    def work() -> list[tuple[Any, Any]]:
        pairs = []
        for number, moment in enumerate(moments):
            naive = moment.replace(tzinfo=None)
            PlainInstance.create(slug=f"plain-{number}", tool="demo", edit_digest=f"p{number}",
                                 created=naive)
            # The same moment given in Sydney's zone, and as naive UTC: one stored form.
            Instance.create(slug=f"aware-{number}", tool="demo", edit_digest=f"a{number}",
                            created=moment.astimezone(SYDNEY))
            Instance.create(slug=f"naive-{number}", tool="demo", edit_digest=f"n{number}",
                            created=naive)
            pairs.append((_raw(f"plain-{number}"), _raw(f"aware-{number}")))
            pairs.append((_raw(f"plain-{number}"), _raw(f"naive-{number}")))
        return pairs

    try:
        pairs = storage.run_sync(work)
        assert all(plain == ours for plain, ours in pairs), pairs
        assert pairs[2][0] == (AT + dt.timedelta(microseconds=5)).replace(tzinfo=None) \
            if is_postgres() else "2026-11-23 06:43:00.000005"
        if not is_postgres():
            assert pairs[0][0] == "2026-11-23 06:43:00"
    finally:
        storage.close()


def test_column_type_is_unchanged(database_url: str) -> None:
    storage = _with_tables(database_url)

    def column_type() -> str:
        if is_postgres():
            return str(database.execute_sql(
                "SELECT data_type FROM information_schema.columns WHERE table_name = 'instance'"
                " AND column_name = 'created' AND table_schema = current_schema()").fetchone()[0])
        rows = database.execute_sql("PRAGMA table_info(instance)").fetchall()
        return str(next(row[2] for row in rows if row[1] == "created"))

    try:
        expected = "timestamp without time zone" if storage.run_sync(is_postgres) else "DATETIME"
        assert storage.run_sync(column_type) == expected
    finally:
        storage.close()


def test_values_read_back_aware_and_queries_compare_and_order(database_url: str) -> None:
    storage = _with_tables(database_url)
    # Given out of order, in three zones: UTC order is 0, 1, 2, 3.
    moments = {"t2": AT + dt.timedelta(hours=2),
               "t0": (AT - dt.timedelta(days=1)).astimezone(SYDNEY),
               "t3": AT + dt.timedelta(days=400, microseconds=1),
               "t1": (AT + dt.timedelta(microseconds=999999)).astimezone(
                   dt.timezone(dt.timedelta(hours=-7)))}

    def work() -> dict[str, Any]:
        for slug, moment in moments.items():
            Instance.create(slug=slug, tool="demo", edit_digest=slug, created=moment)
        ordered = list(Instance.select().order_by(Instance.created))
        before = Instance.select().where(Instance.created < AT.astimezone(SYDNEY))
        Instance.update(created=AT.astimezone(SYDNEY)).where(Instance.slug == "t3").execute()
        return {"order": [row.slug for row in ordered],
                "zones": {row.created.tzinfo for row in ordered},
                "equal": [row.created == moments[row.slug] for row in ordered],
                "before": sorted(row.slug for row in before),
                "between": sorted(row.slug for row in Instance.select().where(
                    Instance.created.between(AT, AT + dt.timedelta(hours=2)))),
                "latest": Instance.select(pw.fn.MAX(Instance.created)).scalar(),
                "updated": Instance.get(Instance.slug == "t3").created}

    try:
        found = storage.run_sync(work)
        assert found["order"] == ["t0", "t1", "t2", "t3"]
        assert found["zones"] == {dt.UTC}
        assert all(found["equal"])
        assert found["before"] == ["t0"]
        assert found["between"] == ["t1", "t2", "t3"]
        assert found["updated"] == AT and found["updated"].tzinfo is dt.UTC
        assert found["latest"] == AT + dt.timedelta(hours=2)
    finally:
        storage.close()


def test_null_stays_none() -> None:
    field = UTCDateTimeField(null=True)
    assert field.db_value(None) is None and field.python_value(None) is None


def test_utcnow_is_aware_utc() -> None:
    now = utcnow()
    assert now.tzinfo is dt.UTC
    assert abs(dt.datetime.now(dt.UTC) - now) < dt.timedelta(seconds=5)


def test_utc_iso_writes_the_apis_form() -> None:
    assert utc_iso(AT) == "2026-11-23T06:43:00+00:00"
    assert utc_iso(AT.astimezone(SYDNEY)) == "2026-11-23T06:43:00+00:00"
    assert utc_iso(AT.replace(tzinfo=None, microsecond=5)) == "2026-11-23T06:43:00.000005+00:00"
    assert utc_iso(None) is None
