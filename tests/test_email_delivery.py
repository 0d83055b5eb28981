"""Email on real servers: two `groupkit serve` processes with two workers each share one
database (PostgreSQL, as across hosts; SQLite, as on one host). Every worker runs the
delivery loop, yet each invitation reaches its person exactly once; invitations queued while
the SMTP server was down survive both servers being killed (SIGKILL) and go out once when
they come back."""

from __future__ import annotations

import datetime as dt
import re
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from mail_receiver import MailServer
from mail_receiver import free_port
from mail_receiver import text_of
from waiting import wait_for

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

BASE = "https://groups.example.org"
PEOPLE = [f"Person {index}" for index in range(8)]


@pytest.mark.parametrize("backend", server_backends())
def test_invitations_go_out_once_across_two_servers_and_survive_a_kill(
        backend: str, live_server: Callable[..., Any]) -> None:
    port = free_port()  # the SMTP server stays down until the restart
    settings: dict[str, Any] = dict(
        workers=2, tools=["kringle"], base_url=BASE, webhooks={"every_seconds": 1},
        extra_toml=f'[email]\nurl = "smtp://127.0.0.1:{port}"\nfrom = "groups@example.org"\n',
        wait=False)
    first = live_server(database=backend, **settings)
    second = live_server(database=first, **settings)
    first.wait(), second.wait()
    addresses = {name: f"person{index}@example.com" for index, name in enumerate(PEOPLE)}
    with first.client() as one, second.client() as two:
        made = one.post("/api/kringle", json={
            "title": "Office draw", "names": PEOPLE, "budget": "", "exchangeDate": "",
            "note": "", "personalLinks": True}).json()
        people = two.post(f"/api/kringle/{made['editToken']}/export").json()["data"]["people"]
        links = {person["name"]: person["link"] for person in people}
        half = len(PEOPLE) // 2
        for client, names in ((one, PEOPLE[:half]), (two, PEOPLE[half:])):
            response = client.post(f"/api/kringle/{made['editToken']}/invite",
                                   json={"emails": {name: addresses[name] for name in names}})
            assert response.status_code == 200, response.text

        def tried() -> bool:
            log = one.get(f"/api/kringle/{made['editToken']}/invite/log").json()["log"]
            return len(log) == len(PEOPLE) and all(line["outcome"] for line in log)

        # The SMTP server is down: every message is tried, fails and waits in the database.
        assert wait_for(tried)
        log = two.get(f"/api/kringle/{made['editToken']}/invite/log").json()["log"]
        assert {(line["state"], line["outcome"].partition(" (")[0]) for line in log} == {
            ("pending", "connection failed")}

    for server in (first, second):
        server.crash()  # SIGKILL, every worker at once
    mail = MailServer(port)
    try:
        restart_and_receive_each_once((first, second), mail, addresses)
        for name, address in addresses.items():
            [message] = mail.mailbox.to(address)
            found = set(re.findall(rf"{BASE}/p/\w+", text_of(message)))
            assert found == {f"{BASE}{links[name]}"}
        with first.client() as one:
            log = one.get(f"/api/kringle/{made['editToken']}/invite/log").json()["log"]
            assert {line["state"] for line in log} == {"sent"}
            assert not any(address in one.get(f"/e/{made['editToken']}").text
                           for address in addresses.values())
        for server in (first, second):
            assert not any(address in server.log() for address in addresses.values())
    finally:
        mail.close()


@pytest.mark.parametrize("backend", server_backends())
def test_a_server_killed_mid_send_leaves_each_message_to_go_out_once(
        backend: str, live_server: Callable[..., Any]) -> None:
    """Every worker of both servers is killed (SIGKILL) while the SMTP server holds their
    messages' data unanswered: nothing was accepted, so nothing arrived. Once the lease runs
    out (moved forward here, rather than waited for) the restarted servers send each
    message once, with the Message-ID it would have had the first time."""
    mail = MailServer()
    mail.mailbox.stall = True
    settings: dict[str, Any] = dict(
        workers=2, tools=["kringle"], base_url=BASE, webhooks={"every_seconds": 1},
        extra_toml=f'[email]\nurl = "{mail.url}"\nfrom = "groups@example.org"\n', wait=False)
    try:
        first = live_server(database=backend, **settings)
        second = live_server(database=first, **settings)
        first.wait(), second.wait()
        addresses = {name: f"person{index}@example.com" for index, name in enumerate(PEOPLE)}
        with first.client() as one:
            made = one.post("/api/kringle", json={
                "title": "Office draw", "names": PEOPLE, "budget": "", "exchangeDate": "",
                "note": "", "personalLinks": True}).json()
            response = one.post(f"/api/kringle/{made['editToken']}/invite",
                                json={"emails": addresses})
            assert response.status_code == 200, response.text
        assert mail.mailbox.stalled.wait(30)
        time.sleep(1)  # the other workers take their share of the messages too
        for server in (first, second):
            server.crash()
        # Every message held unanswered is dropped before the server answers again (a
        # handler still waiting would otherwise keep its message once `stall` ends).
        assert wait_for(lambda: mail.mailbox.dropped == mail.mailbox.waiting >= 1)
        assert mail.mailbox.messages == []
        mail.mailbox.stall = False
        expire_leases(first.database_url)
        restart_and_receive_each_once((first, second), mail, addresses)
        ids = {message["Message-ID"] for message in mail.mailbox.messages}
        assert len(ids) == len(PEOPLE)
        assert all(re.fullmatch(r"<\d+\.[0-9a-f]{20}@groups\.example\.org>", found)
                   for found in ids)
    finally:
        mail.close()


def expire_leases(database_url: str) -> None:
    """What a minute's wait would do: every claimed message falls due again."""
    from groupkit.blocks._outbox import OutboxMessage
    from groupkit.core._storage import open_database

    database = open_database(database_url, 1)
    try:
        with database.bind_ctx([OutboxMessage]):
            OutboxMessage.update(due=dt.datetime(2000, 1, 1, tzinfo=dt.UTC)).where(
                OutboxMessage.state == "pending").execute()
    finally:
        database.close()


def restart_and_receive_each_once(servers: tuple[Any, ...], mail: MailServer,
                                  addresses: dict[str, str]) -> None:
    for server in servers:
        server.start()
    assert wait_for(lambda: len(mail.mailbox.messages) >= len(addresses))
    time.sleep(3)  # every worker has run its loop again meanwhile
    received = Counter(message["To"] for message in mail.mailbox.messages)
    assert received == Counter(addresses.values())
