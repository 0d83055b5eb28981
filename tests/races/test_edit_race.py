"""An organiser's edit and the group's claims arrive together on a sign-up board, against
two server workers: every claim that was answered 201 is still on the board afterwards (no
edit drops one), no group ever holds more claims than its spots, and every edit is either
applied whole or refused with the tool's 409. On SQLite always, on PostgreSQL when
$GROUPKIT_TEST_POSTGRES_URL is set."""

from __future__ import annotations

import asyncio
import dataclasses
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from groupkit.testing import server_backends

pytestmark = pytest.mark.server

CLAIMERS = 24
EDITS = 6


@dataclasses.dataclass
class Board:
    tool: str
    groups: str  # the create field holding the groups
    label: str  # each group's name key
    prefix: str  # slot id prefix
    claim_extra: dict[str, str]
    shrunk: str  # the 409 when a group would drop below its claims


BOARDS = [
    Board("plate", "categories", "name", "c", {"dish": "Salad"},
          "{name} has {taken} spots taken — remove someone first, or keep at least {taken} "
          "spots."),
    Board("hens", "categories", "name", "c", {"message": "on it"},
          "{name} has {taken} spots taken — remove someone first, or keep at least {taken} "
          "spots."),
    Board("roster", "shifts", "label", "s", {"message": "call me"},
          "{name} has {taken} volunteers — remove someone first, or keep at least {taken} "
          "spots."),
]


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    return live_server(workers=2, database=request.param,
                       limits={"post_per_hour": 100_000})


def held(view: dict[str, Any], groups: str) -> list[tuple[int, int, list[str]]]:
    """(capacity, taken, names) of each group."""
    return [(group["capacity"], group["taken"],
             sorted(spot["name"] for spot in group["spots"] if spot["taken"]))
            for group in view[groups]]


@pytest.mark.parametrize("board", BOARDS, ids=[board.tool for board in BOARDS])
async def test_edits_and_claims_together_lose_nothing(race_server: Any, board: Board) -> None:
    limits = httpx.Limits(max_connections=CLAIMERS + EDITS, max_keepalive_connections=0)
    async with race_server.async_client(limits=limits) as client:
        created = await client.post(f"/api/{board.tool}", json={
            "title": "Race", board.groups: [{board.label: "First", "capacity": 6},
                                            {board.label: "Second", "capacity": 2}]})
        assert created.status_code == 201, created.text
        slug, token = created.json()["slug"], created.json()["editToken"]
        start = asyncio.Event()

        async def claim(i: int) -> tuple[str, httpx.Response]:
            await start.wait()
            name = f"Claimer {i:02d}"
            return name, await client.post(f"/api/{board.tool}/claim", json={
                "slug": slug, "slotId": f"{board.prefix}0-{i % 6 + 1}", "name": name,
                **board.claim_extra})

        async def edit(i: int) -> httpx.Response:
            await start.wait()
            # Shrink the first group to 3 spots (refused once more are taken), rename the
            # second and add a third: all or nothing.
            return await client.post(f"/api/{board.tool}/{token}/edit", json={
                board.groups: [{board.label: f"First {i}", "capacity": 3, "was": 0},
                               {board.label: f"Second {i}", "capacity": 2, "was": 1},
                               {board.label: "Third", "capacity": 1, "was": None}]})

        claims = [asyncio.create_task(claim(i)) for i in range(CLAIMERS)]
        edits = [asyncio.create_task(edit(i)) for i in range(EDITS)]
        await asyncio.sleep(0)
        start.set()
        claimed = await asyncio.gather(*claims)
        edited = await asyncio.gather(*edits)

        view = (await client.get(f"/api/{board.tool}/{slug}")).raise_for_status().json()
        groups = held(view, board.groups)
        winners = sorted(name for name, response in claimed if response.status_code == 201)
        on_board = sorted(name for _, _, names in groups for name in names)
        assert on_board == winners  # nothing lost, nothing invented
        assert all(taken <= capacity and taken == len(names)
                   for capacity, taken, names in groups)
        assert Counter(r.status_code for _, r in claimed).keys() <= {201, 400, 409}
        # A refusal names the first group as it was then called, with more than 3 taken.
        refusals = {board.shrunk.format(name=name, taken=taken)
                    for name in ["First", *(f"First {i}" for i in range(EDITS))]
                    for taken in range(4, 7)}
        for response in edited:
            assert response.status_code in (200, 409), response.text
            if response.status_code == 409:
                assert response.json()["field"] == board.groups
                assert response.json()["error"] in refusals
        applied = [r for r in edited if r.status_code == 200]
        if applied:
            assert len(groups) == 3 and groups[0][0] == 3
        else:
            assert len(groups) == 2 and groups[0][0] == 6
