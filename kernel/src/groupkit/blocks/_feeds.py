"""Calendar subscription feeds: a private `webcal://` address per claim on a sign-up tool
(or per participant link, e.g. the date a poll settled on), so that a person subscribes once
and their calendar follows the organiser's changes.

The feed address is a capability like a participant token (a `Credential` of kind "feed",
stored as a digest): it is returned only to the holder of the claim's secret (or of the
participant link), is in no page or export, and the organiser can revoke every feed of an
instance (or one spot's). Its `ref` binds it to one claim (`<slotId>:<digest of the claim's
secret>`; row ids can be reused), so once that claim is released nobody else's claim appears
in the old feed: it empties; or to one participant link (`p:<digest of its token>`), so a
rotated or revoked link empties its feeds. The tool builds the events (`Tool.feed`) from the
instance's current state at every poll.

Links in a feed's events start with the operator's `base_url`, never with the Host header of
the request that polls (whoever holds the address chooses it); without a `base_url` the
tool is given an empty one and leaves its links out. The address itself (`feedUrl`) is an
answer to its holder alone, on the origin they asked on.
"""

from __future__ import annotations

from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from quart import Quart
from quart import Response
from quart import current_app

from groupkit.blocks._calendar import calendar_text
from groupkit.blocks._slots import FEED
from groupkit.blocks._slots import SlotClaim
from groupkit.core import _i18n as i18n
from groupkit.core._api import storage
from groupkit.core._clock import request_time
from groupkit.core._config import Settings
from groupkit.core._credentials import CLAIM_SECRET_LENGTH
from groupkit.core._credentials import digest
from groupkit.core._credentials import looks_like_token
from groupkit.core._declared import CalendarEvent
from groupkit.core._declared import FeedSource
from groupkit.core._errors import ApiError
from groupkit.core._fields import Exact
from groupkit.core._schema import Schema
from groupkit.core._storage import Credential
from groupkit.core._storage import Instance
from groupkit.core._tokens import issue_token
from groupkit.core._tokens import lookup_token
from groupkit.core._tokens import revoke_tokens
from groupkit.core._tool import Call
from groupkit.core._tool import Operations
from groupkit.core._tool import Tool

#: `events(instance, claim, base_url)` -> the claim's events now (`FeedSource.claim`, typed
#: here with the claim's own model); `base_url` is the configured one, empty without it.
Feed = Callable[[Instance, SlotClaim, str], Sequence[CalendarEvent]]
#: `events(instance, credential, base_url)` -> the participant's events now.
ParticipantFeed = Callable[[Instance, Credential, str], Sequence[CalendarEvent]]
PARTICIPANT_REF = "p:"
#: How both kinds of feed operation end their description in the OpenAPI document.
EACH_ADDRESS = (" Each call makes a new address; the organiser can revoke them "
                "(`feeds/revoke`). Never shown to anyone else.")


def feed_links(base_url: str, token: str) -> dict[str, str]:
    https = f"{base_url}/feed/{token}.ics"
    parts = urlsplit(https)
    return {"feedUrl": https, "webcalUrl": f"webcal://{parts.netloc}{parts.path}"}


class FeedBody(Schema):
    slotId = Exact("the spot you claimed")
    secret = Exact("the secret your claim returned")


class RevokeBody(Schema):
    slotId = Exact("one spot's feeds only; empty or absent: every feed")


LINKS = {"type": "object", "properties": {
    "feedUrl": {"type": "string", "description": "https address of the private .ics feed"},
    "webcalUrl": {"type": "string", "description": "the same feed for calendar apps"}}}


REVOKED = {"type": "object", "properties": {
    "ok": {"type": "boolean"}, "revoked": {"type": "integer"}}}


def _revoke_operation(ops: Operations) -> None:
    if any(op.path == "feeds/revoke" for op in ops.operations):
        return

    @ops.organiser("feeds/revoke", body=RevokeBody, returns=REVOKED,
                   description="Stop calendar feeds: one spot's (`slotId`) or every one of "
                               "this instance. Their addresses answer 404 from then on.")
    def revoke(call: Call) -> dict[str, Any]:
        """Revoke calendar subscription feeds."""
        slot_id = call.data["slotId"]
        if not slot_id:
            return {"ok": True, "revoked": revoke_tokens(call.instance, FEED)}
        revoked = (Credential.delete()
                   .where((Credential.instance == call.instance) & (Credential.kind == FEED)
                          & Credential.ref.startswith(f"{slot_id}:")).execute())
        return {"ok": True, "revoked": int(revoked)}


def slot_feed_operations(ops: Operations, not_held: str, events: Feed) -> FeedSource:
    """Add `feed` (the claim's holder gets a private subscription address) and the
    organiser's `feeds/revoke` to a slot-claim tool; returns the `Tool(feed=...)` value.
    `not_held` is the tool's 404 wording for a secret that does not hold the spot."""
    source = FeedSource(claim=events, not_held=not_held)
    if any(op.path == "feed" for op in ops.operations):
        return source  # already added (the hook runs once per app)

    @ops.public("feed", body=FeedBody, status=201, returns=LINKS, errors={
        404: f"The spot is not held with that secret: `{not_held}`"},
        description="Body `{slug, slotId, secret}`: a private calendar subscription "
                    "(webcal) for the spot you claimed, kept current when the organiser "
                    "changes it; empty once the spot is given up." + EACH_ADDRESS)
    def feed(call: Call) -> dict[str, Any]:
        """Subscribe to your spot in your calendar."""
        slot_id, secret = call.data["slotId"], call.data["secret"]
        if not looks_like_token(secret, CLAIM_SECRET_LENGTH):
            raise ApiError(404, not_held)
        claim = SlotClaim.get_or_none((SlotClaim.instance == call.instance)
                                      & (SlotClaim.slot_id == slot_id)
                                      & (SlotClaim.secret_digest == digest(secret)))
        if claim is None:
            raise ApiError(404, not_held)
        token = issue_token(call.instance, FEED, f"{claim.slot_id}:{claim.secret_digest}")
        return feed_links(call.base_url, token)

    _revoke_operation(ops)
    return source


def participant_feed_operations(ops: Operations, path: str, token_kinds: Sequence[str],
                                events: ParticipantFeed) -> FeedSource:
    """Add `<path>` (a participant operation, e.g. `r/{token}/feed`: the link's holder gets a
    private subscription address) and the organiser's `feeds/revoke`; returns the
    `Tool(feed=...)` value. The feed follows the link: once the link is revoked it empties."""
    source = FeedSource(participant=events)
    if any(op.path == path for op in ops.operations):
        return source

    @ops.participant(path, token_kinds=token_kinds, status=201, returns=LINKS,
                     description="A private calendar subscription (webcal) of what this "
                                 "link's holder is going to, kept current when the "
                                 "organiser changes it." + EACH_ADDRESS)
    def feed(call: Call) -> dict[str, Any]:
        """Subscribe in your calendar."""
        assert call.credential is not None
        token = issue_token(call.instance, FEED, PARTICIPANT_REF + call.credential.digest)
        return feed_links(call.base_url, token)

    _revoke_operation(ops)
    return source


def _events(token: str, base_url: str) -> bytes | None:
    credential = lookup_token(token)
    if credential is None or credential.kind != FEED:
        return None
    tools: dict[str, Tool] = current_app.config["GROUPKIT_TOOLS"]
    tool = tools.get(credential.instance.tool)
    if tool is None or tool.feed is None:
        return None
    with i18n.for_group(credential.instance):
        events = _feed_events(tool.feed, credential, base_url)
    return calendar_text(events, request_time())


def _feed_events(source: FeedSource, credential: Credential, base_url: str) -> list[CalendarEvent]:
    """The feed's events, their text in the group's language (the caller speaks it)."""
    if credential.ref.startswith(PARTICIPANT_REF):
        holder = Credential.get_or_none(
            (Credential.instance == credential.instance)
            & (Credential.digest == credential.ref[len(PARTICIPANT_REF):]))
        events = (source.participant(credential.instance, holder, base_url)
                  if holder is not None and source.participant is not None else [])
    else:
        slot_id, _, secret_digest = credential.ref.partition(":")
        claim = SlotClaim.get_or_none((SlotClaim.instance == credential.instance)
                                      & (SlotClaim.slot_id == slot_id)
                                      & (SlotClaim.secret_digest == secret_digest))
        events = (source.claim(credential.instance, claim, base_url)
                  if claim is not None and source.claim is not None else [])
    return list(events)


def mount(app: Quart, not_found_page: Callable[[], Awaitable[Response]]) -> None:
    """`GET /feed/<token>.ics`: the feed, always current, never cached. An unknown token gets
    the app's one not-found page (the web layer's, handed in by the app)."""

    async def feed(token: str) -> Response:
        settings: Settings = current_app.config["GROUPKIT_SETTINGS"]
        body = await storage().read(_events, token, settings.base_url)
        if body is None:
            return await not_found_page()
        return Response(body, content_type="text/calendar; charset=utf-8",
                        headers={"Cache-Control": "no-store",
                                 "X-Robots-Tag": "noindex, nofollow"})

    app.add_url_rule("/feed/<token>.ics", "calendar_feed", feed, methods=["GET"])
