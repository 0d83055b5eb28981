"""Office Sweep bodies, fields in the spec's check order."""

from __future__ import annotations

from groupkit import N_
from groupkit import Choice
from groupkit import Count
from groupkit import Schema
from groupkit import StringList
from groupkit import Text

CUP = "cup"
GRAND_FINAL = "final"

FEW_OUTCOMES = N_("Add at least two outcomes.")
SAME_OUTCOME = N_("Outcomes contain a duplicate — each one must be different.")
FEW_NAMES = N_("Add at least two names.")


class CreateSweep(Schema):
    title = Text(80)
    kind = Choice([CUP], default=GRAND_FINAL)
    outcomes = StringList(60, keep_first=64, at_least=Count(2, FEW_OUTCOMES),
                          distinct=SAME_OUTCOME)
    names = StringList(40, keep_first=300, at_least=Count(2, FEW_NAMES))
