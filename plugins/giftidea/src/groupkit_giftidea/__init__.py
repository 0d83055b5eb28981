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
    api, name="giftidea", title="Gift Idea Board",
    plugin_api=(1, 1), hidden=(), group="celebrations", icon="💡",
    summary="Collect gift ideas for someone, upvote the favourites and claim the one "
            "you'll buy — everyone in on it except the recipient.",
    create_schema=CreateGiftIdea, participant_kinds=(TOKEN_KIND,), models=[GiftIdea],
    limits={"ideas": MAX_IDEAS}, public_schema=board_schema(),
    description="The share link goes to everyone except the recipient. Ideas are listed "
                "most votes first. An idea's `id` is a random 10-character code; its "
                "token (22 characters) removes it, through the suggester's "
                "`/api/giftidea/i/{token}/remove` or the organiser's `removeIdea "
                "{itoken}`; tokens never appear on the public page or public read. An "
                "unknown `ideaId` is a 404. A claim is one per idea (unique in the "
                "database); its 16-character secret undoes it.",
    example={"recipient": "Priya", "occasion": "Farewell — last day Friday 28 March",
             "budget": "About $20 each",
             "note": "Priya loves hiking and good coffee. Chip in by Wednesday."},
)
