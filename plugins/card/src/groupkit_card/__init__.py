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
    api, name="card", title="Group Card",
    plugin_api=(1, 1), hidden=(), group="celebrations", icon="💌",
    summary="A card for someone special that everyone signs with a message — "
            "share it, print it, or both.",
    create_schema=CreateCard, participant_kinds=(TOKEN_KIND,), models=[CardMessage],
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
