"""Gift Idea Board: create, views, and suggesting, upvoting, claiming and removing ideas."""

from __future__ import annotations

from typing import Any

from groupkit import CLAIM_SECRET_LENGTH
from groupkit import N_
from groupkit import ApiError
from groupkit import Call
from groupkit import Credential
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import bad_request
from groupkit import checked_in_order
from groupkit import gettext
from groupkit import run_prepared
from groupkit import stored_values
from groupkit import utc_iso
from groupkit.entries import OK_REPLY
from groupkit.entries import Entries
from groupkit.entries import entries_schema
from groupkit.entries import token_reply
from groupkit.entries import token_schema
from groupkit.signups import board_views
from groupkit.signups import claim_slot
from groupkit.signups import claims_by_slot
from groupkit.signups import release_slot
from groupkit.signups import remove_slot

from .models import GiftIdea
from .schema import BAD_LINK
from .schema import CLAIM_NAME_LIMIT
from .schema import IDEA_LIMIT
from .schema import NO_CLAIM_NAME
from .schema import NO_IDEA
from .schema import NOT_WEB_LINK
from .schema import SUGGESTED_BY_LIMIT
from .schema import ClaimBody
from .schema import IdeaBody
from .schema import RemoveIdeaBody
from .schema import SuggestBody
from .schema import UnclaimBody

ops = Operations()

MAX_IDEAS = 200
TOKEN_KIND = "idea"

FULL = N_("This board's full — 200 ideas is the limit. Upvote one that's already here.")
TAKEN = N_("Someone's already getting that one.")
UNKNOWN_IDEA = N_("That idea isn't on this board any more — it may have been removed.")
NOT_HELD = N_("That idea isn't claimed with that secret — it may already be free.")

IDEAS = Entries(GiftIdea, TOKEN_KIND, UNKNOWN_IDEA)


#: The board's title, around the recipient's name.
TITLE = N_("Gift ideas for {recipient}")


def title_of(data: dict[str, Any]) -> str:
    """The board's title is built from the recipient (the spec has no title field)."""
    return TITLE.format(recipient=data["recipient"])


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"recipient": data["recipient"], "occasion": data["occasion"],
                     "budget": data["budget"], "note": data["note"]}


def _ideas(instance: Instance) -> list[GiftIdea]:
    """Most-wanted first; ties keep the order they were suggested in."""
    return list(GiftIdea.select().where(GiftIdea.instance == instance)
                .order_by(GiftIdea.votes.desc(), GiftIdea.created, GiftIdea.id))


def _board(instance: Instance, organiser: bool) -> dict[str, Any]:
    """Public: what everyone with the link sees: ideas, votes and who is getting what; no tokens.
    Organiser: the public board plus each idea's token (to remove it) and when things happened."""
    data = instance.data
    claims = claims_by_slot(instance)
    itokens = IDEAS.plain_tokens(instance) if organiser else {}
    ideas = []
    for row in _ideas(instance):
        claim = claims.get(row.code)
        idea: dict[str, Any] = {
            "id": row.code, "idea": row.idea, "link": row.link,
            "suggestedBy": row.suggested_by, "votes": row.votes,
            "claimed": claim is not None, "claimedBy": claim.name if claim else None}
        if organiser:
            idea.update(itoken=itokens.get(row.code), suggestedAt=utc_iso(row.created),
                        claimedAt=utc_iso(claim.created) if claim else None)
        ideas.append(idea)
    return {"title": instance.title, "recipient": data["recipient"],
            "occasion": data["occasion"], "budget": data["budget"], "note": data["note"],
            "limit": MAX_IDEAS, "ideas": ideas}


public_view, organiser_view = board_views(_board)


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """The suggester's own page (the link a suggestion made without JavaScript shows):
    their idea as the board shows it, to remove it later."""
    mine = [idea for idea in public_view(instance)["ideas"] if idea["id"] == credential.ref]
    if not mine:
        raise ApiError(404, UNKNOWN_IDEA)
    return {"title": instance.title, "recipient": instance.data["recipient"], "idea": mine[0]}


def preview(instance: Instance) -> dict[str, Any]:
    recipient = instance.data["recipient"]
    title = instance.title
    if title == title_of(instance.data):  # the tool's own words: the reader's language
        title = gettext(TITLE).format(recipient=recipient)
    return {"title": title,
            "description": gettext("Suggest, upvote and claim gift ideas for {recipient}. "
                                   "Please keep this link away from {recipient}.")
            .format(recipient=recipient)}


def _idea_schema(organiser: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "id": {"type": "string", "description": "the idea's id (`ideaId` in requests)"},
        "idea": {"type": "string", "maxLength": IDEA_LIMIT},
        "link": {"type": "string", "description": "http(s) address, or empty"},
        "suggestedBy": {"type": "string", "description": "may be empty"},
        "votes": {"type": "integer", "minimum": 0},
        "claimed": {"type": "boolean"},
        "claimedBy": {"type": ["string", "null"], "description": "the claimer's name"}}
    if organiser:
        properties.update(
            itoken=token_schema("the idea's token: `removeIdea` takes it"),
            suggestedAt={"type": "string", "format": "date-time"},
            claimedAt={"type": ["string", "null"], "format": "date-time"})
    return {"type": "object", "properties": properties}


def board_schema(organiser: bool = False) -> dict[str, Any]:
    return {"type": "object", "properties": {
        "title": {"type": "string", "description": "`Gift ideas for <recipient>`"},
        "recipient": {"type": "string"}, "occasion": {"type": "string"},
        "budget": {"type": "string"}, "note": {"type": "string"},
        **entries_schema("ideas", _idea_schema(organiser), limit="most ideas a board holds",
                         order="most votes first, then oldest first")}}


TOKEN_REPLY = token_reply("keep it: it removes this idea (`/api/giftidea/i/{token}/remove`)",
                          "the new idea's id")
VOTES_REPLY = {"type": "object", "properties": {
    "ok": {"type": "boolean"}, "votes": {"type": "integer", "description": "the new total"}}}
SECRET_REPLY = {"type": "object", "properties": {"secret": {
    "type": "string", "minLength": CLAIM_SECRET_LENGTH, "maxLength": CLAIM_SECRET_LENGTH,
    "description": "keep it: it is the only way to undo this claim yourself"}}}


def _remove(instance: Instance, idea: GiftIdea) -> None:
    """An idea goes with its claim and its token."""
    remove_slot(instance, idea.code)
    IDEAS.remove(instance, idea)


@ops.public("suggest", body=SuggestBody, status=201, returns=TOKEN_REPLY, errors={
    400: checked_in_order(
        (f"idea empty after cleaning (C({IDEA_LIMIT}))", NO_IDEA),
        ("link without a `scheme:` or not a usable address", BAD_LINK),
        ("link with a scheme other than http or https", NOT_WEB_LINK),
        then=f"suggestedBy is C({SUGGESTED_BY_LIMIT}) and optional."),
    409: f"The board already holds {MAX_IDEAS} ideas: `{FULL}`"},
    description="Checked and written under the instance lock, so concurrent suggestions "
                f"never take a board past {MAX_IDEAS} ideas. The token is a 22-character "
                "participant token.")
def suggest(call: Call) -> dict[str, Any]:
    """Add an idea; returns its id and the token that removes it."""
    row, token = IDEAS.add(call.instance, MAX_IDEAS, FULL, keep_plain=True,
                           idea=call.data["idea"], link=call.data["link"],
                           suggested_by=call.data["suggestedBy"], created=call.now)
    return {"token": token, "id": row.code}


@ops.public("upvote", body=IdeaBody, returns=VOTES_REPLY, errors={
    404: f"Unknown slug, or no such idea on this board: `{UNKNOWN_IDEA}`"})
def upvote(call: Call) -> dict[str, Any]:
    """Add one vote to an idea; returns the new total.

    One atomic increment in the database. Repeat votes are stopped only in the voter's browser, as
    the spec says.
    """
    instance_id, code = call.instance.id, call.data["ideaId"]
    # One statement finds the idea and counts the vote (written once, see run_prepared).
    found = run_prepared("giftidea.upvote", lambda: (
        GiftIdea.update(votes=GiftIdea.votes + 1)
        .where((GiftIdea.instance == instance_id) & (GiftIdea.code == code))
        .returning(GiftIdea.votes)), (1, instance_id, code)).fetchone()
    if found is None:
        raise ApiError(404, UNKNOWN_IDEA)
    return {"ok": True, "votes": found[0]}


@ops.public("claim", body=ClaimBody, status=201, returns=SECRET_REPLY, errors={
    400: f"Name empty after cleaning (C({CLAIM_NAME_LIMIT})): `{NO_CLAIM_NAME}`",
    404: f"Unknown slug, or no such idea (checked before the name): `{UNKNOWN_IDEA}`",
    409: f"Someone has already claimed the idea: `{TAKEN}`"})
def claim(call: Call) -> dict[str, Any]:
    """Say you're getting this one; returns the secret that undoes the claim."""
    idea = IDEAS.find(call.instance, call.data["ideaId"])
    if not call.data["name"]:
        raise bad_request(NO_CLAIM_NAME)
    return {"secret": claim_slot(call.instance, idea.code, call.data["name"], {}, TAKEN)}


@ops.public("unclaim", body=UnclaimBody, returns=OK_REPLY, errors={
    404: "Unknown slug; or the idea is not claimed with that secret (wrong or stale secret, "
         f"unclaimed or unknown idea): `{NOT_HELD}`"})
def unclaim(call: Call) -> dict[str, Any]:
    """Undo your own claim with the secret the claim returned."""
    release_slot(call.instance, call.data["ideaId"], call.data["secret"], NOT_HELD)
    return {"ok": True}


@ops.participant("i/{token}/remove", token_kinds=[TOKEN_KIND], returns=OK_REPLY)
def remove_own(call: Call) -> dict[str, Any]:
    """Remove the idea this token was issued for, and any claim on it.

    The suggester's removal: the idea, any claim on it and the token itself go, so a second call is
    a 404.
    """
    _remove(call.instance, IDEAS.find_own(call.instance, call.credential))
    return {"ok": True}


@ops.organiser("removeIdea", body=RemoveIdeaBody, returns=OK_REPLY, errors={
    404: f"Unknown editToken, or `itoken` names no idea on this board: `{UNKNOWN_IDEA}`"})
def remove_idea(call: Call) -> dict[str, Any]:
    """Remove any one idea, and any claim on it.

    `itoken` is the idea's token, listed for the organiser in the organiser view and export. Any
    claim on the idea is cleared with it.
    """
    _remove(call.instance, IDEAS.find_by_token(call.instance, call.data["itoken"]))
    return {"ok": True}


# --- the organiser's edit -----------------------------------------------------------------

#: The board's details as create took them; ideas, votes and claims are not details, so an
#: edit never touches them (the title follows the recipient, as at create).
EDIT = Edit(fields=("recipient", "occasion", "budget", "note"),
            current=stored_values("recipient", "occasion", "budget", "note"),
            description="Every idea, vote and claim stays as it was; the title follows the "
                        "recipient, as it does at create.")
