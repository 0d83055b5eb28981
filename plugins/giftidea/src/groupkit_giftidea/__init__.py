"""Gift Idea Board: suggest, upvote and claim gift ideas — for everyone except the recipient."""

from __future__ import annotations

from pathlib import Path

from groupkit import Tool, hookimpl

from .api import (
    EDIT,
    MAX_IDEAS,
    TOKEN_KIND,
    board_schema,
    create,
    ops,
    organiser_view,
    participant_view,
    preview,
    public_view,
    title_of,
)
from .models import GiftIdea
from .schema import CreateGiftIdea

__version__ = "0.1.0"

HERE = Path(__file__).parent


@hookimpl
def groupkit_tool() -> Tool:
    return Tool(
        name="giftidea", title="Gift Idea Board", version=__version__,
        plugin_api=(1, 1),
        hidden=(),
        group="celebrations", icon="💡",
        summary="Collect gift ideas for someone, upvote the favourites and claim the one "
                "you'll buy — everyone in on it except the recipient.",
        create_schema=CreateGiftIdea, create=create, title_of=title_of,
        public_view=public_view, organiser_view=organiser_view, preview=preview,
        participant_view=participant_view, participant_kinds=(TOKEN_KIND,),
        operations=ops, edit=EDIT, models=[GiftIdea],
        templates=HERE / "templates", static=HERE / "static",
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
