"""What a tool declares for the building blocks it uses, as plain data: the calendar event
a feed yields, the feed source (`Tool.feed`) and the chat ritual (`Tool.chat`). They live in
the core so that the tool declaration (`groupkit.core._tool`) needs no building block; the
machinery that uses them is in `groupkit.blocks` (`_feeds`, `_calendar`, `_webhooks`), and
plugins read them from `groupkit.integrations`."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from groupkit.core._storage import Credential
from groupkit.core._storage import Instance


@dataclasses.dataclass
class CalendarEvent:
    """One VEVENT. `start` is a `date` (all-day) or a `datetime`: aware for a fixed moment,
    naive for "this hour wherever you are" (floating time); `end` defaults to the next day
    (all-day) or one hour later."""

    uid: str
    summary: str
    start: dt.date | dt.datetime
    end: dt.date | dt.datetime | None = None
    description: str = ""
    location: str = ""
    url: str = ""


@dataclasses.dataclass(frozen=True)
class ChatTime:
    """What a schedule is told: the time, the organiser's chosen local hour for morning
    posts, and the instance's public link: `base_url`, else (in development) the origin
    the organiser connected the webhook on; never a participant's request."""

    now: dt.datetime
    hour: int
    link: str


#: `schedule(instance, when)` -> the posts due now, as (key, text); a key already queued for
#: the instance is skipped, so return the same key for the same ritual occurrence.
Schedule = Callable[[Instance, ChatTime], Iterable[tuple[str, str]]]


@dataclasses.dataclass(frozen=True)
class ChatRitual:
    """`Tool.chat`: the tool can post to a chat webhook. `what` completes "this board
    posts ..." on the organiser page and in the OpenAPI document; `schedule` yields the
    posts the clock brings (operations queue the others with `post_to_chat`), from the
    hour the organiser picks in `zone` (an IANA name the organiser page names; the
    schedule reads the hour in it). Without a schedule the page asks no hour."""

    what: str
    schedule: Schedule | None = None
    zone: str = "UTC"


#: `events(instance, claim, base_url)` -> the claim's events now; the claim is a
#: `groupkit.signups.SlotClaim` (a building block, so not named in the core's types).
Feed = Callable[[Instance, Any, str], Sequence[CalendarEvent]]
#: `events(instance, credential, base_url)` -> the participant's events now.
ParticipantFeed = Callable[[Instance, Credential, str], Sequence[CalendarEvent]]


@dataclasses.dataclass(frozen=True)
class FeedSource:
    """`Tool.feed`: how the tool builds a private feed's events, for feeds bound to a claim
    (`slot_feed_operations`) or to a participant link (`participant_feed_operations`)."""

    claim: Feed | None = None
    participant: ParticipantFeed | None = None
    #: The tool's 404 wording for a secret that does not hold the spot (claim feeds).
    not_held: str = ""


@dataclasses.dataclass(frozen=True)
class Invitations:
    """`Tool.invite`: the tool's people have personal links, which the kernel can email
    them (`POST /api/<tool>/{editToken}/invite`). `links(instance)` maps each person's
    name, as the organiser page lists it, to the path of their own page (`/p/{token}`);
    empty while nobody has one (say, a draw without personal links)."""

    links: Callable[[Instance], Mapping[str, str]]
