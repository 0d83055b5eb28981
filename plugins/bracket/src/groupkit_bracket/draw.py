"""The bracket itself: seeding, byes, who plays whom, and what a result changes.

Everything here is pure: the stored state is `seeds` (entrants in seed order, seed 1 first),
`results` (one list per round, one winner or None per match), `scores` (the same shape: the
winner's and the loser's points, or None; absent from brackets drawn before scores were kept)
and `version` (moved on by every result, for the optimistic concurrency check). Who stands on
each side of a match is always worked out from the seeds and results, so a stored state can
never contradict itself.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from groupkit import N_
from groupkit import message

#: Seeding choices as stored; `listed` is the only value the spec gives a meaning.
LISTED = "listed"
SHUFFLED = "random"
#: A uniformly random order comes from the OS's generator (`secrets`), never `random`'s.
_SYSTEM = secrets.SystemRandom()


def bracket_size(entrants: int) -> int:
    """The next power of two at or above `entrants` (at least 2)."""
    size = 2
    while size < entrants:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seeds (1-based) by line position, top to bottom, in standard seeding: seed 1 meets the
    lowest seed, and seeds 1 and 2 can only meet in the final. For 8: 1 8 4 5 2 7 3 6."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def new_bracket(entrants: list[str], seeding: str) -> dict[str, Any]:
    """The stored state of a freshly drawn bracket: seeds in order, every result empty."""
    seeds = list(entrants) if seeding == LISTED else _SYSTEM.sample(entrants, len(entrants))
    size = bracket_size(len(seeds))
    results: list[list[str | None]] = []
    matches = size // 2
    while matches >= 1:
        results.append([None] * matches)
        matches //= 2
    return {"seeding": seeding, "seeds": seeds, "results": results,
            "scores": [[None] * len(round_results) for round_results in results], "version": 0}


def lines(seeds: list[str]) -> list[int | None]:
    """The first-round lines top to bottom as seed numbers; None is a bye. The byes are the
    seeds past the field, so they fall against seeds 1, 2, 3...: never bye against bye,
    since a field padded to the next power of two is always more than half full."""
    size = bracket_size(len(seeds))
    return [seed if seed <= len(seeds) else None for seed in seed_order(size)]


class Bracket:
    """Who plays whom in every match, given the stored seeds and results."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.seeds: list[str] = state["seeds"]
        self.results: list[list[str | None]] = state["results"]
        self.scores: list[list[list[int] | None]] = state.get("scores") or [
            [None] * len(round_results) for round_results in self.results]
        self.lines = lines(self.seeds)

    @property
    def rounds(self) -> int:
        return len(self.results)

    def exists(self, round_index: int, match: int) -> bool:
        return 0 <= round_index < self.rounds and 0 <= match < len(self.results[round_index])

    def is_bye(self, round_index: int, match: int) -> bool:
        """A first-round match with a bye on one side: its entrant goes through on their own."""
        return round_index == 0 and None in self.lines[2 * match: 2 * match + 2]

    def seed_of(self, name: str | None) -> int | None:
        return None if name is None else self.seeds.index(name) + 1

    def sides(self, round_index: int, match: int) -> tuple[str | None, str | None]:
        """The two names in a match; None is a bye (first round) or a side still to be
        decided by an earlier match."""
        if round_index == 0:
            top, bottom = self.lines[2 * match], self.lines[2 * match + 1]
            return (None if top is None else self.seeds[top - 1],
                    None if bottom is None else self.seeds[bottom - 1])
        return (self.winner(round_index - 1, 2 * match),
                self.winner(round_index - 1, 2 * match + 1))

    def winner(self, round_index: int, match: int) -> str | None:
        if self.is_bye(round_index, match):
            top, bottom = self.sides(round_index, match)
            return top if top is not None else bottom
        return self.results[round_index][match]

    @property
    def champion(self) -> str | None:
        return self.winner(self.rounds - 1, 0)

    def score(self, round_index: int, match: int) -> list[int] | None:
        """The winner's and the loser's points, when the result came with a score."""
        return self.scores[round_index][match]

    def record(self, round_index: int, match: int, winner: str | None,
               score: list[int] | None = None) -> list[dict[str, int]]:
        """Set (or, with None, clear) a result with its score (a result is stored as sent:
        without a score it has none). When that changes who goes through, every later result
        along the way that match fed is cleared too, score and all: those games were played
        by someone else. Returns the matches cleared that way."""
        self.scores[round_index][match] = score if winner is not None else None
        if self.results[round_index][match] == winner:
            return []
        self.results[round_index][match] = winner
        cleared = []
        for later in range(round_index + 1, self.rounds):
            match //= 2
            if self.results[later][match] is not None:
                self.results[later][match] = None
                self.scores[later][match] = None
                cleared.append({"round": later, "match": match})
        return cleared


#: The last rounds' names, then "Round of N": English in the API, translated on pages.
LAST_ROUNDS = (N_("Final"), N_("Semi-finals"), N_("Quarter-finals"))
ROUND_OF = N_("Round of {n}")


def round_name(round_index: int, rounds: int) -> str:
    """Final, Semi-finals, Quarter-finals, then "Round of N" by how many are still in."""
    from_end = rounds - 1 - round_index
    if from_end < len(LAST_ROUNDS):
        return LAST_ROUNDS[from_end]
    return message(ROUND_OF, n=2 ** (from_end + 1))


#: A score as typed: two whole numbers, the winner's first, joined by a dash or a colon.
_SCORE = re.compile(r"(\d{1,3})\s*[-\u2010-\u2015\u2212:]\s*(\d{1,3})", re.ASCII)
BAD_SCORE = N_("Write the score as two numbers, the winner's first — like 3–1.")
SCORE_BACKWARDS = N_("The winner's score goes first — like 3–1, not 1–3.")


def read_score(value: object) -> list[int] | None:
    """A score as sent (`"3-1"`, `"21 – 19"`, `"2:2"`) as the winner's and the loser's
    points; None for no score (null, or nothing but spaces). Refused (ValueError with the
    message) when it does not read as two numbers, or reads with the winner behind."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    found = _SCORE.fullmatch(value.strip()) if isinstance(value, str) else None
    if found is None:
        raise ValueError(BAD_SCORE)
    points = [int(found.group(1)), int(found.group(2))]
    if points[0] < points[1]:
        raise ValueError(SCORE_BACKWARDS)
    return points


def score_text(points: list[int] | None) -> str | None:
    """A stored score as the pages and the API write it: `3–1` (an en dash)."""
    return None if points is None else f"{points[0]}\u2013{points[1]}"
