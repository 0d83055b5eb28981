"""Scrum Poker: planning poker: everyone votes a card, then all cards flip at once."""

from __future__ import annotations

from pathlib import Path

from groupkit import Tool, chat_operations, hookimpl

from .api import (
    BOARD_SCHEMA,
    EDIT,
    HISTORY,
    MAX_VOTERS,
    VOTER,
    board,
    create,
    ops,
    organiser_view,
    participant_view,
    preview,
    title_of,
)
from .models import PokerVoter
from .rituals import RITUAL
from .schema import CreatePoker

__version__ = "0.1.0"

HERE = Path(__file__).parent


@hookimpl
def groupkit_tool() -> Tool:
    return Tool(
        name="poker", title="Scrum Poker", version=__version__,
        plugin_api=(1, 1),
        hidden=(),
        group="work", icon="🃏",
        summary="Planning poker for a team: everyone picks a card in private, then the "
                "facilitator turns them all over at once.",
        create_schema=CreatePoker, create=create, title_of=title_of,
        public_view=board, organiser_view=organiser_view, export=board,
        participant_view=participant_view,
        participant_kinds=(VOTER,), preview=preview, operations=ops, edit=EDIT, models=[PokerVoter],
        templates=HERE / "templates", static=HERE / "static",
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
