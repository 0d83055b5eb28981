"""Recipe Collection: a shared recipe book everyone adds to, for the screen and for print."""

from __future__ import annotations

from groupkit import Tool

from . import api
from .api import MAX_RECIPES
from .api import TOKEN_KIND
from .api import book_schema
from .models import Recipe
from .schema import CreateRecipe

groupkit_tool = Tool.hook(
    api, hidden=(), create_schema=CreateRecipe, participant_kinds=(TOKEN_KIND,),
    models=[Recipe], limits={"recipes": MAX_RECIPES}, public_schema=book_schema(),
)
