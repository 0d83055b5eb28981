"""Tournament Bracket: a single-elimination bracket with byes, results recorded by the organiser."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import BRACKET_SCHEMA
from .schema import MAX_ENTRANTS
from .schema import CreateBracket

groupkit_tool = Tool.hook(
    api, hidden=(), create_schema=CreateBracket, limits={"entrants": MAX_ENTRANTS},
    public_schema=BRACKET_SCHEMA,
)
