"""Scrum Poker in the team's chat: the reveal, once per round. Only ever called after the
cards are turned over, so no card is posted before everyone can see it."""

from __future__ import annotations

from typing import Any

from groupkit import N_
from groupkit import Call
from groupkit import message
from groupkit.integrations import ChatRitual
from groupkit.integrations import post_to_chat

RITUAL = ChatRitual(what=N_("each reveal: the story, the spread of cards, the high and the low"))

#: The reveal as the team's chat shows it: made with `message`, so the kernel says it in
#: the group's language, whoever turned the cards over.
REVEAL = N_("Cards are up for {story}: {spread}. {ends}.\nThe board: ")
THIS_STORY = N_("this story")
AGREED = N_("Everyone agreed")
HIGH = N_("High {card} ({names})")
LOW = N_("low {card} ({names})")


def _end(which: str, end: dict[str, Any] | None) -> str:
    return message(which, card=end["card"], names=", ".join(end["names"])) if end else ""


def announce_reveal(call: Call, data: dict[str, Any], summary: dict[str, Any]) -> None:
    spread = ", ".join(f"{entry['card']} ×{entry['count']}" for entry in summary["counts"])
    high, low = _end(HIGH, summary["high"]), _end(LOW, summary["low"])
    if summary["agreed"] and summary["high"]:
        ends = message(AGREED)
    elif high and low:
        ends = message("{high}; {low}", high=high, low=low)
    else:
        ends = high or low
    story = data["story"] or message(THIS_STORY)
    post_to_chat(call.instance, message(REVEAL, story=story, spread=spread, ends=ends),
                 key=f"reveal-{data['round']}", now=call.now, link=True)
