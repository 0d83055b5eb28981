"""Coffee Roulette in the team's chat: that a new round was drawn and where each person finds
their partner. It takes only the round's number, so a grouping cannot reach the post (the
organiser must not see pairings, and the channel is the organiser's too)."""

from __future__ import annotations

from groupkit import N_
from groupkit import Call
from groupkit import message
from groupkit.integrations import ChatRitual
from groupkit.integrations import post_to_chat

#: The post (a message, so the words can follow the group's language).
ROUND_DRAWN = N_("Coffee round {number} of {title} is drawn. Open your own coffee link to see "
                 "who you're meeting; not claimed your name yet? Start here: ")

RITUAL = ChatRitual(what=N_("each new round: that it started and where to look (never who "
                            "is paired with whom)"))


def announce_round(call: Call, number: int) -> None:
    post_to_chat(call.instance, message(ROUND_DRAWN, number=number, title=call.instance.title),
                 key=f"round-{number}", now=call.now, link=True)
