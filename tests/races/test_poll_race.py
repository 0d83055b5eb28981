"""Group Vote's 2000-vote cap under contention, against two server workers: a poll is filled
to just short of the cap, then more voters than there is room for vote at once. Exactly the
room left is admitted, everyone else gets the spec's 409, and the stored rows agree: 2000
ballots, 2000 ballot tokens, every option's kept count equal to a recount of the ballots,
and no option added by a refused suggestion. A ranked poll serves the instant runoff of
exactly the stored ballots, and a secret ballot's batched tally loses no vote or change.
On SQLite always, on PostgreSQL when $GROUPKIT_TEST_POSTGRES_URL is set."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

CAP = 2000
ROOM = 25       # votes still allowed when the race starts
RACERS = 60     # voters racing for that room
FILLERS = 16    # concurrent requests while filling the poll up
FULL = "This poll is chockers — 2000 votes is the limit."


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    # Thousands of votes from one address would meet the 240 POSTs an hour limit.
    return live_server(workers=2, database=request.param,
                       limits={"post_per_hour": 1_000_000})


@contextlib.contextmanager
def database(server: Any) -> Iterator[Any]:
    """A DB-API connection to the server's own database, to check what it stored."""
    if server.backend == "sqlite":
        connection: Any = sqlite3.connect(urlsplit(server.database_url).path[1:])
    else:
        import psycopg2

        connection = psycopg2.connect(server.database_url)
    try:
        yield connection
    finally:
        connection.close()


def stored(server: Any, slug: str) -> dict[str, Any]:
    """The poll's rows, read straight from the database."""
    mark = "?" if server.backend == "sqlite" else "%s"
    with database(server) as connection:
        cursor = connection.cursor()
        cursor.execute(f"SELECT id, data FROM instance WHERE slug = {mark}", (slug,))
        instance_id, data = cursor.fetchone()
        cursor.execute(f"SELECT option_id, text, votes FROM poll_option "
                       f"WHERE instance_id = {mark}", (instance_id,))
        options = {row[0]: (row[1], row[2]) for row in cursor.fetchall()}
        cursor.execute(f"SELECT choices FROM poll_ballot WHERE instance_id = {mark}",
                       (instance_id,))
        ballots = [row[0] for row in cursor.fetchall()]
        cursor.execute(f"SELECT COUNT(*) FROM credential WHERE instance_id = {mark} "
                       f"AND kind = 'ballot'", (instance_id,))
        (tokens,) = cursor.fetchone()
    return {"data": json.loads(data), "options": options,
            "ballots": [json.loads(choices) for choices in ballots], "tokens": tokens}


def check_rows(server: Any, slug: str,
               counted: Callable[[list[str]], list[str]] = list) -> dict[str, Any]:
    """`counted`: the options a ballot adds one to (a ranked ballot: its first choice)."""
    rows = stored(server, slug)
    assert len(rows["ballots"]) == CAP
    assert rows["data"]["ballots"] == CAP
    assert rows["tokens"] == CAP
    recount = Counter(choice for ballot in rows["ballots"] for choice in counted(ballot))
    assert {option_id: votes for option_id, (_, votes) in rows["options"].items()} == {
        option_id: recount.get(option_id, 0) for option_id in rows["options"]}
    assert set(recount) <= set(rows["options"])
    assert all(ballot for ballot in rows["ballots"])
    return rows


async def create(client: httpx.AsyncClient, **body: Any) -> tuple[str, dict[str, str]]:
    response = await client.post("/api/poll", json={
        "question": "Race day lunch?", "options": ["Thai", "Pub", "Picnic"], **body})
    assert response.status_code == 201, response.text
    slug = response.json()["slug"]
    view = (await client.get(f"/api/poll/{slug}")).raise_for_status().json()
    return slug, {option["text"]: option["id"] for option in view["tally"]}


def fill(server: Any, slug: str, option_ids: list[str], count: int,
               ballot: Callable[[int], list[str]] | None = None) -> list[str]:
    """Cast `count` votes, FILLERS at a time on kept-alive connections; returns their ballot
    tokens in vote order. `ballot(n)` gives the n-th vote's choices (else one option in
    turn)."""
    replies = server.post_many("/api/poll/vote", [
        {"slug": slug, "choices": ballot(n) if ballot else [option_ids[n % len(option_ids)]],
         "voterName": f"Filler {n}"} for n in range(count)], at_once=FILLERS)
    assert [status for status, _ in replies] == [201] * count, replies[:3]
    return [reply["token"] for _, reply in replies]


async def at_once(calls: list[Callable[[], Any]], watch: Any = None) -> list[httpx.Response]:
    start = asyncio.Event()

    async def run(call: Callable[[], Any]) -> httpx.Response:
        await start.wait()
        response: httpx.Response = await call()
        return response

    tasks = [asyncio.create_task(run(call)) for call in calls]
    await asyncio.sleep(0)
    with watch.race() if watch is not None else contextlib.nullcontext():
        start.set()
        return list(await asyncio.gather(*tasks))


def client_for(server: Any) -> httpx.AsyncClient:
    return server.async_client(limits=httpx.Limits(max_connections=RACERS + 20,
                                                   max_keepalive_connections=0))


def admitted_exactly_the_room(responses: list[httpx.Response]) -> list[httpx.Response]:
    statuses = Counter(response.status_code for response in responses)
    assert statuses == {201: ROOM, 409: len(responses) - ROOM}, statuses
    for response in responses:
        if response.status_code == 409:
            assert response.json() == {"error": FULL}
    winners = [response for response in responses if response.status_code == 201]
    assert len({response.json()["token"] for response in winners}) == ROOM
    return winners


async def test_single_choice_votes_race_for_the_last_places(race_server: Any,
                                                            overlap: Callable[..., Any]
                                                            ) -> None:
    async with client_for(race_server) as client:
        slug, ids = await create(client)
        fill(race_server, slug, list(ids.values()), CAP - ROOM)
        picks = [list(ids.values())[n % 3] for n in range(RACERS)]

        def voter(n: int) -> Callable[[], Any]:
            return lambda: client.post("/api/poll/vote", json={
                "slug": slug, "choices": [picks[n]], "voterName": f"Racer {n}"})

        watch = overlap(race_server, "POST", "/api/poll/vote")
        responses = await at_once([voter(n) for n in range(RACERS)], watch)
        watch.assert_overlapped(RACERS)
        winners = admitted_exactly_the_room(responses)
        view = (await client.get(f"/api/poll/{slug}")).raise_for_status().json()
        assert view["ballots"] == CAP
        assert sum(option["count"] for option in view["tally"]) == CAP
        rows = check_rows(race_server, slug)
        expected = Counter(n % 3 for n in range(CAP - ROOM))
        expected.update(list(ids.values()).index(response.json()["choices"][0])
                        for response in winners)
        assert [rows["options"][option_id][1] for option_id in ids.values()] == [
            expected[0], expected[1], expected[2]]
        late = await client.post("/api/poll/vote", json={"slug": slug,
                                                         "choices": [ids["Thai"]]})
        assert late.status_code == 409


async def test_refused_suggestions_add_no_options(race_server: Any) -> None:
    """Every racer suggests an option of their own: only the admitted ones may appear."""
    async with client_for(race_server) as client:
        slug, ids = await create(client, mode="multi", maxPicks=2, allowSuggestions=True)
        fill(race_server, slug, list(ids.values()), CAP - ROOM)

        def voter(n: int) -> Callable[[], Any]:
            return lambda: client.post("/api/poll/vote", json={
                "slug": slug, "choices": [ids["Pub"]], "suggestion": f"Idea {n}"})

        responses = await at_once([voter(n) for n in range(RACERS)])
        winners = admitted_exactly_the_room(responses)
        added = {response.json()["addedOptionId"] for response in winners}
        assert len(added) == ROOM and None not in added
        rows = check_rows(race_server, slug)
        assert set(rows["options"]) == set(ids.values()) | added
        assert sorted(text for text, _ in rows["options"].values()
                      if text.startswith("Idea")) == sorted(
            f"Idea {n}" for n, response in enumerate(responses)
            if response.status_code == 201)
        assert all(rows["options"][option_id][1] == 1 for option_id in added)


async def votes_race_changes(server: Any, client: httpx.AsyncClient, slug: str,
                             ids: dict[str, str], changers: list[str]) -> dict[str, Any]:
    """RACERS new votes for Pub race the changers' switch to Picnic: exactly the room is
    admitted, every change lands; returns the checked rows."""
    def voter() -> Callable[[], Any]:
        return lambda: client.post("/api/poll/vote", json={
            "slug": slug, "choices": [ids["Pub"]]})

    def changer(token: str) -> Callable[[], Any]:
        return lambda: client.post(f"/api/poll/v/{token}",
                                   json={"choices": [ids["Picnic"]]})

    calls = [voter() for _ in range(RACERS)] + [changer(token) for token in changers]
    responses = await at_once(calls)
    admitted_exactly_the_room(responses[:RACERS])
    assert [response.status_code for response in responses[RACERS:]] == [200] * len(changers)
    return check_rows(server, slug)


async def test_ballot_changes_race_alongside_new_votes(race_server: Any) -> None:
    """Changes of existing ballots are not new votes: all of them land, even at the cap."""
    async with client_for(race_server) as client:
        slug, ids = await create(client)
        tokens = fill(race_server, slug, [ids["Thai"]], CAP - ROOM)
        rows = await votes_race_changes(race_server, client, slug, ids, tokens[:20])
        assert {text: votes for text, votes in rows["options"].values()} == {
            "Thai": CAP - ROOM - 20, "Pub": ROOM, "Picnic": 20}


def runoff(ballots: list[list[str]], options: list[str]) -> dict[str, Any]:
    """Instant runoff counted plainly from the stored ballots, to check the server's."""
    running, rounds = list(options), []
    while True:
        firsts = [next((c for c in b if c in running), None) for b in ballots]
        counts = {o: firsts.count(o) for o in running}
        active = len(ballots) - firsts.count(None)
        rounds.append({"counts": counts, "exhausted": firsts.count(None), "eliminated": []})
        best = max(counts.values())
        if best * 2 > active or len(running) == 1:
            return {"rounds": rounds, "winner": max(running, key=counts.__getitem__),
                    "tied": []}
        low = min(counts.values())
        if best == low:
            return {"rounds": rounds, "winner": None, "tied": running}
        rounds[-1]["eliminated"] = [o for o in running if counts[o] == low]
        running = [o for o in running if counts[o] != low]


async def test_ranked_votes_race_for_the_last_places(race_server: Any) -> None:
    """A ranked poll at the cap: the room is filled exactly, the kept counts are first
    choices, and the rounds served equal a plain count of the stored ballots."""
    async with client_for(race_server) as client:
        slug, ids = await create(client, ranked=True)
        order = list(ids.values())

        def ranking(n: int) -> list[str]:
            turned = order[n % 3:] + order[:n % 3]
            return turned[:1 + n % 2] if n % 5 else turned[::-1]

        fill(race_server, slug, order, CAP - ROOM, ranking)

        def voter(n: int) -> Callable[[], Any]:
            return lambda: client.post("/api/poll/vote", json={
                "slug": slug, "choices": ranking(CAP + n)})

        admitted_exactly_the_room(await at_once([voter(n) for n in range(RACERS)]))
        rows = check_rows(race_server, slug, counted=lambda ballot: ballot[:1])
        view = (await client.get(f"/api/poll/{slug}")).raise_for_status().json()
        assert view["ballots"] == CAP and view["mode"] == "ranked"
        expected = runoff(rows["ballots"], order)
        assert {key: view[key] for key in ("rounds", "winner", "tied")} == expected
        assert sum(option["count"] for option in view["tally"]) == CAP


async def test_secret_tally_batches_stay_whole_under_contention(race_server: Any) -> None:
    """Racing votes and ballot changes on a secret ballot: every one of them is counted
    towards the next release, so after the last batch the published tally is the whole
    tally and nothing is pending."""
    async with client_for(race_server) as client:
        slug, ids = await create(client, secret=True)
        tokens = fill(race_server, slug, [ids["Thai"]], CAP - ROOM)
        rows = await votes_race_changes(race_server, client, slug, ids, tokens[:20])
        batch = rows["data"]["shown"]
        events = CAP + 20
        assert rows["data"]["pending"] == events % 5 == 0
        assert batch["ballots"] == CAP
        live = {text: votes for text, votes in rows["options"].values()}
        assert {entry["text"]: entry["count"] for entry in batch["tally"]} == live == {
            "Thai": CAP - ROOM - 20, "Pub": ROOM, "Picnic": 20}
        view = (await client.get(f"/api/poll/{slug}")).raise_for_status().json()
        assert view["tallyBallots"] == CAP
        assert {option["text"]: option["count"] for option in view["tally"]} == live
