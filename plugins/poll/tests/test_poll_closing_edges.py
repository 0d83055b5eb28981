"""A closing time at the edges of its rules: exactly the longest window and the longest value
read, a server in another time zone, and a clock reading without a zone."""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import pytest

from groupkit_poll.ballots import is_closed

BAD = "Give the closing time as a date and time with its time zone, like 2026-12-24T17:00+11:00."
FAR = "Pick a closing time within a year from now."
START = dt.datetime(2026, 11, 23, 9, 0, tzinfo=dt.UTC)


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["poll"], clock=lambda: START)


async def test_the_window_ends_366_days_from_now(api: Any) -> None:
    last = START + dt.timedelta(days=366)
    made = await api.make(closesAt=last.isoformat())
    assert (await api.read(made["slug"]))["closesAt"] == "2027-11-24T09:00:00Z"
    late = await api.client.post("/api/poll", json={
        "question": "Lunch?", "options": ["Thai", "Pub"],
        "closesAt": (last + dt.timedelta(seconds=1)).isoformat()})
    assert await api.error_of(late, 400) == FAR


async def test_a_closing_time_of_40_characters_is_read_41_is_not(api: Any) -> None:
    forty = "2027-01-01T09:00:00.000000+00:00:00.0000"
    made = await api.make(closesAt=forty)
    assert (await api.read(made["slug"]))["closesAt"] == "2027-01-01T09:00:00Z"
    longer = "2027-01-01T09:00:00.00000+00:00:00.000000"
    assert dt.datetime.fromisoformat(longer) == dt.datetime.fromisoformat(forty)
    refused = await api.client.post("/api/poll", json={
        "question": "Lunch?", "options": ["Thai", "Pub"], "closesAt": longer})
    assert await api.error_of(refused, 400) == BAD


@pytest.fixture
def server_zone() -> Iterator[None]:
    """The server's local time is ten hours ahead of UTC for the test."""
    was = os.environ.get("TZ")
    os.environ["TZ"] = "XXX-10"
    time.tzset()
    try:
        yield
    finally:
        if was is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = was
        time.tzset()


@pytest.mark.usefixtures("server_zone")
async def test_a_closing_time_is_kept_in_utc_whatever_the_servers_zone(api: Any) -> None:
    made = await api.make(closesAt="2026-11-24T17:30+11:00")
    assert (await api.read(made["slug"]))["closesAt"] == "2026-11-24T06:30:00Z"


def test_a_time_without_a_zone_is_read_as_utc() -> None:
    data = {"closesAt": "2026-11-23T10:00:00+00:00"}
    assert is_closed(data, dt.datetime(2026, 11, 23, 9, 59)) is False
    assert is_closed(data, dt.datetime(2026, 11, 23, 10, 0)) is True
    sydney = dt.timezone(dt.timedelta(hours=11))
    assert is_closed(data, dt.datetime(2026, 11, 23, 20, 59, tzinfo=sydney)) is False
    assert is_closed(data, dt.datetime(2026, 11, 23, 21, 0, tzinfo=sydney)) is True


async def test_a_conflict_names_the_closing_time_as_it_now_stands(api: Any) -> None:
    """Two organisers edit the closing time from the same version: the later one is told the
    time the other set (in UTC, as the API gives it), or that they cleared it."""
    made = await api.make(closesAt="2026-11-25T06:30:00Z")
    url = f"/api/poll/{made['editToken']}/edit"
    yours = "2026-11-27T06:30:00Z"
    for theirs, words in (("2026-11-26T06:30:00+00:00", "“2026-11-26T06:30:00Z”"),
                          (None, "empty")):
        base = (await api.organiser(made["editToken"], "export")).headers["ETag"]
        first = await api.client.post(url, json={"closesAt": theirs},
                                      headers={"If-Match": base})
        assert first.status_code == 200
        late = await api.client.post(url, json={"closesAt": yours}, headers={"If-Match": base})
        body = await late.get_json()
        assert late.status_code == 409
        assert body["error"].startswith(f"Someone else saved a change while you were editing "
                                        f"— closes at is now {words} (yours: “{yours}”).")
        assert [(c["theirs"], c["yours"]) for c in body["conflicts"]] == [
            ((theirs or "").replace("+00:00", "Z"), yours)]
