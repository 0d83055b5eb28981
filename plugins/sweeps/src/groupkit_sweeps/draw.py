"""The draw: a uniformly random assignment of outcomes to names."""

from __future__ import annotations

import secrets
from typing import Any

#: A uniformly random order comes from the OS's generator (`secrets`), never `random`'s.
_SYSTEM = secrets.SystemRandom()


def draw(outcomes: list[str], names: list[str]) -> dict[str, Any]:
    """Every outcome gets a name. With fewer names than outcomes the shuffled names cycle
    (some people hold more than one); with more names, the surplus are listed apart."""
    order = _SYSTEM.sample(names, len(names))
    pairs = [{"outcome": outcome, "name": order[i % len(order)]}
             for i, outcome in enumerate(outcomes)]
    surplus = order[len(outcomes):]
    return {"pairs": pairs, "surplus": surplus}
