"""Kudos Wall in the team's chat: each new note, as the wall shows it, with the wall's link."""

from __future__ import annotations

import groupkit
from groupkit import N_
from groupkit import Call
from groupkit.integrations import ChatRitual
from groupkit.integrations import post_to_chat

#: A new note as the team's chat shows it (said in the group's language), the wall's link
#: after it.
NOTE = N_("Kudos for {recipient} from {sender}:\n{message}\nThe wall: ")
RITUAL = ChatRitual(what=N_("each new kudos note, as the wall shows it"))


def announce(call: Call, recipient: str, message: str, sender: str) -> None:
    # The wall's link comes from the kernel (`link=True`): `call.base_url` is the origin the
    # note's author asked on, and they must not choose where the team's chat points.
    post_to_chat(call.instance, groupkit.message(NOTE, recipient=recipient, sender=sender,
                                                 message=message), now=call.now, link=True)
