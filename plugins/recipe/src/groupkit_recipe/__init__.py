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
    api, name="recipe", title="Recipe Collection",
    plugin_api=(1, 1), hidden=(), group="celebrations", icon="📖",
    summary="A shared recipe book: everyone adds their favourites, and it reads well "
            "on screen and on paper.",
    create_schema=CreateRecipe, participant_kinds=(TOKEN_KIND,), models=[Recipe],
    limits={"recipes": MAX_RECIPES}, public_schema=book_schema(),
    description="Recipes are listed in the order they were added. The contributor's "
                "token (22 characters) edits and removes their recipe and opens "
                "`/p/{token}`, their own page for it; it is never on the public page or "
                "read, and the organiser page shows it (as `rtoken`) so the organiser "
                "can pass a lost link back or remove the recipe. An unknown recipe is "
                "a 404. The book's title message (unspecified wording): `What's the "
                "book called? Add a name.`",
    example={"title": "The Nguyen family cookbook", "forWhom": "Mum's 70th",
             "note": "Add the dishes you grew up with.\nOne recipe each to start."},
)
