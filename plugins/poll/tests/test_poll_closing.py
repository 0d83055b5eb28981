"""An optional closing time: checked at creation, shown in UTC, and the poll closes itself
when the clock reaches it (no job runs: every read and vote looks at the clock), with the
spec's closed message for votes and ballot changes after it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from groupkit import Instance

CLOSED = "This poll has closed — the organiser has stopped the voting."
BAD = "Give the closing time as a date and time with its time zone, like 2026-12-24T17:00+11:00."
PAST = "That closing time has already passed — pick a time still to come."
FAR = "Pick a closing time within a year from now."
START = dt.datetime(2026, 11, 23, 9, 0, tzinfo=dt.UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> dt.datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(make_app: Callable[..., Any], clock: Clock) -> Any:
    return make_app(tools=["poll"], clock=clock)


async def test_closing_time_is_kept_in_utc(api: Any, db: Any) -> None:
    made = await api.make(closesAt="2026-11-24T17:30:15.5+11:00")
    view = await api.read(made["slug"])
    assert view["closesAt"] == "2026-11-24T06:30:16Z"  # a fraction rounds up, never early
    assert view["closed"] is False

    def stored() -> dict[str, Any]:
        return dict(Instance.get(Instance.slug == made["slug"]).data)
    assert db(stored)["closesAt"] == "2026-11-24T06:30:16+00:00"
    zulu = await api.read((await api.make(closesAt="2026-11-23T10:00:00Z"))["slug"])
    assert zulu["closesAt"] == "2026-11-23T10:00:00Z"


@pytest.mark.parametrize("value", [None, ""])
async def test_no_closing_time(api: Any, value: Any) -> None:
    view = await api.read((await api.make(closesAt=value))["slug"])
    assert "closesAt" not in view and view["closed"] is False


@pytest.mark.parametrize(("value", "message"), [
    ("2026-11-24T17:00", BAD),               # no zone: each reader would read it differently
    ("2026-11-24", BAD),
    ("next friday", BAD),
    (1795000000, BAD),
    (True, BAD),
    ({"at": "2026-11-24T17:00Z"}, BAD),
    ("2026-11-24T17:00:00." + "0" * 40 + "Z", BAD),
    ("9" * 5000, BAD),
    ("0001-01-01T00:00:00+14:00", BAD),     # no UTC time at all
    ("9999-12-31T23:59:59-14:00", BAD),
    ("9999-12-31T23:59:59Z", FAR),
    ("9999-12-31T23:59:59.5Z", BAD),        # rounds up past the last second there is
    ("2026-11-23T09:00:00Z", PAST),          # the very moment is already too late
    ("2026-11-23T19:59+11:00", PAST),
    ("2027-11-24T09:00:01Z", FAR),
])
async def test_closing_time_refused(api: Any, value: Any, message: str) -> None:
    response = await api.client.post("/api/poll", json={
        "question": "Lunch?", "options": ["A", "B"], "closesAt": value})
    assert await api.error_of(response, 400) == message


async def test_spec_checks_come_first(api: Any) -> None:
    response = await api.client.post("/api/poll", json={
        "question": "Lunch?", "options": ["A"], "closesAt": "soon"})
    assert await api.error_of(response, 400) == \
        "Give people at least two options to choose between."


async def test_the_poll_closes_itself(api: Any, clock: Clock) -> None:
    made = await api.make(mode="multi", closesAt="2026-11-23T10:00:00Z")
    ids = await api.ids(made["slug"])
    token = (await api.voted(made["slug"], [ids["Thai"]]))["token"]
    clock.now = START + dt.timedelta(minutes=59, seconds=59)
    assert (await api.change(token, [ids["Pub"]])).status_code == 200
    assert (await api.read(made["slug"]))["closed"] is False
    clock.now = START + dt.timedelta(hours=1)
    view = await api.read(made["slug"])
    assert view["closed"] is True
    assert await api.error_of(await api.vote(made["slug"], [ids["Thai"]]), 409) == CLOSED
    assert await api.error_of(await api.change(token, [ids["Picnic"]]), 409) == CLOSED
    assert (await api.counts(made["slug"])) == {"Thai": 0, "Pub": 1, "Picnic": 0}
    closed = await api.organiser(made["editToken"], "close")
    assert closed.status_code == 200 and (await closed.get_json())["closed"] is True
    page = await api.page(f"/s/{made['slug']}")
    assert "Voting has closed" in page and "data-api" not in page
    assert "data-poll-closes" not in page
    assert "your vote is final" in await api.page(f"/p/{token}")


@pytest.mark.parametrize("fraction", [".001", ".25", ".999999"])
async def test_a_closing_time_with_a_fraction_never_closes_early(
        api: Any, clock: Clock, fraction: str) -> None:
    """Kept to the whole second, a closing time with milliseconds rounds up: the poll is
    open until the very instant given, and shows (and closes at) the next whole second."""
    made = await api.make(closesAt=f"2026-11-23T10:00:00{fraction}Z")
    ids = await api.ids(made["slug"])
    given = dt.datetime.fromisoformat(f"2026-11-23T10:00:00{fraction}+00:00")
    for moment in (START + dt.timedelta(hours=1), given - dt.timedelta(microseconds=1)):
        clock.now = moment
        view = await api.read(made["slug"])
        assert view["closed"] is False and view["closesAt"] == "2026-11-23T10:00:01Z"
        assert (await api.vote(made["slug"], [ids["Thai"]])).status_code == 201
    clock.now = START + dt.timedelta(hours=1, seconds=1)
    assert (await api.read(made["slug"]))["closed"] is True
    assert await api.error_of(await api.vote(made["slug"], [ids["Thai"]]), 409) == CLOSED


async def test_pages_show_the_closing_time_in_utc(api: Any) -> None:
    made = await api.make(closesAt="2026-11-24T17:30+11:00")
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        page = await api.page(path)
        assert ('Voting closes <time datetime="2026-11-24T06:30:00Z" data-poll-closes>'
                "2026-11-24 at 06:30 UTC</time>") in page
    plain = await api.make()
    assert "data-poll-closes" not in await api.page(f"/s/{plain['slug']}")


async def test_create_page_offers_the_new_options(api: Any) -> None:
    page = await api.page("/new/poll")
    for name in ("ranked:bool", "resultsAfterVote:bool", "resultsAtClose:bool",
                 "closesAt:local", "closesAt:zone"):
        assert f'name="{name}"' in page
    assert 'type="datetime-local" step="1" value=""' in page
    assert "<option selected>UTC</option>" in page  # said without the script


async def test_cached_views_close_at_the_closing_time(app: Any, api: Any,
                                                      clock: Clock) -> None:
    """The public read and pages are kept between writes, and still close themselves when
    the clock reaches the closing time with no write at all."""
    made = await api.make(closesAt="2026-11-23T10:00:00Z")
    cache = app.config["GROUPKIT_RENDERED"]
    clock.now = START + dt.timedelta(minutes=59, seconds=59)
    assert (await api.read(made["slug"]))["closed"] is False
    assert "data-poll-closes" in await api.page(f"/s/{made['slug']}")
    renders = cache.renders
    assert (await api.read(made["slug"]))["closed"] is False
    assert "data-poll-closes" in await api.page(f"/s/{made['slug']}")
    assert cache.renders == renders  # served from memory
    assert ("poll", "json:public") not in cache.clock_bound
    clock.now = START + dt.timedelta(hours=1)
    assert (await api.read(made["slug"]))["closed"] is True
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        page = await api.page(path)
        assert "Voting has closed" in page and "data-poll-closes" not in page
