"""Kris Kringle: a Secret Santa draw: one loop through everybody, each person sees only their
own giftee."""

from __future__ import annotations

from pathlib import Path

from groupkit import Tool, hookimpl

from .api import (
    PUBLIC_SCHEMA,
    TOKEN_KIND,
    create,
    ops,
    organiser_view,
    participant_view,
    public_view,
)
from .models import KringlePerson
from .schema import MAX_PEOPLE, WISHLIST_LIMIT, CreateKringle

__version__ = "0.1.0"

HERE = Path(__file__).parent

DESCRIPTION = (
    "The draw is one single loop through everybody (nobody draws themselves, never two "
    "smaller loops), chosen uniformly at random among all single loops when the draw is "
    "created. Each person claims their name on the share page (`claim`, matched after "
    "cleaning, ignoring case) and gets a private link `/p/{token}` that shows only their "
    "giftee, the giftee's wishlist, the budget, the exchange date and the note. Nobody else, "
    "the organiser included, can read who drew whom: the public read, the organiser page and "
    "the export list who has claimed and who has opened their page, never a pairing and "
    "never a wishlist. Organiser operations: `reset` one person (designed: their link dies, "
    "their wishlist is wiped, re-claiming issues a fresh link) and `redraw` (path designed "
    "here: `POST /api/kringle/{editToken}/redraw`; a new loop, different from the current "
    "one; claims, links and wishlists stay). `GET /api/kringle/p/{token}` (designed) is the "
    "private page as JSON. 'Opened' means the private page itself was opened in a browser.")


@hookimpl
def groupkit_tool() -> Tool:
    return Tool(
        name="kringle", title="Kris Kringle", version=__version__,
        plugin_api=(1, 1),
        summary="A Secret Santa draw in one loop: everyone claims their name and sees only "
                "who they're buying for.",
        create_schema=CreateKringle, create=create, public_view=public_view,
        organiser_view=organiser_view, participant_view=participant_view,
        participant_kinds=(TOKEN_KIND,), operations=ops, models=[KringlePerson],
        templates=HERE / "templates", static=HERE / "static",
        limits={"people": MAX_PEOPLE, "wishlistCharacters": WISHLIST_LIMIT},
        public_schema=PUBLIC_SCHEMA, description=DESCRIPTION,
        preview=lambda instance: {
            "title": instance.title or "Kris Kringle",
            "description": "Claim your name to see who you're buying for."},
        example={"title": "Office Kris Kringle", "names": ["Ann", "Bo", "Cy", "Di"],
                 "budget": "$30", "exchangeDate": "Friday 19 December, at lunch",
                 "note": "Wrap it and put it under the tree in the kitchen."},
    )
