"""The draw: a uniformly random assignment of outcomes to names."""

from __future__ import annotations

import secrets
from typing import Any


def shuffled(items: list[str]) -> list[str]:
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        result[i], result[j] = result[j], result[i]
    return result


def draw(outcomes: list[str], names: list[str]) -> dict[str, Any]:
    """Every outcome gets a name. With fewer names than outcomes the shuffled names cycle
    (some people hold more than one); with more names, the surplus are listed apart."""
    order = shuffled(names)
    pairs = [{"outcome": outcome, "name": order[i % len(order)]}
             for i, outcome in enumerate(outcomes)]
    surplus = order[len(outcomes):]
    return {"pairs": pairs, "surplus": surplus}
