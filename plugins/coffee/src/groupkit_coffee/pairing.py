"""Drawing a round: everybody in pairs, one group of three when the count is odd, avoiding
anyone who met in the last few rounds whenever that is possible.

A round's cost adds, for every two people put in the same group, a penalty for each recent
round in which they already met: meeting last round costs far more than meeting two rounds
ago, which costs far more than three rounds ago. The search is a depth-first walk over
groupings in random order, cheapest options first, pruned by the best cost found so far,
that stops at the first grouping with no repeat at all. Within its step budget the walk is
exhaustive, so on the small teams where a grouping without repeats can be missing it finds
one whenever one exists, and otherwise the fewest and least recent repeats; on larger teams
(where such a grouping always exists, see `RECENT_ROUNDS`) the first cheap descent almost
always succeeds at once.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import secrets
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence

#: How many past rounds count as recent. Each round gives a person one partner (two in the
#: group of three), so at most 6 people are "recent" for anyone (3 on an even team). From
#: 14 people up (8 on an even team) everyone can still meet at least half the team, so by
#: Dirac's theorem there is a ring through everybody with no recent pair in it, and cutting
#: that ring into pairs (and one three) gives a grouping without repeats.
RECENT_ROUNDS = 3
#: Penalty base: a repeat from one round further back always weighs less than any number
#: of repeats from a more recent round (a round has at most 101 pairs of people).
_BASE = 1000
#: Search steps before settling for the best grouping found: a safety net only. Exhausting
#: a small team's search (when no repeat-free grouping exists, which happens only below 14
#: people) takes a few dozen steps thanks to the pruning, and on bigger teams the walk
#: reaches a repeat-free grouping within a few steps.
SEARCH_BUDGET = 60_000

_SYSTEM = secrets.SystemRandom()

Group = tuple[int, ...]


def penalties(recent: Sequence[Iterable[Iterable[int]]]) -> dict[frozenset[int], int]:
    """Penalty of each pair of people who met, given the recent rounds newest first."""
    cost: dict[frozenset[int], int] = {}
    for age, groups in enumerate(recent[:RECENT_ROUNDS]):
        weight = _BASE ** (RECENT_ROUNDS - 1 - age)
        for group in groups:
            for a, b in itertools.combinations(sorted(group), 2):
                pair = frozenset((a, b))
                cost[pair] = cost.get(pair, 0) + weight
    return cost


def repeats(groups: Iterable[Iterable[int]], recent: Sequence[Iterable[Iterable[int]]]
            ) -> int:
    """How many pairs in `groups` already met in one of the recent rounds."""
    met = penalties(recent)
    return sum(1 for group in groups for a, b in itertools.combinations(sorted(group), 2)
               if frozenset((a, b)) in met)


def draw_round(people: Sequence[int], recent: Sequence[Iterable[Iterable[int]]] = (),
               rng: random.Random | None = None) -> list[Group]:
    """Groups for the next round: pairs, plus one group of three when the count is odd.

    `recent` holds the previous rounds' groups, newest first. `rng` is for tests; the service
    uses the system's generator."""
    if len(people) < 2:
        raise ValueError("a round needs at least two people")
    search = _Search(penalties(recent), rng or _SYSTEM)
    return search.run(list(people))


class _Search:
    def __init__(self, cost: Mapping[frozenset[int], int], rng: random.Random) -> None:
        self.cost, self.rng = cost, rng
        self.best: list[Group] | None = None
        self.best_cost = float("inf")
        self.steps = 0

    def group_cost(self, group: Group) -> int:
        return sum(self.cost.get(frozenset(pair), 0)
                   for pair in itertools.combinations(group, 2))

    def options(self, remaining: list[int], trio_left: bool) -> list[tuple[int, Group]]:
        """Groups the first remaining person can join, cheapest first, ties in random
        order. The odd count's group of three is offered only while it is still owed (and
        must be taken when exactly three are left); at equal cost it comes first, so on a
        big team it is settled at the top of the walk and never offered again."""
        first, rest = remaining[0], remaining[1:]
        keyed: list[tuple[int, int, float, Group]] = []
        if trio_left:
            keyed += [(self.group_cost(trio), 0, self.rng.random(), trio)
                      for trio in ((first, b, c) for b, c in itertools.combinations(rest, 2))]
        if not (trio_left and len(remaining) == 3):
            keyed += [(self.group_cost(pair), 1, self.rng.random(), pair)
                      for pair in ((first, b) for b in rest)]
        keyed.sort()
        return [(cost, group) for cost, _, _, group in keyed]

    def run(self, people: list[int]) -> list[Group]:
        order = list(people)
        self.rng.shuffle(order)
        with contextlib.suppress(_Done):
            self.walk(order, [], 0, len(order) % 2 == 1)
        assert self.best is not None  # the first descent always completes a grouping
        return self.best

    def walk(self, remaining: list[int], groups: list[Group], cost: int,
             trio_left: bool) -> None:
        if cost >= self.best_cost:
            return
        if not remaining:
            self.best, self.best_cost = list(groups), cost
            if cost == 0:
                raise _Done
            return
        self.steps += 1
        if self.steps > SEARCH_BUDGET and self.best is not None:
            raise _Done
        for extra, group in self.options(remaining, trio_left):
            if cost + extra >= self.best_cost:
                break  # options are sorted: the rest cost at least as much
            left = [person for person in remaining if person not in group]
            groups.append(group)
            self.walk(left, groups, cost + extra, trio_left and len(group) == 2)
            groups.pop()


class _Done(Exception):
    """Stop the walk: a grouping without repeats was found, or the budget is spent."""
