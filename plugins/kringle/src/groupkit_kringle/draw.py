"""The draw: one single loop through everybody, uniformly random among all single loops."""

from __future__ import annotations

import random
import secrets

_SYSTEM = secrets.SystemRandom()


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
