"""Scrum Poker: planning poker: everyone votes a card, then all cards flip at once."""

from __future__ import annotations

from groupkit import Tool
from groupkit.integrations import chat_operations

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
    api, hidden=(), create_schema=CreatePoker, public_view=board, export=board,
    participant_kinds=(VOTER,), models=[PokerVoter],
    limits={"voters": MAX_VOTERS, "history": HISTORY}, public_schema=BOARD_SCHEMA,
    chat=chat_operations(ops, RITUAL),
)
