"""Adding, saving and removing recipes; the 200-recipe cap."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import error_of

#: A full recipe, every optional field set.
RECIPE = {"cook": "Ann", "dish": "Lemon slice", "ingredients": "1 cup flour\n2 lemons",
          "method": "Mix.\nBake 20 minutes.", "serves": "12 squares",
          "story": "Nana made it every Sunday."}

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
NO_COOK = "Add your name so everyone knows whose recipe it is."
NO_DISH = "What's the dish called? Add its name."
NO_INGREDIENTS = "List the ingredients — one per line is easiest."
NO_METHOD = "Add the method — how do you make it?"
FULL = "This book's full — 200 recipes is the limit."
UNKNOWN = "That recipe isn't in this book any more — it may have been removed."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}
REQUIRED = [("cook", NO_COOK), ("dish", NO_DISH), ("ingredients", NO_INGREDIENTS),
            ("method", NO_METHOD)]


async def add(client: Any, slug: Any, **fields: Any) -> Any:
    return await client.post("/api/recipe/add", json={"slug": slug, **RECIPE, **fields})


async def added(client: Any, slug: str, **fields: Any) -> dict[str, str]:
    response = await add(client, slug, **fields)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    return dict(payload)


async def recipes(client: Any, slug: str) -> list[dict[str, Any]]:
    response = await client.get(f"/api/recipe/{slug}")
    assert response.status_code == 200
    return list((await response.get_json())["recipes"])


# --- add ----------------------------------------------------------------------------------

async def test_add_returns_token_and_id(client: Any, book: dict[str, str]) -> None:
    response = await add(client, book["slug"])
    assert response.status_code == 201
    payload = await response.get_json()
    assert set(payload) == {"token", "id"}
    assert re.fullmatch(rf"[{ALPHABET}]{{22}}", payload["token"])
    assert await recipes(client, book["slug"]) == [{"id": payload["id"], **RECIPE}]


async def test_recipes_keep_the_order_they_were_added(client: Any, book: dict[str, str]) -> None:
    made = [await added(client, book["slug"], dish=dish) for dish in ("Soup", "Bread", "Cake")]
    assert [r["id"] for r in await recipes(client, book["slug"])] == [m["id"] for m in made]
    assert len({m["token"] for m in made}) == 3


@pytest.mark.parametrize("empty", ["", "   ", "\r\n", None, 5, ["x"]])
async def test_empty_optional_fields_are_dropped(client: Any, book: dict[str, str],
                                                 empty: Any) -> None:
    made = await added(client, book["slug"], serves=empty, story=empty)
    (stored,) = await recipes(client, book["slug"])
    assert stored == {"id": made["id"], "cook": "Ann", "dish": "Lemon slice",
                      "ingredients": "1 cup flour\n2 lemons", "method": "Mix.\nBake 20 minutes."}


async def test_optional_fields_may_be_left_out(client: Any, book: dict[str, str]) -> None:
    response = await client.post("/api/recipe/add", json={
        "slug": book["slug"], "cook": "Bo", "dish": "Toast", "ingredients": "Bread",
        "method": "Toast it."})
    assert response.status_code == 201
    (stored,) = await recipes(client, book["slug"])
    assert "serves" not in stored and "story" not in stored


async def test_one_optional_field_alone(client: Any, book: dict[str, str]) -> None:
    await added(client, book["slug"], serves="", story="From Nana.")
    (stored,) = await recipes(client, book["slug"])
    assert stored["story"] == "From Nana." and "serves" not in stored


async def test_fields_are_cleaned_and_cut(client: Any, book: dict[str, str]) -> None:
    await added(client, book["slug"], cook="  Ann \n Lee ", dish=" Lemon \t slice ",
                ingredients="  1 cup flour\r\n2 lemons\r\n  ", method="\r\nMix.\r\n\r\nBake. ",
                serves="  12 \n squares ", story="  Nana's.\r\nEvery Sunday.  ")
    (stored,) = await recipes(client, book["slug"])
    assert stored["cook"] == "Ann Lee" and stored["dish"] == "Lemon slice"
    assert stored["ingredients"] == "1 cup flour\n2 lemons"
    assert stored["method"] == "Mix.\n\nBake."
    assert stored["serves"] == "12 squares"
    assert stored["story"] == "Nana's.\nEvery Sunday."


async def test_limits(client: Any, book: dict[str, str]) -> None:
    await added(client, book["slug"], cook="c" * 100, dish="d" * 200,
                ingredients="i" * 5000, method="m" * 9000, serves="s" * 100, story="t" * 900)
    (stored,) = await recipes(client, book["slug"])
    assert {key: len(value) for key, value in stored.items() if key != "id"} == {
        "cook": 40, "dish": 80, "ingredients": 1500, "method": 2500, "serves": 40,
        "story": 500}


@pytest.mark.parametrize(("field", "message"), REQUIRED)
@pytest.mark.parametrize("empty", ["", "  ", "\r\n", None, 7, ["x"]])
async def test_required_fields(client: Any, book: dict[str, str], field: str, message: str,
                               empty: Any) -> None:
    assert await error_of(await add(client, book["slug"], **{field: empty}), 400) == message


@pytest.mark.parametrize(("field", "message"), REQUIRED)
async def test_required_field_missing(client: Any, book: dict[str, str], field: str,
                                      message: str) -> None:
    body = {"slug": book["slug"], **{k: v for k, v in RECIPE.items() if k != field}}
    response = await client.post("/api/recipe/add", json=body)
    assert await error_of(response, 400) == message


async def test_check_order(client: Any, book: dict[str, str]) -> None:
    slug = book["slug"]
    blank = {"cook": "", "dish": "", "ingredients": "", "method": ""}
    assert await error_of(await add(client, slug, **blank), 400) == NO_COOK
    assert await error_of(await add(client, slug, **{**blank, "cook": "A"}), 400) == NO_DISH
    assert await error_of(await add(client, slug, **{**blank, "cook": "A", "dish": "B"}),
                          400) == NO_INGREDIENTS
    assert await error_of(await add(client, slug, **{**blank, "cook": "A", "dish": "B",
                                                     "ingredients": "C"}), 400) == NO_METHOD
    assert await recipes(client, slug) == []


@pytest.mark.parametrize("slug", [None, "", "nope", "family-favourites-23456789abcdef", 5])
async def test_add_unknown_slug_is_404(client: Any, slug: Any) -> None:
    assert await (await add(client, slug)).get_json() == NOT_FOUND


async def test_slug_of_another_tool_is_404(make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["recipe", "plate"]).test_client()
    plate = await create(client, "plate", {"categories": [{"name": "Mains", "capacity": 1}]})
    assert await (await add(client, plate["slug"])).get_json() == NOT_FOUND
    response = await client.post(f"/api/recipe/{plate['editToken']}/remove",
                                 json={"rtoken": "x"})
    assert await response.get_json() == NOT_FOUND


# --- the cap ------------------------------------------------------------------------------

async def test_200_recipes_then_409(client: Any, book: dict[str, str]) -> None:
    slug = book["slug"]
    made = [await added(client, slug, dish=f"Dish {n}") for n in range(200)]
    assert await error_of(await add(client, slug, dish="Late"), 409) == FULL
    stored = await recipes(client, slug)
    assert len(stored) == 200 and "Late" not in {r["dish"] for r in stored}
    # Validation first, even on a full book.
    assert await error_of(await add(client, slug, cook=""), 400) == NO_COOK
    # Saving an existing recipe is not adding one.
    response = await client.post(f"/api/recipe/r/{made[0]['token']}/save",
                                 json={**RECIPE, "dish": "Renamed"})
    assert response.status_code == 200
    # Removing one makes room for exactly one.
    response = await client.post(f"/api/recipe/{book['editToken']}/remove",
                                 json={"rtoken": made[1]["token"]})
    assert response.status_code == 200
    await added(client, slug, dish="Just in")
    assert await error_of(await add(client, slug, dish="Too late"), 409) == FULL


# --- save ---------------------------------------------------------------------------------

async def save(client: Any, token: str, **fields: Any) -> Any:
    return await client.post(f"/api/recipe/r/{token}/save", json={**RECIPE, **fields})


async def test_save_replaces_the_recipe(client: Any, book: dict[str, str]) -> None:
    made = await added(client, book["slug"])
    other = await added(client, book["slug"], cook="Bo", dish="Soup")
    response = await save(client, made["token"], dish="Lemon slice (the good one)",
                          serves="", story="\r\n", method="Mix.\r\nBake 25 minutes.")
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "id": made["id"]}
    first, second = await recipes(client, book["slug"])
    assert first == {"id": made["id"], "cook": "Ann", "dish": "Lemon slice (the good one)",
                     "ingredients": "1 cup flour\n2 lemons", "method": "Mix.\nBake 25 minutes."}
    assert second["id"] == other["id"] and second["dish"] == "Soup"


async def test_save_leaving_out_an_optional_field_drops_it(client: Any,
                                                          book: dict[str, str]) -> None:
    made = await added(client, book["slug"])
    body = {k: v for k, v in RECIPE.items() if k not in ("serves", "story")}
    response = await client.post(f"/api/recipe/r/{made['token']}/save", json=body)
    assert response.status_code == 200
    (stored,) = await recipes(client, book["slug"])
    assert "serves" not in stored and "story" not in stored


@pytest.mark.parametrize(("field", "message"), REQUIRED)
async def test_save_checks_like_add(client: Any, book: dict[str, str], field: str,
                                    message: str) -> None:
    made = await added(client, book["slug"])
    assert await error_of(await save(client, made["token"], **{field: " "}), 400) == message
    assert (await recipes(client, book["slug"]))[0] == {"id": made["id"], **RECIPE}


async def test_save_check_order(client: Any, book: dict[str, str]) -> None:
    made = await added(client, book["slug"])
    response = await client.post(f"/api/recipe/r/{made['token']}/save", json={})
    assert await error_of(response, 400) == NO_COOK
    response = await client.post(f"/api/recipe/r/{made['token']}/save",
                                 json={"cook": "A", "dish": "B", "method": "C"})
    assert await error_of(response, 400) == NO_INGREDIENTS


@pytest.mark.parametrize("token", ["x", "2" * 22, "a" * 23])
async def test_save_with_a_bad_token_is_404(client: Any, book: dict[str, str],
                                            token: str) -> None:
    await added(client, book["slug"])
    assert await (await save(client, token, dish="Hijacked")).get_json() == NOT_FOUND
    assert (await recipes(client, book["slug"]))[0]["dish"] == "Lemon slice"


async def test_a_token_saves_only_its_own_recipe(client: Any, book: dict[str, str]) -> None:
    mine = await added(client, book["slug"], dish="Mine")
    await added(client, book["slug"], dish="Theirs")
    await save(client, mine["token"], dish="Mine, better")
    assert [r["dish"] for r in await recipes(client, book["slug"])] == ["Mine, better", "Theirs"]


async def test_edit_and_slug_are_not_recipe_tokens(client: Any, book: dict[str, str]) -> None:
    await added(client, book["slug"])
    for wrong in (book["editToken"], book["slug"]):
        assert (await save(client, wrong)).status_code == 404
        assert (await client.post(f"/api/recipe/r/{wrong}/remove")).status_code == 404
    assert len(await recipes(client, book["slug"])) == 1


# --- remove -------------------------------------------------------------------------------

async def test_contributor_removes_own_recipe(client: Any, book: dict[str, str]) -> None:
    mine = await added(client, book["slug"], dish="Mine")
    theirs = await added(client, book["slug"], dish="Theirs")
    response = await client.post(f"/api/recipe/r/{mine['token']}/remove")
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    assert [r["id"] for r in await recipes(client, book["slug"])] == [theirs["id"]]
    # The token died with it.
    assert await (await client.post(f"/api/recipe/r/{mine['token']}/remove")).get_json() \
        == NOT_FOUND
    assert (await save(client, mine["token"])).status_code == 404
    assert (await client.get(f"/p/{mine['token']}")).status_code == 404


async def test_organiser_removes_by_rtoken(client: Any, book: dict[str, str]) -> None:
    edit = book["editToken"]
    made = await added(client, book["slug"], dish="Going")
    kept = await added(client, book["slug"], dish="Staying")
    response = await client.post(f"/api/recipe/{edit}/remove", json={"rtoken": made["token"]})
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    assert [r["id"] for r in await recipes(client, book["slug"])] == [kept["id"]]
    assert (await save(client, made["token"])).status_code == 404
    response = await client.post(f"/api/recipe/{edit}/remove", json={"rtoken": made["token"]})
    assert await error_of(response, 404) == UNKNOWN


@pytest.mark.parametrize("rtoken", ["", None, 5, ["x"], "x", "2" * 22])
async def test_organiser_remove_unknown_rtoken(client: Any, book: dict[str, str],
                                               rtoken: Any) -> None:
    made = await added(client, book["slug"])
    response = await client.post(f"/api/recipe/{book['editToken']}/remove",
                                 json={"rtoken": rtoken})
    assert await error_of(response, 404) == UNKNOWN
    # The recipe id is not its token.
    response = await client.post(f"/api/recipe/{book['editToken']}/remove",
                                 json={"rtoken": made["id"]})
    assert await error_of(response, 404) == UNKNOWN
    assert len(await recipes(client, book["slug"])) == 1


async def test_organiser_cannot_remove_another_books_recipe(client: Any,
                                                            book: dict[str, str]) -> None:
    other = await create(client, "recipe", {"title": "Other"})
    made = await added(client, other["slug"])
    response = await client.post(f"/api/recipe/{book['editToken']}/remove",
                                 json={"rtoken": made["token"]})
    assert await error_of(response, 404) == UNKNOWN
    assert len(await recipes(client, other["slug"])) == 1


async def test_organiser_remove_with_bad_edit_token(client: Any, book: dict[str, str]) -> None:
    made = await added(client, book["slug"])
    for token in ("2" * 26, book["slug"], made["token"]):
        response = await client.post(f"/api/recipe/{token}/remove",
                                     json={"rtoken": made["token"]})
        assert await response.get_json() == NOT_FOUND
    assert len(await recipes(client, book["slug"])) == 1
