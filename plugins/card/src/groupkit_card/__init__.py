"""Group Card: a card everyone signs with a message for the recipient."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import MAX_MESSAGES
from .api import TOKEN_KIND
from .api import card_schema
from .models import CardMessage
from .schema import CreateCard

groupkit_tool = Tool.hook(
    api, hidden=(), create_schema=CreateCard, participant_kinds=(TOKEN_KIND,),
    models=[CardMessage], limits={"messages": MAX_MESSAGES}, public_schema=card_schema(),
)
