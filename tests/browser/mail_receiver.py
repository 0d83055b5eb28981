"""A real SMTP server in the test process (aiosmtpd on 127.0.0.1) that keeps what it is
sent, and can be told to refuse: the email tests' and the browser tests' mailbox."""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
import threading
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Mailbox:
    """What the server accepted; `refuse` is the answer to every recipient while set
    (e.g. "450 4.2.0 try later", "550 5.1.1 no such user"). While `stall` is set, a
    message's data is received but never answered (`stalled` is set once one waits): as a
    real mail server does, one whose sender is gone before the answer is not kept (aiosmtpd
    cancels the handler when the connection drops)."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.refuse: str | None = None
        self.stall = False
        self.stalled = threading.Event()
        self.waiting = 0
        self.dropped = 0
        self.lock = threading.Lock()

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          options: list[str]) -> str:
        if self.refuse:
            return self.refuse
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.stall:
            with self.lock:
                self.waiting += 1
            self.stalled.set()
            try:
                while self.stall:
                    await asyncio.sleep(0.05)
            except asyncio.CancelledError:
                with self.lock:
                    self.dropped += 1
                raise
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self.lock:
            self.messages.append(message)
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 Message accepted"

    def to(self, address: str) -> list[EmailMessage]:
        return [message for message in self.messages if message["To"] == address]


class MailServer:
    """aiosmtpd on a loopback port (a free one unless given); `url` is the `[email] url`
    that reaches it."""

    def __init__(self, port: int | None = None) -> None:
        self.mailbox = Mailbox()
        self.port = port or free_port()
        self.controller = Controller(self.mailbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.controller.stop()

    def __enter__(self) -> MailServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def text_of(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def html_of(message: EmailMessage) -> str:
    body = message.get_body(("html",))
    assert body is not None
    return str(body.get_content())
