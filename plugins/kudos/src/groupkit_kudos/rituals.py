"""Kudos Wall in the team's chat: each new note, as the wall shows it, with the wall's link."""

from __future__ import annotations

from groupkit import Call
from groupkit.integrations import ChatRitual
from groupkit.integrations import post_to_chat

RITUAL = ChatRitual(what="each new kudos note, as the wall shows it")


def announce(call: Call, recipient: str, message: str, sender: str) -> None:
    post_to_chat(call.instance, f"Kudos for {recipient} from {sender}:\n{message}\n"
                                f"The wall: {call.base_url}/s/{call.instance.slug}", now=call.now)
