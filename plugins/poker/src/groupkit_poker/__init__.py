"""Scrum Poker: planning poker: everyone votes a card, then all cards flip at once."""

from __future__ import annotations

from groupkit import Tool
from groupkit import chat_operations

from . import api
from .api import BOARD_SCHEMA
from .api import HISTORY
from .api import MAX_VOTERS
from .api import VOTER
from .api import board
from .api import ops
from .models import PokerVoter
from .rituals import RITUAL
from .schema import CreatePoker

groupkit_tool = Tool.hook(
    api, name="poker", title="Scrum Poker",
    plugin_api=(1, 1), hidden=(), group="work", icon="🃏",
    summary="Planning poker for a team: everyone picks a card in private, then the "
            "facilitator turns them all over at once.",
    create_schema=CreatePoker, public_view=board, export=board,
    participant_kinds=(VOTER,), models=[PokerVoter],
    limits={"voters": MAX_VOTERS, "history": HISTORY},
    public_schema=BOARD_SCHEMA, chat=chat_operations(ops, RITUAL),
    example={"team": "Payments squad", "story": "PAY-142 Refund by bank transfer",
             "deck": "fib"},
    description=(
        "A voter joins from the share link (`join`) and gets a private page `/p/{token}` "
        "to vote from (`v/{token}/vote`). The facilitator's page is the organiser link: "
        "`reveal`, `next` (next story) and `remove` (a voter); the facilitator may take "
        "a seat (`seat`) and vote from it too (`vote`). Until the reveal no response, "
        "page or export shows any card, the facilitator's included, except each "
        "voter's own pick on their own page (the facilitator's on theirs); every page "
        "shows who has voted. The summary names the high and the low card and who "
        "played them, never an average; `?` and coffee are neither high nor low."),
)
