"""Coffee Roulette in the team's chat: that a new round was drawn and where each person finds
their partner. It takes only the round's number, so a grouping cannot reach the post (the
organiser must not see pairings, and the channel is the organiser's too)."""

from __future__ import annotations

from groupkit import Call
from groupkit.integrations import ChatRitual
from groupkit.integrations import post_to_chat

RITUAL = ChatRitual(what="each new round: that it started and where to look (never who is "
                         "paired with whom)")


def announce_round(call: Call, number: int) -> None:
    post_to_chat(call.instance, f"Coffee round {number} of {call.instance.title} is drawn. "
                                "Open your own coffee link to see who you're meeting; "
                                "not claimed your name yet? Start here: ",
                 key=f"round-{number}", now=call.now, link=True)
