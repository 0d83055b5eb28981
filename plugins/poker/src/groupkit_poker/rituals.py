"""Scrum Poker in the team's chat: the reveal, once per round. Only ever called after the
cards are turned over, so no card is posted before everyone can see it."""

from __future__ import annotations

from typing import Any

from groupkit import N_
from groupkit import Call
from groupkit.integrations import ChatRitual
from groupkit.integrations import post_to_chat

RITUAL = ChatRitual(
    what=N_("each reveal: the story, the spread of cards, the high and the low"))


def _end(which: str, end: dict[str, Any] | None) -> str:
    return f"{which} {end['card']} ({', '.join(end['names'])})" if end else ""


def announce_reveal(call: Call, data: dict[str, Any], summary: dict[str, Any]) -> None:
    spread = ", ".join(f"{entry['card']} ×{entry['count']}" for entry in summary["counts"])
    ends = ("Everyone agreed" if summary["agreed"] and summary["high"] else
            "; ".join(part for part in (_end("High", summary["high"]),
                                        _end("low", summary["low"])) if part))
    story = data["story"] or "this story"
    post_to_chat(call.instance, f"Cards are up for {story}: {spread}. {ends}.\n"
                                "The board: ", key=f"reveal-{data['round']}", now=call.now,
                 link=True)
