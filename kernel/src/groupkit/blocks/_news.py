"""News by email: a tool tells the people who asked, with their address, when the thing
they wait for happens (Find a Date: the date is chosen).

A tool's own operation takes the address (`ask_for_news(call, ref, address)`, `ref` naming
the person within the instance, e.g. their response's id): double opt-in, as a reminder,
so the first message only asks to confirm (`/email/confirm/{token}`). `send_news(call,
text)` queues one message to every confirmed address of the instance, in the group's
language (`text` a `message(...)`); `forget_news(instance, ref)` drops a person's address
(their answers were removed). An address is kept for this alone, deleted with the
instance and on unsubscribing, and never shown on any page or in any export."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from groupkit.blocks import _email as email
from groupkit.core import _i18n as i18n
from groupkit.core._errors import bad_request
from groupkit.core._errors import conflict
from groupkit.core._i18n import N_
from groupkit.core._storage import Instance
from groupkit.core._tool import Call

__all__ = ["BAD_EMAIL", "NEWS", "ask_for_news", "forget_news", "send_news"]

#: The `EmailAddress.purpose` of an address given for news.
NEWS = "news"
BAD_EMAIL = N_("That doesn't look like an email address.")


def ask_for_news(call: Call, ref: str, address: object) -> None:
    """Keep `address` for the person `ref` and ask them to confirm it (inside the
    operation's transaction): 409 with email off or over a cap, 400 for something that is
    not an address (the spec's one `error` string). A new address for the same person
    replaces theirs."""
    settings = email.mailer().settings
    if not settings.email:
        raise conflict(email.EMAIL_OFF)
    cleaned = email.clean_address(address)
    if cleaned is None:
        raise bad_request(BAD_EMAIL)
    email.check_caps(call.instance, 1, call.now, settings)
    row = email.address_row(call.instance, NEWS, ref, cleaned)
    row.confirmed, row.confirm = False, secrets.token_urlsafe(24)
    row.save()
    writer = email.mailer()
    email.queue_email(call.instance, row, writer.render(
        "confirm_news", row.token, call.instance, title=call.instance.title,
        link=writer.link(f"/email/confirm/{row.confirm}")), call.now)


def send_news(call: Call, text: str | Callable[[], str]) -> int:
    """Queue `text` to every confirmed address kept for news on the instance, with a link
    to its page; returns how many. `text` is said in the group's language: a
    `message(...)`, or a function called while the kernel speaks it (for words built from
    dates, which are written the language's way)."""
    with i18n.for_group(call.instance):
        said = text() if callable(text) else i18n.translated(text)
    rows = email.EmailAddress.select().where(
        (email.EmailAddress.instance == call.instance) & (email.EmailAddress.purpose == NEWS)
        & email.EmailAddress.confirmed)
    writer = email.mailer()
    queued = 0
    for row in rows:
        queued += email.queue_email(call.instance, row, writer.render(
            "news", row.token, call.instance, title=call.instance.title, news=said,
            link=writer.link(f"/s/{call.instance.slug}")), call.now)
    return queued


def forget_news(instance: Instance, ref: str) -> None:
    """Delete the person's address kept for news, and anything not yet sent to it."""
    row = email.EmailAddress.get_or_none((email.EmailAddress.instance == instance)
                                         & (email.EmailAddress.purpose == NEWS)
                                         & (email.EmailAddress.ref == ref))
    if row is not None:
        email.forget(row)
