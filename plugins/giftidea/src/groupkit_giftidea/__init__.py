"""Gift Idea Board: suggest, upvote and claim gift ideas — for everyone except the recipient."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import MAX_IDEAS
from .api import TOKEN_KIND
from .api import board_schema
from .models import GiftIdea
from .schema import CreateGiftIdea

groupkit_tool = Tool.hook(
    api, hidden=(), create_schema=CreateGiftIdea, participant_kinds=(TOKEN_KIND,),
    models=[GiftIdea], limits={"ideas": MAX_IDEAS}, public_schema=board_schema(),
)
