"""Drawing rounds: pairs plus exactly one group of three for an odd count, and no pairing
from the last few rounds whenever a grouping without one exists; when none exists, the
fewest and oldest repeats. Checked over many rounds for many team sizes against an
independent exhaustive search (small teams) or the theorem that makes a repeat-free grouping
certain (14 people and more)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from collections.abc import Sequence

import pytest

from groupkit_coffee.pairing import RECENT_ROUNDS
from groupkit_coffee.pairing import draw_round

Grouping = list[tuple[int, ...]]


def pairs_of(grouping: Sequence[Sequence[int]]) -> set[frozenset[int]]:
    return {frozenset(pair) for group in grouping for pair in itertools.combinations(group, 2)}


def profile(grouping: Sequence[Sequence[int]], history: list[Grouping]) -> tuple[int, ...]:
    """How many of the grouping's pairs met last round, two rounds ago, three rounds ago."""
    mine = pairs_of(grouping)
    return tuple(len(mine & pairs_of(past)) for past in history[:RECENT_ROUNDS])


def matchings(people: list[int]) -> Iterator[Grouping]:
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for index, other in enumerate(rest):
        for tail in matchings(rest[:index] + rest[index + 1:]):
            yield [(first, other), *tail]


def groupings(size: int) -> Iterator[Grouping]:
    """Every way to split `size` people into pairs plus one trio when odd."""
    people = list(range(size))
    if size % 2 == 0:
        yield from matchings(people)
        return
    for trio in itertools.combinations(people, 3):
        for tail in matchings([p for p in people if p not in trio]):
            yield [trio, *tail]


def repeat_free_exists(size: int, history: list[Grouping]) -> bool:
    """Plain backtracking, no costs: is there a grouping in which nobody met recently?"""
    met = set().union(*(pairs_of(past) for past in history[:RECENT_ROUNDS]))

    def ok(group: tuple[int, ...]) -> bool:
        return not pairs_of([group]) & met

    def search(left: list[int], trio_owed: bool) -> bool:
        if not left:
            return True
        first, rest = left[0], left[1:]
        if trio_owed:
            for b, c in itertools.combinations(rest, 2):
                if ok((first, b, c)) and search([p for p in rest if p not in (b, c)], False):
                    return True
        if not (trio_owed and len(left) == 3):
            for b in rest:
                if ok((first, b)) and search([p for p in rest if p != b], trio_owed):
                    return True
        return False

    return search(list(range(size)), size % 2 == 1)


def assert_shape(grouping: Grouping, size: int) -> None:
    assert sorted(p for group in grouping for p in group) == list(range(size))
    sizes = sorted(len(group) for group in grouping)
    assert sizes == [2] * (size // 2 - size % 2) + [3] * (size % 2)


def rounds(size: int, count: int, rng: random.Random | None) -> Iterator[
        tuple[Grouping, list[Grouping]]]:
    """Draw `count` rounds in a row; yields each round with the history it was drawn from."""
    history: list[Grouping] = []
    for _ in range(count):
        grouping = [tuple(group) for group in draw_round(list(range(size)), history, rng)]
        yield grouping, list(history)
        history = [grouping, *history][:RECENT_ROUNDS]


# --- shape ---------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [*range(3, 24), 99, 100, 101, 199, 200])
def test_everyone_in_pairs_and_one_trio_when_odd(size: int) -> None:
    for grouping, _ in rounds(size, 4, random.Random(size)):
        assert_shape(grouping, size)


def test_three_people_always_make_the_one_trio() -> None:
    for grouping, _ in rounds(3, 5, None):
        assert len(grouping) == 1 and sorted(grouping[0]) == [0, 1, 2]


# --- optimal for small teams, checked exhaustively -----------------------------------------

@pytest.mark.parametrize("size", range(3, 11))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_small_teams_get_the_fewest_and_oldest_repeats(size: int, seed: int) -> None:
    """Every round is optimal among all groupings: no repeat when a repeat-free grouping
    exists, otherwise the fewest pairs from last round, then from two rounds ago, then
    three."""
    everything = list(groupings(size))
    for grouping, history in rounds(size, 24 if size < 9 else 10, random.Random(seed)):
        best = min(profile(candidate, history) for candidate in everything)
        assert profile(grouping, history) == best, (size, history, grouping)
        if any(profile(candidate, history) == (0,) * len(history) for candidate in everything):
            assert not pairs_of(grouping) & set().union(*map(pairs_of, history))


@pytest.mark.parametrize("size", [11, 12, 13])
def test_medium_teams_avoid_repeats_whenever_possible(size: int) -> None:
    avoided = 0
    for grouping, history in rounds(size, 30, random.Random(size)):
        if repeat_free_exists(size, history):
            assert max(profile(grouping, history), default=0) == 0
            avoided += 1
    assert avoided >= 25  # the check is not vacuous: repeat-free groupings usually exist


def test_four_people_cycle_through_the_three_pairings() -> None:
    """Four people have three ways to pair up: no repeat for three rounds, then the oldest
    pairing comes back, and so on."""
    drawn = [sorted(tuple(sorted(g)) for g in grouping)
             for grouping, _ in rounds(4, 12, random.Random(4))]
    assert len({tuple(grouping) for grouping in drawn[:3]}) == 3
    assert all(drawn[i] == drawn[i - 3] for i in range(3, 12))


# --- large teams: a repeat-free grouping always exists, and is always found ----------------

@pytest.mark.parametrize("size", [14, 15, 16, 17, 22, 31, 40, 64, 101, 200])
def test_larger_teams_never_repeat_recent_pairs(size: int) -> None:
    """From 14 people up each person has met at most six people in the last three rounds,
    so (Dirac) everyone can be paired with someone new; over many rounds nobody is."""
    count = 40 if size <= 40 else 8
    for grouping, history in rounds(size, count, random.Random(size)):
        assert_shape(grouping, size)
        assert not pairs_of(grouping) & set().union(set(), *map(pairs_of, history))


def test_with_the_system_generator_too() -> None:
    for size in (6, 9, 20, 45):
        everything = list(groupings(size)) if size <= 9 else None
        for grouping, history in rounds(size, 12, None):
            if everything is not None:
                best = min(profile(candidate, history) for candidate in everything)
                assert profile(grouping, history) == best
            else:
                assert max(profile(grouping, history), default=0) == 0


def test_rounds_vary() -> None:
    """Ties are broken at random: two teams with the same history get different rounds."""
    drawn = {tuple(sorted(tuple(sorted(g)) for g in draw_round(list(range(20)))))
             for _ in range(10)}
    assert len(drawn) > 1


def test_the_oracles_agree() -> None:
    """The test's two independent searches agree with each other on random histories."""
    rng = random.Random(11)
    for size in (5, 6, 7, 8):
        everything = list(groupings(size))
        for _ in range(20):
            history = [rng.choice(everything) for _ in range(RECENT_ROUNDS)]
            exhaustive = any(not pairs_of(c) & set().union(*map(pairs_of, history))
                             for c in everything)
            assert repeat_free_exists(size, history) == exhaustive
