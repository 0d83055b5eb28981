"""The outbox: everything the service sends (chat posts, emails) waits here until it went out.

A message is a row of `OutboxMessage` (the `chat_post` table, named after its first use),
queued inside the transaction of whatever caused it, so it survives a restart and is sent
only if that transaction committed. Each server process runs the delivery loop
(`deliver_once`), which claims due rows in a write transaction (`FOR UPDATE SKIP LOCKED` on
PostgreSQL, the database write lock on SQLite) and pushes the claim's lease forward before
sending: one message goes out once across workers and hosts. A failed try waits twice as
long as the one before it (`BACKOFF`, up to `BACKOFF_CAP`), `MAX_ATTEMPTS` times at most.
A process sends up to `parallel` messages at once, one per instance at a time, so a slow
receiver holds one slot for at most its channel's deadline and never another group's
message. The row, once tried, is the delivery log's line the organiser sees.

Each `channel` ("chat", "email") has a `Channel`: how a claimed row finds where it goes (the
instance's webhook; an address row) and how it is sent.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any

import peewee as pw

from groupkit.core._storage import BaseModel
from groupkit.core._storage import Instance
from groupkit.core._storage import Storage
from groupkit.core._storage import UTCDateTimeField
from groupkit.core._storage import is_postgres
from groupkit.core._storage import utcnow

log = logging.getLogger("groupkit.outbox")

#: Tries per message before it is marked failed; waits between them double from BACKOFF.
MAX_ATTEMPTS = 6
BACKOFF = dt.timedelta(seconds=2)
BACKOFF_CAP = dt.timedelta(hours=1)
#: How long a claimed message is left to the process that claimed it (a channel's send
#: deadline stays well inside it).
LEASE = dt.timedelta(seconds=60)
#: Messages one process sends at once (at most one per instance).
PARALLEL = 8
#: Seconds between looks for newly due messages while sends are under way.
CLAIM_EVERY = 1.0
OUTCOME_LIMIT = 120


class OutboxMessage(BaseModel):
    """One queued message and, once tried, its line in the delivery log. `recipient` names
    the receiver within the channel (email: the address row's id; chat: empty, the
    instance's webhook) and never holds an address itself."""

    id = pw.AutoField()
    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE", index=True)
    channel = pw.CharField(max_length=10, default="chat")
    recipient = pw.CharField(max_length=40, default="")
    key = pw.CharField(max_length=120)
    text = pw.TextField()
    state = pw.CharField(max_length=10, default="pending")  # pending, sent, failed
    attempts = pw.IntegerField(default=0)
    due = UTCDateTimeField(default=utcnow)
    created = UTCDateTimeField(default=utcnow)
    finished = UTCDateTimeField(null=True)
    outcome = pw.CharField(max_length=OUTCOME_LIMIT, default="")

    class Meta:
        table_name = "chat_post"
        indexes = ((("instance", "key"), True), (("state", "due"), False))


def _add_channels(db: pw.Database) -> None:
    # The columns as the connection sees the table (on PostgreSQL, in its search path: a
    # catalogue query would look in "public" only).
    cursor = db.execute_sql("SELECT * FROM chat_post WHERE 1 = 0")
    columns = {column[0] for column in cursor.description}
    if "channel" not in columns:
        db.execute_sql("ALTER TABLE chat_post ADD COLUMN channel VARCHAR(10) NOT NULL "
                       "DEFAULT 'chat'")
    if "recipient" not in columns:
        db.execute_sql("ALTER TABLE chat_post ADD COLUMN recipient VARCHAR(40) NOT NULL "
                       "DEFAULT ''")


#: The kernel's fifth migration: the chat outbox takes every channel (existing rows: chat).
MIGRATION = ("0005_outbox_channels", _add_channels)


class Outcome(Exception):
    """A failed try: `retry` says whether another try may succeed."""

    def __init__(self, message: str, retry: bool) -> None:
        super().__init__(message)
        self.message, self.retry = message, retry


@dataclasses.dataclass(frozen=True)
class Claimed:
    """A message this process is sending: `to` and `how` come from its channel's target
    (chat: the webhook URL and format; email: the address and its unsubscribe token)."""

    id: int
    instance_id: int
    channel: str
    to: str
    how: str
    text: str
    attempts: int


@dataclasses.dataclass(frozen=True)
class Due:
    """A due message being claimed, as its channel's `targets` sees it."""

    id: int
    instance_id: int
    recipient: str


#: (to, how) of each due message whose receiver still exists; those left out are dropped.
Targets = Callable[[list[Due]], dict[int, tuple[str, str]]]


@dataclasses.dataclass(frozen=True)
class Channel:
    """How one channel's messages reach their receivers."""

    name: str
    targets: Targets
    send: Callable[[Claimed], Awaitable[None]]
    #: The delivery log's outcome for a message whose receiver is gone.
    gone: str
    #: What a failure's log line names (never a secret or an address).
    where: Callable[[Claimed], str] = lambda message: message.channel


def queue(instance: Instance, channel: str, text: str, key: str, when: dt.datetime,
          recipient: str = "") -> bool:
    """Queue a message inside the caller's transaction; a second one with the same key for
    the same instance is dropped. Returns whether it was queued."""
    inserted = (OutboxMessage.insert(instance=instance, channel=channel, recipient=recipient,
                                     key=key, text=text, due=when, created=when)
                .on_conflict_ignore().execute())
    return bool(inserted)


def claim(now: dt.datetime, channels: Mapping[str, Channel], limit: int = PARALLEL,
          busy: Iterable[int] = ()) -> list[Claimed]:
    """Take up to `limit` due messages of `channels` for this process (call in a write
    transaction), at most one per instance and none of the `busy` instances (whose message
    this process is sending): their `due` moves a lease ahead, so no other process takes
    them meanwhile. Messages whose receiver is gone are dropped."""
    condition = ((OutboxMessage.state == "pending") & (OutboxMessage.due <= now)
                 & OutboxMessage.channel.in_(list(channels)))
    busy = list(busy)
    if busy:
        condition &= OutboxMessage.instance.not_in(busy)
    query = (OutboxMessage.select(OutboxMessage.instance, OutboxMessage.id).where(condition)
             .order_by(OutboxMessage.due, OutboxMessage.id).limit(limit * 4).tuples())
    if is_postgres():
        query = query.for_update(skip_locked=True)
    first: dict[int, int] = {}  # instance id -> its first due message
    candidates: list[Any] = list(query)
    for instance_id, message_id in candidates:
        first.setdefault(instance_id, message_id)
    instance_of = {message_id: instance_id
                   for instance_id, message_id in list(first.items())[:limit]}
    if not instance_of:
        return []
    rows: list[Any] = list(
        OutboxMessage.select(OutboxMessage.id, OutboxMessage.channel, OutboxMessage.recipient,
                             OutboxMessage.text, OutboxMessage.attempts)
        .where(OutboxMessage.id.in_(list(instance_of))).order_by(OutboxMessage.id).tuples())
    targets: dict[int, tuple[str, str]] = {}
    for name, channel in channels.items():
        targets.update(channel.targets([Due(row[0], instance_of[row[0]], row[2])
                                        for row in rows if row[1] == name]))
    taken: list[Claimed] = []
    for message_id, name, _, text, attempts in rows:
        if message_id not in targets:
            OutboxMessage.update(state="failed", finished=now,
                                 outcome=channels[name].gone).where(
                OutboxMessage.id == message_id).execute()
            continue
        OutboxMessage.update(due=now + LEASE, attempts=OutboxMessage.attempts + 1).where(
            OutboxMessage.id == message_id).execute()
        to, how = targets[message_id]
        taken.append(Claimed(message_id, instance_of[message_id], name, to, how, text,
                             attempts + 1))
    return taken


def record(message: Claimed, now: dt.datetime, failure: Outcome | None) -> None:
    if failure is None:
        changes: dict[str, Any] = {"state": "sent", "finished": now, "outcome": "sent"}
    elif failure.retry and message.attempts < MAX_ATTEMPTS:
        wait = min(BACKOFF * 2 ** (message.attempts - 1), BACKOFF_CAP)
        changes = {"due": now + wait, "outcome": failure.message[:OUTCOME_LIMIT]}
    else:
        changes = {"state": "failed", "finished": now,
                   "outcome": failure.message[:OUTCOME_LIMIT]}
    OutboxMessage.update(**changes).where(OutboxMessage.id == message.id).execute()


async def _deliver(message: Claimed, channel: Channel, storage: Storage,
                   clock: Callable[[], dt.datetime]) -> bool:
    """Send one claimed message and record how it went; whether it went out."""
    failure: Outcome | None = None
    try:
        await channel.send(message)
    except Outcome as outcome:
        failure = outcome
        log.warning("%s message %d to %s not delivered (try %d): %s", message.channel,
                    message.id, channel.where(message), message.attempts, outcome.message)
    await storage.write(record, message, clock(), failure)
    return failure is None


async def deliver_once(storage: Storage, channels: Mapping[str, Channel],
                       clock: Callable[[], dt.datetime], parallel: int = PARALLEL) -> int:
    """Send every message due now, and those that fall due meanwhile; returns how many went
    out. Up to `parallel` sends at once, one per instance (a group gets its messages in
    order); a free slot takes the next due message at once, so a slow receiver delays only
    its own group's next message."""
    running: dict[asyncio.Task[bool], int] = {}  # send -> its instance
    sent = 0
    try:
        while True:
            room = parallel - len(running)
            batch = (await storage.write(claim, clock(), channels, room,
                                         list(running.values()))
                     if room else [])
            for message in batch:
                task = asyncio.create_task(
                    _deliver(message, channels[message.channel], storage, clock))
                running[task] = message.instance_id
            if batch:
                continue  # more may be due for other instances
            if not running:
                return sent
            done, _ = await asyncio.wait(running, timeout=CLAIM_EVERY,
                                         return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                del running[task]
                sent += task.result()
    finally:
        for task in running:
            task.cancel()


#: Work before each round of sends: queue what the clock made due (scheduled chat posts,
#: reminders). Each runs in its own write transaction.
Queuer = Callable[[dt.datetime], object]


async def deliver_forever(storage: Storage, channels: Mapping[str, Channel],
                          queuers: Iterable[Queuer], clock: Callable[[], dt.datetime],
                          every_seconds: float) -> None:
    """The server's sending task: queue what the clock made due, send what is queued,
    sleep."""
    queuers = list(queuers)
    while True:
        try:
            for queuer in queuers:
                await storage.write(queuer, clock())
            await deliver_once(storage, channels, clock)
        except Exception:
            log.exception("delivery failed; will retry")
        await asyncio.sleep(every_seconds)
