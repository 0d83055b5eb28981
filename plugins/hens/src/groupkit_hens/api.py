"""Hens & Shower Planner: create, views, link previews, and claiming, releasing and
removing spots on the who-brings-what lists."""

from __future__ import annotations

from typing import Any

from groupkit import N_
from groupkit import Credential
from groupkit import Edit
from groupkit import Instance
from groupkit import Line
from groupkit import Operations
from groupkit import gettext
from groupkit.signups import SignUp
from groupkit.signups import board_edit
from groupkit.signups import board_views
from groupkit.signups import claim_details
from groupkit.signups import group_spots
from groupkit.signups import signup_operations
from groupkit.signups import spot_board
from groupkit.signups import spots_schema
from groupkit.signups import stored_groups

from .guests import guest_list
from .guests import guest_operations
from .guests import guests_schema
from .guests import my_answer
from .schema import LIST_HELD
from .schema import LIST_SHRUNK
from .schema import MESSAGE_LIMIT
from .schema import SLOT_ID
from .schema import EditHens

ops = Operations()

BAD_SLOT = N_("That spot doesn't exist on this board.")
NO_NAME = N_("Add your name so people know who's got it.")
TAKEN = N_("Someone grabbed that spot seconds ago — pick another.")
#: A link preview's words, in the reader's language.
FOR_WHOM = N_("For {name}")
SEE_THE_PLANS = N_("See the plans and put your name down for something.")

#: The event details kept from the create body, in the order the pages show them.
DETAILS = ("forWhom", "when", "where", "note", "kitty")


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {**{key: data[key] for key in DETAILS},
                     "activities": data["activities"],
                     "categories": stored_groups(data["categories"])}


def _board(instance: Instance, organiser: bool) -> dict[str, Any]:
    data = instance.data
    categories = spot_board(instance, data["categories"], "c", organiser=organiser,
                            extra=claim_details("message"))
    return {"title": instance.title, **{key: data[key] for key in DETAILS},
            "activities": list(data["activities"]), "categories": categories,
            "guests": guest_list(instance, organiser)}


#: The public view: the share page: event details (the place included), the running order, the
#: kitty, who has which spot with their message, and the guest list's counts and who's going.
#: No secrets, no guest's note. The organiser's: the public board plus when each spot was
#: claimed and every answer with its note.
public_view, organiser_view = board_views(_board)


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """A guest's own page: the event details, the guest list as everyone sees it, and their
    own answer with its note, to change it."""
    return {**public_view(instance), "me": my_answer(instance, credential)}


def preview(instance: Instance) -> dict[str, Any]:
    """Link-preview metadata: the title and who it's for and when. Never `where`: a share
    link pasted into a group chat must not put the address in the preview card."""
    data = instance.data
    about = " · ".join(part for part in (
        gettext(FOR_WHOM).format(name=data["forWhom"]) if data["forWhom"] else "",
        data["when"]) if part)
    lead = f"{about}. " if about else ""
    return {"title": instance.title, "description": lead + gettext(SEE_THE_PLANS)}


def board_schema(organiser: bool = False) -> dict[str, Any]:
    return {"type": "object", "properties": {
        "title": {"type": "string"},
        "forWhom": {"type": "string"}, "when": {"type": "string"},
        "where": {"type": "string",
                  "description": "shown on the share page, never in link-preview metadata"},
        "note": {"type": "string"}, "kitty": {"type": "string"},
        "activities": {"type": "array", "items": {"type": "string"},
                       "description": "the running order; empty when none was given"},
        "categories": spots_schema(
            "c", {"message": "the claimer's optional message (public)"}, organiser),
        "guests": guests_schema(organiser)}}


BOARD = SignUp(
    spots=group_spots("categories", "c"), bad_slot=BAD_SLOT, no_name=NO_NAME, taken=TAKEN,
    fields={"message": Line(MESSAGE_LIMIT)}, slot_doc=SLOT_ID,
    secret_use="let this spot go yourself",
    docs={"claim": "The message is optional and public: it shows next to the name on the "
                   f"share page (e.g. what they're bringing). It is C({MESSAGE_LIMIT}) and "
                   "never an error."})
signup_operations(ops, BOARD)
guest_operations(ops)


EDIT = Edit(fields=("title", *DETAILS, "activities", "categories"),
            apply=board_edit("categories", "c", removed=LIST_HELD, shrunk=LIST_SHRUNK),
            schema=EditHens, errors={
                409: "Would take away someone's spot: a list someone holds a spot in was "
                     f"left out (`{LIST_HELD}`), or cut below its taken spots "
                     f"(`{LIST_SHRUNK}`); `field` is `categories`, and `confirm: true`. "
                     "With `\"confirm\": true` the edit goes ahead, freeing those spots as "
                     "`remove` does: every spot of a list left out, the latest claims of a "
                     "list cut."})
