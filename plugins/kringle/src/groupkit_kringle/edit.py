"""Kris Kringle: the organiser's edit. Title, budget, exchange date and note change as sent;
a changed list of names changes the draw as little as it can.

Whoever has seen who they buy for (claimed their name, or opened their personal link) keeps
their giftee whenever that giftee stays in the draw; the rest of the loop is drawn again
(`draw.complete_loop`), still one single loop that keeps the exclusions. Every decision the
organiser can see (a 400, a 409, the reply, the organiser page after it) depends only on the
names, who has claimed or opened and the exclusions, never on the stored loop: which way the
loop is repaired is for the private pages alone. For the same reason an edit never clears
who has opened their page (clearing it for those whose giftee changed would tell).
"""

from __future__ import annotations

from typing import Any

from groupkit import N_
from groupkit import Call
from groupkit import Edit
from groupkit import Instance
from groupkit import bad_request
from groupkit import conflict
from groupkit import message
from groupkit import revoke_tokens
from groupkit import text_key as key_of

from .api import LINKS
from .api import RESET_KIND as RESET
from .api import TOKEN_KIND
from .api import _named
from .api import _no_loop
from .api import _people
from .api import _personal
from .api import _rules
from .draw import NoLoop
from .draw import allowed_loop
from .draw import check_another_exists
from .draw import complete_loop
from .models import KringleMessage
from .models import KringlePerson
from .models import KringleReset

FIELDS = ("title", "names", "budget", "exchangeDate", "note")

REMOVE_CLAIMED = N_("Already claimed: {names}. Remove anyway? Their private links stop "
                    "working, and whoever drew them gets someone new.")
REMOVE_OPENED = N_("Already opened their personal link: {names}. Remove anyway? Their links "
                   "stop working, and whoever drew them gets someone new.")
REDRAW_ALL = N_("Everyone has already seen who they're buying for, so adding someone draws "
                "everybody again — people may end up buying for someone else. Go ahead?")
REDRAW_RULES = N_("With households or exclusions, changing who's in the draw may draw "
                  "everybody again — people who have already looked may end up buying for "
                  "someone else. Go ahead?")

DESCRIPTION = (
    "Kris Kringle: `title`, `budget`, `exchangeDate` and `note` change as sent. `names` is "
    "the whole new list (create rules); a name is the same person when it matches ignoring "
    "case and look-alike letters (so fixing its case keeps them), and the list's order "
    "becomes the draw's order. Whoever has already claimed their name (with personal links: "
    "opened their link) keeps their giftee while that giftee stays in the draw; everybody "
    "else is drawn again, still one single loop keeping the households and exclusions "
    "(renumbered to the new list; "
    "pairs of a removed name are dropped). Added names with personal links get their link "
    "on the organiser page. Confirmations (409 with `confirm: true`, go ahead by resending "
    f"with `\"confirm\": true`): removing a name that has claimed: `{REMOVE_CLAIMED}` "
    f"(personal links: `{REMOVE_OPENED}`), their link then answers 404; adding a name when "
    f"everyone has claimed, which draws everybody again: `{REDRAW_ALL}`; with households or "
    f"exclusions, adding or removing a name once anyone has claimed: `{REDRAW_RULES}` (the "
    "loop is kept where the rules allow, else drawn again). New names that make the "
    "exclusions impossible are the create's 400. Neither a reply nor the organiser page "
    "depends on the loop, and an edit never clears who has opened their page.")


def current(instance: Instance) -> dict[str, Any]:
    data = instance.data
    return {"title": instance.title, "names": [person.name for person in _people(instance)],
            "budget": data["budget"], "exchangeDate": data["exchangeDate"],
            "note": data["note"]}


def apply_edit(call: Call) -> dict[str, Any]:
    changes = dict(call.data)
    if "names" in changes:
        _edit_names(call, changes.pop("names"))
    return changes


def _seen(instance: Instance, person: KringlePerson) -> bool:
    """Whether this person may know their giftee: claimed, or opened a personal link."""
    return (person.opened_at if _personal(instance) else person.claimed_at) is not None


def _edit_names(call: Call, names: list[str]) -> None:
    instance, data = call.instance, call.instance.data
    people = _people(instance)
    sent = set(names)
    by_key: dict[str, KringlePerson] = {}
    for person in sorted(people, key=lambda person: person.name not in sent):
        # A draw made before look-alike letters counted may hold two names with one key:
        # the one spelled exactly as sent is the person kept.
        by_key.setdefault(key_of(person.name), person)
    kept = [by_key.get(key_of(name)) for name in names]
    staying = {person.id for person in kept if person is not None}
    removed = [person for person in people if person.id not in staying]
    added = sum(person is None for person in kept)
    moved = {person.position: place for place, person in enumerate(kept) if person is not None}
    rules: dict[str, Any] = {}
    if "households" in data:
        groups = [[moved[member] for member in group if member in moved]
                  for group in data["households"]]
        rules = {"size": len(names), "households": [group for group in groups if len(group) > 1],
                 "exclusions": [[moved[giver], moved[giftee]]
                                for giver, giftee in data["exclusions"]
                                if giver in moved and giftee in moved]}
    groups, forbidden = _rules({**data, **rules})
    changed = bool(removed or added)
    whole = None
    if changed and forbidden:
        try:
            whole = allowed_loop(len(names), forbidden, groups)
            check_another_exists(len(names), forbidden, whole)
        except NoLoop as error:
            raise bad_request(_no_loop(names, error), "names") from None
    seen = [person for person in people if _seen(instance, person)]
    if not call.confirmed:
        gone = [person for person in removed if person in seen]
        if gone:
            question = REMOVE_OPENED if _personal(instance) else REMOVE_CLAIMED
            raise conflict(message(question, names=_named([p.name for p in gone],
                                                          list(range(len(gone))))),
                           "names", confirm=True)
        if changed and forbidden and any(person.id in staying for person in seen):
            raise conflict(REDRAW_RULES, "names", confirm=True)
        if added and not removed and len(seen) == len(people):
            raise conflict(REDRAW_ALL, "names", confirm=True)
    if not changed:
        giftees = [moved[person.giftee] for person in kept if person is not None]
    else:
        fixed = {moved[person.position]: moved[person.giftee] for person in seen
                 if person.id in staying and person.giftee in moved}
        try:
            giftees = complete_loop(len(names), fixed, forbidden)
        except NoLoop:
            # Everyone had seen and somebody joins, or the rules leave no way round the
            # kept pairs: draw everybody (the organiser confirmed it above).
            giftees = whole or allowed_loop(len(names), forbidden, groups)
    _store(instance, names, kept, removed, giftees)
    instance.data = {**data, **rules}


def _store(instance: Instance, names: list[str], kept: list[KringlePerson | None],
           removed: list[KringlePerson], giftees: list[int]) -> None:
    for person in removed:
        revoke_tokens(instance, TOKEN_KIND, str(person.id))
        for reset in KringleReset.select().where(KringleReset.person == person):
            revoke_tokens(instance, RESET, str(reset.id))
        KringleReset.delete().where(KringleReset.person == person).execute()
        KringleMessage.delete().where((KringleMessage.santa == person)
                                      | (KringleMessage.giftee == person)).execute()
        person.delete_instance()
    # Positions are unique per draw: park the kept people first, then place everyone.
    for place, parked in enumerate(kept):
        if parked is not None:
            KringlePerson.update(position=-1 - place).where(
                KringlePerson.id == parked.id).execute()
    ids: list[int] = []
    for place, kept_person in enumerate(kept):
        if kept_person is None:
            row = KringlePerson.create(instance=instance, position=place, name=names[place],
                                       giftee=giftees[place])
            LINKS.issue(instance, row.id)
            ids.append(row.id)
        else:
            KringlePerson.update(position=place, name=names[place],
                                 giftee=giftees[place]).where(
                KringlePerson.id == kept_person.id).execute()
            ids.append(kept_person.id)
    # A conversation belongs to a pair: the pairs the edit broke start afresh.
    pairs = {(ids[place], ids[target]) for place, target in enumerate(giftees)}
    rows: Any = KringleMessage.select(KringleMessage.id, KringleMessage.santa,
                                      KringleMessage.giftee).where(
        KringleMessage.instance == instance).tuples()
    stale = [message for message, santa, giftee in rows if (santa, giftee) not in pairs]
    if stale:
        KringleMessage.delete().where(KringleMessage.id.in_(stale)).execute()


EDIT = Edit(fields=FIELDS, current=current, apply=apply_edit, description=DESCRIPTION,
            errors={409: f"With `confirm: true`: `{REMOVE_CLAIMED}`, `{REMOVE_OPENED}`, "
                         f"`{REDRAW_ALL}` or `{REDRAW_RULES}` (see above)."})
