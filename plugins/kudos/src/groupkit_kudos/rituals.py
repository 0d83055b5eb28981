"""Kudos Wall in the team's chat: each new note, as the wall shows it, with the wall's link."""

from __future__ import annotations

from groupkit import N_
from groupkit import Call
from groupkit.integrations import ChatRitual
from groupkit.integrations import post_to_chat

RITUAL = ChatRitual(what=N_("each new kudos note, as the wall shows it"))


def announce(call: Call, recipient: str, message: str, sender: str) -> None:
    # The wall's link comes from the kernel (`link=True`): `call.base_url` is the origin the
    # note's author asked on, and they must not choose where the team's chat points.
    post_to_chat(call.instance, f"Kudos for {recipient} from {sender}:\n{message}\n"
                                "The wall: ", now=call.now, link=True)
