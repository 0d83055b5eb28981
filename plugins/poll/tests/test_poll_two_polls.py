"""Two polls side by side: each poll's ballots, counts and runoff are its own. Option ids are
unique within a poll only, so two polls may hold the same id; dropping an option, recounting
first choices and counting the runoff must touch only the poll being changed."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from groupkit_poll import ballots
from groupkit_testing import edit

#: The ids every poll of these tests gets, in order: two polls then share them.
SHARED_IDS = ("222222", "333333", "444444", "555555", "666666")


@pytest.fixture(autouse=True)
def shared_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every poll numbers its options alike, as two polls' random ids may happen to."""
    def new_option_id(taken: Iterable[str]) -> str:
        used = set(taken)
        return next(option_id for option_id in SHARED_IDS if option_id not in used)

    monkeypatch.setattr(ballots, "new_option_id", new_option_id)


async def ballot_list(api: Any, made: dict[str, str]) -> list[list[str]]:
    reply = await api.organiser(made["editToken"], "export")
    return [row["choices"] for row in (await reply.get_json())["data"]["ballotList"]]


async def two_ranked_polls(api: Any) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Two ranked polls on A, B, C, D with the same ids (returned by text), and ballots in
    both: the first poll's `[A, C]` and `[B]`, the other's `[A, B]`, `[A, D]` and `[C]`."""
    first = await api.make(ranked=True, options=["A", "B", "C", "D"])
    other = await api.make(ranked=True, options=["A", "B", "C", "D"])
    ids = await api.ids(first["slug"])
    assert await api.ids(other["slug"]) == ids
    for ranking in ("AC", "B"):
        await api.voted(first["slug"], [ids[letter] for letter in ranking])
    for ranking in ("AB", "AD", "C"):
        await api.voted(other["slug"], [ids[letter] for letter in ranking])
    return first, other, ids


async def test_two_polls_share_option_ids_and_count_apart(api: Any) -> None:
    first, other, ids = await two_ranked_polls(api)
    view = await api.read(first["slug"])
    assert await api.counts(first["slug"]) == {"A": 1, "B": 1, "C": 0, "D": 0}
    # The runoff reads only this poll's two ballots: none exhausted, A and B tied.
    assert view["rounds"][0] == {"counts": {ids["A"]: 1, ids["B"]: 1, ids["C"]: 0,
                                            ids["D"]: 0},
                                 "exhausted": 0, "eliminated": [ids["C"], ids["D"]]}
    assert view["tied"] == [ids["A"], ids["B"]] and view["winner"] is None
    assert (await api.read(other["slug"]))["winner"] == ids["A"]


@pytest.mark.parametrize("how", ["removeOption", "edit"])
async def test_dropping_an_option_leaves_the_other_polls_ballots(api: Any, client: Any,
                                                                 how: str) -> None:
    first, other, ids = await two_ranked_polls(api)
    before = await api.read(other["slug"])
    if how == "removeOption":
        reply = await api.organiser(first["editToken"], "removeOption", {"optionId": ids["A"]})
        assert reply.status_code == 200
    else:
        assert (await edit(client, "poll", first["editToken"], {
            "options": ["B", "C", "D"], "confirm": True}))[0] == 200
    # This poll: `[A, C]` now counts for C; the recount reads only its own ballots.
    assert await ballot_list(api, first) == [[ids["C"]], [ids["B"]]]
    assert await api.counts(first["slug"]) == {"B": 1, "C": 1, "D": 0}
    view = await api.read(first["slug"])
    assert view["rounds"][0]["counts"] == {ids["B"]: 1, ids["C"]: 1, ids["D"]: 0}
    assert view["rounds"][0]["exhausted"] == 0
    # The other poll: every ballot, count and round as it was.
    assert await ballot_list(api, other) == [[ids["A"], ids["B"]], [ids["A"], ids["D"]],
                                             [ids["C"]]]
    assert await api.read(other["slug"]) == before


async def test_a_multi_choice_removal_leaves_the_other_polls_ballots(api: Any) -> None:
    first = await api.make(mode="multi")
    other = await api.make(mode="multi")
    ids = await api.ids(first["slug"])
    await api.voted(first["slug"], [ids["Thai"], ids["Pub"]])
    await api.voted(other["slug"], [ids["Thai"], ids["Picnic"]])
    reply = await api.organiser(first["editToken"], "removeOption", {"optionId": ids["Thai"]})
    assert reply.status_code == 200
    assert await ballot_list(api, first) == [[ids["Pub"]]]
    assert await ballot_list(api, other) == [[ids["Thai"], ids["Picnic"]]]
    assert await api.counts(other["slug"]) == {"Thai": 1, "Pub": 0, "Picnic": 1}
