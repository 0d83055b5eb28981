"""Kris Kringle: create, the three views, claiming a name, wishlists, reset and redraw, and
the optional additions: exclusions, personal links and anonymous questions.

Who drew whom lives only in `KringlePerson.giftee`, and only `private_view` reads it: the
public and organiser views are built from names, claims, page opens and resets, so nothing
they return can depend on the loop. The questions are read only by the two private pages of
the pair they belong to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from groupkit import N_
from groupkit import Call
from groupkit import Credential
from groupkit import Instance
from groupkit import Operations
from groupkit import Reply
from groupkit import bad_request
from groupkit import conflict
from groupkit import instance_changed
from groupkit import issue_token
from groupkit import message
from groupkit import not_found
from groupkit import revoke_tokens
from groupkit import text_key
from groupkit import utc_iso
from groupkit import utcnow
from groupkit.entries import OK_REPLY
from groupkit.entries import Entries
from groupkit.entries import PersonalLinks
from groupkit.entries import claim_once
from groupkit.entries import ok_reply
from groupkit.entries import token_reply

from . import draw
from .draw import NoLoop
from .draw import allowed_loop
from .draw import check_another_exists
from .draw import forbidden_pairs
from .models import KringleMessage
from .models import KringlePerson
from .models import KringleReset
from .schema import MAX_QUESTIONS
from .schema import NAME_LIMIT
from .schema import QUESTION_LIMIT
from .schema import WISHLIST_LIMIT
from .schema import NameBody
from .schema import QuestionBody
from .schema import WishlistBody

ops = Operations()

#: The credential kind of a person's private link (`ref` is their `KringlePerson.id`).
TOKEN_KIND = "giver"
#: The people in the draw, each found from their private link's token.
PEOPLE = Entries(KringlePerson, TOKEN_KIND, code="id")
#: A link the organiser reset: it opens a page saying so (`ref` is the `KringleReset.id`)
#: and nothing else.
RESET_KIND = "giver-reset"
#: The heading of a draw with no title (pages say it in the reader's language).
DEFAULT_HEADING = N_("Kris Kringle")


NOT_IN_DRAW = N_("That name isn't in this draw.")
ALREADY_CLAIMED = N_("That name's already been claimed. If it's yours, ask the organiser to "
                     "reset you.")
PERSONAL_LINKS = N_("This draw uses personal links, so names can't be claimed here: ask the "
                    "organiser for your link.")
#: Each person's own link, handed out by the organiser (`personalLinks`).
LINKS = PersonalLinks(TOKEN_KIND, PERSONAL_LINKS)
OPEN_FIRST = N_("Open this personal link's page first: its first opening goes on record, so "
                "nobody can read a personal link unseen.")
QUESTIONS_OFF = N_("Anonymous questions aren't turned on for this draw.")
WHO_TO = N_('Say who it\'s for: "giftee" (the person you buy for) or "santa" (whoever drew '
            'you).')
NO_TEXT = N_("Write your question or answer first.")
#: Filled in with `n=MAX_QUESTIONS`.
CONVERSATION_FULL = N_("This conversation is full: {n} messages is the most.")
NO_OTHER_LOOP = N_("There's no other loop that respects the exclusions — the draw stays as it "
                   "is.")
NO_OTHER_FOUND = N_("No other loop that respects the exclusions turned up in time — the draw "
                    "stays as it is. Try again, or remove some exclusions.")

UNKNOWN_EXCLUDED = N_('"{name}" is in the exclusions but not in the names.')
UNKNOWN_IN_HOUSEHOLD = N_('"{name}" is in the households but not in the names.')
#: What an impossible (or secret-breaking) set of exclusions answers, by `NoLoop.problem`.
NO_LOOP_MESSAGES = {
    draw.CANNOT_GIVE: N_("The exclusions leave nobody for {names} to draw."),
    draw.ONE_GIFTEE: N_("The exclusions leave only one person for {names} to draw, so everyone "
                        "would know who it is — remove some."),
    draw.CANNOT_RECEIVE: N_("The exclusions leave nobody who can draw {names}."),
    draw.ONE_GIVER: N_("The exclusions leave only one person who can draw {names}, so everyone "
                       "would know who it is — remove some."),
    draw.GROUP_TOO_BIG: N_("The household {names} is more than half the draw: in one loop some "
                           "of them would have to draw each other."),
    draw.SPLIT: N_("The exclusions cut {names} off from the others: no single loop can go "
                   "through everybody."),
    draw.NO_LOOP: N_("No single loop through everybody respects these exclusions — remove "
                     "some."),
    draw.NO_OTHER: N_("These exclusions leave only one possible loop, so everyone's giftee "
                      "would be known — remove some."),
    draw.TOO_HARD: N_("These exclusions leave too few ways to draw one loop through everybody "
                      "— remove some."),
}


# --- create and the draw ------------------------------------------------------------------

def _positions(names: Sequence[str], wanted: Sequence[str],
               unknown: str = UNKNOWN_EXCLUDED) -> list[int]:
    """Positions of `wanted` names in the draw, compared as names are (`text_key`: case and
    look-alike letters aside); an unknown one is a 400."""
    index = {text_key(name): position for position, name in enumerate(names)}
    found = []
    for name in wanted:
        if text_key(name) not in index:
            raise bad_request(message(unknown, name=name))
        found.append(index[text_key(name)])
    return found


def _named(names: Sequence[str], people: Sequence[int]) -> str:
    """`"Ann", "Bo" and "Cy"` (at most five, then how many more)."""
    quoted = [f'"{names[person]}"' for person in people[:5]]
    if len(people) > 5:
        quoted.append(f"{len(people) - 5} more")
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _no_loop(names: Sequence[str], error: NoLoop) -> str:
    return message(NO_LOOP_MESSAGES[error.problem],
                   names=_named(names, error.people) if error.people else "")


def _rules(data: dict[str, Any]) -> tuple[list[list[int]], frozenset[tuple[int, int]]]:
    """The stored exclusions of an instance: its households and every ruled-out pair."""
    groups = [list(group) for group in data.get("households", [])]
    pairs = [(giver, giftee) for giver, giftee in data.get("exclusions", [])]
    size = data.get("size", 0)
    return groups, forbidden_pairs(size, groups, pairs)


def create(instance: Instance, data: dict[str, Any]) -> None:
    names = data["names"]
    instance.data = {"budget": data["budget"], "exchangeDate": data["exchangeDate"],
                     "note": data["note"]}
    # The optional additions are stored only when used, so an instance created without
    # them is stored (and behaves) exactly as before they existed.
    groups = [_positions(names, group, UNKNOWN_IN_HOUSEHOLD) for group in data["households"]]
    pairs = [_positions(names, [pair["giver"], pair["giftee"]]) for pair in data["exclusions"]]
    pairs = [pair for pair in pairs if pair[0] != pair[1]]
    if groups or pairs:
        instance.data.update(size=len(names), households=groups, exclusions=pairs)
    LINKS.keep_option(instance, data)
    if data["questions"]:
        instance.data["questions"] = True
    groups, forbidden = _rules(instance.data)
    try:
        giftees = allowed_loop(len(names), forbidden, groups)
        if forbidden:
            # At least one other loop must exist, or the exclusions alone would tell the
            # organiser who drew whom (and no redraw could change anything).
            check_another_exists(len(names), forbidden, giftees)
    except NoLoop as error:
        raise bad_request(_no_loop(names, error)) from None
    KringlePerson.insert_many([
        {"instance": instance, "position": position, "name": name,
         "giftee": giftees[position]}
        for position, name in enumerate(names)]).execute()
    for person in _people(instance):
        LINKS.issue(instance, person.id)


def _personal(instance: Instance) -> bool:
    return LINKS.on(instance)


def _questions(instance: Instance) -> bool:
    return bool(instance.data.get("questions"))


def _people(instance: Instance) -> list[KringlePerson]:
    return list(KringlePerson.select().where(KringlePerson.instance == instance)
                .order_by(KringlePerson.position))


def _find(instance: Instance, name: str) -> KringlePerson:
    """The person whose name is `name` (already cleaned) as names compare (`text_key`),
    else 404. A draw made before look-alike letters counted may hold two such names: the
    one spelled exactly as sent is the one meant."""
    key = text_key(name)
    found = [person for person in _people(instance) if name and text_key(person.name) == key]
    if not found:
        raise not_found(NOT_IN_DRAW)
    return min(found, key=lambda person: person.name != name)


def _holder(instance: Instance, credential: Credential | None) -> KringlePerson:
    """The person a private link belongs to (a reset link's kind names nobody)."""
    return PEOPLE.find_own(instance, credential if credential is not None
                           and credential.kind == TOKEN_KIND else None)


def _used(call: Call, person: KringlePerson) -> None:
    """With personal links, writing through a link (a wishlist, a question) goes on record
    as its first opening when nobody had opened it, just as reading it does: whoever holds
    a link unseen cannot act as its owner without the owner's page and the organiser's
    list showing it. Without personal links "opened" says who has seen the current draw,
    which a write does not show."""
    if _personal(call.instance) and person.opened_at is None:
        KringlePerson.update(opened_at=call.now).where(KringlePerson.id == person.id).execute()


def _details(instance: Instance) -> dict[str, Any]:
    data = instance.data
    return {"title": instance.title, "heading": instance.title or DEFAULT_HEADING,
            "budget": data["budget"], "exchangeDate": data["exchangeDate"],
            "note": data["note"]}


def _resets(instance: Instance) -> list[dict[str, Any]]:
    """Every reset the organiser made, oldest first: for everybody to see."""
    rows = (KringleReset.select(KringleReset, KringlePerson).join(KringlePerson)
            .where(KringleReset.instance == instance).order_by(KringleReset.id))
    return [{"name": row.person.name, "at": utc_iso(row.at)} for row in rows]


# --- views --------------------------------------------------------------------------------

def public_view(instance: Instance) -> dict[str, Any]:
    """The claim page: the details and who is in the draw, with who has claimed, and every
    reset the organiser made. Nothing about who drew whom, no wishlists (they are for each
    person's Kris Kringle), no exclusions."""
    view = {**_details(instance),
            "people": [{"name": person.name, "claimed": person.claimed_at is not None}
                       for person in _people(instance)],
            "resets": _resets(instance)}
    if _personal(instance):
        view["personalLinks"] = True
    return view


def named_people(instance: Instance) -> list[tuple[int, str]]:
    """Each person's id and name, in the organiser's order: whom personal links go to."""
    return [(person.id, person.name) for person in _people(instance)]


def organiser_view(instance: Instance) -> dict[str, Any]:
    """Who has claimed and who has opened their page, the resets, and with personal links
    each person's link; never who drew whom, never a wishlist or a question. Also the
    export."""
    links = LINKS.links(instance)
    people: list[dict[str, Any]] = []
    for person in _people(instance):
        entry = {"name": person.name, "claimed": person.claimed_at is not None,
                 "claimedAt": utc_iso(person.claimed_at), "opened": person.opened_at is not None,
                 "openedAt": utc_iso(person.opened_at)}
        if str(person.id) in links:
            entry["link"] = links[str(person.id)]
        people.append(entry)
    view = {**_details(instance), "people": people,
            "claimedCount": sum(person["claimed"] for person in people),
            "openedCount": sum(person["opened"] for person in people),
            "resets": _resets(instance)}
    names = [person["name"] for person in people]
    if "households" in instance.data:
        view["households"] = [[names[p] for p in group]
                              for group in instance.data["households"]]
        view["exclusions"] = [{"giver": names[giver], "giftee": names[giftee]}
                              for giver, giftee in instance.data["exclusions"]]
    for option in ("personalLinks", "questions"):
        if instance.data.get(option):
            view[option] = True
    return view


def _conversation(santa: KringlePerson, giftee: KringlePerson,
                  as_santa: bool) -> list[dict[str, Any]]:
    rows = (KringleMessage.select().where((KringleMessage.santa == santa)
                                          & (KringleMessage.giftee == giftee))
            .order_by(KringleMessage.id))
    return [{"mine": row.from_santa == as_santa, "text": row.text, "at": utc_iso(row.at)}
            for row in rows]


def private_view(instance: Instance, person: KringlePerson) -> dict[str, Any]:
    """One person's page: their giftee and the giftee's wishlist, the details, and their own
    wishlist (which only their own Kris Kringle reads). With questions on, the two
    conversations: with their giftee, and with their Kris Kringle, whose name never
    appears."""
    giftee = KringlePerson.get((KringlePerson.instance == instance)
                               & (KringlePerson.position == person.giftee))
    view = {**_details(instance), "name": person.name, "giftee": giftee.name,
            "gifteeWishlist": giftee.wishlist, "myWishlist": person.wishlist}
    if _personal(instance):
        view["firstOpenedAt"] = utc_iso(person.opened_at)
    if _questions(instance):
        santa = KringlePerson.get((KringlePerson.instance == instance)
                                  & (KringlePerson.giftee == person.position))
        view["questions"] = {"withGiftee": _conversation(person, giftee, True),
                             "withSanta": _conversation(santa, person, False),
                             "limit": MAX_QUESTIONS}
    return view


def reset_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """What an old link shows after the organiser reset it: whose it was and when, nothing
    of the draw."""
    row = None
    if credential.ref.isdigit():
        row = (KringleReset.select(KringleReset, KringlePerson).join(KringlePerson)
               .where((KringleReset.id == int(credential.ref))
                      & (KringleReset.instance == instance)).first())
    if row is None:
        raise not_found()
    return {**_details(instance), "resetOf": row.person.name, "resetAt": utc_iso(row.at),
            "personalLinks": _personal(instance)}


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """The private page; the first visit is noted so the organiser sees who has looked (and,
    with personal links, the page itself says when it was first opened)."""
    if credential.kind == RESET_KIND:
        return reset_view(instance, credential)
    person = _holder(instance, credential)
    if person.opened_at is None:
        person.opened_at = utcnow()
        KringlePerson.update(opened_at=person.opened_at).where(
            KringlePerson.id == person.id).execute()
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
_RESETS_SCHEMA: dict[str, Any] = {
    "type": "array", "description": "every reset the organiser made, oldest first (a reset "
    "is never silent: it is how an organiser could read someone's giftee)",
    "items": {"type": "object", "properties": {
        "name": {"type": "string"}, "at": {"type": "string", "format": "date-time"}}}}
PUBLIC_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    **_DETAILS_SCHEMA,
    "people": {"type": "array", "description": "in the organiser's order", "items": {
        "type": "object", "properties": {"name": {"type": "string"},
                                         "claimed": {"type": "boolean"}}}},
    "resets": _RESETS_SCHEMA,
    "personalLinks": {"type": "boolean", "description": "present (true) only when the "
                      "organiser hands out personal links: names cannot be claimed"}}}
_MESSAGES_SCHEMA: dict[str, Any] = {"type": "array", "items": {
    "type": "object", "properties": {
        "mine": {"type": "boolean", "description": "written by this page's holder"},
        "text": {"type": "string"}, "at": {"type": "string", "format": "date-time"}}}}
PRIVATE_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    **_DETAILS_SCHEMA,
    "name": {"type": "string", "description": "whose link this is"},
    "giftee": {"type": "string", "description": "the one person they buy for"},
    "gifteeWishlist": {"type": "string"},
    "myWishlist": {"type": "string", "description": "read by their own Kris Kringle only"},
    "firstOpenedAt": {"type": ["string", "null"], "format": "date-time", "description": (
        "personal links only: when this link's page was first opened (since the link was "
        "issued; a redraw keeps it); a time its holder does not recognise means someone "
        "else opened it first")},
    "questions": {"type": "object", "description": "only when the draw has questions on",
                  "properties": {
                      "withGiftee": {**_MESSAGES_SCHEMA,
                                     "description": "with the person this holder buys for"},
                      "withSanta": {**_MESSAGES_SCHEMA, "description": (
                          "with whoever drew this holder; never names them")},
                      "limit": {"type": "integer",
                                "description": "most messages per conversation"}}}}}
TOKEN_REPLY = token_reply("the private link is `/p/{token}`; keep it, it is shown only once")
WISHLIST_REPLY = {"type": "object", "properties": {
    "ok": {"type": "boolean"}, "wishlist": {"type": "string", "description": "as stored"}}}
RESET_REPLY = ok_reply(reset="false when the name was not claimed")


# --- operations ---------------------------------------------------------------------------

@ops.public("claim", body=NameBody, returns=TOKEN_REPLY, errors={
    404: f"Unknown slug (`Nothing here — check the link you were given.`), or the name "
         f"(C({NAME_LIMIT}), compared ignoring case and look-alike letters) is blank or not "
         f"in the draw: `{NOT_IN_DRAW}`",
    409: f"The name is already claimed: `{ALREADY_CLAIMED}`; or the draw uses personal "
         f"links: `{PERSONAL_LINKS}`"})
def claim(call: Call) -> dict[str, Any]:
    """Claim your name; returns the token of your private page `/p/{token}`."""
    LINKS.refuse_claim(call.instance)
    person = _find(call.instance, call.data["name"])
    claim_once(person, KringlePerson.claimed_at, call.now, ALREADY_CLAIMED)
    return {"token": issue_token(call.instance, TOKEN_KIND, str(person.id))}


@ops.participant("p/{token}", method="GET", token_kinds=[TOKEN_KIND], returns=PRIVATE_SCHEMA,
                 errors={409: f"Personal links only, before the page `/p/{{token}}` has been "
                              f"opened: `{OPEN_FIRST}`"})
def read_private(call: Call) -> Reply:
    """Your giftee, their wishlist, the details and your own wishlist.

    What the private page `/p/{token}` shows, as JSON. Reading it here does not count as opening the
    page; with personal links it answers only once the page has been opened, so every reading of a
    personal link is on record.
    """
    person = _holder(call.instance, call.credential)
    if _personal(call.instance) and person.opened_at is None:
        raise conflict(OPEN_FIRST)
    # One person's secret: no shared cache may keep it.
    return Reply(private_view(call.instance, person), headers={"Cache-Control": "no-store"})


@ops.participant("p/{token}/wishlist", body=WishlistBody, token_kinds=[TOKEN_KIND],
                 returns=WISHLIST_REPLY,
                 description=f"`text` is trimmed, CRLF becomes LF, and it is cut to "
                             f"{WISHLIST_LIMIT} characters (never an error); saving again "
                             "replaces it, an empty text clears it. Only the person who drew "
                             "you sees it, on their private page. With personal links, saving "
                             "through a link nobody has opened counts as its first opening.")
def wishlist(call: Call) -> dict[str, Any]:
    """Save your wishlist for whoever drew you."""
    person = _holder(call.instance, call.credential)
    _used(call, person)
    KringlePerson.update(wishlist=call.data["text"]).where(
        KringlePerson.id == person.id).execute()
    return {"ok": True, "wishlist": call.data["text"]}


@ops.participant("p/{token}/ask", body=QuestionBody, token_kinds=[TOKEN_KIND],
                 returns=OK_REPLY, errors={
                     400: f"`to` is neither `giftee` nor `santa`: `{WHO_TO}`; or `text` is "
                          f"blank: `{NO_TEXT}`",
                     409: f"The draw has no questions: `{QUESTIONS_OFF}`; or the "
                          f"conversation already holds {MAX_QUESTIONS} messages: "
                          f"`{CONVERSATION_FULL.format(n=MAX_QUESTIONS)}`"},
                 description=f"Only when the draw was created with `questions`. Adds a "
                             f"message to the conversation with the person you buy for "
                             f"(`to: giftee`) or with whoever drew you (`to: santa`). `text` "
                             f"is trimmed, CRLF becomes LF, cut to {QUESTION_LIMIT} "
                             f"characters. Only the two private pages of that pair show it, "
                             f"and never with the Kris Kringle's name; the organiser never "
                             f"sees it. A redraw starts every conversation afresh; a reset "
                             f"wipes the reset person's two. With personal links, asking "
                             f"through a link nobody has opened counts as its first opening.")
def ask(call: Call) -> dict[str, Any]:
    """Ask (or answer) your giftee or your Kris Kringle, anonymously."""
    person = _holder(call.instance, call.credential)
    if not _questions(call.instance):
        raise conflict(QUESTIONS_OFF)
    to = call.data["to"].casefold()
    if to not in ("giftee", "santa"):
        raise bad_request(WHO_TO)
    if not call.data["text"]:
        raise bad_request(NO_TEXT)
    if to == "giftee":
        santa = person
        giftee = KringlePerson.get((KringlePerson.instance == call.instance)
                                   & (KringlePerson.position == person.giftee))
    else:
        santa = KringlePerson.get((KringlePerson.instance == call.instance)
                                  & (KringlePerson.giftee == person.position))
        giftee = person
    held = KringleMessage.select().where((KringleMessage.santa == santa)
                                         & (KringleMessage.giftee == giftee)).count()
    if held >= MAX_QUESTIONS:
        raise conflict(message(CONVERSATION_FULL, n=MAX_QUESTIONS))
    _used(call, person)
    KringleMessage.create(instance=call.instance, santa=santa, giftee=giftee,
                          from_santa=to == "giftee", text=call.data["text"],
                          at=call.now)
    return {"ok": True}


def _wipe_conversations(instance: Instance, person: KringlePerson | None = None) -> None:
    query = KringleMessage.delete().where(KringleMessage.instance == instance)
    if person is not None:
        query = query.where((KringleMessage.santa == person) | (KringleMessage.giftee == person))
    query.execute()


@ops.organiser("reset", body=NameBody, returns=RESET_REPLY, errors={
    404: f"Unknown editToken, or the name is blank or not in the draw: `{NOT_IN_DRAW}`"})
def reset(call: Call) -> dict[str, Any]:
    """Reset one person so their name can be claimed again.

    The person's private link stops working at once, the note that they opened it is cleared and
    their wishlist (and, with questions, their two conversations) is wiped (the usual reason for a
    reset is that someone else claimed the name). They keep the same giftee; claiming the name again
    issues a fresh link. A reset is never silent: the share page and `resets` of the public read
    list who was reset and when, and the old link's page says the organiser reset it and when. With
    personal links a reset issues the person a fresh personal link (on the organiser page) and
    always answers `reset: true`. Resetting an unclaimed name changes nothing and answers `reset:
    false`.
    """
    person = _find(call.instance, call.data["name"])
    personal = _personal(call.instance)
    was_claimed = personal or person.claimed_at is not None
    if was_claimed:
        record = KringleReset.create(instance=call.instance, person=person,
                                     at=call.now)
        # The old link now opens a page that says what happened, and nothing else.
        Credential.update(kind=RESET_KIND, ref=str(record.id), plain=None).where(
            (Credential.instance == call.instance) & (Credential.kind == TOKEN_KIND)
            & (Credential.ref == str(person.id))).execute()
        _wipe_conversations(call.instance, person)
    revoke_tokens(call.instance, TOKEN_KIND, str(person.id))
    KringlePerson.update(claimed_at=None, opened_at=None, wishlist="").where(
        KringlePerson.id == person.id).execute()
    LINKS.issue(call.instance, person.id)
    return {"ok": True, "reset": was_claimed}


@ops.organiser("redraw", returns=OK_REPLY, errors={
    409: f"Exclusions only: `{NO_OTHER_LOOP}`, or `{NO_OTHER_FOUND}`"})
def redraw(call: Call) -> dict[str, Any]:
    """Reshuffle the whole loop.

    Draws a new single loop through everybody, uniformly at random among the loops other than the
    current one (that respect the exclusions, when there are some). Claims, private links and
    wishlists stay: a link belongs to a person, not to a pairing, so each private page simply shows
    the new giftee. Who has opened their page is cleared, so the organiser can see who has seen the
    new draw (with personal links it stays: a link's first opening is what tells its owner whether
    someone looked first), and every anonymous conversation starts afresh. The answer never says who
    drew whom.
    """
    people = _people(call.instance)
    groups, forbidden = _rules(call.instance.data)
    try:
        giftees = allowed_loop(len(people), forbidden, groups,
                               avoid=[person.giftee for person in people])
    except NoLoop as error:
        raise conflict(NO_OTHER_FOUND if error.problem == draw.TOO_HARD else NO_OTHER_LOOP) \
            from None
    # With personal links the first opening belongs to the link, not the draw: clearing it
    # would let whoever peeked before a redraw vanish from its owner's page.
    cleared = {} if _personal(call.instance) else {"opened_at": None}
    for person in people:
        KringlePerson.update(giftee=giftees[person.position], **cleared).where(
            KringlePerson.id == person.id).execute()
    _wipe_conversations(call.instance)
    return {"ok": True}
