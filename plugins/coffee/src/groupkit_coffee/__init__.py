"""Coffee Roulette: pair people up for a coffee each round, avoiding recent repeats."""

from __future__ import annotations

from groupkit import Tool
from groupkit import gettext
from groupkit.integrations import chat_operations

from . import api
from .api import LINKS
from .api import PUBLIC_SCHEMA
from .api import RESET_KIND
from .api import TOKEN_KIND
from .api import ops
from .models import MIGRATIONS
from .models import CoffeePerson
from .models import CoffeeRound
from .pairing import RECENT_ROUNDS
from .rituals import RITUAL
from .schema import MAX_PEOPLE
from .schema import CreateCoffee

DESCRIPTION = (
    "Round-by-round pairing of a team. Paths designed here (the spec shows none): each "
    "person claims their name once on the share page (`POST /api/coffee/claim` "
    "{slug, name}, matched after cleaning, ignoring case and look-alike letters; 200 "
    "{token}) and keeps a permanent private page `/p/{token}` (as JSON: "
    "`GET /api/coffee/p/{token}`) showing this round's "
    "partner(s). The organiser draws the next round (`POST /api/coffee/{editToken}/draw`): "
    "everyone on the list in pairs, exactly one group of three when the count is odd, and "
    f"nobody with someone they met in the last {RECENT_ROUNDS} rounds whenever such a "
    "grouping exists. `POST /api/coffee/{editToken}/reset` {name} frees a claimed name "
    "(old link dead, fresh link on re-claim). The organiser sees who has claimed, never who "
    "is paired with whom: no organiser view, answer or export carries a grouping. Only the "
    f"last {RECENT_ROUNDS} rounds are stored, naming people by a stable id, so the "
    "organiser's edit (title, names, cadence, note) can add a new starter (paired from the "
    "next draw) or take a leaver off the list without changing anyone else's partner. "
    "Duplicate names are refused with "
    "`\"<name>\" is on the list twice — add a surname initial to tell them apart.` and more "
    "than 200 with `That's more than 200 names — split the team into two roulettes.` "
    "(the spec gives no wording for either). Optional `personalLinks` (off unless sent at "
    "create): each member gets their own link `/p/{token}` at once, listed on the organiser "
    "page and in the export (`links`: `{name, link}`, never on the team page), and emailed "
    "with `invite` when the server sends email; claiming a name then answers 409 for any "
    "name, a member counts as claimed once their page is first opened, and a reset gives "
    "a fresh link (the old one says it was reset).")


groupkit_tool = Tool.hook(
    api, hidden=(), create_schema=CreateCoffee, participant_kinds=(TOKEN_KIND, RESET_KIND),
    reset_kinds=(RESET_KIND,),
    models=[CoffeePerson, CoffeeRound], migrations=MIGRATIONS,
    limits={"people": MAX_PEOPLE, "recentRounds": RECENT_ROUNDS}, public_schema=PUBLIC_SCHEMA,
    description=DESCRIPTION, chat=chat_operations(ops, RITUAL),
    invite=LINKS.invitations(api.named_people),
    preview=lambda instance: {
        "title": instance.title,
        "description": gettext("Claim your name to see who you're having coffee with.")},
)
