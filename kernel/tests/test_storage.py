"""Database URLs, migrations and the units of work."""

from __future__ import annotations

import asyncio
import fcntl
import os
import threading
from typing import Any

import peewee as pw
import pytest
from test_render_cache import statements_of

import demo_plugin
from groupkit.core import _storage
from groupkit.core._config import Settings
from groupkit.core._storage import Credential
from groupkit.core._storage import Instance
from groupkit.core._storage import MigrationRecord
from groupkit.core._storage import Storage
from groupkit.core._storage import insert_new
from groupkit.core._storage import model_rows
from groupkit.core._storage import open_database
from groupkit.core._storage import prepared_rows
from groupkit.core._storage import run_prepared
from groupkit.ops._app import migrate
from groupkit.ops._plugins import load_tools


def test_only_sqlite_files_and_postgresql_urls() -> None:
    with pytest.raises(ValueError):
        open_database("sqlite:///:memory:")
    with pytest.raises(ValueError):
        open_database("mysql://x/y")


def test_sqlite_is_wal_with_foreign_keys(tmp_path: Any) -> None:
    storage = Storage(open_database(f"sqlite:///{tmp_path / 'x.db'}", 1), 1)
    storage.bind()
    try:
        mode = storage.run_sync(lambda: storage.db.execute_sql("PRAGMA journal_mode").fetchone())
        keys = storage.run_sync(lambda: storage.db.execute_sql("PRAGMA foreign_keys").fetchone())
        assert mode[0] == "wal" and keys[0] == 1
    finally:
        storage.close()


def test_migrations_apply_once(database_url: str) -> None:
    storage = Storage(open_database(database_url, 2), 2)
    storage.bind()
    try:
        registry = load_tools(Settings(), [demo_plugin], entry_points=False)
        first = migrate(storage, registry)
        assert first == {"groupkit": ["0001_initial", "0002_chat_webhooks", "0003_flash",
                                         "0004_edit_stamps", "0005_outbox_channels", "0006_email",
                                         "0007_instance_language", "pg_announce_changes"],
                         "tool:demo": ["0001_initial"]}
        assert migrate(storage, registry) == {"groupkit": [], "tool:demo": []}
        count = storage.run_sync(lambda: MigrationRecord.select().count(), write=False)
        assert count == 9
    finally:
        storage.close()


def test_concurrent_migrations_run_each_step_once(database_url: str) -> None:
    registry = load_tools(Settings(), [demo_plugin], entry_points=False)
    storage = Storage(open_database(database_url, 4), 4)
    storage.bind()
    results: list[dict[str, list[str]]] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            results.append(migrate(storage, registry))
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    try:
        threads = [threading.Thread(target=worker) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors
        applied = sorted(name for result in results for names in result.values()
                         for name in names)
        assert applied == ["0001_initial", "0001_initial", "0002_chat_webhooks", "0003_flash",
                           "0004_edit_stamps", "0005_outbox_channels", "0006_email",
                           "0007_instance_language", "pg_announce_changes"]
    finally:
        storage.close()


def test_chat_posts_queued_before_the_outbox_took_channels_stay_chat_posts(
        database_url: str) -> None:
    """0005 adds `channel` and `recipient` to a `chat_post` table made before it: the posts
    already queued there are chat posts, for the instance's webhook."""
    from groupkit.blocks import _outbox as outbox

    class OldPost(pw.Model):
        instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
        key = pw.CharField(max_length=120)
        text = pw.TextField()

        class Meta:
            table_name = "chat_post"

    storage = Storage(open_database(database_url, 2), 2)
    storage.bind()

    def work() -> list[tuple[str, str, str]]:
        database = Instance._meta.database
        database.create_tables([Instance], safe=True)
        OldPost.bind(database)
        database.create_tables([OldPost])
        made = Instance.create(tool="demo", slug="old-outbox-slug-01", edit_digest="o1")
        OldPost.create(instance=made, key="k", text="queued before")
        outbox.MIGRATION[1](database)
        outbox.MIGRATION[1](database)  # a second run changes nothing
        return list(outbox.OutboxMessage.select(
            outbox.OutboxMessage.channel, outbox.OutboxMessage.recipient,
            outbox.OutboxMessage.text).tuples())

    try:
        assert storage.run_sync(work) == [("chat", "", "queued before")]
    finally:
        storage.close()


def _with_tables(database_url: str) -> Storage:
    storage = Storage(open_database(database_url, 2), 2)
    storage.bind()
    migrate(storage, load_tools(Settings(), [demo_plugin], entry_points=False))
    return storage


def test_quick_save_writes_what_peewee_writes(database_url: str) -> None:
    """Inserts and updates by key take a statement written once; the rows, keys, defaults,
    JSON, foreign keys and `only=` saves come out as peewee's own path leaves them."""
    storage = _with_tables(database_url)

    def work() -> dict[str, Any]:
        made = Instance.create(tool="demo", slug="quick-save-slug-0001", edit_digest="d1",
                               data={"a": [1, "é"]})
        assert made.id is not None and not made.dirty_fields
        claim = Credential.create(instance=made, kind="k", digest="x1", ref="r")
        made.title, made.data, made.version = "New", {"b": 2}, 7
        assert made.save(only=[Instance.data]) == 1
        stored = Instance.get_by_id(made.id)
        assert (stored.title, stored.data, stored.version) == ("", {"b": 2}, 0)
        assert made.save() == 1
        stored = Instance.get_by_id(made.id)
        again = Credential.get_by_id(claim.id)
        return {"row": (stored.title, stored.data, stored.version, stored.slug),
                "created": stored.created is not None, "fk": again.instance_id == made.id,
                "gone": Instance(id=made.id + 1000, tool="x", slug="s", edit_digest="e",
                                 title="").save()}

    try:
        found = storage.run_sync(work)
        assert found == {"row": ("New", {"b": 2}, 7, "quick-save-slug-0001"),
                         "created": True, "fk": True, "gone": 0}
    finally:
        storage.close()


def test_a_credential_insert_rides_with_the_next_statement_on_postgresql(
        database_url: str) -> None:
    """A token is issued on many writes and its row's key is almost never read: on
    PostgreSQL its INSERT is sent with the transaction's next statement (here a count, which
    sees both rows), and its key is looked up the first time it is read; saving or deleting
    the row afterwards finds the stored one, never inserts it again."""
    storage = _with_tables(database_url)

    def work() -> tuple[int, int, int, list[tuple[int, str, str]]]:
        made = Instance.create(tool="demo", slug="held-credential-0001", edit_digest="d2")
        assert made.id is not None  # (its key read now, not by the credentials' inserts)
        with statements_of(storage.db) as sent:
            first = Credential.create(instance=made, kind="k", digest="held-1", ref="r1")
            second = Credential.create(instance=made, kind="k", digest="held-2", ref="r2")
            own = len(sent)
            count = Credential.select().where(Credential.instance == made).count()
        first.ref = "changed"
        assert first.save() == 1
        assert second.delete_instance() == 1
        rows = [(row.id, row.digest, row.ref) for row in Credential.select()]
        return own, count, first.id, rows

    try:
        own, count, key, rows = storage.run_sync(work)
        assert own == (0 if storage.postgres else 2) and count == 2
        assert rows == [(key, "held-1", "changed")]
    finally:
        storage.close()


def test_an_insert_follows_a_plan_made_once_and_peewees_path_where_it_must(
        database_url: str) -> None:
    """New rows of one model and set of fields share one insert plan; a row holding an SQL
    expression still goes through peewee, and both store what was given."""
    storage = _with_tables(database_url)

    def work() -> dict[str, Any]:
        made = Instance.create(tool="demo", slug="plan-slug-0001", edit_digest="p1")
        _storage._INSERT_PLANS.clear()
        first = Credential.create(instance=made, kind="k", digest="p-1", ref="1")
        plans = {key for key in _storage._INSERT_PLANS if key[0] is Credential}
        second = Credential.create(instance=made, kind="k", digest="p-2", ref="2", plain="t")
        third = Credential.create(instance=made, kind="k", digest="p-3", ref="3")
        literal = Instance.create(tool="demo", slug="plan-slug-0002", edit_digest="p2",
                                  version=pw.SQL("6 + 1"))
        rows = [(row.id, row.instance_id, row.digest, row.ref, row.plain)
                for row in Credential.select().where(Credential.instance == made)
                .order_by(Credential.id)]
        return {
            "rows": rows, "ids": [first.id, second.id, third.id],
            "plans": len(plans), "plans after": len({
                key for key in _storage._INSERT_PLANS if key[0] is Credential}),
            "clean": not (first.dirty_fields or second.dirty_fields or third.dirty_fields),
            "literal": (Instance.get_by_id(literal.id).version, literal.id != made.id)}

    try:
        found = storage.run_sync(work)
        first, second, third = found["ids"]
        made = found["rows"][0][1]
        assert found["rows"] == [(first, made, "p-1", "1", None), (second, made, "p-2", "2", "t"),
                                 (third, made, "p-3", "3", None)]
        assert first < second < third
        assert (found["plans"], found["plans after"]) == (1, 2)  # with `plain`, and without
        assert found["clean"]
        assert found["literal"] == (7, True)
    finally:
        storage.close()


def test_a_pending_instance_is_stored_once(database_url: str) -> None:
    """`Instance.pending` is inserted by its first save, or when its key is first read (a
    tool's create that writes rows of its own): once either way, with what was set."""
    storage = _with_tables(database_url)

    def work() -> dict[str, Any]:
        before = Instance.select().count()
        quiet = Instance.pending(tool="demo", slug="pending-slug-000001", edit_digest="p1")
        quiet.data = {"a": 1}
        quiet.save()
        quiet_key = quiet.id  # (on PostgreSQL looked up now: its INSERT was held back)
        keyed = Instance.pending(tool="demo", slug="pending-slug-000002", edit_digest="p2")
        claim = Credential.create(instance=keyed, kind="k", digest="p3", ref="r")
        keyed.data = {"b": 2}
        keyed.save()
        rows = Instance.select().where(Instance.slug.startswith("pending-slug"))
        return {"added": Instance.select().count() - before,
                "rows": {row.slug: row.data for row in rows},
                "fk": Credential.get_by_id(claim.id).instance_id == keyed.id,
                "key": Instance.get(Instance.slug == "pending-slug-000001").id == quiet_key}

    try:
        assert storage.run_sync(work) == {
            "added": 2, "fk": True, "key": True,
            "rows": {"pending-slug-000001": {"a": 1}, "pending-slug-000002": {"b": 2}}}
    finally:
        storage.close()


def test_insert_new_does_nothing_on_a_taken_key(database_url: str) -> None:
    """A second row with the same unique values is not written, and the transaction goes
    on (no error to catch, so no savepoint on PostgreSQL)."""
    storage = _with_tables(database_url)

    def work() -> tuple[Any, ...]:
        made = Instance.create(tool="demo", slug="insert-new-slug-0001", edit_digest="n1")
        first = Credential(instance=made, kind="k", digest="n2", ref="first")
        second = Credential(instance=made, kind="k", digest="n2", ref="second")
        return (insert_new(first, ("digest",)), first.id is not None, not first.dirty_fields,
                insert_new(second, ("digest",)), second.id,
                [row.ref for row in Credential.select().where(Credential.digest == "n2")])

    try:
        assert storage.run_sync(work) == (True, True, True, False, None, ["first"])
    finally:
        storage.close()


def test_prepared_statements_check_their_parameters(database_url: str) -> None:
    storage = _with_tables(database_url)

    def work() -> tuple[list[str], int, int]:
        made = Instance.create(tool="demo", slug="prepared-slug-00001", edit_digest="d2")
        rows = prepared_rows(Instance, "test.by-slug", lambda: Instance.select().where(
            Instance.slug == "prepared-slug-00001"), ("prepared-slug-00001",))
        bumped = run_prepared("test.bump", lambda: Instance.update(
            version=Instance.version + 5).where(Instance.id == made.id), (5, made.id))
        with pytest.raises(ValueError):
            run_prepared("test.wrong", lambda: Instance.update(version=999).where(
                Instance.id == made.id), (made.id, 999))
        return [row.slug for row in rows], bumped.rowcount, Instance.get_by_id(made.id).version

    try:
        assert storage.run_sync(work) == (["prepared-slug-00001"], 1, 5)
    finally:
        storage.close()


def test_model_rows_are_the_rows_peewee_makes(database_url: str) -> None:
    """Rows read without peewee's cursor wrapper: the same values (JSON, times, foreign
    keys), nothing dirty, and anything it cannot map (an expression, a join's repeated
    names) still read by peewee's own way."""
    storage = _with_tables(database_url)

    def work() -> None:
        made = Instance.create(tool="demo", slug="model-rows-slug-0001", edit_digest="d3",
                               title="Lunch", data={"a": [1, "é"], "b": None})
        Credential.create(instance=made, kind="k", digest="x3", ref="r", plain="p")
        for model, sql in [
                (Instance, 'SELECT * FROM instance WHERE slug = {p}'),
                (Instance, 'SELECT "t1"."id", "t1"."data", "t1"."created" FROM instance AS '
                           '"t1" WHERE "t1"."slug" = {p}'),
                (Credential, 'SELECT * FROM credential WHERE digest = {p}'),
                (Instance, 'SELECT id, version + 1 AS next, slug FROM instance '
                           'WHERE slug = {p}'),
                (Credential, 'SELECT c.id, i.id, i.slug FROM credential AS c JOIN instance '
                             'AS i ON i.id = c.instance_id WHERE i.slug = {p}')]:
            key = "x3" if "digest" in sql else "model-rows-slug-0001"
            query = sql.format(p=Instance._meta.database.param)
            ours = model_rows(model, query, (key,))
            theirs = list(model.raw(query, key))
            assert [row.__data__ for row in ours] == [row.__data__ for row in theirs], sql
            assert ours and all(not row.dirty_fields for row in ours)
            assert all(type(row) is model for row in ours)
        found = model_rows(Instance, "SELECT * FROM instance WHERE slug = "
                           f"{Instance._meta.database.param}", ("model-rows-slug-0001",))[0]
        assert (found.data, found.title, found.id) == ({"a": [1, "é"], "b": None}, "Lunch",
                                                       made.id)
        assert found.created == Instance.get_by_id(made.id).created
        credential = model_rows(Credential, "SELECT * FROM credential", ())[0]
        assert credential.instance.slug == "model-rows-slug-0001"

    try:
        storage.run_sync(work)
    finally:
        storage.close()


def _title(slug: str) -> tuple[str, int]:
    """The instance's title, written in a write unit, and the thread that wrote it."""
    Instance.create(tool="demo", slug=slug, edit_digest=f"d-{slug}", title="Lunch", data={})
    return threading.current_thread().name, threading.get_ident()


async def test_a_sqlite_write_with_the_turn_free_runs_in_the_event_loop_thread(
        database_url: str) -> None:
    """Handing a short SQLite write to a thread and back cost more than the write: with no
    writer anywhere on the file, it runs where it was asked for. PostgreSQL's writes wait on
    the network and always run in the pool."""
    storage = _with_tables(database_url)
    try:
        _name, ident = await storage.write(_title, "loop-thread-write-0001")
        if storage.postgres:
            assert ident != threading.get_ident()
        else:
            assert ident == threading.get_ident()
        count = await storage.read(lambda: Instance.select().count())
        assert count == 1
    finally:
        storage.close()


async def test_a_sqlite_write_waits_for_another_process_in_the_writer_thread(
        tmp_path: Any) -> None:
    """While another process holds the writing turn (its flock on the lock file), a write
    waits for it in the writer thread, and the event loop goes on serving meanwhile."""
    storage = _with_tables(f"sqlite:///{tmp_path / 'turns.db'}")
    other = os.open(f"{tmp_path / 'turns.db'}-writer.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(other, fcntl.LOCK_EX)  # another open file: as another process holds it
        waiting = asyncio.ensure_future(storage.write(_title, "waits-for-turn-0001"))
        await asyncio.sleep(0.2)  # the loop runs while the write waits
        assert not waiting.done()
        fcntl.flock(other, fcntl.LOCK_UN)
        name, ident = await asyncio.wait_for(waiting, 10)
        assert name.startswith("groupkit-writer") and ident != threading.get_ident()
        # The turn is free again: the next write runs in the loop's thread.
        _name, ident = await storage.write(_title, "after-the-turn-0002")
        assert ident == threading.get_ident()
    finally:
        os.close(other)
        storage.close()


async def test_a_sqlite_write_queues_behind_this_process_own_writer(tmp_path: Any) -> None:
    """A write that comes while the writer thread is writing queues behind it in that thread,
    in order, never beside it."""
    storage = _with_tables(f"sqlite:///{tmp_path / 'queue.db'}")
    started, release = threading.Event(), threading.Event()
    order: list[str] = []

    def slow() -> str:
        started.set()
        release.wait(10)
        order.append("slow")
        return threading.current_thread().name

    def quick() -> str:
        order.append("quick")
        return threading.current_thread().name

    try:
        other = os.open(f"{tmp_path / 'queue.db'}-writer.lock", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(other, fcntl.LOCK_EX)
        first = asyncio.ensure_future(storage.write(slow))  # goes to the writer thread
        await asyncio.sleep(0.05)
        fcntl.flock(other, fcntl.LOCK_UN)
        os.close(other)
        assert await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
        second = asyncio.ensure_future(storage.write(quick))
        await asyncio.sleep(0.1)
        assert not second.done() and order == []
        release.set()
        names = await asyncio.wait_for(asyncio.gather(first, second), 10)
        assert order == ["slow", "quick"]
        assert all(name.startswith("groupkit-writer") for name in names)
    finally:
        release.set()
        storage.close()


async def test_postgresql_writes_of_one_link_take_a_thread_one_at_a_time(
        database_url: str) -> None:
    """On PostgreSQL, writes through one link (`key`) wait their turn in the event loop, not
    in a database thread queued on the instance's row lock: a write to another instance
    goes ahead meanwhile, and the turn is forgotten once nobody waits. SQLite's writes are
    one at a time anyway, and keep no turns."""
    storage = _with_tables(database_url)
    started, release = threading.Event(), threading.Event()
    order: list[str] = []

    def turns() -> list[Any]:
        return list(storage._turns)

    def slow() -> str:
        started.set()
        release.wait(10)
        order.append("slow")
        return "slow"

    def quick(name: str) -> list[Any]:
        order.append(name)
        return turns()

    try:
        assert await storage.write(turns, key="one-link") == (
            ["one-link"] if storage.postgres else [])
        assert storage._turns == {}
        if storage.postgres:
            first = asyncio.ensure_future(storage.write(slow, key="a"))
            loop = asyncio.get_running_loop()
            assert await loop.run_in_executor(None, started.wait, 10)
            same = asyncio.ensure_future(storage.write(quick, "same", key="a"))
            other = await asyncio.wait_for(storage.write(quick, "other", key="b"), 10)
            assert sorted(other) == ["a", "b"]
            await asyncio.sleep(0.1)
            assert not same.done() and order == ["other"]
            release.set()
            assert await asyncio.wait_for(first, 10) == "slow"
            assert await asyncio.wait_for(same, 10) == ["a"]
            assert order == ["other", "slow", "same"] and storage._turns == {}
    finally:
        release.set()
        storage.close()


class _Commits:
    """Counts the COMMITs of a database (peewee's transactions end in `commit()`)."""

    def __init__(self, storage: Storage, fail: bool = False) -> None:
        self.count, self.fail = 0, fail
        self._commit = storage.db.commit
        storage.db.commit = self  # type: ignore[method-assign]

    def __call__(self) -> None:
        self.count += 1
        if self.fail:
            raise pw.OperationalError("disk I/O error")
        self._commit()


def _slugs(storage: Storage) -> list[str]:
    return sorted(storage.run_sync(lambda: [i.slug for i in Instance.select()], write=False))


async def test_sqlite_writes_that_come_together_share_one_commit(tmp_path: Any) -> None:
    """Writes asked for in the same moment run in one transaction: one COMMIT for all of
    them, each caller getting its own result, and every row stored."""
    storage = _with_tables(f"sqlite:///{tmp_path / 'together.db'}")
    try:
        commits = _Commits(storage)
        slugs = [f"together-slug-{n:04d}" for n in range(10)]
        results = await asyncio.gather(*(storage.write(_title, slug) for slug in slugs))
        assert [ident for _name, ident in results] == [threading.get_ident()] * 10
        assert commits.count == 1
        # One alone is a plain transaction of its own.
        await storage.write(_title, "alone-slug-00000001")
        assert commits.count == 2
        assert _slugs(storage) == ["alone-slug-00000001", *slugs]
    finally:
        storage.close()


async def test_a_shared_transaction_holds_at_most_batch_max_writes(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_storage, "BATCH_MAX", 3)
    storage = _with_tables(f"sqlite:///{tmp_path / 'chunks.db'}")
    try:
        commits = _Commits(storage)
        await asyncio.gather(*(storage.write(_title, f"chunk-slug-{n:06d}") for n in range(7)))
        assert commits.count == 3  # 3 + 3 + 1
        assert len(_slugs(storage)) == 7
    finally:
        storage.close()


async def test_a_write_that_fails_in_a_shared_transaction_is_undone_alone(
        tmp_path: Any) -> None:
    """Each write of a shared transaction has its own savepoint: one that raises leaves
    nothing of its own, its caller gets its error, and the writes before and after it are
    kept. Its `before` count stands (as for a write alone); a `before` that refuses keeps
    nothing and the write does not run."""
    storage = _with_tables(f"sqlite:///{tmp_path / 'undone.db'}")
    ran: list[str] = []

    def failing(slug: str) -> None:
        Instance.create(tool="demo", slug=slug, edit_digest=f"d-{slug}", data={})
        raise ValueError("refused by the tool")

    def count(slug: str) -> Any:
        def before() -> None:
            Instance.create(tool="count", slug=slug, edit_digest=f"d-{slug}", data={})
        return before

    def refuse() -> None:
        Instance.create(tool="count", slug="refused-count-0001", edit_digest="d-r", data={})
        raise PermissionError("over the limit")

    def noted(slug: str) -> tuple[str, int]:
        ran.append(slug)
        return _title(slug)

    try:
        commits = _Commits(storage)
        results = await asyncio.gather(
            storage.write(_title, "kept-before-000001"),
            storage.write(failing, "undone-slug-000001", before=count("counted-fail-0001")),
            storage.write(noted, "never-written-0001", before=refuse),
            storage.write(_title, "kept-after-0000001", before=count("counted-ok-000001")),
            return_exceptions=True)
        assert commits.count == 1
        assert isinstance(results[1], ValueError) and isinstance(results[2], PermissionError)
        assert not isinstance(results[0], BaseException)
        assert not isinstance(results[3], BaseException)
        assert ran == []
        assert _slugs(storage) == ["counted-fail-0001", "counted-ok-000001",
                                   "kept-after-0000001", "kept-before-000001"]
    finally:
        storage.close()


async def test_a_shared_transaction_that_cannot_commit_fails_every_write(
        tmp_path: Any) -> None:
    """No write of a batch is answered as done when its COMMIT failed: each caller gets
    the error, and nothing is stored."""
    storage = _with_tables(f"sqlite:///{tmp_path / 'nocommit.db'}")
    try:
        commits = _Commits(storage, fail=True)
        results = await asyncio.gather(
            *(storage.write(_title, f"lost-slug-{n:08d}") for n in range(3)),
            return_exceptions=True)
        assert commits.count == 1
        assert all(isinstance(result, pw.OperationalError) for result in results)
        commits.fail = False
        assert _slugs(storage) == []
    finally:
        storage.close()


async def test_each_write_of_a_shared_transaction_is_observed(tmp_path: Any) -> None:
    """The metrics' database time counts every write once, shared or not."""
    storage = _with_tables(f"sqlite:///{tmp_path / 'observed.db'}")
    seen: list[tuple[bool, float]] = []
    storage.observer = lambda write, seconds: seen.append((write, seconds))
    try:
        await asyncio.gather(*(storage.write(_title, f"seen-slug-{n:08d}") for n in range(4)))
        await storage.write(_title, "seen-alone-0000001")
        assert [write for write, _ in seen] == [True] * 5
        assert all(seconds > 0 for _, seconds in seen)
    finally:
        storage.close()


def test_a_batch_left_by_a_closed_event_loop_does_not_hold_up_the_next(tmp_path: Any) -> None:
    """A loop that closes before its batch ran (a test's loop, a worker stopping) leaves the
    batch behind; a write from the next loop on the same storage still runs."""
    storage = _with_tables(f"sqlite:///{tmp_path / 'loops.db'}")
    loop = asyncio.new_event_loop()
    # The write left behind is destroyed pending, on purpose: not worth a line in the log.
    loop.set_exception_handler(lambda _loop, _context: None)

    async def leave() -> asyncio.Future[Any]:
        task = asyncio.ensure_future(storage.write(_title, "left-behind-000001"))
        await asyncio.sleep(0)  # the write joins a batch whose turn never comes
        return task

    try:
        left = loop.run_until_complete(leave())
        assert not left.done()
        loop.close()

        async def next_write() -> tuple[str, int]:
            return await asyncio.wait_for(storage.write(_title, "next-loop-00000001"), 10)

        asyncio.run(next_write())
        assert _slugs(storage) == ["next-loop-00000001"]
    finally:
        storage.close()


def test_a_connection_given_back_a_moment_ago_is_handed_out_without_a_round_trip(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every unit of work takes a connection from the pool and gives it back. On PostgreSQL
    the pool proved each one alive with `SELECT 1` first, a round trip per unit: one given
    back less than `FRESH_SECONDS` ago is handed out as it is; an older one is still proved,
    and one the server ended meanwhile is replaced, so the next unit still succeeds."""
    storage = _with_tables(database_url)
    proved: list[int] = []
    if storage.postgres:
        adapter = storage.db._adapter
        real = adapter.is_connection_closed
        monkeypatch.setattr(adapter, "is_connection_closed",
                            lambda conn: proved.append(id(conn)) or real(conn))

    def unit() -> int:
        Instance.select().count()
        return id(storage.db.connection())

    try:
        first = storage.run_sync(unit)
        assert storage.run_sync(unit) == first  # given back, handed out again
        assert proved == []
        if not storage.postgres:
            return  # SQLite's pool asks the connection object, never the file
        monkeypatch.setattr(_storage, "FRESH_SECONDS", 0.0)  # every one is older now
        assert storage.run_sync(unit) == first
        assert proved == [first]  # older than the window: proved alive first

        import psycopg2

        pid = storage.run_sync(lambda: storage.db.connection().get_backend_pid())
        admin = psycopg2.connect(**_storage.postgres_parameters(database_url))
        try:
            admin.autocommit = True
            with admin.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(%s, 10000)", (pid,))
        finally:
            admin.close()
        assert storage.run_sync(unit) != first  # the ended one was replaced
        assert proved[-1] == first
    finally:
        storage.close()


async def test_writes_of_one_link_that_gather_share_one_commit_and_fail_alone(
        database_url: str) -> None:
    """Writes through one link (`key`) asked for while none of them has run yet share one
    transaction, on PostgreSQL as on SQLite: one COMMIT, each caller its own result. One that
    fails is undone alone, and on PostgreSQL what it left for the COMMIT (a version bump, a
    notice, an after-commit callback) is forgotten with it; the others' stays."""
    storage = _with_tables(database_url)
    called: list[str] = []

    def at_commit(slug: str) -> None:
        if storage.postgres:
            db = storage.db
            assert isinstance(db, _storage.FewerTripsPostgres)
            assert db.at_commit("UPDATE instance SET title = %s WHERE slug = %s",
                                (f"bumped by {slug}", "kept-first-000001"))
            db.after_commit(lambda: called.append(slug))

    def kept(slug: str) -> str:
        Instance.create(tool="demo", slug=slug, edit_digest=f"d-{slug}", title="Lunch",
                        data={})
        at_commit(slug)
        return slug

    def failing(slug: str) -> None:
        kept(slug)
        raise ValueError("refused by the tool")

    try:
        commits = _Commits(storage)
        results = await asyncio.gather(
            storage.write(kept, "kept-first-000001", key="link"),
            storage.write(failing, "undone-link-00001", key="link"),
            storage.write(kept, "kept-last-0000001", key="link"),
            return_exceptions=True)
        assert commits.count == 1
        assert results[0] == "kept-first-000001" and results[2] == "kept-last-0000001"
        assert isinstance(results[1], ValueError)
        assert _slugs(storage) == ["kept-first-000001", "kept-last-0000001"]
        assert storage._turns == {}
        if storage.postgres:
            assert called == ["kept-first-000001", "kept-last-0000001"]
            title = storage.run_sync(lambda: Instance.get(
                Instance.slug == "kept-first-000001").title, write=False)
            assert title == "bumped by kept-last-0000001"
    finally:
        storage.close()
