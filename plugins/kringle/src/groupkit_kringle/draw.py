"""The draw: one single loop through everybody, uniformly random among all single loops, or
among the single loops that respect the organiser's exclusions."""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Iterable
from collections.abc import Sequence

_SYSTEM = secrets.SystemRandom()

#: People placed, over all the uniform draws tried before searching (a draw is dropped at its
#: first ruled-out pair): an accepted draw is exactly uniform among the allowed loops.
#: Households of a few people among a hundred accept about one draw in twenty, at about
#: seven hundred people placed per accepted draw.
REJECTION_STEPS = 40_000
#: Steps (people placed on the path) the search may take before it gives up: what bounds the
#: time of a create or redraw however dense the exclusions.
SEARCH_BUDGET = 20_000
#: Random moves per person applied to a loop the search found, to spread it over the loops.
MIXING_MOVES_PER_PERSON = 200


class NoLoop(Exception):
    """No allowed loop was found; `problem` says why, in words for the organiser (names are
    filled in by the caller from `people`, the positions the problem is about)."""

    def __init__(self, problem: str, people: Sequence[int] = ()) -> None:
        super().__init__(problem)
        self.problem, self.people = problem, tuple(people)


#: NoLoop problems.
CANNOT_GIVE = "cannot give"        # people[0] may draw nobody
CANNOT_RECEIVE = "cannot receive"  # nobody may draw people[0]
ONE_GIFTEE = "one giftee"          # people[0] may draw one person only: no secret
ONE_GIVER = "one giver"            # one person only may draw people[0]: no secret
GROUP_TOO_BIG = "group too big"    # people: a group more than half the draw
SPLIT = "split"                    # people: those the first person's loop could never reach
NO_LOOP = "no loop"                # the search covered every possibility
TOO_HARD = "too hard"              # the search ran out of budget
NO_OTHER = "no other"              # the only allowed loop is the current one


def single_loop(size: int, rng: random.Random | None = None) -> list[int]:
    """`giftee[i]` for each giver `i` in `range(size)`: one cycle through all of them.

    A uniformly shuffled order, closed into a ring (each person gives to the next, the last to
    the first), is uniform over the (size - 1)! single loops: every loop is the ring of exactly
    `size` orders (its rotations). A ring has no fixed point and no smaller loop, so nobody
    draws themselves and nobody is left out. `rng` is for tests; the service uses the system's
    cryptographic generator so a draw cannot be predicted from earlier ones.
    """
    if size < 2:
        raise ValueError("a loop needs at least two people")
    order = list(range(size))
    (rng or _SYSTEM).shuffle(order)
    giftee = [0] * size
    for index, giver in enumerate(order):
        giftee[giver] = order[(index + 1) % size]
    return giftee


def another_loop(current: list[int], rng: random.Random | None = None) -> list[int]:
    """A fresh single loop that differs from `current`: uniform among all the other loops,
    so an organiser's redraw always changes something (with three people it is the one
    other loop, the reverse)."""
    while True:
        candidate = single_loop(len(current), rng)
        if candidate != current:
            return candidate


def forbidden_pairs(size: int, groups: Iterable[Sequence[int]],
                    pairs: Iterable[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    """(giver, giftee) pairs ruled out: both ways within each group, one way for each pair."""
    ruled = {(giver, giftee) for giver, giftee in pairs if giver != giftee}
    for group in groups:
        ruled.update((a, b) for a in group for b in group if a != b)
    return frozenset(pair for pair in ruled if 0 <= pair[0] < size and 0 <= pair[1] < size)


def allowed_loop(size: int, forbidden: frozenset[tuple[int, int]],
                 groups: Sequence[Sequence[int]] = (), rng: random.Random | None = None,
                 avoid: list[int] | None = None) -> list[int]:
    """A single loop using no forbidden (giver, giftee) pair, different from `avoid`.

    Without exclusions this is exactly `single_loop` (or `another_loop`). With them, whole
    uniform draws are tried first (`REJECTION_STEPS`): one that passes is exactly uniform
    among the allowed loops, and that covers households and last year's pairs in any
    realistic group. When the exclusions are so dense that none passes, a search bounded by
    `SEARCH_BUDGET` steps looks for one allowed loop (or proves there is none) and random
    moves that keep it allowed (`MIXING_MOVES_PER_PERSON` per person, a symmetric chain, so
    uniform in the limit) spread it over the allowed loops. Raises `NoLoop` with the
    reason when there is none, or none was found within the budget.
    """
    rng = rng or _SYSTEM
    if not forbidden:
        return single_loop(size, rng) if avoid is None else another_loop(avoid, rng)
    out, into = _allowed_masks(size, forbidden)
    _check_obvious(size, out, into, groups)
    drawn = _rejection(size, forbidden, rng, avoid)
    if drawn is not None:
        return drawn
    found = search_loop(size, out, into, rng, avoid)
    return _mix(found, forbidden, rng, avoid)


def _rejection(size: int, forbidden: frozenset[tuple[int, int]], rng: random.Random,
               avoid: list[int] | None) -> list[int] | None:
    """Uniform orders, built one person at a time (Fisher-Yates from the front) and dropped
    at the first ruled-out pair, until one closes into an allowed ring; None once
    `REJECTION_STEPS` people have been placed. Dropping a draw early changes nothing about
    the ones that pass: each is a uniform order that happens to be allowed, so uniform
    among the allowed loops."""
    steps = 0
    while steps < REJECTION_STEPS:
        order = list(range(size))
        for index in range(size):
            pick = rng.randrange(index, size)
            order[index], order[pick] = order[pick], order[index]
            steps += 1
            if index and (order[index - 1], order[index]) in forbidden:
                break
        else:
            if (order[-1], order[0]) not in forbidden:
                giftee = [0] * size
                for place, giver in enumerate(order):
                    giftee[giver] = order[(place + 1) % size]
                if giftee != avoid:
                    return giftee
    return None


def check_another_exists(size: int, forbidden: frozenset[tuple[int, int]],
                         current: list[int], rng: random.Random | None = None) -> None:
    """Raise `NoLoop` (`NO_OTHER`, or `TOO_HARD` past the budget) unless some allowed loop
    other than `current` exists: with only one, the exclusions alone would give every
    giftee away. A search, not a draw: any other loop will do."""
    search_loop(size, *_allowed_masks(size, forbidden), rng or _SYSTEM, avoid=current)


def _allowed_masks(size: int, forbidden: frozenset[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Bit masks: `out[g]` has bit `t` when g may draw t; `into[t]` bit `g` likewise."""
    everyone = (1 << size) - 1
    out = [everyone & ~(1 << person) for person in range(size)]
    into = list(out)
    for giver, giftee in forbidden:
        out[giver] &= ~(1 << giftee)
        into[giftee] &= ~(1 << giver)
    return out, into


def _check_obvious(size: int, out: list[int], into: list[int],
                   groups: Sequence[Sequence[int]]) -> None:
    """The impossibilities a person can be told about by name, and exclusions that would
    settle somebody's giftee or Kris Kringle outright (the organiser writing them would
    know it)."""
    for person in range(size):
        for mask, none, one in ((out, CANNOT_GIVE, ONE_GIFTEE),
                                (into, CANNOT_RECEIVE, ONE_GIVER)):
            if mask[person].bit_count() < 2:
                raise NoLoop(one if mask[person] else none, [person])
    for mask in out, into:
        reached = _reach(mask)
        if reached != (1 << size) - 1:
            raise NoLoop(SPLIT, _bits(((1 << size) - 1) & ~reached))
    for group in groups:
        # Each member's giftee is outside the group and all giftees differ.
        if 2 * len(set(group)) > size:
            raise NoLoop(GROUP_TOO_BIG, group)


def _reach(edges: list[int]) -> int:
    """Everyone reachable from person 0 along `edges`, as a bit mask."""
    reached, frontier = 1, 1
    while frontier:
        step = 0
        for person in _bits(frontier):
            step |= edges[person]
        frontier = step & ~reached
        reached |= frontier
    return reached


def search_loop(size: int, out: list[int], into: list[int], rng: random.Random,
                avoid: list[int] | None = None,
                budget: int = SEARCH_BUDGET) -> list[int]:
    """Depth-first search for an allowed loop from person 0, fewest onward choices first
    (random among equals), pruning a path that leaves somebody without a way in or out.
    Takes at most `budget` steps; raises `NoLoop(NO_LOOP)` when it has covered every
    possibility and `NoLoop(TOO_HARD)` when the budget runs out first."""
    path = [0]
    unvisited = ((1 << size) - 1) & ~1
    stack: list[list[int]] = [_choices(0, unvisited, out, rng)]
    steps = 0
    exhausted = False
    while stack:
        choices = stack[-1]
        if not choices:
            stack.pop()
            last = path.pop()
            if path:
                unvisited |= 1 << last
            continue
        steps += 1
        if steps > budget:
            exhausted = True
            break
        person = choices.pop()
        path.append(person)
        unvisited &= ~(1 << person)
        if not unvisited:
            if out[person] & 1:
                giftee = [0] * size
                for index, giver in enumerate(path):
                    giftee[giver] = path[(index + 1) % size]
                if giftee != avoid:
                    return giftee
            path.pop()
            unvisited |= 1 << person
            continue
        if _stranded(unvisited, person, out, into):
            path.pop()
            unvisited |= 1 << person
            continue
        stack.append(_choices(person, unvisited, out, rng))
    if exhausted:
        raise NoLoop(TOO_HARD)
    raise NoLoop(NO_OTHER if avoid is not None else NO_LOOP)


def _choices(person: int, unvisited: int, out: list[int], rng: random.Random) -> list[int]:
    """Where the path may go next, in the order to try them (popped from the end): the
    person with the fewest onward choices last, ties in random order."""
    options = _bits(out[person] & unvisited)
    rng.shuffle(options)
    options.sort(key=lambda target: -(out[target] & unvisited).bit_count())
    return options


def _stranded(unvisited: int, tail: int, out: list[int], into: list[int]) -> bool:
    """Somebody not yet placed has no allowed giver left (among the unplaced and the tail)
    or no allowed giftee (among the unplaced and person 0, who closes the loop)."""
    can_give = unvisited | (1 << tail)
    can_take = unvisited | 1
    return any(not (into[person] & can_give) or not (out[person] & can_take)
               for person in _bits(unvisited))


def _bits(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def _mix(giftee: list[int], forbidden: frozenset[tuple[int, int]], rng: random.Random,
         avoid: list[int] | None) -> list[int]:
    """Random allowed moves from a found loop: take someone out of the loop and put them
    back after someone else. Each move and its reverse are proposed with the same
    probability, so the chain's stationary distribution is uniform over the allowed loops
    it can reach."""
    size = len(giftee)
    giftee = list(giftee)
    giver = [0] * size
    for person, target in enumerate(giftee):
        giver[target] = person
    for _ in range(MIXING_MOVES_PER_PERSON * size):
        moved = rng.randrange(size)
        after = rng.randrange(size)
        before, following = giver[moved], giftee[moved]
        if after in (moved, before):
            continue
        next_one = giftee[after]
        if ((before, following) in forbidden or (after, moved) in forbidden
                or (moved, next_one) in forbidden):
            continue
        giftee[before], giver[following] = following, before
        giftee[after], giver[moved] = moved, after
        giftee[moved], giver[next_one] = next_one, moved
    if giftee == avoid:  # the chain came back to where a redraw must not: search again
        return search_loop(size, *_allowed_masks(size, forbidden), rng, avoid)
    return giftee


#: Random cyclic orders of the fixed chains tried before searching, when completing a loop.
COMPLETION_TRIES = 2_000


def complete_loop(size: int, fixed: dict[int, int], forbidden: frozenset[tuple[int, int]],
                  rng: random.Random | None = None) -> list[int]:
    """A single loop through `range(size)` that keeps every `fixed` (giver -> giftee) pair
    and uses no forbidden pair: the organiser's edit redraws only the part nobody has seen.

    The fixed pairs (part of an earlier loop, so never a cycle short of everybody) form
    chains; a loop keeping them is a cyclic order of the chains, each chain's last giver
    drawing the next chain's first person. Random orders are tried first (uniform among the
    allowed completions), then a bounded search. Raises `NoLoop` when none is found."""
    rng = rng or _SYSTEM
    chains = _chains(size, fixed)
    count = len(chains)
    if count == 1:
        first, last = chains[0][0], chains[0][-1]
        if first == last or (last, first) in forbidden:
            raise NoLoop(NO_LOOP)
        return _close(size, chains, [0])
    ruled = frozenset((a, b) for a in range(count) for b in range(count)
                      if a != b and (chains[a][-1], chains[b][0]) in forbidden)
    for _ in range(COMPLETION_TRIES if ruled else 1):
        order = list(range(count))
        rng.shuffle(order)
        if all((order[i - 1], order[i]) not in ruled for i in range(count)):
            return _close(size, chains, order)
    found = search_loop(count, *_allowed_masks(count, ruled), rng)
    order, place = [0], found[0]
    while place != 0:
        order.append(place)
        place = found[place]
    return _close(size, chains, order)


def _chains(size: int, fixed: dict[int, int]) -> list[list[int]]:
    """The fixed pairs as chains of people (a person in no fixed pair is a chain alone),
    each from its first giver to its last giftee."""
    givers = {giftee: giver for giver, giftee in fixed.items()}
    chains: list[list[int]] = []
    placed: set[int] = set()
    for start in range(size):
        if start in givers or start in placed:
            continue
        chain = [start]
        while chain[-1] in fixed:
            chain.append(fixed[chain[-1]])
        placed.update(chain)
        chains.append(chain)
    if len(placed) != size:  # the fixed pairs close a loop short of everybody
        raise NoLoop(NO_LOOP)
    return chains


def _close(size: int, chains: list[list[int]], order: list[int]) -> list[int]:
    giftee = [0] * size
    for index, chain in enumerate(order):
        people = chains[chain]
        for giver, target in itertools.pairwise(people):
            giftee[giver] = target
        giftee[people[-1]] = chains[order[(index + 1) % len(order)]][0]
    return giftee
