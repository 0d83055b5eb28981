"""Kris Kringle: create, the three views, claiming a name, wishlists, reset and redraw.

Who drew whom lives only in `KringlePerson.giftee`, and only `private_view` reads it: the
public and organiser views are built from names, claims and page opens, so nothing they
return can depend on the loop.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from groupkit import (
    PARTICIPANT_TOKEN_LENGTH,
    Call,
    Credential,
    Instance,
    Operations,
    conflict,
    instance_changed,
    issue_token,
    not_found,
    revoke_tokens,
    utcnow,
)

from .draw import another_loop, single_loop
from .models import KringlePerson
from .schema import NAME_LIMIT, WISHLIST_LIMIT, NameBody, WishlistBody

ops = Operations()

#: The credential kind of a person's private link (`ref` is their `KringlePerson.id`).
TOKEN_KIND = "giver"
DEFAULT_HEADING = "Kris Kringle"


NOT_IN_DRAW = "That name isn't in this draw."
ALREADY_CLAIMED = ("That name's already been claimed. If it's yours, ask the organiser to "
                   "reset you.")


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"budget": data["budget"], "exchangeDate": data["exchangeDate"],
                     "note": data["note"]}
    giftees = single_loop(len(data["names"]))
    KringlePerson.insert_many([
        {"instance": instance, "position": position, "name": name,
         "giftee": giftees[position]}
        for position, name in enumerate(data["names"])]).execute()


def _people(instance: Instance) -> list[KringlePerson]:
    return list(KringlePerson.select().where(KringlePerson.instance == instance)
                .order_by(KringlePerson.position))


def _find(instance: Instance, name: str) -> KringlePerson:
    """The person whose name equals `name` (already cleaned) ignoring case, else 404."""
    wanted = name.casefold()
    for person in _people(instance):
        if wanted and person.name.casefold() == wanted:
            return person
    raise not_found(NOT_IN_DRAW)


def _holder(instance: Instance, credential: Credential | None) -> KringlePerson:
    """The person a private link belongs to."""
    person = None
    if credential is not None and credential.ref.isdigit():
        person = KringlePerson.get_or_none((KringlePerson.id == int(credential.ref))
                                           & (KringlePerson.instance == instance))
    if person is None:
        raise not_found()
    return person


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.replace(tzinfo=dt.UTC).isoformat()


def _naive(moment: dt.datetime) -> dt.datetime:
    return moment.astimezone(dt.UTC).replace(tzinfo=None)


def _details(instance: Instance) -> dict[str, Any]:
    data = instance.data
    return {"title": instance.title, "heading": instance.title or DEFAULT_HEADING,
            "budget": data["budget"], "exchangeDate": data["exchangeDate"],
            "note": data["note"]}


def public_view(instance: Instance) -> dict[str, Any]:
    """The claim page: the details and who is in the draw, with who has claimed. Nothing
    about who drew whom, and no wishlists (they are for each person's Kris Kringle)."""
    return {**_details(instance),
            "people": [{"name": person.name, "claimed": person.claimed_at is not None}
                       for person in _people(instance)]}


def organiser_view(instance: Instance) -> dict[str, Any]:
    """Who has claimed and who has opened their page; never who drew whom, never a
    wishlist. Also the export."""
    people = [{"name": person.name, "claimed": person.claimed_at is not None,
               "claimedAt": _iso(person.claimed_at), "opened": person.opened_at is not None,
               "openedAt": _iso(person.opened_at)}
              for person in _people(instance)]
    return {**_details(instance), "people": people,
            "claimedCount": sum(person["claimed"] for person in people),
            "openedCount": sum(person["opened"] for person in people)}


def private_view(instance: Instance, person: KringlePerson) -> dict[str, Any]:
    """One person's page: their giftee and the giftee's wishlist, the details, and their own
    wishlist (which only their own Kris Kringle reads)."""
    giftee = KringlePerson.get((KringlePerson.instance == instance)
                               & (KringlePerson.position == person.giftee))
    return {**_details(instance), "name": person.name, "giftee": giftee.name,
            "gifteeWishlist": giftee.wishlist, "myWishlist": person.wishlist}


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """The private page; the first visit is noted so the organiser sees who has looked."""
    person = _holder(instance, credential)
    if person.opened_at is None:
        KringlePerson.update(opened_at=utcnow()).where(KringlePerson.id == person.id).execute()
        # The organiser's open page shows who has looked: tell it, as a write operation would.
        instance_changed(instance)
        instance.version += 1  # and this page starts from the version it shows
    return private_view(instance, person)


# --- documents ----------------------------------------------------------------------------

_DETAILS_SCHEMA: dict[str, Any] = {
    "title": {"type": "string"},
    "heading": {"type": "string", "description": f"title, or `{DEFAULT_HEADING}`"},
    "budget": {"type": "string"}, "exchangeDate": {"type": "string"},
    "note": {"type": "string"}}
PUBLIC_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    **_DETAILS_SCHEMA,
    "people": {"type": "array", "description": "in the organiser's order", "items": {
        "type": "object", "properties": {"name": {"type": "string"},
                                         "claimed": {"type": "boolean"}}}}}}
PRIVATE_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    **_DETAILS_SCHEMA,
    "name": {"type": "string", "description": "whose link this is"},
    "giftee": {"type": "string", "description": "the one person they buy for"},
    "gifteeWishlist": {"type": "string"},
    "myWishlist": {"type": "string", "description": "read by their own Kris Kringle only"}}}
TOKEN_REPLY = {"type": "object", "properties": {"token": {
    "type": "string", "minLength": PARTICIPANT_TOKEN_LENGTH,
    "maxLength": PARTICIPANT_TOKEN_LENGTH,
    "description": "the private link is `/p/{token}`; keep it, it is shown only once"}}}
WISHLIST_REPLY = {"type": "object", "properties": {
    "ok": {"type": "boolean"}, "wishlist": {"type": "string", "description": "as stored"}}}
RESET_REPLY = {"type": "object", "properties": {
    "ok": {"type": "boolean"},
    "reset": {"type": "boolean", "description": "false when the name was not claimed"}}}
OK_REPLY = {"type": "object", "properties": {"ok": {"type": "boolean"}}}


# --- operations ---------------------------------------------------------------------------

@ops.public("claim", body=NameBody, returns=TOKEN_REPLY, errors={
    404: f"Unknown slug (`Nothing here — check the link you were given.`), or the name "
         f"(C({NAME_LIMIT}), compared ignoring case) is blank or not in the draw: "
         f"`{NOT_IN_DRAW}`",
    409: f"The name is already claimed: `{ALREADY_CLAIMED}`"})
def claim(call: Call) -> dict[str, Any]:
    """Claim your name; returns the token of your private page `/p/{token}`."""
    person = _find(call.instance, call.data["name"])
    taken = (KringlePerson.update(claimed_at=_naive(call.now))
             .where((KringlePerson.id == person.id) & KringlePerson.claimed_at.is_null())
             .execute())
    if not taken:
        raise conflict(ALREADY_CLAIMED)
    return {"token": issue_token(call.instance, TOKEN_KIND, str(person.id))}


@ops.participant("p/{token}", method="GET", token_kinds=[TOKEN_KIND], returns=PRIVATE_SCHEMA,
                 description="What the private page `/p/{token}` shows, as JSON. Reading it "
                             "here does not count as opening the page.")
def read_private(call: Call) -> dict[str, Any]:
    """Your giftee, their wishlist, the details and your own wishlist."""
    return private_view(call.instance, _holder(call.instance, call.credential))


@ops.participant("p/{token}/wishlist", body=WishlistBody, token_kinds=[TOKEN_KIND],
                 returns=WISHLIST_REPLY,
                 description=f"`text` is trimmed, CRLF becomes LF, and it is cut to "
                             f"{WISHLIST_LIMIT} characters (never an error); saving again "
                             "replaces it, an empty text clears it. Only the person who drew "
                             "you sees it, on their private page.")
def wishlist(call: Call) -> dict[str, Any]:
    """Save your wishlist for whoever drew you."""
    person = _holder(call.instance, call.credential)
    KringlePerson.update(wishlist=call.data["text"]).where(
        KringlePerson.id == person.id).execute()
    return {"ok": True, "wishlist": call.data["text"]}


@ops.organiser("reset", body=NameBody, returns=RESET_REPLY, errors={
    404: f"Unknown editToken, or the name is blank or not in the draw: `{NOT_IN_DRAW}`"},
    description="The person's private link stops working at once, the note that they "
                "opened it is cleared and their wishlist is wiped (the usual reason for a "
                "reset is that someone else claimed the name). They keep the same giftee; "
                "claiming the name again issues a fresh link. Resetting an unclaimed name "
                "changes nothing and answers `reset: false`.")
def reset(call: Call) -> dict[str, Any]:
    """Reset one person so their name can be claimed again."""
    person = _find(call.instance, call.data["name"])
    revoke_tokens(call.instance, TOKEN_KIND, str(person.id))
    was_claimed = person.claimed_at is not None
    KringlePerson.update(claimed_at=None, opened_at=None, wishlist="").where(
        KringlePerson.id == person.id).execute()
    return {"ok": True, "reset": was_claimed}


@ops.organiser("redraw", returns=OK_REPLY,
               description="Draws a new single loop through everybody, uniformly at random "
                           "among the loops other than the current one. Claims, private links "
                           "and wishlists stay: a link belongs to a person, not to a pairing, "
                           "so each private page simply shows the new giftee. Who has opened "
                           "their page is cleared, so the organiser can see who has seen the "
                           "new draw. The answer never says who drew whom.")
def redraw(call: Call) -> dict[str, Any]:
    """Reshuffle the whole loop."""
    people = _people(call.instance)
    giftees = another_loop([person.giftee for person in people])
    for person in people:
        KringlePerson.update(giftee=giftees[person.position], opened_at=None).where(
            KringlePerson.id == person.id).execute()
    return {"ok": True}
