"""Recipe Collection: create, views, and adding, saving and removing recipes."""

from __future__ import annotations

from typing import Any

from groupkit import N_
from groupkit import Call
from groupkit import Credential
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import checked_in_order
from groupkit import gettext
from groupkit import utc_iso
from groupkit.entries import OK_REPLY
from groupkit.entries import Entries
from groupkit.entries import entries_schema
from groupkit.entries import token_reply
from groupkit.entries import token_schema
from groupkit.signups import board_views

from .models import Recipe
from .schema import LIMITS
from .schema import NO_COOK
from .schema import NO_DISH
from .schema import NO_INGREDIENTS
from .schema import NO_METHOD
from .schema import RecipeBody
from .schema import RemoveBody

ops = Operations()

MAX_RECIPES = 200
TOKEN_KIND = "recipe"
OPTIONAL = ("serves", "story")

FULL = N_("This book's full — 200 recipes is the limit.")
UNKNOWN_RECIPE = N_("That recipe isn't in this book any more — it may have been removed.")
#: A link preview's invitation, in the reader's language.
BOOK_FOR = N_("A shared recipe book for {name}: read it, print it, add your own.")
BOOK = N_("A shared recipe book: read it, print it, add your own.")

RECIPES = Entries(Recipe, TOKEN_KIND, UNKNOWN_RECIPE)


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"forWhom": data["forWhom"], "note": data["note"]}


def _recipe(row: Recipe, rtoken: str | None = None) -> dict[str, Any]:
    """A recipe as shown: empty optional fields are left out, not sent empty."""
    shown: dict[str, Any] = {"id": row.code, "cook": row.cook, "dish": row.dish,
                             "ingredients": row.ingredients, "method": row.method}
    shown.update({key: getattr(row, key) for key in OPTIONAL if getattr(row, key)})
    if rtoken is not None:
        shown.update(rtoken=rtoken, addedAt=utc_iso(row.created),
                     updatedAt=utc_iso(row.updated))
    return shown


def _book(instance: Instance, organiser: bool) -> dict[str, Any]:
    """Public: the book as everyone reads it. Never a contributor token. Organiser: the book plus
    each recipe's contributor token (`rtoken`) and its dates."""
    rows = (Recipe.select().where(Recipe.instance == instance)
            .order_by(Recipe.created, Recipe.id))
    rtokens = RECIPES.plain_tokens(instance) if organiser else {}
    return {"title": instance.title, "forWhom": instance.data["forWhom"],
            "note": instance.data["note"], "limit": MAX_RECIPES,
            "recipes": [_recipe(row, rtokens.get(row.code) if organiser else None)
                        for row in rows]}


public_view, organiser_view = board_views(_book)


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """The contributor's own page: their recipe, to edit or remove."""
    row = RECIPES.find(instance, credential.ref)
    return {"title": instance.title, "forWhom": instance.data["forWhom"],
            "recipe": _recipe(row)}


def preview(instance: Instance) -> dict[str, Any]:
    whom = instance.data["forWhom"]
    return {"title": instance.title,
            "description": gettext(BOOK_FOR).format(name=whom) if whom else gettext(BOOK)}


def _recipe_schema(organiser: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {"id": {"type": "string"}}
    for key, limit in LIMITS.items():
        properties[key] = {"type": "string", "maxLength": limit}
    for key in OPTIONAL:
        properties[key]["description"] = "left out when empty"
    if organiser:
        properties.update(
            rtoken=token_schema(),
            addedAt={"type": "string", "format": "date-time"},
            updatedAt={"type": "string", "format": "date-time"})
    return {"type": "object", "required": ["id", "cook", "dish", "ingredients", "method"],
            "properties": properties}


def book_schema(organiser: bool = False) -> dict[str, Any]:
    return {"type": "object", "properties": {
        "title": {"type": "string"}, "forWhom": {"type": "string"}, "note": {"type": "string"},
        **entries_schema("recipes", _recipe_schema(organiser),
                         limit="most recipes a book holds", order="in the order they were added")}}


TOKEN_REPLY = token_reply("keep it: it edits and removes this recipe "
                          "(`/api/recipe/r/{token}/...`) and opens `/p/{token}`",
                          "the recipe's id")
SAVED_REPLY = {"type": "object", "properties": {"ok": {"type": "boolean"},
                                                "id": {"type": "string"}}}
FIELD_ERRORS = checked_in_order(
    (f"cook empty (C({LIMITS['cook']}))", NO_COOK), (f"dish empty (C({LIMITS['dish']}))", NO_DISH),
    (f"ingredients empty (T({LIMITS['ingredients']}))", NO_INGREDIENTS),
    (f"method empty (T({LIMITS['method']}))", NO_METHOD),
    then=f"serves (C({LIMITS['serves']})) and story (T({LIMITS['story']})) are optional and "
         "dropped when empty.")


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    return {key: data[key] for key in LIMITS}


@ops.public("add", body=RecipeBody, status=201, returns=TOKEN_REPLY, errors={
    400: FIELD_ERRORS, 409: f"The book already holds {MAX_RECIPES} recipes: `{FULL}`"},
    description="Counted and written under the instance lock, so concurrent additions "
                f"never take a book past {MAX_RECIPES} recipes.")
def add(call: Call) -> dict[str, Any]:
    """Add a recipe to the book; returns its id and the contributor's token."""
    row, token = RECIPES.add(call.instance, MAX_RECIPES, FULL, keep_plain=True,
                             created=call.now, updated=call.now, **_fields(call.data))
    return {"token": token, "id": row.code}


@ops.participant("r/{token}/save", token_kinds=[TOKEN_KIND], body=RecipeBody,
                 returns=SAVED_REPLY, errors={400: FIELD_ERRORS})
def save(call: Call) -> dict[str, Any]:
    """Edit your own recipe.

    The body is the whole recipe, checked as on `add` (without `slug`): it replaces the stored one,
    so an optional field left out or empty is dropped.
    """
    row = RECIPES.find_own(call.instance, call.credential)
    for key, value in _fields(call.data).items():
        setattr(row, key, value)
    row.updated = call.now
    row.save()
    return {"ok": True, "id": row.code}


@ops.participant("r/{token}/remove", token_kinds=[TOKEN_KIND], returns=OK_REPLY)
def remove_own(call: Call) -> dict[str, Any]:
    """Remove your own recipe.

    The recipe and its token go; a second call is a 404.
    """
    RECIPES.remove(call.instance, RECIPES.find_own(call.instance, call.credential))
    return {"ok": True}


@ops.organiser("remove", body=RemoveBody, returns=OK_REPLY, errors={
    404: f"Unknown editToken, or `rtoken` names no recipe in this book: `{UNKNOWN_RECIPE}`"})
def remove(call: Call) -> dict[str, Any]:
    """Remove any one recipe.

    `rtoken` is the recipe's contributor token, shown on the organiser page and in the export (and
    never on the public page or read).
    """
    RECIPES.remove(call.instance, RECIPES.find_by_token(call.instance, call.data["rtoken"]))
    return {"ok": True}


EDIT = Edit(fields=("title", "forWhom", "note"), description="Every recipe stays as it was.")
