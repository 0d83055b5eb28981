"""The story list, an addition to the spec's board: a pasted backlog the facilitator votes
through with `next`, changed with the edit, and the estimates per story as CSV with the
average of the number cards. Without a list the board is the spec's, one story at a time."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest


async def test_a_pasted_list_is_voted_through_in_order(api: Any) -> None:
    made = await api.create({"team": "Payments", "stories": [
        " PAY-1 Refunds ", "", "   ", 42, "PAY-2 Receipts", "PAY-3 Disputes"]})
    view = await api.read(made["slug"])
    assert view["story"] == "PAY-1 Refunds"  # no first story: the list's first
    assert view["upNext"] == ["42", "PAY-2 Receipts", "PAY-3 Disputes"]
    edit = made["editToken"]
    reply = await (await api.organise(edit, "next")).get_json()
    assert reply == {"ok": True, "round": 2, "story": "42"}  # the spec's reply, as ever
    assert (await api.read(made["slug"]))["upNext"] == ["PAY-2 Receipts", "PAY-3 Disputes"]
    # A story typed in goes first; the list waits.
    reply = await (await api.organise(edit, "next", {"story": "Hotfix"})).get_json()
    assert reply["story"] == "Hotfix"
    assert (await api.read(made["slug"]))["upNext"] == ["PAY-2 Receipts", "PAY-3 Disputes"]
    for expected in ("PAY-2 Receipts", "PAY-3 Disputes", ""):
        reply = await (await api.organise(edit, "next")).get_json()
        assert reply["story"] == expected
    assert (await api.read(made["slug"]))["upNext"] == []


async def test_a_first_story_and_a_list(api: Any) -> None:
    made = await api.create({"story": "Warm-up", "stories": ["A", "B"]})
    view = await api.read(made["slug"])
    assert (view["story"], view["upNext"]) == ("Warm-up", ["A", "B"])


async def test_without_a_list_the_board_is_the_specs(api: Any, board: dict[str, str]) -> None:
    assert (await api.read(board["slug"]))["upNext"] == []
    reply = await (await api.organise(board["editToken"], "next")).get_json()
    assert reply == {"ok": True, "round": 2, "story": ""}


@pytest.mark.parametrize("stories", [None, "A\nB", {"a": 1}, 7])
async def test_a_list_that_is_not_a_list_is_none(api: Any, stories: Any) -> None:
    made = await api.create({"story": "One", "stories": stories})
    assert (await api.read(made["slug"]))["upNext"] == []


async def test_the_list_keeps_its_limits(api: Any) -> None:
    made = await api.create({"stories": [f"S{n} " + "x" * 200 for n in range(60)]})
    view = await api.read(made["slug"])
    assert len(view["upNext"]) == 49 and view["story"] == "S0 " + "x" * 117
    assert all(len(story) == 120 for story in view["upNext"])


async def test_the_edit_replaces_the_list(api: Any, client: Any,
                                          board: dict[str, str]) -> None:
    edit = board["editToken"]
    response = await client.post(f"/api/poker/{edit}/edit", json={"stories": ["C", " ", "D"]})
    assert response.status_code == 200, await response.get_json()
    assert (await api.read(board["slug"]))["upNext"] == ["C", "D"]
    assert (await api.read(board["slug"]))["story"] == "PAY-1 Refunds"


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))


async def test_the_estimates_per_story_with_the_average(api: Any, client: Any) -> None:
    made = await api.create({"stories": ["PAY-1 Refunds", "PAY-2 =Receipts", "PAY-3"]})
    slug, edit = made["slug"], made["editToken"]
    ann, bo, cy = [await api.joined(slug, name) for name in ("Ann", "Bo", "Cy")]
    for token, card in ((ann, 3), (bo, 8), (cy, "?")):
        await api.voted(token, card)
    await api.organise(edit, "reveal")
    await api.organise(edit, "next")
    for token, card in ((ann, "coffee"), (bo, "?")):
        await api.voted(token, card)
    await api.organise(edit, "reveal")  # the current round, revealed, counts too
    response = await client.get(f"/api/poker/{edit}/estimates")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/csv")
    assert response.headers["Cache-Control"] == "no-store"
    assert rows((await response.get_data()).decode()) == [
        {"round": "1", "story": "PAY-1 Refunds", "votes": "3", "low": "3", "high": "8",
         "average": "5.5"},
        {"round": "2", "story": "PAY-2 =Receipts", "votes": "2", "low": "", "high": "",
         "average": ""}]
    await api.organise(edit, "next")  # an unrevealed round is not an estimate
    assert len(rows((await (await client.get(f"/api/poker/{edit}/estimates")).get_data())
                    .decode())) == 2


async def test_t_shirt_sizes_have_no_average(api: Any, client: Any) -> None:
    made = await api.create({"deck": "tshirt", "story": "Login"})
    token = await api.joined(made["slug"], "Ann")
    await api.voted(token, "M")
    await api.organise(made["editToken"], "reveal")
    text = (await (await client.get(f"/api/poker/{made['editToken']}/estimates")).get_data())
    assert rows(text.decode()) == [{"round": "1", "story": "Login", "votes": "1", "low": "M",
                                    "high": "M", "average": ""}]


async def test_estimates_need_the_organisers_link(client: Any, board: dict[str, str]) -> None:
    assert (await client.get(f"/api/poker/{board['slug']}/estimates")).status_code == 404


async def test_the_list_is_in_the_api_document(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    text = str(document)
    assert "upNext" in text and "the stories still to vote on" in text
    operation = document["paths"]["/api/poker/{editToken}/estimates"]["get"]
    assert "average" in operation["description"]
    assert "takes the next" in text or "the first of them is the next story" in text
