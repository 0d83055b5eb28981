"""Secret Role Dealer: deal secret roles to players, each seen only on the player's own page."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import LINKS
from .api import MORE_PLAYERS
from .api import NO_PLAYERS
from .api import PLAYER
from .api import PUBLIC_SCHEMA
from .api import TWICE
from .edit import EDIT
from .models import Player
from .schema import MAX_ROLES
from .schema import PRESETS
from .schema import CreateRoles

DESCRIPTION = f"""\
Roles are dealt as people join: `claim` picks a random free slot of the role list, and the
player's private page `/p/{{token}}` shows the role with its briefing directly under it.

Decisions where the spec is silent:
- `claim` answers 201 `{{token}}` (joining creates a player). A name counts as already
  joined ignoring case and look-alike letters (a Cyrillic "А" for a Latin "A").
- `reset` with a name nobody joined under (blank included) is 404
  `Nobody has joined with that name.`
- `roles` with fewer roles than joined players is 400
  `<n> people have already joined — give at least <n> roles, or reset someone first.`
- `redeal` and `roles` deal every joined player afresh from the whole role list.
- `setup` groups the roles as `[{{name, count}}]` in order of first appearance.
- The five presets are {", ".join(f"`{name}`" for name in PRESETS)}; a preset only fills
  the create page's editor and is kept for the record. Brief keys are matched exactly
  against the cleaned roles; the keys themselves are not cleaned.
- "Looked" means the player has opened their role page since the last deal.
- The organiser page hides every role unless its address carries `?reveal=1`; the
  organiser's JSON export is a full backup and includes each player's role.
- `held` is a POST, so, like every POST operation, it counts against the hourly POST limit
  and counts as a change for live updates: pages call it only when they must (a returning
  visitor's stored token, a player page whose token stopped working) and otherwise follow
  the live update stream.
- Optional `personalLinks` with `names` (off unless sent at create): the named players
  join at create, each dealt a random role, and each gets their own link, listed on the
  organiser page and in the export (`links`: `{{name, link}}`, never on the share page) and
  emailed with `invite` when the server sends email. `claim` then answers 409 for any
  name; `reset` keeps the player's role and issues a fresh link; `restart` deals the same
  players afresh with fresh links. Refused at create (400): no names
  `{NO_PLAYERS}`, a name twice `{TWICE}`, more players than roles `{MORE_PLAYERS}`.
"""


groupkit_tool = Tool.hook(
    api, hidden=(), create_schema=CreateRoles, participant_kinds=(PLAYER,), models=[Player],
    limits={"roles": MAX_ROLES, "claimRetries": 3}, public_schema=PUBLIC_SCHEMA,
    description=DESCRIPTION, edit=EDIT, invite=LINKS.invitations(api.named_people),
)
