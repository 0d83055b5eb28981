"""Email: the service reaches people where they are, without becoming anyone's spam cannon.

The operator sets an SMTP server (`[email] url`, `groupkit.core._config.smtp_server`); with
none, no email feature shows and every email operation answers 409 (`EMAIL_OFF`). Messages
go through the service's one outbox (`groupkit.blocks._outbox`, channel "email"): queued in
the transaction that caused them, sent once across workers and hosts, retried with backoff.
Each is rendered when queued from the templates in one folder (`web/templates/email/`:
`<kind>.txt` holds the subject and plain text, `<kind>.html` the HTML part, both escaped),
carries `List-Unsubscribe` with one-click `List-Unsubscribe-Post` (RFC 8058) and a
`Message-ID` on the `base_url`'s domain, and links only to `base_url` (never to a request's
Host).

Addresses are personal data: kept in `EmailAddress` (deleted with the instance, and when
the person unsubscribes), only for the purpose they were given for, never on a public
surface, in a log line or an event; the outbox row names its address row, not the address.
An unsubscribed address leaves a digest (`EmailOptOut`) so that the same instance never
writes to it again, without keeping the address.

Invitations: a tool whose people have personal links declares `Tool.invite`
(`Invitations`); the kernel adds `POST /api/<tool>/{editToken}/invite` (`invite_operations`):
one message per person, each with that person's link and nobody else's.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import logging
import re
import secrets
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Mapping
from email.message import EmailMessage
from email.utils import formatdate
from email.utils import make_msgid
from pathlib import Path
from typing import Any
from typing import cast
from urllib.parse import urlsplit

import jinja2
import peewee as pw
from quart import Quart
from quart import Response
from quart import current_app
from quart import request

from groupkit.blocks import _outbox as outbox
from groupkit.blocks._outbox import OutboxMessage
from groupkit.blocks._outbox import Outcome
from groupkit.core import _i18n as i18n
from groupkit.core._clock import utc_iso
from groupkit.core._config import Settings
from groupkit.core._config import smtp_server
from groupkit.core._declared import Invitations
from groupkit.core._errors import bad_request
from groupkit.core._errors import conflict
from groupkit.core._fields import Raw
from groupkit.core._i18n import N_
from groupkit.core._limits import clock_hour
from groupkit.core._schema import Schema
from groupkit.core._storage import BaseModel
from groupkit.core._storage import Instance
from groupkit.core._storage import Storage
from groupkit.core._storage import UTCDateTimeField
from groupkit.core._storage import database
from groupkit.core._storage import utcnow
from groupkit.core._tool import Call
from groupkit.core._tool import Operations

log = logging.getLogger("groupkit.email")

#: Seconds one send may take in all (connection, TLS, the message); well inside the lease.
DEADLINE = 30.0
ADDRESS_LIMIT = 254
LOG_ENTRIES = 50
PARALLEL = 4

EMAIL_OFF = N_("This server doesn't send email. Ask whoever runs it to set it up, or share "
             "the links yourself.")
NO_LINKS = N_("Nobody here has a personal link to send yet.")
BAD_SHAPE = N_('Send "emails" as each person\'s name with one address, e.g. '
             '{"Sam": "sam@example.org"}.')
NO_ONE = N_("Give at least one name and address.")
UNKNOWN_NAME = N_(
    "{name} has no personal link here: check the name is written as on the page.")
BAD_ADDRESS = N_("The address for {name} doesn't look like an email address.")
OVER_CAP = N_("That's more email than this server sends in an hour. Try again later, or send "
            "fewer at once.")
GONE = "unsubscribed"

#: A plain address: something@domain.tld, no spaces, no display name, no comments.
_ADDRESS = re.compile(r"[^@\s<>()\[\],;:\"\\]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251})"
                      r"\.[A-Za-z]{2,63}")


class EmailAddress(BaseModel):
    """An address someone gave for one purpose on one instance: "invite" (the organiser
    typed it for the person named `ref`) or "remind" (a participant gave it for the spot
    `ref`). `token` unsubscribes it; `confirm` is the pending double opt-in's token."""

    id = pw.AutoField()
    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE", index=True)
    purpose = pw.CharField(max_length=12)
    ref = pw.CharField(max_length=200)
    address = pw.CharField(max_length=ADDRESS_LIMIT)
    confirmed = pw.BooleanField(default=False)
    token = pw.CharField(max_length=64, unique=True)
    confirm = pw.CharField(max_length=64, null=True, unique=True)
    #: Reminders: when the reminder goes out, and what it says (title, spot, date).
    due = UTCDateTimeField(null=True, index=True)
    details = pw.TextField(default="")
    created = UTCDateTimeField(default=utcnow)

    class Meta:
        table_name = "groupkit_email_address"
        indexes = ((("instance", "purpose", "ref"), True),)


class EmailOptOut(BaseModel):
    """An address that unsubscribed from an instance, as a digest: never written to again
    from it, and the address itself is gone."""

    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE")
    digest = pw.CharField(max_length=64)

    class Meta:
        table_name = "groupkit_email_optout"
        indexes = ((("instance", "digest"), True),)


MODELS: list[type[pw.Model]] = [EmailAddress, EmailOptOut]


def _create_tables(db: pw.Database) -> None:
    db.create_tables(MODELS, safe=True)


#: The kernel's sixth migration: email addresses and opt-outs.
MIGRATION = ("0006_email", _create_tables)


# --- addresses ------------------------------------------------------------------------------

def clean_address(value: Any) -> str | None:
    """The address, trimmed, when it is one plain address; else None."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if len(text) > ADDRESS_LIMIT or _ADDRESS.fullmatch(text) is None or ".." in text:
        return None
    return text


def mask(address: str) -> str:
    """Enough for the organiser to tell who it went to, not enough to write to: s…@e….org."""
    local, _, domain = address.partition("@")
    name, dot, tld = domain.rpartition(".")
    return f"{local[:1]}…@{name[:1]}…{dot}{tld}"


def _digest(instance_id: int, address: str) -> str:
    return hashlib.blake2b(f"{instance_id}:{address.casefold()}".encode(),
                           digest_size=20).hexdigest()


def opted_out(instance: Instance, address: str) -> bool:
    return EmailOptOut.select().where((EmailOptOut.instance == instance) & (
        EmailOptOut.digest == _digest(instance.id, address))).exists()


def unsubscribe(token: str) -> bool:
    """Forget the address behind `token` and what waits to go to it; keep a digest so the
    instance never writes to it again. Whether the token was known."""
    row = EmailAddress.get_or_none(EmailAddress.token == token)
    if row is None:
        return False
    instance_id: int = row.__data__["instance"]
    EmailOptOut.insert(instance=instance_id, digest=_digest(instance_id, row.address)
                       ).on_conflict_ignore().execute()
    forget(row, GONE)
    return True


def forget(row: EmailAddress, outcome: str = "cancelled") -> None:
    """Delete an address and drop what waits to go to it (the log keeps `outcome`)."""
    OutboxMessage.update(state="failed", finished=utcnow(), outcome=outcome).where(
        (OutboxMessage.channel == "email") & (OutboxMessage.recipient == str(row.id))
        & (OutboxMessage.state == "pending")).execute()
    row.delete_instance()


# --- messages -------------------------------------------------------------------------------

class Mailer:
    """Renders messages from the email templates; one per app. `base_url` starts every link."""

    def __init__(self, settings: Settings, templates: Path,
                 catalogs: i18n.Catalogs | None = None) -> None:
        self.settings = settings
        self.catalogs = catalogs
        self.environment = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(templates)),
            autoescape=jinja2.select_autoescape(("html",), default_for_string=False),
            undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
            extensions=["jinja2.ext.i18n"])
        # Words in the language being spoken when a message is rendered (`i18n.speaking`).
        self.environment.install_gettext_callables(  # type: ignore[attr-defined]
            i18n.gettext, i18n.ngettext, newstyle=True)
        self.environment.globals["email_language"] = i18n.language
        self.environment.filters["translate"] = i18n.translated

    def link(self, path: str) -> str:
        return f"{self.settings.base_url}{path}"

    def render(self, kind: str, token: str, group: Instance | None = None,
               **context: Any) -> str:
        """The queued form of a message (JSON: subject, text, html, unsubscribe link), in
        the language of `group` (the instance it is about: `Instance.language`), whoever's
        request or which loop queues it."""
        unsubscribe_link = self.link(f"/email/unsubscribe/{token}")
        values = {**context, "unsubscribe": unsubscribe_link}
        text_template = self.environment.get_template(f"{kind}.txt")

        def block(name: str) -> str:
            return "".join(text_template.blocks[name](text_template.new_context(values)))

        with i18n.for_group(group, self.catalogs):
            return json.dumps({
                "subject": " ".join(block("subject").split())[:200],
                "text": block("body"),
                "html": self.environment.get_template(f"{kind}.html").render(values),
                "unsubscribe": unsubscribe_link})


def message_id(settings: Settings, outbox_id: int, queued: str) -> str:
    """The Message-ID of one queued message, the same on every try: a process killed after
    the SMTP server accepted a message but before the outbox recorded it sends it again
    once the lease runs out, and the same Message-ID lets mail stores and clients keep one
    copy (SMTP has no way to ask whether a message already arrived). The queued text holds
    its address's unsubscribe token, so two databases never make the same one."""
    host = urlsplit(settings.base_url).hostname or "groupkit.invalid"
    stamp = hashlib.sha256(f"{outbox_id}:{queued}".encode()).hexdigest()[:20]
    return f"<{outbox_id}.{stamp}@{host}>"


def build_message(settings: Settings, to: str, queued: str,
                  outbox_id: int | None = None) -> EmailMessage:
    """The MIME message of a queued one: plain text and HTML, the one-click unsubscribe
    headers (RFC 8058) and a Message-ID on the service's own domain (the queued message's
    own, `message_id`, for a message from the outbox)."""
    content = json.loads(queued)
    message = EmailMessage()
    message["From"] = settings.email_from
    message["To"] = to
    message["Subject"] = content["subject"]
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = (message_id(settings, outbox_id, queued) if outbox_id is not None
                             else make_msgid(domain=urlsplit(settings.base_url).hostname
                                             or None))
    message["List-Unsubscribe"] = f"<{content['unsubscribe']}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(content["text"])
    message.add_alternative(content["html"], subtype="html")
    return message


async def send(settings: Settings, message: EmailMessage) -> None:
    """Hand one message to the operator's SMTP server, or raise `Outcome`: a 5xx answer is
    final, anything else may succeed on a later try. STARTTLS whenever offered."""
    import aiosmtplib

    host, port, user, password, tls = smtp_server(settings.email_url)
    try:
        async with asyncio.timeout(DEADLINE):
            await aiosmtplib.send(message, hostname=host, port=port,
                                  username=user or None, password=password or None,
                                  use_tls=tls, start_tls=False if tls else None,
                                  timeout=DEADLINE)
    except TimeoutError:
        raise Outcome("timed out", retry=True) from None
    except aiosmtplib.SMTPRecipientsRefused as refused:
        codes = [error.code for error in refused.recipients]
        raise Outcome(f"refused ({', '.join(map(str, codes))})",
                      retry=any(code < 500 for code in codes)) from None
    except aiosmtplib.SMTPResponseException as answer:
        raise Outcome(f"refused ({answer.code})", retry=answer.code < 500) from None
    except (aiosmtplib.SMTPException, OSError) as error:
        raise Outcome(f"connection failed ({type(error).__name__})", retry=True) from None


def _targets(due: list[outbox.Due]) -> dict[int, tuple[str, str]]:
    """Each message's address and unsubscribe token; messages whose address is gone (the
    person unsubscribed) are left out."""
    ids = [int(message.recipient) for message in due if message.recipient.isdigit()]
    found: list[Any] = list(EmailAddress.select(EmailAddress.id, EmailAddress.address,
                                                EmailAddress.token)
                            .where(EmailAddress.id.in_(ids)).tuples()) if ids else []
    rows = {row[0]: (row[1], row[2]) for row in found}
    return {message.id: rows[int(message.recipient)] for message in due
            if message.recipient.isdigit() and int(message.recipient) in rows}


def channel(settings: Settings,
            sender: Callable[[Settings, EmailMessage], Awaitable[None]] = send
            ) -> outbox.Channel:
    """The outbox's email channel."""

    async def deliver(message: outbox.Claimed) -> None:
        await sender(settings, build_message(settings, message.to, message.text, message.id))

    return outbox.Channel("email", _targets, deliver, gone=GONE,
                          where=lambda message: "an address")


def queue_email(instance: Instance, address: EmailAddress, queued: str, when: dt.datetime,
                key: str | None = None) -> bool:
    """Queue a rendered message (`Mailer.render`) to an address row, in the caller's
    transaction."""
    return outbox.queue(instance, "email", queued, key or f"email-{secrets.token_hex(8)}",
                        when, recipient=str(address.id))


# --- caps -----------------------------------------------------------------------------------

def _add_to_client(client: str, count: int, now: dt.datetime) -> int:
    """Add `count` emails to this client's hour and return its new total."""
    param = database.param
    cursor = database.execute_sql(
        f"INSERT INTO rate_counter (client, bucket, hour, count) VALUES ({param}, {param}, "
        f"{param}, {param}) ON CONFLICT (client, bucket, hour) DO UPDATE SET count = "
        f"rate_counter.count + {param} RETURNING count",
        (client, "email", clock_hour(now), count, count))
    return int(cursor.fetchone()[0])


def check_caps(instance: Instance, count: int, now: dt.datetime, settings: Settings) -> None:
    """409 when `count` more emails would pass a cap for this clock hour: the instance's,
    the asking client's or the whole service's (call in the write transaction that queues
    them: a refusal rolls the client's count back too)."""
    since = now - dt.timedelta(hours=1)
    recent = (OutboxMessage.channel == "email") & (OutboxMessage.created > since)
    if OutboxMessage.select().where(recent & (OutboxMessage.instance == instance)
                                    ).count() + count > settings.email_instance_per_hour:
        raise conflict(OVER_CAP)
    if OutboxMessage.select().where(recent).count() + count > settings.email_per_hour:
        raise conflict(OVER_CAP)
    if _add_to_client(_client(), count, now) > settings.email_client_per_hour:
        raise conflict(OVER_CAP)


def _client() -> str:
    from quart import has_request_context

    from groupkit.core._limits import client_address

    if not has_request_context():
        return "-"
    return client_address(request.remote_addr, request.headers.get("X-Forwarded-For"),
                          current_app.config["GROUPKIT_TRUSTED"])


# --- invitations ----------------------------------------------------------------------------

def _settings() -> Settings:
    return mailer().settings


def mailer() -> Mailer:
    """The running app's mailer (its settings are the app's)."""
    return cast(Mailer, current_app.config["GROUPKIT_MAILER"])


def email_status(instance: Instance) -> dict[str, Any]:
    """The organiser's view of the email sent from the instance: to whom (their name, the
    address masked), how it went; never an address in full."""
    messages = list(OutboxMessage.select().where(
        (OutboxMessage.instance == instance) & (OutboxMessage.channel == "email"))
        .order_by(OutboxMessage.created.desc(), OutboxMessage.id.desc()).limit(LOG_ENTRIES))
    ids = [int(message.recipient) for message in messages if message.recipient.isdigit()]
    rows = {row.id: row for row in EmailAddress.select().where(EmailAddress.id.in_(ids))}
    log_lines = []
    for message in messages:
        row = rows.get(int(message.recipient)) if message.recipient.isdigit() else None
        log_lines.append({
            "id": message.id, "kind": message.key.split("-", 1)[0],
            "name": row.ref if row is not None and row.purpose == "invite" else None,
            "to": mask(row.address) if row is not None else None,
            "state": message.state, "attempts": message.attempts,
            "queuedAt": utc_iso(message.created), "finishedAt": utc_iso(message.finished),
            "outcome": message.outcome})
    return {"email": _settings().email, "log": log_lines}


def invite_panel(instance: Instance, invitations: Invitations | None) -> dict[str, Any] | None:
    """What the organiser page's invite panel shows: the names with a link to send and the
    log; None (no panel) with email off or nobody to send a link to."""
    if invitations is None or not _settings().email:
        return None
    names = list(invitations.links(instance))
    return {"names": names, **email_status(instance)} if names else None


def email_stamp(instance: Instance) -> str:
    """A digest of the instance's email log, for the organiser page's render-cache key: the
    delivery loop changes it without bumping the instance's version."""
    shown = json.dumps(email_status(instance), sort_keys=True, default=str)
    return hashlib.blake2b(shown.encode("utf-8"), digest_size=12).hexdigest()


STATUS_SCHEMA = {"type": "object", "properties": {
    "email": {"type": "boolean", "description": "whether this server sends email"},
    "log": {"type": "array", "items": {"type": "object", "properties": {
        "id": {"type": "integer"}, "kind": {"type": "string"},
        "name": {"type": ["string", "null"], "description": "who it was for"},
        "to": {"type": ["string", "null"],
               "description": "the address, masked; null once they unsubscribed"},
        "state": {"type": "string", "enum": ["pending", "sent", "failed"]},
        "attempts": {"type": "integer"}, "queuedAt": {"type": "string"},
        "finishedAt": {"type": ["string", "null"]}, "outcome": {"type": "string"}}}}}}


class InviteBody(Schema):
    emails = Raw(("object",), "each person's name (as on the organiser page) with one "
                              "email address")


def _requested(call: Call, links: Mapping[str, str]) -> dict[str, str]:
    """name -> cleaned address, or the 400 for the first problem."""
    emails = call.data.get("emails")
    if emails is None or emails == []:
        raise bad_request(NO_ONE, "emails")
    if isinstance(emails, list) and all(
            isinstance(row, dict) and isinstance(row.get("name"), str) for row in emails):
        # The organiser page's form: a row per person, `emails.<n>.name` and `.address`.
        emails = {row["name"]: row.get("address") or "" for row in emails}
    if not isinstance(emails, dict):
        raise bad_request(BAD_SHAPE, "emails")
    chosen = {str(name): value for name, value in emails.items()
              if not (isinstance(value, str) and not value.strip())}
    if not chosen:
        raise bad_request(NO_ONE, "emails")
    cleaned: dict[str, str] = {}
    for name, value in chosen.items():
        if name not in links:
            raise bad_request(i18n.message(UNKNOWN_NAME, name=name[:80]), "emails")
        address = clean_address(value)
        if address is None:
            raise bad_request(i18n.message(BAD_ADDRESS, name=name), "emails")
        cleaned[name] = address
    return cleaned


def address_row(instance: Instance, purpose: str, ref: str, address: str) -> EmailAddress:
    """The instance's address row for (purpose, ref), now holding `address`."""
    row = EmailAddress.get_or_none((EmailAddress.instance == instance)
                                   & (EmailAddress.purpose == purpose)
                                   & (EmailAddress.ref == ref))
    if row is None:
        return EmailAddress.create(instance=instance, purpose=purpose, ref=ref,
                                   address=address, token=secrets.token_urlsafe(24),
                                   confirmed=purpose == "invite")
    if row.address != address:
        row.address, row.token = address, secrets.token_urlsafe(24)
        row.save()
    return row


def invite_operations(ops: Operations, invitations: Invitations, tool_title: str) -> None:
    """Add `invite` (send each person their own link) and `GET invite/log` to a tool that
    declares `Tool.invite`; once per `Operations` (the hook may run once per app)."""
    if any(op.path == "invite" for op in ops.operations):
        return
    off = f"409 `{EMAIL_OFF}` when the server sends no email (the operator sets `[email]`)"

    @ops.organiser("invite", body=InviteBody, returns=STATUS_SCHEMA, changes=False, errors={
        400: f"`{BAD_SHAPE}`; `{NO_ONE}`; `{UNKNOWN_NAME}`; `{BAD_ADDRESS}`",
        409: f"`{EMAIL_OFF}` (this server sends no email: the operator sets up `[email]`); "
             f"`{NO_LINKS}`; `{OVER_CAP}`"},
        description=("Email each person their own personal link: `emails` maps names, as "
                     "the organiser page lists them, to one address each. One message per "
                     "person, holding their link and nobody else's. Needs email set up on "
                     f"the server: {off}. Addresses are kept only to send these, shown "
                     "masked, and deleted with the instance or when the person "
                     "unsubscribes; an address that unsubscribed is skipped."))
    def invite(call: Call) -> dict[str, Any]:
        """Email each person their own link."""
        settings = _settings()
        if not settings.email:
            raise conflict(EMAIL_OFF)
        links = dict(invitations.links(call.instance))
        if not links:
            raise conflict(NO_LINKS)
        wanted = _requested(call, links)
        sending = {name: address for name, address in wanted.items()
                   if not opted_out(call.instance, address)}
        check_caps(call.instance, len(sending), call.now, settings)
        writer = mailer()
        for name, address in sending.items():
            row = address_row(call.instance, "invite", name, address)
            queued = writer.render("invite", row.token, call.instance, name=name,
                                   title=call.instance.title, tool=tool_title,
                                   link=writer.link(links[name]))
            queue_email(call.instance, row, queued, call.now,
                        f"invite-{row.id}-{secrets.token_hex(4)}")
        return email_status(call.instance)

    @ops.organiser("invite/log", method="GET", returns=STATUS_SCHEMA,
                   description="The email sent from here: to whom (masked), and how it went.")
    def invite_log(call: Call) -> dict[str, Any]:
        """What was emailed to whom."""
        return email_status(call.instance)


# --- the one-click unsubscribe page ---------------------------------------------------------

def button_page(app: Quart, kind: str, template: str, act: Callable[[str], bool],
                page: Callable[..., Awaitable[Response]],
                not_found_page: Callable[[], Awaitable[Response]]) -> None:
    """`GET /email/<kind>/{token}`: a page with one button (no script needed); `POST` (the
    button, or for `unsubscribe` a mail client's one-click RFC 8058 request) does `act`.
    An unknown token gets the app's one not-found page."""
    column = EmailAddress.token if kind == "unsubscribe" else EmailAddress.confirm

    async def view(token: str) -> Response:
        storage: Storage = current_app.config["GROUPKIT_STORAGE"]
        token = token[:64]
        # What the address was given for: the page says what is confirmed.
        purpose = await storage.read(lambda: EmailAddress.select(EmailAddress.purpose).where(
            column == token).scalar())
        if purpose is None:
            return await not_found_page()
        if request.method == "POST":
            if not await storage.write(act, token):
                return await not_found_page()
            return await page(template, done=True, purpose=purpose)
        return await page(template, done=False, token=token, purpose=purpose)

    app.add_url_rule(f"/email/{kind}/<token>", f"email_{kind}", view,
                     methods=["GET", "POST"])


def mount(app: Quart, page: Callable[..., Awaitable[Response]],
          not_found_page: Callable[[], Awaitable[Response]]) -> None:
    """The one-click unsubscribe page, `/email/unsubscribe/{token}`."""
    button_page(app, "unsubscribe", "groupkit/email_unsubscribe.html", unsubscribe, page,
                not_found_page)
