"""Group Card: a card everyone signs with a message for the recipient."""

from __future__ import annotations

from pathlib import Path

from groupkit import Tool, hookimpl

from .api import (
    EDIT,
    MAX_MESSAGES,
    TOKEN_KIND,
    card_schema,
    create,
    ops,
    organiser_view,
    participant_view,
    preview,
    public_view,
    title_of,
)
from .models import CardMessage
from .schema import CreateCard

__version__ = "0.1.0"

HERE = Path(__file__).parent


@hookimpl
def groupkit_tool() -> Tool:
    return Tool(
        name="card", title="Group Card", version=__version__,
        plugin_api=(1, 1),
        hidden=(),
        group="celebrations", icon="💌",
        summary="A card for someone special that everyone signs with a message — "
                "share it, print it, or both.",
        create_schema=CreateCard, create=create, title_of=title_of,
        public_view=public_view, organiser_view=organiser_view,
        participant_view=participant_view, participant_kinds=(TOKEN_KIND,),
        preview=preview, operations=ops, edit=EDIT, models=[CardMessage],
        templates=HERE / "templates", static=HERE / "static",
        limits={"messages": MAX_MESSAGES}, public_schema=card_schema(),
        description="Signing is `POST /api/card/sign {slug, name, message}` and answers "
                    "`201 {token, id}`. The 22-character token is the signer's only handle "
                    "on their message: `POST /api/card/m/{token}/remove` removes it, and "
                    "`/p/{token}` is the signer's own page showing it with a remove button. "
                    "The organiser removes any message with `POST /api/card/{editToken}/"
                    "remove {messageId}`. With no title sent the title is `A card for "
                    "<recipient>` (cut to 80); a title of its own gets that phrase as its "
                    "sub-line, unless it equals the phrase ignoring case.",
        example={"recipient": "Margaret", "title": "Happy retirement, Margaret!",
                 "note": "Thirty-one years of keeping this place running. Sign by Friday."},
    )
