"""The instant runoff counts each distinct ranking once and moves only the rankings whose
top choice was just eliminated: checked against a plain recount of every ballot each round
on many random elections, ties, exhausted ballots and all-tied ends included."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from groupkit_poll.results import instant_runoff

OPTIONS = "abcdefg"


def reference(option_ids: Sequence[str],
              ballots: Sequence[tuple[Sequence[str], int]]) -> dict[str, Any]:
    """The rules read literally: every round, every ballot counts for its first option
    still running."""
    running = list(option_ids)
    held = [(ranking, n) for ranking, n in ballots if n]
    rounds: list[dict[str, Any]] = []
    while running and held:
        counts = Counter(dict.fromkeys(running, 0))
        exhausted = 0
        for ranking, n in held:
            top = next((choice for choice in ranking if choice in running), None)
            if top is None:
                exhausted += n
            else:
                counts[top] += n
        active = sum(counts.values())
        rounds.append({"counts": {o: counts[o] for o in running}, "exhausted": exhausted,
                       "eliminated": []})
        leader = max(running, key=lambda o: counts[o])
        if active and (counts[leader] * 2 > active or len(running) == 1):
            return {"rounds": rounds, "winner": leader, "tied": []}
        fewest = min(counts[o] for o in running)
        out = [o for o in running if counts[o] == fewest]
        if len(out) == len(running):
            return {"rounds": rounds, "winner": None, "tied": running}
        rounds[-1]["eliminated"] = out
        running = [o for o in running if o not in out]
    return {"rounds": rounds, "winner": None, "tied": []}


#: Rankings may name an option twice or one the poll no longer has ("z"), or be empty.
rankings = st.lists(st.sampled_from(OPTIONS + "z"), max_size=6)
elections = st.tuples(
    st.integers(min_value=0, max_value=len(OPTIONS)).map(lambda n: OPTIONS[:n]),
    st.lists(st.tuples(rankings, st.integers(min_value=0, max_value=4)), max_size=25))


@settings(max_examples=600, deadline=None)
@given(elections)
@example(("abcd", [(list("ab"), 1), (list("ba"), 1), (list("cd"), 1), (list("dc"), 1)]))
@example(("abc", [(list("a"), 2), (list("b"), 1), ([], 3)]))
@example(("abc", [(list("ca"), 1), (list("cb"), 1), (list("a"), 1), (list("b"), 1)]))
@example(("ab", [([], 2)]))
@example(("", [(list("a"), 1)]))
def test_matches_a_plain_recount(election: tuple[str, list[tuple[list[str], int]]]) -> None:
    option_ids, ballots = election
    assert instant_runoff(list(option_ids), ballots) == reference(list(option_ids), ballots)


def test_the_random_elections_reach_every_ending() -> None:
    """The strategy does produce wins, all-tied ends, exhausted ballots and joint
    eliminations, so the comparison above covers them."""
    seen: set[str] = set()

    @settings(max_examples=400, deadline=None, database=None)
    @given(elections)
    def collect(election: tuple[str, list[tuple[list[str], int]]]) -> None:
        result = reference(list(election[0]), election[1])
        seen.add("winner" if result["winner"] else "tied" if result["tied"] else "none")
        if any(entry["exhausted"] for entry in result["rounds"]):
            seen.add("exhausted")
        if any(len(entry["eliminated"]) > 1 for entry in result["rounds"]):
            seen.add("joint")

    collect()
    assert seen >= {"winner", "tied", "none", "exhausted", "joint"}
