"""`make_app` starts later tests from a migrated template (groupkit_testing._Templates): each
test must still see exactly the database a fresh migration leaves, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from groupkit_testing import BACKENDS_ENV
from groupkit_testing import POSTGRES_ENV
from groupkit_testing import external_missing
from groupkit_testing import postgres_url
from groupkit_testing import server_backends

pytest_plugins = ("pytester",)

#: Run in this order, one process: the first two migrate, later ones start from the template
#: (SQLite) or from the schema the previous test left (PostgreSQL), each after a test that
#: wrote rows, used up ids, added a table, an index or a column, or dropped a migration record.
INNER = '''
import demo_plugin
import pytest
from groupkit.core._storage import Instance, MigrationRecord, database
from groupkit_testing import create


def build(make_app):
    return make_app(tools=["demo"], extra_plugins=[demo_plugin], entry_points=False)


def tables(app):
    storage = app.config["GROUPKIT_STORAGE"]
    return sorted(storage.run_sync(lambda: database.obj.get_tables(), write=False))


async def fresh_and_filled(app):
    """The database is as migrated (no rows, ids from 1), then gets rows of its own."""
    storage = app.config["GROUPKIT_STORAGE"]
    assert storage.run_sync(lambda: Instance.select().count(), write=False) == 0
    assert storage.run_sync(
        lambda: sorted((r.app, r.name) for r in MigrationRecord.select()), write=False) == EXPECTED
    made = await create(app.test_client(), "demo", {"title": "Lunch", "names": ["A"]})
    ids = storage.run_sync(lambda: [i.id for i in Instance.select()], write=False)
    assert ids == [1], ids
    assert "extra_by_hand" not in tables(app)
    return made


EXPECTED = []


@pytest.mark.parametrize("round", range(3))
async def test_rows_and_ids_start_afresh(make_app, round):
    app = build(make_app)
    if not EXPECTED:
        EXPECTED.extend(app.config["GROUPKIT_STORAGE"].run_sync(
            lambda: sorted((r.app, r.name) for r in MigrationRecord.select()), write=False))
    await fresh_and_filled(app)


async def test_ids_used_then_rows_deleted(make_app):
    app = build(make_app)
    await fresh_and_filled(app)
    app.config["GROUPKIT_STORAGE"].run_sync(lambda: Instance.delete().execute())


async def test_after_deleted_rows(make_app):
    await fresh_and_filled(build(make_app))


async def test_a_table_made_by_hand(make_app):
    app = build(make_app)
    await fresh_and_filled(app)
    app.config["GROUPKIT_STORAGE"].run_sync(
        lambda: database.obj.execute_sql("CREATE TABLE extra_by_hand (x integer)"))


async def test_after_a_table_made_by_hand(make_app):
    await fresh_and_filled(build(make_app))


async def test_a_column_and_an_index_made_by_hand(make_app):
    app = build(make_app)
    await fresh_and_filled(app)
    app.config["GROUPKIT_STORAGE"].run_sync(lambda: [database.obj.execute_sql(sql) for sql in (
        "ALTER TABLE instance ADD COLUMN extra_by_hand integer",
        "CREATE INDEX extra_index_by_hand ON instance (title)")])


async def test_after_a_column_and_an_index(make_app):
    app = build(make_app)
    await fresh_and_filled(app)
    storage = app.config["GROUPKIT_STORAGE"]
    columns = storage.run_sync(lambda: [c.name for c in database.obj.get_columns("instance")],
                               write=False)
    indexes = storage.run_sync(lambda: [i.name for i in database.obj.get_indexes("instance")],
                               write=False)
    assert "extra_by_hand" not in columns
    assert "extra_index_by_hand" not in indexes


async def test_a_migration_record_dropped(make_app):
    app = build(make_app)
    await fresh_and_filled(app)
    app.config["GROUPKIT_STORAGE"].run_sync(
        lambda: MigrationRecord.delete().where(MigrationRecord.app == "tool:demo").execute())


async def test_after_a_migration_record_dropped(make_app):
    await fresh_and_filled(build(make_app))


async def test_other_settings_same_tools(make_app):
    app = make_app(tools=["demo"], extra_plugins=[demo_plugin], entry_points=False,
                   mode="production", create_per_hour=1000)
    await fresh_and_filled(app)


def test_templates_were_used(_groupkit_templates):
    kept = _groupkit_templates.sqlite or _groupkit_templates.postgres
    assert kept
    assert max(_groupkit_templates.seen.values()) == 12
'''


@pytest.mark.parametrize("backend", server_backends())
def test_every_test_sees_a_freshly_migrated_database(
        backend: str, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    if backend == "sqlite":
        monkeypatch.delenv(POSTGRES_ENV, raising=False)
    elif postgres_url() is None:
        external_missing("PostgreSQL")
    # Every inner test must run, the last (which reaches no database) too.
    for name in ("GROUPKIT_TEST_TEMPLATES", BACKENDS_ENV):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest_inprocess(
        "-p", "no:xdist", "-p", "no:randomly", "-o", "addopts=", "-o", "asyncio_mode=auto",
        "-o", "asyncio_default_fixture_loop_scope=function", "-q")
    result.assert_outcomes(passed=13)
