"""POST /api/bracket: every field rule and message, and the draw made at creation."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from groupkit_bracket.draw import bracket_size
from groupkit_bracket.draw import lines
from groupkit_bracket.draw import new_bracket
from groupkit_bracket.draw import seed_order
from groupkit_testing import create

FEW = "Add at least two names — one person is just practice."
MANY = "64 is the limit — run two brackets and stage a grand final."
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


def duplicate(name: str) -> str:
    return f'"{name}" is in the list twice — add a surname initial to tell them apart.'


async def refused(client: Any, body: Any) -> str:
    response = await client.post("/api/bracket", json=body)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert response.content_type == "application/json"
    assert set(payload) == {"error"}
    return str(payload["error"])


async def bracket_of(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    made = await create(client, "bracket", body)
    response = await client.get(f"/api/bracket/{made['slug']}")
    assert response.status_code == 200
    return dict(await response.get_json())


def first_round(view: dict[str, Any]) -> list[tuple[str | None, str | None]]:
    return [(match["sides"][0]["name"], match["sides"][1]["name"])
            for match in view["rounds"][0]["matches"]]


async def test_create_returns_slug_and_edit_token(client: Any) -> None:
    response = await client.post("/api/bracket", json={"title": "Ping pong",
                                                       "entrants": ["Ann", "Bo"]})
    assert response.status_code == 201
    made = await response.get_json()
    assert set(made) == {"slug", "editToken"}
    assert re.fullmatch(rf"ping-pong-[{ALPHABET}]{{14}}", made["slug"])
    assert re.fullmatch(rf"[{ALPHABET}]{{26}}", made["editToken"])


# --- entrants: count ------------------------------------------------------------------------

@pytest.mark.parametrize("entrants", [None, [], ["Ann"], ["Ann", "", "  ", "\n"], "Ann\nBo",
                                      {"a": "Ann", "b": "Bo"}, 5, True])
async def test_fewer_than_two_entrants(client: Any, entrants: Any) -> None:
    assert await refused(client, {"entrants": entrants}) == FEW


async def test_entrants_missing_and_bodies_that_are_not_objects(client: Any) -> None:
    assert await refused(client, {"title": "Cup"}) == FEW
    for body in (b"{oops", b"", b"[1, 2]", b"null", b'"entrants"'):
        response = await client.post("/api/bracket", data=body,
                                     headers={"Content-Type": "application/json"})
        assert response.status_code == 400
        assert await response.get_json() == {"error": FEW}


async def test_sixty_four_is_fine_sixty_five_is_not(client: Any) -> None:
    names = [f"Player {n}" for n in range(65)]
    view = await bracket_of(client, {"entrants": names[:64], "seeding": "listed"})
    assert view["entrants"] == names[:64]
    assert view["size"] == 64 and view["byes"] == 0
    assert await refused(client, {"entrants": names}) == MANY


async def test_blanks_do_not_count_towards_the_limit(client: Any) -> None:
    names = [f"P{n}" for n in range(64)] + ["", "   ", "\t"] * 10
    view = await bracket_of(client, {"entrants": names, "seeding": "listed"})
    assert len(view["entrants"]) == 64


async def test_count_is_checked_before_duplicates(client: Any) -> None:
    assert await refused(client, {"entrants": ["Ann", "ann"] * 33}) == MANY
    assert await refused(client, {"entrants": ["Ann", " "]}) == FEW


# --- entrants: cleaning and conversion ------------------------------------------------------

async def test_entrants_are_cleaned_and_cut_to_40(client: Any) -> None:
    long_name = "Bartholomew " + "x" * 60
    view = await bracket_of(client, {"seeding": "listed", "entrants": [
        "  Ann \n  Lee ", "Bo\t\tSmith", long_name, "", "   "]})
    assert view["entrants"] == ["Ann Lee", "Bo Smith", long_name[:40]]


async def test_non_strings_are_converted_to_text(client: Any) -> None:
    view = await bracket_of(client, {"seeding": "listed", "entrants": [
        None, 7, 2.5, True, False, ["a", "b"], {"x": 1}, 3.0]})
    assert view["entrants"] == ["null", "7", "2.5", "true", "false", "a,b", "[object Object]",
                                "3"]


async def test_null_and_the_word_null_are_the_same_name(client: Any) -> None:
    assert await refused(client, {"entrants": [None, "Ann", "NULL"]}) == duplicate("NULL")


# --- entrants: distinct ---------------------------------------------------------------------

@pytest.mark.parametrize(("entrants", "quoted"), [
    (["Ann", "ann"], "ann"),
    (["Ann", "Bo", "BO"], "BO"),
    (["Ann Lee", "  ann   lee "], "ann lee"),
    (["Ann", "Bo", "Cy", "bo", "cy"], "bo"),
    (["7", 7], "7"),
])
async def test_duplicates_quote_the_repeated_name(client: Any, entrants: list[Any],
                                                  quoted: str) -> None:
    assert await refused(client, {"entrants": entrants}) == duplicate(quoted)


async def test_names_compared_after_cutting_to_40(client: Any) -> None:
    base = "y" * 40
    assert await refused(client, {"entrants": [base + "a", base + "b"]}) == duplicate(base)


async def test_quoted_name_keeps_its_own_quotes(client: Any) -> None:
    message = await refused(client, {"entrants": ['Ann "Ace"', 'ann "ace"']})
    assert message == duplicate('ann "ace"')


# --- title and seeding ----------------------------------------------------------------------

async def test_title_is_cleaned_and_cut_to_80(client: Any) -> None:
    view = await bracket_of(client, {"title": "  Office \n table\ttennis  ",
                                     "entrants": ["Ann", "Bo"]})
    assert (view["title"], view["heading"]) == ("Office table tennis", "Office table tennis")
    view = await bracket_of(client, {"title": "t" * 5000, "entrants": ["Ann", "Bo"]})
    assert view["title"] == "t" * 80


@pytest.mark.parametrize("title", [None, "", "   ", 5, ["x"]])
async def test_empty_title_gets_the_default_heading(client: Any, title: Any) -> None:
    made = await create(client, "bracket", {"title": title, "entrants": ["Ann", "Bo"]})
    assert re.fullmatch(rf"bracket-[{ALPHABET}]{{14}}", made["slug"])
    view = await (await client.get(f"/api/bracket/{made['slug']}")).get_json()
    assert (view["title"], view["heading"]) == ("", "Tournament bracket")


@pytest.mark.parametrize("seeding", [None, "", "Listed", "LISTED", " listed", "random",
                                     "shuffle", 1, True, ["listed"], {"listed": 1}])
async def test_anything_but_listed_shuffles_and_is_never_an_error(client: Any,
                                                                  seeding: Any) -> None:
    body = {"entrants": ["Ann", "Bo", "Cy"], "seeding": seeding}
    view = await bracket_of(client, body)
    assert view["seeding"] == "random"
    assert sorted(view["entrants"]) == ["Ann", "Bo", "Cy"]


async def test_listed_keeps_the_supplied_order(client: Any) -> None:
    names = [f"Seed {n}" for n in range(1, 13)]
    view = await bracket_of(client, {"entrants": names, "seeding": "listed"})
    assert view["seeding"] == "listed"
    assert view["entrants"] == names
    seeds = {side["name"]: side["seed"] for match in view["rounds"][0]["matches"]
             for side in match["sides"] if side["name"]}
    assert seeds == {name: n for n, name in enumerate(names, start=1)}


async def test_shuffle_really_shuffles(client: Any) -> None:
    names = [f"P{n}" for n in range(8)]
    orders = {tuple((await bracket_of(client, {"entrants": names}))["entrants"])
              for _ in range(12)}
    # 12 draws of 8! orders: all the same only with a broken shuffle.
    assert len(orders) > 1
    assert all(sorted(order) == sorted(names) for order in orders)


async def test_random_seeding_shows_no_seed_numbers(client: Any) -> None:
    view = await bracket_of(client, {"entrants": ["Ann", "Bo", "Cy"]})
    assert all(side["seed"] is None for rnd in view["rounds"] for match in rnd["matches"]
               for side in match["sides"])


# --- the draw: size, byes, standard seeding -------------------------------------------------

@pytest.mark.parametrize(("entrants", "size"), [(2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16),
                                                (16, 16), (17, 32), (33, 64), (64, 64)])
def test_field_is_the_next_power_of_two(entrants: int, size: int) -> None:
    assert bracket_size(entrants) == size


def test_standard_seed_order() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (2, 4, 8, 16, 32, 64):
        order = seed_order(size)
        assert sorted(order) == list(range(1, size + 1))
        # Every first-round match's seeds add up to size + 1: top against bottom.
        assert {order[i] + order[i + 1] for i in range(0, size, 2)} == {size + 1}
        # Seeds 1 and 2 sit in opposite halves, so they can only meet in the final.
        assert (order.index(1) < size // 2) != (order.index(2) < size // 2)


@pytest.mark.parametrize("n", range(2, 65))
def test_byes_go_to_the_top_seeds_and_never_meet(n: int) -> None:
    seeds = [f"P{k}" for k in range(1, n + 1)]
    field = lines(seeds)
    size = bracket_size(n)
    assert len(field) == size
    assert sorted(seed for seed in field if seed is not None) == list(range(1, n + 1))
    pairs = [(field[i], field[i + 1]) for i in range(0, size, 2)]
    assert (None, None) not in pairs
    with_bye = sorted(a if b is None else b for a, b in pairs if None in (a, b))
    assert with_bye == list(range(1, size - n + 1))


@pytest.mark.parametrize("n", [2, 3, 5, 7, 12, 31, 64])
def test_new_bracket_has_an_empty_result_per_match(n: int) -> None:
    state = new_bracket([f"P{k}" for k in range(n)], "listed")
    size = bracket_size(n)
    assert [len(results) for results in state["results"]] == [
        size >> r for r in range(1, size.bit_length())]
    assert all(result is None for results in state["results"] for result in results)


def test_shuffle_is_uniform_for_small_fields() -> None:
    names = ["A", "B", "C"]
    counts = Counter(tuple(new_bracket(names, "random")["seeds"]) for _ in range(6000))
    assert len(counts) == 6
    # Each of the 6 orders expects 1000; 850..1150 is over 5 standard deviations wide.
    assert all(850 <= count <= 1150 for count in counts.values()), counts


async def test_five_listed_entrants_in_a_field_of_eight(client: Any, five: dict[str, str]
                                                        ) -> None:
    view = await (await client.get(f"/api/bracket/{five['slug']}")).get_json()
    assert (view["size"], view["byes"]) == (8, 3)
    assert first_round(view) == [("Ann", None), ("Di", "Ed"), ("Bo", None), ("Cy", None)]
    assert [rnd["name"] for rnd in view["rounds"]] == ["Quarter-finals", "Semi-finals", "Final"]
    byes = [match["bye"] for match in view["rounds"][0]["matches"]]
    assert byes == [True, False, True, True]
    # Byes go through on their own; the semi-final between two bye winners is ready at once.
    assert [m["winner"] for m in view["rounds"][0]["matches"]] == ["Ann", None, "Bo", "Cy"]
    semis = view["rounds"][1]["matches"]
    assert [(m["sides"][0]["name"], m["sides"][1]["name"]) for m in semis] == [
        ("Ann", None), ("Bo", "Cy")]
    assert [m["ready"] for m in semis] == [False, True]
    assert view["champion"] is None
    assert view["version"] == 0


async def test_round_names(client: Any) -> None:
    view = await bracket_of(client, {"entrants": [f"P{n}" for n in range(40)]})
    assert [rnd["name"] for rnd in view["rounds"]] == [
        "Round of 64", "Round of 32", "Round of 16", "Quarter-finals", "Semi-finals", "Final"]
    two = await bracket_of(client, {"entrants": ["Ann", "Bo"]})
    assert [rnd["name"] for rnd in two["rounds"]] == ["Final"]
    assert two["rounds"][0]["matches"][0]["ready"] is True
