"""Ranked-choice polls: the ballot keeps the voter's order, the option counts are first
choices, and the result is an instant runoff whose rounds the API and the pages show."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from groupkit import Instance
from groupkit_poll.models import PollBallot
from groupkit_poll.results import instant_runoff

EMPTY = "Pick an option before you vote."


def runoff(ballots: list[list[str]], options: str = "abcd") -> dict[str, Any]:
    return instant_runoff(list(options), list(Counter(map(tuple, ballots)).items()))


def test_majority_in_the_first_round() -> None:
    result = runoff([["a"], ["a", "b"], ["b"]])
    assert result == {"rounds": [{"counts": {"a": 2, "b": 1, "c": 0, "d": 0},
                                  "exhausted": 0, "eliminated": []}],
                      "winner": "a", "tied": []}


def test_transfers_decide_it() -> None:
    ballots = [["a", "c"]] * 4 + [["b"]] * 3 + [["c", "b"]] * 2 + [["d", "b"]]
    result = runoff(ballots)
    assert [round_["counts"] for round_ in result["rounds"]] == [
        {"a": 4, "b": 3, "c": 2, "d": 1},
        {"a": 4, "b": 4, "c": 2},
        {"a": 4, "b": 6}]
    assert [round_["eliminated"] for round_ in result["rounds"]] == [["d"], ["c"], []]
    assert result["winner"] == "b"


def test_exhausted_ballots_leave_the_count() -> None:
    """A ballot with nobody left counts for nobody; the majority is of those still counting."""
    result = runoff([["a"]] * 3 + [["b"]] * 2 + [["c"]], "abc")
    assert result["rounds"][1] == {"counts": {"a": 3, "b": 2}, "exhausted": 1,
                                   "eliminated": []}
    assert result["winner"] == "a"


def test_ties_for_last_go_together_and_a_full_tie_has_no_winner() -> None:
    result = runoff([["a"], ["b"], ["a"], ["b"]], "abc")
    assert result["rounds"][0]["eliminated"] == ["c"]
    assert result["winner"] is None and result["tied"] == ["a", "b"]


def test_no_ballots_no_rounds() -> None:
    assert runoff([]) == {"rounds": [], "winner": None, "tied": []}


def reference(ballots: list[list[str]], options: list[str]) -> str | None:
    """A slow, plain instant runoff to check the real one against."""
    running = set(options)
    while running:
        counts = {o: sum(1 for b in ballots if [c for c in b if c in running][:1] == [o])
                  for o in running}
        active = sum(counts.values())
        best = max(counts.values())
        if active == 0:
            return None
        if best * 2 > active or len(running) == 1:
            return next(o for o in options if o in running and counts[o] == best)
        low = min(counts.values())
        if all(v == low for v in counts.values()):
            return None
        running -= {o for o in running if counts[o] == low}
    return None


def test_agrees_with_a_plain_count() -> None:
    chance = random.Random(17)
    for _ in range(300):
        options = list("abcde")[:chance.randint(2, 5)]
        ballots = [chance.sample(options, chance.randint(1, len(options)))
                   for _ in range(chance.randint(1, 25))]
        assert runoff(ballots, "".join(options))["winner"] == reference(ballots, options)


# --- through the API ----------------------------------------------------------------------

async def test_a_ranked_poll(api: Any) -> None:
    made = await api.make(ranked=True, mode="multi", maxPicks=2, allowSuggestions=True)
    slug, edit = made["slug"], made["editToken"]
    view = await api.read(slug)
    assert (view["mode"], view["maxPicks"]) == ("ranked", None)
    assert (view["rounds"], view["winner"], view["tied"]) == ([], None, [])
    ids = await api.ids(slug)
    thai, pub, picnic = ids["Thai"], ids["Pub"], ids["Picnic"]
    reply = await api.voted(slug, [picnic, "zzzzzz", thai, picnic, pub])
    assert reply["choices"] == [picnic, thai, pub]
    assert reply["winner"] == picnic and len(reply["rounds"]) == 1
    for ranking in ([thai, pub], [thai], [pub, picnic], [pub, thai]):
        await api.voted(slug, ranking)
    view = await api.read(slug)
    assert [o["count"] for o in view["tally"]] == [2, 2, 1]  # first choices
    assert view["rounds"] == [
        {"counts": {thai: 2, pub: 2, picnic: 1}, "exhausted": 0, "eliminated": [picnic]},
        {"counts": {thai: 3, pub: 2}, "exhausted": 0, "eliminated": []}]
    assert view["winner"] == thai
    suggested = await api.voted(slug, [pub], suggestion="Dumplings")
    assert suggested["choices"] == [pub, suggested["addedOptionId"]]
    assert await api.error_of(await api.vote(slug, []), 400) == EMPTY
    page = await api.page(f"/s/{slug}")
    assert "Instant runoff" in page and "Round 3" in page and "Tied:" in page
    assert page.count('<select id="poll-rank-') == 4 and "First choices" in page
    mine = await api.page(f"/p/{reply['token']}")
    # One select per place, each holding the option ranked there.
    places = re.findall(r'<option value="(\w+)" selected>', mine)
    assert places == [picnic, thai, pub] and "your #1" in mine and "your #3" in mine
    changed = await (await api.change(reply["token"], [thai])).get_json()
    assert changed["choices"] == [thai]
    assert [o["count"] for o in changed["tally"]][:3] == [3, 3, 0]
    await api.voted(slug, [thai])
    closed = await (await api.organiser(edit, "close")).get_json()
    assert closed["winner"] == thai and closed["rounds"][0]["counts"][thai] == 4
    assert "Winner:" in await api.page(f"/s/{slug}")


async def test_removing_a_first_choice_moves_the_ballot_on(api: Any) -> None:
    made = await api.make(ranked=True, options=["A", "B", "C", "D"])
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["A"], ids["C"]])
    await api.voted(made["slug"], [ids["A"]])
    await api.voted(made["slug"], [ids["B"]])
    reply = await (await api.organiser(made["editToken"], "removeOption",
                                       {"optionId": ids["A"]})).get_json()
    assert [o["count"] for o in reply["tally"]] == [1, 1, 0]
    view = await api.read(made["slug"])
    assert view["rounds"][0] == {"counts": {ids["B"]: 1, ids["C"]: 1, ids["D"]: 0},
                                 "exhausted": 1, "eliminated": [ids["D"]]}
    assert view["tied"] == [ids["B"], ids["C"]] and view["winner"] is None
    assert "Tied:" in await api.page(f"/s/{made['slug']}")


async def test_removing_an_option_cuts_it_from_every_place_in_a_ranking(
        api: Any, db: Any) -> None:
    """The database rewrites the ballots: the option goes wherever it stood (first, in the
    middle, last, alone), the rest keep their order, and first choices are recounted."""
    made = await api.make(ranked=True, options=["A", "B", "C", "D"])
    ids = await api.ids(made["slug"])
    orders = ["ACD", "CAD", "CDA", "A", "DC", "BA"]
    for order in orders:
        await api.voted(made["slug"], [ids[letter] for letter in order])
    reply = await (await api.organiser(made["editToken"], "removeOption",
                                       {"optionId": ids["A"]})).get_json()
    assert [(o["text"], o["count"]) for o in reply["tally"]] == [("B", 1), ("C", 3), ("D", 1)]

    def rows() -> list[list[str]]:
        instance = Instance.get(Instance.slug == made["slug"])
        return [b.choices for b in PollBallot.select().where(PollBallot.instance == instance)
                .order_by(PollBallot.id)]
    kept = [order.replace("A", "") for order in orders]
    assert db(rows) == [[ids[letter] for letter in order] for order in kept]


@pytest.mark.parametrize("body", [{"ranked": "yes"}, {"ranked": 1}])
async def test_ranked_is_any_truthy_value(api: Any, body: dict[str, Any]) -> None:
    assert (await api.read((await api.make(**body))["slug"]))["mode"] == "ranked"


async def test_mode_ranked_alone_is_still_single_choice(api: Any) -> None:
    """The spec: anything but `multi` is single choice; only the new flag ranks."""
    view = await api.read((await api.make(mode="ranked"))["slug"])
    assert view["mode"] == "single" and "rounds" not in view
