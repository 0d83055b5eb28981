"""Kris Kringle: a Secret Santa draw: one loop through everybody, each person sees only their
own giftee."""

from __future__ import annotations

from groupkit import Hidden
from groupkit import Tool
from groupkit import gettext

from . import api
from .api import DEFAULT_HEADING
from .api import LINKS
from .api import NO_LOOP_MESSAGES
from .api import PUBLIC_SCHEMA
from .api import RESET_KIND
from .api import TOKEN_KIND
from .api import UNKNOWN_EXCLUDED
from .api import UNKNOWN_IN_HOUSEHOLD
from .edit import EDIT
from .models import MIGRATIONS
from .models import KringleMessage
from .models import KringlePerson
from .models import KringleReset
from .schema import MAX_GROUPS
from .schema import MAX_PAIRS
from .schema import MAX_PEOPLE
from .schema import MAX_QUESTIONS
from .schema import QUESTION_LIMIT
from .schema import WISHLIST_LIMIT
from .schema import CreateKringle

DESCRIPTION = (
    "The draw is one single loop through everybody (nobody draws themselves, never two "
    "smaller loops), chosen uniformly at random among all single loops when the draw is "
    "created. Each person claims their name on the share page (`claim`, matched after "
    "cleaning, ignoring case and look-alike letters) and gets a private link `/p/{token}` "
    "that shows only their giftee, the giftee's wishlist, the budget, the exchange date "
    "and the note. Nobody else, "
    "the organiser included, can read who drew whom: the public read, the organiser page and "
    "the export list who has claimed and who has opened their page, never a pairing and "
    "never a wishlist. Organiser operations: `reset` one person (designed: their link dies, "
    "their wishlist is wiped, re-claiming issues a fresh link) and `redraw` (path designed "
    "here: `POST /api/kringle/{editToken}/redraw`; a new loop, different from the current "
    "one; claims, links and wishlists stay). `GET /api/kringle/p/{token}` (designed) is the "
    "private page as JSON. 'Opened' means the private page itself was opened in a browser. "
    "A reset is never silent: the share page lists who the organiser reset and when, and "
    "the old link opens a page saying so (resetting someone and claiming their name is "
    "otherwise how an organiser could read their giftee). Optional additions, each off "
    "unless sent at create (an instance without them behaves as before): `households` and "
    "`exclusions` rule pairs out of the draw (still one single loop, uniform among the "
    "loops that respect them: exactly, by drawing uniformly until a draw respects them, "
    "within a bounded number of tries that covers households and last year's pairs; for "
    "exclusions so dense that none turns up, a loop found by a bounded search is spread "
    "by random allowed moves, close to uniform; exclusions that make a loop impossible, "
    "or leave somebody's "
    "giftee or Kris Kringle settled, are a 400 naming the problem, and the search is "
    "bounded); `personalLinks` gives each person a private link listed on the organiser "
    "page instead of claiming names (the page shows when it was first opened, so a peek "
    "is seen by its owner; a wishlist or question written through a link nobody has "
    "opened counts as its first opening); `questions` lets each Kris Kringle and their "
    "giftee ask each other anonymous questions on their private pages, which the "
    "organiser never sees. Exclusions refused at create (400; `{name}`/`{names}` are filled in): "
    + "; ".join(f"`{message}`" for message in (UNKNOWN_IN_HOUSEHOLD, UNKNOWN_EXCLUDED,
                                                 *NO_LOOP_MESSAGES.values()))
    + ".")


groupkit_tool = Tool.hook(
    api, hidden=(Hidden("text", operation="p/{token}/wishlist", shown_to=("participant",)),),
    create_schema=CreateKringle, participant_kinds=(TOKEN_KIND, RESET_KIND),
    reset_kinds=(RESET_KIND,),
    models=[KringlePerson, KringleReset, KringleMessage], migrations=MIGRATIONS,
    limits={"people": MAX_PEOPLE, "wishlistCharacters": WISHLIST_LIMIT,
            "households": MAX_GROUPS, "exclusions": MAX_PAIRS,
            "questionsPerPair": MAX_QUESTIONS, "questionCharacters": QUESTION_LIMIT},
    public_schema=PUBLIC_SCHEMA, description=DESCRIPTION, edit=EDIT,
    invite=LINKS.invitations(api.named_people),
    preview=lambda instance: {
        "title": instance.title or gettext(DEFAULT_HEADING),
        "description": gettext("Claim your name to see who you're buying for.")},
)
