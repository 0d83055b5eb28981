"""Fact Matcher: everyone adds a fact about themselves; the group guesses who wrote which."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import BOARD_SCHEMA
from .api import LINKS
from .api import PERSON
from .api import PERSON_RESET
from .models import Person
from .schema import FACT_LIMIT
from .schema import MAX_NAMES
from .schema import CreateFact

groupkit_tool = Tool.hook(
    api, hidden=(), create_schema=CreateFact, participant_kinds=(PERSON, PERSON_RESET),
    reset_kinds=(PERSON_RESET,),
    models=[Person], limits={"names": MAX_NAMES, "factCharacters": FACT_LIMIT},
    public_schema=BOARD_SCHEMA, invite=LINKS.invitations(api.named_people),
)
