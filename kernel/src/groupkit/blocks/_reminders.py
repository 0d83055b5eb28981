"""Email reminders on sign-up tools: whoever holds a spot can ask to be reminded the day
before it, with their address.

`POST /api/<tool>/remind` takes the credentials that give the spot back (`slug`, `slotId`,
`secret`) and `email`; the kernel adds it to every tool whose claims have a date (a claim
feed, `Tool.feed.claim`: the date the calendar feeds use). Double opt-in: the first message
only asks to confirm (`/email/confirm/{token}`, a page with one button); once confirmed, the
delivery loop (`queue_reminders`) queues the reminder at `REMIND_HOUR` the day before the
spot's date, in the instance's time zone (its `timeZone`, else the date's own, else UTC),
or at once when the spot was taken later than that. The address row is bound to the claim
(`<slotId>:<secret digest>`, as a feed is): once the spot is released, cleared or reset, or
the instance deleted, nothing goes out and the address is deleted; it is deleted too once
the reminder went out or the day passed.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import secrets
from collections.abc import Mapping
from typing import Any
from zoneinfo import ZoneInfo

from groupkit.blocks import _email as email
from groupkit.blocks._outbox import OutboxMessage
from groupkit.blocks._signup import held_claim
from groupkit.blocks._slots import SlotClaim
from groupkit.core import _i18n as i18n
from groupkit.core._declared import FeedSource
from groupkit.core._errors import bad_request
from groupkit.core._errors import conflict
from groupkit.core._fields import Exact
from groupkit.core._i18n import N_
from groupkit.core._schema import Schema
from groupkit.core._storage import Instance
from groupkit.core._tool import Call
from groupkit.core._tool import Operations
from groupkit.core._tool import Tool

#: The local hour, the day before the spot, when its reminder goes out.
REMIND_HOUR = 9
BAD_EMAIL = N_("That doesn't look like an email address.")
#: A spot's day and its start time, as a reminder says when.
AT_TIME = N_("{day} at {time}")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


class RemindBody(Schema):
    slotId = Exact("the spot you claimed")
    secret = Exact("the secret your claim returned")
    email = Exact("your email address: a message asks you to confirm it first")


OK = {"type": "object", "properties": {"ok": {"type": "boolean"}}}


def remind_operations(ops: Operations, source: FeedSource) -> None:
    """Add `remind` to a sign-up tool whose claims have a date; once per `Operations`."""
    if any(op.path == "remind" for op in ops.operations):
        return
    not_held = source.not_held or "That spot isn't held with that secret."

    @ops.public("remind", body=RemindBody, returns=OK, changes=False, errors={
        400: f"`{BAD_EMAIL}`",
        404: f"The spot is not held with that secret: `{not_held}`",
        409: f"`{email.EMAIL_OFF}` (this server sends no email: the operator sets up "
             f"`[email]`); `{email.OVER_CAP}`"},
        description=("Body `{slug, slotId, secret, email}`: an email the day before the "
                     "spot you claimed (from "
                     f"{REMIND_HOUR}:00 in the instance's time zone). The first message asks "
                     "to confirm the address; only then is the reminder sent. Giving the "
                     "spot back, the organiser clearing it or deleting the page cancels it; "
                     "the address is deleted once the reminder went out. Needs email set "
                     f"up on the server: 409 `{email.EMAIL_OFF}` otherwise."))
    def remind(call: Call) -> dict[str, Any]:
        """Get an email the day before your spot."""
        settings = email.mailer().settings
        if not settings.email:
            raise conflict(email.EMAIL_OFF)
        claim = held_claim(call.instance, call.data["slotId"], call.data["secret"], not_held)
        address = email.clean_address(call.data["email"])
        if address is None:
            raise bad_request(BAD_EMAIL, "email")
        email.check_caps(call.instance, 1, call.now, settings)
        row = email.address_row(call.instance, "remind",
                                f"{claim.slot_id}:{claim.secret_digest}", address)
        row.confirmed, row.confirm, row.due = False, secrets.token_urlsafe(24), None
        row.save()
        writer = email.mailer()
        queued = writer.render("confirm", row.token, call.instance, title=call.instance.title,
                               link=writer.link(f"/email/confirm/{row.confirm}"))
        email.queue_email(call.instance, row, queued, call.now)
        return {"ok": True}


def remind_panel(tool: Tool, instance: Instance) -> list[dict[str, str]] | None:
    """The spots a holder may ask a reminder for, for the public page's "Remind me" form
    (each taken spot: its id and its holder's name, both on the board already); None (no
    form) with email off, for a tool without dated spots, or while no spot is taken."""
    if (tool.feed is None or tool.feed.claim is None
            or not email.mailer().settings.email):
        return None
    taken = (SlotClaim.select(SlotClaim.slot_id, SlotClaim.name)
             .where(SlotClaim.instance == instance).order_by(SlotClaim.created, SlotClaim.id))
    return [{"slotId": claim.slot_id, "name": claim.name} for claim in taken] or None


def confirm(token: str) -> bool:
    """Confirm the address behind a confirmation link; whether the link was known."""
    return bool(email.EmailAddress.update(confirmed=True, confirm=None).where(
        email.EmailAddress.confirm == token).execute())


def _zone(instance: Instance, start: dt.date) -> dt.tzinfo:
    name = instance.data.get("timeZone") if isinstance(instance.data, dict) else None
    if isinstance(name, str) and name:
        # An unknown zone name falls through to the spot's own zone, then UTC: a bad value
        # never stops a reminder.
        with contextlib.suppress(ValueError, OSError):
            return ZoneInfo(name)
    if isinstance(start, dt.datetime) and start.tzinfo is not None:
        return start.tzinfo
    return dt.UTC


def _day(start: dt.date, zone: dt.tzinfo) -> dt.date:
    if isinstance(start, dt.datetime):
        return (start.astimezone(zone) if start.tzinfo is not None else start).date()
    return start


def _when(start: dt.date, zone: dt.tzinfo) -> str:
    """`Saturday 14 March 2026`, with `at 07:00` for a time; in another language the day
    as its locale writes a full date (`Samstag, 14. März 2026 um 07:00`)."""
    day = _day(start, zone)
    if i18n.language() == i18n.DEFAULT:
        text = f"{WEEKDAYS[day.weekday()]} {day.day} {MONTHS[day.month - 1]} {day.year}"
    else:
        text = i18n.format_date(day, "full")
    if isinstance(start, dt.datetime):
        local = start.astimezone(zone) if start.tzinfo is not None else start
        text = i18n.gettext(AT_TIME).format(day=text, time=f"{local:%H:%M}")
    return text


def queue_reminders(now: dt.datetime, tools: Mapping[str, Tool], mailer: email.Mailer) -> int:
    """Queue every confirmed reminder now due; forget the addresses whose claim is gone,
    whose day passed or whose reminder went out. Returns how many were queued."""
    queued = 0
    rows = (email.EmailAddress.select(email.EmailAddress, Instance).join(Instance)
            .where(email.EmailAddress.purpose == "remind"))
    for row in rows:
        instance = row.instance
        if row.due is not None:
            if not OutboxMessage.select().where(
                    (OutboxMessage.channel == "email") & (OutboxMessage.recipient == str(row.id))
                    & (OutboxMessage.state == "pending")).exists():
                row.delete_instance()  # the reminder went out: the address has done its job
            continue
        tool = tools.get(instance.tool)
        source = tool.feed if tool is not None else None
        slot_id, _, secret_digest = row.ref.partition(":")
        # Found by its secret alone: an organiser's edit may have moved the claim to
        # another spot id (`_slots.regroup_slots`), and the reminder follows it there.
        held = list(SlotClaim.select().where((SlotClaim.instance == instance)
                                             & (SlotClaim.secret_digest == secret_digest)))
        claim = next((c for c in held if c.slot_id == slot_id),
                     held[0] if len(held) == 1 else None)
        if claim is None or source is None or source.claim is None:
            email.forget(row)  # given back, cleared or reset: cancelled
            continue
        with i18n.for_group(instance, mailer.catalogs):
            events = source.claim(instance, claim, mailer.settings.base_url)
        if not events:
            continue  # no date (yet): the organiser may still give it one
        start = events[0].start
        zone = _zone(instance, start)
        day = _day(start, zone)
        if now >= dt.datetime.combine(day, dt.time(0), zone):
            email.forget(row)  # the day came before the address was confirmed
            continue
        if not row.confirmed or now < dt.datetime.combine(
                day - dt.timedelta(days=1), dt.time(REMIND_HOUR), zone):
            continue
        with i18n.for_group(instance, mailer.catalogs):
            when = _when(start, zone)
        message = mailer.render("reminder", row.token, instance, title=instance.title,
                                what=events[0].summary, when=when,
                                link=mailer.link(f"/s/{instance.slug}"))
        email.queue_email(instance, row, message, now, f"remind-{row.id}")
        row.due = now
        row.save()
        queued += 1
    return queued
