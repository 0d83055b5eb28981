"""`GroupSpots` answers a lookup without listing the board: it must hold exactly the spots
`slot_ids` lists, spelled exactly as it spells them."""

from __future__ import annotations

from groupkit.blocks._slots import GroupSpots
from groupkit.blocks._slots import slot_ids

GROUPS = [{"name": "Mains", "capacity": 3}, {"name": "Moved", "capacity": 2, "slotNumber": 5},
          {"name": "Sides", "capacity": 1}]


def test_the_same_spots_as_the_list() -> None:
    spots = GroupSpots(GROUPS, "c")
    listed = slot_ids(GROUPS, "c")
    assert list(spots) == listed
    assert len(spots) == len(listed) == 6
    assert dict(spots) == dict.fromkeys(listed, "")


def test_only_the_listed_spelling_is_a_spot() -> None:
    spots = GroupSpots(GROUPS, "c")
    for slot_id in ["c0-1", "c0-3", "c5-2", "c2-1"]:
        assert spots.get(slot_id) == "", slot_id
    for slot_id in ["c0-0", "c0-4", "c1-1", "c5-3", "c2-2", "c01-1", "c0-01", "c\u00b2-1",
                    "c\u0663-1", "c0-1 ", " c0-1", "s0-1", "c", "c-1", "c0-", "c0-1-1"]:
        assert spots.get(slot_id) is None, slot_id
        assert slot_id not in spots
