"""Sign-up boards: groups of spots people claim with a secret, edited by the organiser
without losing a claim, drawn by the kernel on the public and organiser pages, exported as
CSV. The building block of Bring a Plate, the Volunteer Roster, the Meal Train and the Hens
planner; see docs/how-to/signup-board.md.
"""

from __future__ import annotations

from groupkit.blocks._signup import SignUp
from groupkit.blocks._signup import board_views
from groupkit.blocks._signup import claim_details
from groupkit.blocks._signup import group_lists
from groupkit.blocks._signup import group_spots
from groupkit.blocks._signup import signup_operations
from groupkit.blocks._signup import spots_schema
from groupkit.blocks._signup import stored_groups
from groupkit.blocks._slots import SlotClaim
from groupkit.blocks._slots import board_edit
from groupkit.blocks._slots import claim_slot
from groupkit.blocks._slots import claims_by_slot
from groupkit.blocks._slots import csv_reply
from groupkit.blocks._slots import regroup_slots
from groupkit.blocks._slots import release_slot
from groupkit.blocks._slots import remove_slot
from groupkit.blocks._slots import slot_group
from groupkit.blocks._slots import slot_ids
from groupkit.blocks._slots import spot_board
from groupkit.blocks._slots import was_field

__all__ = [
    "SignUp",
    "SlotClaim",
    "board_edit",
    "board_views",
    "claim_details",
    "claim_slot",
    "claims_by_slot",
    "csv_reply",
    "group_lists",
    "group_spots",
    "regroup_slots",
    "release_slot",
    "remove_slot",
    "signup_operations",
    "slot_group",
    "slot_ids",
    "spot_board",
    "spots_schema",
    "stored_groups",
    "was_field",
]
