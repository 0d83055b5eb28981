"""The draw: always one single loop through everybody, uniform among all single loops, fixed
at creation until the organiser redraws. With exclusions (households and one-way pairs) it
stays one single loop, uniform among the loops that respect them; impossible (or
secret-breaking) exclusions are a 400 naming the problem; the search is bounded however
dense they are; redraw keeps to them."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from groupkit import Instance
from groupkit_kringle import draw as draw_module
from groupkit_kringle.draw import CANNOT_GIVE
from groupkit_kringle.draw import GROUP_TOO_BIG
from groupkit_kringle.draw import NO_LOOP
from groupkit_kringle.draw import NO_OTHER
from groupkit_kringle.draw import ONE_GIFTEE
from groupkit_kringle.draw import ONE_GIVER
from groupkit_kringle.draw import SPLIT
from groupkit_kringle.draw import TOO_HARD
from groupkit_kringle.draw import NoLoop
from groupkit_kringle.draw import _allowed_masks
from groupkit_kringle.draw import allowed_loop
from groupkit_kringle.draw import another_loop
from groupkit_kringle.draw import forbidden_pairs
from groupkit_kringle.draw import search_loop
from groupkit_kringle.draw import single_loop
from groupkit_kringle.models import KringlePerson
from groupkit_testing import create

# Upper 0.1% points of the chi-square distribution (degrees of freedom: value).
CHI2_CRITICAL = {2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 23: 49.728}


def is_single_loop(giftee: list[int]) -> bool:
    """Following giftees from anyone visits everybody once before coming back."""
    seen, current = set(), 0
    for _ in giftee:
        seen.add(current)
        current = giftee[current]
    return current == 0 and len(seen) == len(giftee)


def all_loops(size: int) -> list[tuple[int, ...]]:
    """Every single loop on `size` people, as giftee tuples: (size - 1)! of them."""
    loops = []
    for rest in itertools.permutations(range(1, size)):
        order = (0, *rest)
        giftee = [0] * size
        for index, giver in enumerate(order):
            giftee[giver] = order[(index + 1) % size]
        loops.append(tuple(giftee))
    return loops


def chi_square(counts: Counter[tuple[int, ...]], cells: list[tuple[int, ...]]) -> float:
    total = sum(counts.values())
    expected = total / len(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


# --- the loop property -----------------------------------------------------------------------

def test_is_single_loop_recognises_broken_draws() -> None:
    assert is_single_loop([1, 2, 0])
    assert not is_single_loop([0, 2, 1])        # somebody draws themselves
    assert not is_single_loop([1, 0, 3, 2])     # two loops of two
    assert not is_single_loop([1, 2, 0, 4, 5, 3])  # two loops of three


@pytest.mark.parametrize("size", range(3, 101))
def test_every_size_from_3_to_100_gives_one_loop(size: int) -> None:
    seeded = random.Random(size)
    for _ in range(20):
        for giftee in (single_loop(size), single_loop(size, seeded)):
            assert sorted(giftee) == list(range(size))
            assert all(giftee[giver] != giver for giver in range(size))
            assert is_single_loop(giftee)


def test_all_loops_counts_factorial() -> None:
    assert [len(set(all_loops(n))) for n in (3, 4, 5, 6)] == [2, 6, 24, 120]
    assert all(is_single_loop(list(loop)) for loop in all_loops(6))


# --- uniformity ----------------------------------------------------------------------------

@pytest.mark.parametrize(("size", "draws", "seed"), [(4, 24_000, 20241219), (5, 48_000, 1225)])
def test_every_single_loop_is_equally_likely(size: int, draws: int, seed: int) -> None:
    """Chi-square goodness of fit over all (n-1)! loops. The generator is seeded, so the
    statistic is the same number every run: the test cannot flake, and it would fail for a
    draw that favoured some loops (see the next test)."""
    rng = random.Random(seed)
    loops = all_loops(size)
    counts = Counter(tuple(single_loop(size, rng)) for _ in range(draws))
    assert set(counts) == set(loops)
    assert chi_square(counts, loops) < CHI2_CRITICAL[len(loops) - 1]
    # Each giver's giftee is uniform over the other people, too.
    rng = random.Random(seed + 1)
    firsts = Counter(single_loop(size, rng)[0] for _ in range(draws // 4))
    assert chi_square(Counter({(k,): v for k, v in firsts.items()}),
                      [(k,) for k in range(1, size)]) < CHI2_CRITICAL[size - 2]


def test_the_uniformity_check_catches_a_biased_draw() -> None:
    """A draw that returns one particular loop a little too often (1 in 10 extra) fails."""
    rng = random.Random(7)
    loops = all_loops(4)

    def biased() -> tuple[int, ...]:
        return loops[0] if rng.random() < 0.1 else tuple(single_loop(4, rng))

    counts = Counter(biased() for _ in range(24_000))
    assert chi_square(counts, loops) > CHI2_CRITICAL[5]


def test_another_loop_never_repeats_and_is_uniform_over_the_rest() -> None:
    rng = random.Random(99)
    loops = all_loops(4)
    current = list(loops[2])
    counts = Counter(tuple(another_loop(current, rng)) for _ in range(20_000))
    others = [loop for loop in loops if list(loop) != current]
    assert set(counts) == set(others)
    assert chi_square(counts, others) < CHI2_CRITICAL[4]
    # With three people the only other loop is the reverse.
    assert another_loop([1, 2, 0]) == [2, 0, 1]
    assert another_loop([2, 0, 1]) == [1, 2, 0]


def test_the_service_draw_is_not_seeded() -> None:
    """Without a generator the draw uses the system's: 30 draws of 6 people (120 loops)
    all alike would have odds below 1e-60."""
    assert len({tuple(single_loop(6)) for _ in range(30)}) > 1


# --- through the API -----------------------------------------------------------------------

def stored_loop(slug: str) -> list[int]:
    instance = Instance.get(Instance.slug == slug)
    people = (KringlePerson.select().where(KringlePerson.instance == instance)
              .order_by(KringlePerson.position))
    return [person.giftee for person in people]


async def test_created_draws_are_single_loops_for_every_size(client: Any) -> None:
    for size in range(3, 101):
        made = await create(client, "kringle", {"names": [f"P{i}" for i in range(size)]})
        loop = stored_loop(made["slug"])
        assert len(loop) == size and is_single_loop(loop), size


async def claim_everyone(client: Any, slug: str, names: list[str]) -> dict[str, str]:
    tokens = {}
    for name in names:
        response = await client.post("/api/kringle/claim", json={"slug": slug, "name": name})
        assert response.status_code == 200
        tokens[name] = (await response.get_json())["token"]
    return tokens


async def giftees(client: Any, tokens: dict[str, str]) -> dict[str, str]:
    found = {}
    for name, token in tokens.items():
        response = await client.get(f"/api/kringle/p/{token}")
        assert response.status_code == 200
        view = await response.get_json()
        assert view["name"] == name
        found[name] = view["giftee"]
    return found


def follows_one_loop(pairs: dict[str, str]) -> bool:
    start = next(iter(pairs))
    current, seen = start, set()
    for _ in pairs:
        seen.add(current)
        current = pairs[current]
    return current == start and seen == set(pairs)


@pytest.mark.parametrize("size", [3, 4, 9, 100])
async def test_what_people_see_forms_one_loop(client: Any, size: int) -> None:
    names = [f"Person {chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(size)]
    made = await create(client, "kringle", {"names": names})
    pairs = await giftees(client, await claim_everyone(client, made["slug"], names))
    assert all(giver != giftee for giver, giftee in pairs.items())
    assert sorted(pairs.values()) == sorted(names)
    assert follows_one_loop(pairs)


async def test_draw_is_fixed_at_creation(client: Any) -> None:
    names = [f"P{i}" for i in range(8)]
    made = await create(client, "kringle", {"names": names})
    tokens = await claim_everyone(client, made["slug"], names)
    first = await giftees(client, tokens)
    await client.post(f"/api/kringle/p/{tokens['P0']}/wishlist", json={"text": "Socks"})
    await client.post(f"/api/kringle/{made['editToken']}/reset", json={"name": "P3"})
    tokens["P3"] = (await claim_everyone(client, made["slug"], ["P3"]))["P3"]
    assert await giftees(client, tokens) == first


async def test_draws_differ_between_instances(client: Any) -> None:
    names = [f"P{i}" for i in range(7)]
    loops = set()
    for _ in range(6):
        made = await create(client, "kringle", {"names": names})
        loops.add(tuple(stored_loop(made["slug"])))
    assert len(loops) > 1  # 6 equal draws out of 720 loops: odds below 1e-14


# --- redraw --------------------------------------------------------------------------------

async def test_redraw_makes_a_new_single_loop_and_keeps_links(client: Any,
                                                               app: Any) -> None:
    names = [f"P{i}" for i in range(6)]
    made = await create(client, "kringle", {"names": names})
    tokens = await claim_everyone(client, made["slug"], names[:4])
    await client.post(f"/api/kringle/p/{tokens['P1']}/wishlist", json={"text": "Books"})
    for token in tokens.values():
        assert (await client.get(f"/p/{token}")).status_code == 200
    seen = {tuple(stored_loop(made["slug"]))}
    for _ in range(5):
        before = stored_loop(made["slug"])
        response = await client.post(f"/api/kringle/{made['editToken']}/redraw")
        assert response.status_code == 200
        assert await response.get_json() == {"ok": True}
        after = stored_loop(made["slug"])
        assert after != before and is_single_loop(after)
        seen.add(tuple(after))
        export = (await (await client.post(
            f"/api/kringle/{made['editToken']}/export")).get_json())["data"]
        assert [p["claimed"] for p in export["people"]] == [True] * 4 + [False] * 2
        assert export["openedCount"] == 0
        pairs = await giftees(client, tokens)  # every link still works
        assert all(pairs[name] == names[after[names.index(name)]] for name in pairs)
    assert len(seen) > 2
    me = await (await client.get(f"/api/kringle/p/{tokens['P1']}")).get_json()
    assert me["myWishlist"] == "Books"
    # Unclaimed names can still be claimed after a redraw.
    assert (await client.post("/api/kringle/claim", json={
        "slug": made["slug"], "name": "P5"})).status_code == 200


async def test_redraw_of_three_swaps_to_the_reverse_loop(client: Any) -> None:
    made = await create(client, "kringle", {"names": ["Ann", "Bo", "Cy"]})
    first = stored_loop(made["slug"])
    await client.post(f"/api/kringle/{made['editToken']}/redraw")
    second = stored_loop(made["slug"])
    assert {tuple(first), tuple(second)} == {(1, 2, 0), (2, 0, 1)}
    await client.post(f"/api/kringle/{made['editToken']}/redraw")
    assert stored_loop(made["slug"]) == first


@pytest.mark.parametrize("token", ["nope", "2" * 26, "a" * 25])
async def test_redraw_needs_the_edit_token(client: Any, draw: dict[str, str],
                                           token: str) -> None:
    before = stored_loop(draw["slug"])
    for path in (f"/api/kringle/{token}/redraw", f"/api/kringle/{draw['slug']}/redraw"):
        response = await client.post(path)
        assert response.status_code == 404
        assert await response.get_json() == {
            "error": "Nothing here — check the link you were given."}
    assert stored_loop(draw["slug"]) == before


async def test_redraw_of_another_tool_is_404(make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["kringle", "sweeps"]).test_client()
    sweep = await create(client, "sweeps", {"outcomes": ["A", "B"], "names": ["C", "D"]})
    response = await client.post(f"/api/kringle/{sweep['editToken']}/redraw")
    assert response.status_code == 404


# === exclusions =================================================================================

SIX = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def respects(giftee: list[int], forbidden: frozenset[tuple[int, int]]) -> bool:
    return all((giver, target) not in forbidden for giver, target in enumerate(giftee))


async def error_of(response: Any) -> str:
    payload = await response.get_json()
    assert response.status_code == 400, payload
    return str(payload["error"])


async def make(client: Any, body: dict[str, Any]) -> Any:
    return await client.post("/api/kringle", json=body)


# --- uniformity ---------------------------------------------------------------------------

# Two couples and a single among five, plus last year's Ann -> Ed: 8 allowed loops of 24.
FIVE_RULES = forbidden_pairs(5, [[0, 1], [2, 3]], [(0, 4)])


def allowed_of(size: int, forbidden: frozenset[tuple[int, int]]) -> list[tuple[int, ...]]:
    return [loop for loop in all_loops(size) if respects(list(loop), forbidden)]


def test_the_small_case_has_several_allowed_loops() -> None:
    allowed = allowed_of(5, FIVE_RULES)
    assert 3 <= len(allowed) < 24


def test_every_allowed_loop_is_equally_likely() -> None:
    """Chi-square over the allowed loops, seeded so the statistic is fixed: only allowed
    single loops come out, each as often as the others."""
    rng = random.Random(20251224)
    allowed = allowed_of(5, FIVE_RULES)
    counts = Counter(tuple(allowed_loop(5, FIVE_RULES, [[0, 1], [2, 3]], rng))
                     for _ in range(16_000))
    assert set(counts) == set(allowed)
    assert chi_square(counts, allowed) < CHI2_CRITICAL[len(allowed) - 1]


def test_the_fallback_for_dense_exclusions_is_uniform_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With no whole draw tried, the search and the mixing moves alone must still spread
    evenly over the allowed loops."""
    monkeypatch.setattr(draw_module, "REJECTION_STEPS", 0)
    rng = random.Random(1225)
    allowed = allowed_of(5, FIVE_RULES)
    counts = Counter(tuple(allowed_loop(5, FIVE_RULES, rng=rng)) for _ in range(2_400))
    assert set(counts) == set(allowed)
    assert chi_square(counts, allowed) < CHI2_CRITICAL[len(allowed) - 1]


def test_redraw_among_allowed_loops_avoids_the_current_one() -> None:
    rng = random.Random(5)
    allowed = allowed_of(5, FIVE_RULES)
    current = list(allowed[0])
    counts = Counter(tuple(allowed_loop(5, FIVE_RULES, rng=rng, avoid=current))
                     for _ in range(7_000))
    others = [loop for loop in allowed if list(loop) != current]
    assert set(counts) == set(others)
    assert chi_square(counts, others) < CHI2_CRITICAL[len(others) - 1]


# --- impossible exclusions ------------------------------------------------------------------

@pytest.mark.parametrize(("size", "groups", "pairs", "problem", "people"), [
    (4, [], [(0, 1), (0, 2), (0, 3)], CANNOT_GIVE, (0,)),
    (4, [], [(0, 1), (0, 2)], ONE_GIFTEE, (0,)),
    (4, [], [(1, 0), (2, 0)], ONE_GIVER, (0,)),
    (5, [[0, 1, 2]], [], GROUP_TOO_BIG, (0, 1, 2)),
    (6, [[0, 1, 2], [3, 4, 5]], [(0, 3), (0, 4), (1, 3), (1, 4), (2, 3), (2, 4)], ONE_GIFTEE,
     (0,)),
])
def test_obvious_impossibilities_name_the_people(size: int, groups: list[list[int]],
                                                 pairs: list[tuple[int, int]], problem: str,
                                                 people: tuple[int, ...]) -> None:
    with pytest.raises(NoLoop) as raised:
        allowed_loop(size, forbidden_pairs(size, groups, pairs), groups)
    assert (raised.value.problem, raised.value.people) == (problem, people)


def test_a_split_draw_is_refused() -> None:
    # Nobody among the first three may draw the last three.
    pairs = [(a, b) for a in range(3) for b in range(3, 6)]
    with pytest.raises(NoLoop) as raised:
        allowed_loop(6, forbidden_pairs(6, [], pairs))
    assert raised.value.problem == SPLIT and raised.value.people == (3, 4, 5)


def test_the_search_proves_there_is_no_loop() -> None:
    """Unbalanced sides (five may only draw across to three, and back): no loop exists,
    nothing names a person, and the search says so after trying everything."""
    size = 8
    side = [person < 5 for person in range(size)]
    forbidden = frozenset((a, b) for a in range(size) for b in range(size)
                          if a != b and side[a] == side[b])
    with pytest.raises(NoLoop) as raised:
        allowed_loop(size, forbidden)
    assert raised.value.problem == NO_LOOP


#: Allowed (giver, giftee) pairs on five people where everybody has two possible giftees and
#: two possible Kris Kringles, yet exactly one loop exists: 0 -> 3 -> 4 -> 2 -> 1 -> 0.
ONE_LOOP_ALLOWED = {(0, 2), (0, 3), (1, 0), (1, 4), (2, 0), (2, 1), (3, 2), (3, 4), (4, 1),
                    (4, 2), (4, 3)}
ONE_LOOP_FORBIDDEN = frozenset((a, b) for a in range(5) for b in range(5)
                               if a != b and (a, b) not in ONE_LOOP_ALLOWED)


def test_exclusions_that_leave_a_single_loop_are_found_out() -> None:
    rng = random.Random(3)
    only = allowed_loop(5, ONE_LOOP_FORBIDDEN, rng=rng)
    assert only == [3, 0, 1, 4, 2]
    with pytest.raises(NoLoop) as raised:
        allowed_loop(5, ONE_LOOP_FORBIDDEN, rng=rng, avoid=only)
    assert raised.value.problem == NO_OTHER


# --- bounded ----------------------------------------------------------------------------------

class CountingMasks(list[int]):
    """A mask list that counts how often the search reads it: its work, step by step."""

    reads = 0

    def __getitem__(self, index: Any) -> Any:
        CountingMasks.reads += 1
        return super().__getitem__(index)


def dense_impossible(size: int) -> frozenset[tuple[int, int]]:
    """51 on one side, 49 on the other, nobody drawing their own side: every person still has
    49 or more possible giftees and givers, the draw is not split, yet no loop exists (each
    side would have to alternate with the other). Only the search can find that out."""
    side = [person < 51 for person in range(size)]
    return frozenset((a, b) for a in range(size) for b in range(size)
                     if a != b and side[a] == side[b])


@pytest.mark.parametrize("budget", [1_000, 20_000])
def test_the_search_stops_at_its_budget_on_a_hard_case(budget: int) -> None:
    out, into = _allowed_masks(100, dense_impossible(100))
    CountingMasks.reads = 0
    with pytest.raises(NoLoop) as raised:
        search_loop(100, CountingMasks(out), CountingMasks(into), random.Random(1),
                    budget=budget)
    assert raised.value.problem == TOO_HARD
    # Each step reads a bounded number of masks (a few per person): the work is at most
    # proportional to the budget, whatever the exclusions.
    assert CountingMasks.reads <= (budget + 1) * 4 * 100


@pytest.mark.parametrize("seed", range(3))
def test_a_hundred_names_with_dense_exclusions_finish(seed: int) -> None:
    """Hard cases on a hundred people: each one ends in a loop that respects the
    exclusions or in `NoLoop`, never in an endless search."""
    rng = random.Random(seed)
    cases = [
        dense_impossible(100),
        # Each person rules out 85 random others.
        frozenset((a, b) for a in range(100) for b in rng.sample(range(100), 86) if a != b),
        # Ten households of ten.
        forbidden_pairs(100, [list(range(start, start + 10)) for start in range(0, 100, 10)],
                        []),
        # Two halves that may only draw across.
        forbidden_pairs(100, [list(range(50)), list(range(50, 100))], []),
    ]
    outcomes = []
    for forbidden in cases:
        try:
            giftee = allowed_loop(100, forbidden, rng=rng)
        except NoLoop as error:
            outcomes.append(error.problem)
        else:
            assert is_single_loop(giftee) and respects(giftee, forbidden)
            outcomes.append("loop")
    assert outcomes[0] == TOO_HARD
    assert outcomes[2:] == ["loop", "loop"]


# --- through the API ---------------------------------------------------------------------------

def stored_rules(slug: str) -> dict[str, Any]:
    return dict(Instance.get(Instance.slug == slug).data)


async def test_households_and_pairs_are_kept_by_every_draw_and_redraw(client: Any) -> None:
    made = await create(client, "kringle", {
        "names": SIX, "households": [["Ann", " bo "], "Cy, Di", ["Ed"]],
        "exclusions": [{"giver": "Ed", "giftee": "flo"}, "Flo -> Ann",
                       {"giver": "Ann", "giftee": ""}, "no arrow here"]})
    forbidden = forbidden_pairs(6, [[0, 1], [2, 3]], [(4, 5), (5, 0)])
    data = stored_rules(made["slug"])
    assert data["households"] == [[0, 1], [2, 3]]
    assert data["exclusions"] == [[4, 5], [5, 0]]
    seen = set()
    for _ in range(12):
        loop = stored_loop(made["slug"])
        assert is_single_loop(loop) and respects(loop, forbidden)
        seen.add(tuple(loop))
        response = await client.post(f"/api/kringle/{made['editToken']}/redraw")
        assert response.status_code == 200
        assert stored_loop(made["slug"]) != loop
    assert len(seen) > 2


async def test_the_organiser_sees_the_rules_the_group_does_not(client: Any) -> None:
    made = await create(client, "kringle", {"names": SIX, "households": [["Ann", "Bo"]],
                                            "exclusions": [{"giver": "Cy", "giftee": "Di"}]})
    export = (await (await client.post(
        f"/api/kringle/{made['editToken']}/export")).get_json())["data"]
    assert export["households"] == [["Ann", "Bo"]]
    assert export["exclusions"] == [{"giver": "Cy", "giftee": "Di"}]
    page = (await (await client.get(f"/e/{made['editToken']}")).get_data()).decode()
    assert "Nobody among Ann, Bo draws another of them." in page
    assert "Cy doesn't draw Di." in page
    public = await (await client.get(f"/api/kringle/{made['slug']}")).get_json()
    assert "households" not in public and "exclusions" not in public
    share = (await (await client.get(f"/s/{made['slug']}")).get_data()).decode()
    assert "draws another" not in share and "draw Di" not in share


async def test_without_exclusions_nothing_new_is_stored(client: Any) -> None:
    made = await create(client, "kringle", {"names": SIX, "households": [], "exclusions": "x",
                                            "personalLinks": False, "questions": 0})
    assert stored_rules(made["slug"]) == {"budget": "", "exchangeDate": "", "note": ""}
    export = (await (await client.post(
        f"/api/kringle/{made['editToken']}/export")).get_json())["data"]
    assert set(export) == {"title", "heading", "budget", "exchangeDate", "note", "people",
                           "claimedCount", "openedCount", "resets"}


@pytest.mark.parametrize(("body", "message"), [
    ({"households": [["Ann", "Zed"]]}, '"Zed" is in the households but not in the names.'),
    ({"exclusions": ["Ann -> Zed"]}, '"Zed" is in the exclusions but not in the names.'),
    ({"exclusions": ["Ann -> Bo", "Ann -> Cy", "Ann -> Di", "Ann -> Ed", "Ann -> Flo"]},
     'The exclusions leave nobody for "Ann" to draw.'),
    ({"exclusions": ["Ann -> Bo", "Ann -> Cy", "Ann -> Di", "Ann -> Ed"]},
     'The exclusions leave only one person for "Ann" to draw, so everyone would know who '
     "it is — remove some."),
    ({"exclusions": ["Bo -> Ann", "Cy -> Ann", "Di -> Ann", "Ed -> Ann"]},
     'The exclusions leave only one person who can draw "Ann", so everyone would know who '
     "it is — remove some."),
    ({"households": ["Ann, Bo, Cy, Di"]},
     'The household "Ann", "Bo", "Cy" and "Di" is more than half the draw: in one loop '
     "some of them would have to draw each other."),
    ({"households": ["Ann, Bo, Cy"], "exclusions": ["Ann -> Di", "Bo -> Di", "Cy -> Di",
                                                    "Ann -> Ed", "Bo -> Ed", "Cy -> Ed"]},
     'The exclusions leave only one person for "Ann" to draw, so everyone would know who '
     "it is — remove some."),
])
async def test_impossible_exclusions_are_a_400_naming_the_problem(
        client: Any, body: dict[str, Any], message: str) -> None:
    assert await error_of(await make(client, {"names": SIX, **body})) == message


async def test_with_three_names_any_exclusion_gives_the_secret_away(client: Any) -> None:
    response = await make(client, {"names": ["Ann", "Bo", "Cy"],
                                   "exclusions": ["Ann -> Bo"]})
    assert "only one person for" in await error_of(response)


async def test_a_split_or_single_loop_draw_is_refused_through_the_api(client: Any) -> None:
    # Ann, Bo and Cy may only draw each other: the others can't be reached.
    split = [f"{a} -> {b}" for a in SIX[:3] for b in SIX[3:]]
    assert await error_of(await make(client, {"names": SIX, "exclusions": split})) == (
        'The exclusions cut "Di", "Ed" and "Flo" off from the others: no single loop can go '
        "through everybody.")
    # Two couples among four: exactly two loops, so the draw is allowed.
    assert (await make(client, {"names": SIX[:4], "households": ["Ann, Bo", "Cy, Di"]})
            ).status_code == 201


async def test_exclusions_leaving_one_loop_are_a_400(client: Any) -> None:
    """The organiser writing them would know every giftee."""
    names = SIX[:5]
    rules = [f"{names[a]} -> {names[b]}" for a, b in sorted(ONE_LOOP_FORBIDDEN)]
    assert await error_of(await make(client, {"names": names, "exclusions": rules})) == (
        "These exclusions leave only one possible loop, so everyone's giftee would be "
        "known — remove some.")


async def test_hundred_names_with_ten_households_of_ten(client: Any) -> None:
    names = [f"Person {index:03d}" for index in range(100)]
    households = [names[start:start + 10] for start in range(0, 100, 10)]
    made = await create(client, "kringle", {"names": names, "households": households})
    loop = stored_loop(made["slug"])
    assert is_single_loop(loop)
    assert all(giver // 10 != target // 10 for giver, target in enumerate(loop))


async def test_hundred_names_with_a_household_of_fifty_one_is_a_400(client: Any) -> None:
    names = [f"Person {index:03d}" for index in range(100)]
    message = await error_of(await make(client, {"names": names,
                                                 "households": [names[:51]]}))
    assert message.startswith('The household "Person 000", "Person 001"')
    assert "and 46 more is more than half the draw" in message


@pytest.mark.parametrize(("body", "message"), [
    ({"households": [["Ann", "Bo"]] * 51},
     "That's more than 50 households — a household only needs listing once."),
    ({"exclusions": ["Ann -> Bo"] * 501},
     "That's more than 500 exclusions — leave out the ones a household already covers."),
])
async def test_too_many_rules(client: Any, body: dict[str, Any], message: str) -> None:
    assert await error_of(await make(client, {"names": SIX, **body})) == message


@pytest.mark.parametrize("value", [None, 3, "Ann, Bo", {"a": 1}, [None, 5, {}], [[None]]])
async def test_odd_shapes_of_the_new_fields_are_ignored(client: Any, value: Any) -> None:
    """No rule is stored or exported, as if neither field had been sent."""
    response = await make(client, {"names": SIX, "households": value, "exclusions": value})
    made = await response.get_json()
    assert response.status_code == 201, made
    assert stored_rules(made["slug"]) == {"budget": "", "exchangeDate": "", "note": ""}
    export = (await (await client.post(
        f"/api/kringle/{made['editToken']}/export")).get_json())["data"]
    assert "households" not in export and "exclusions" not in export
    assert is_single_loop(stored_loop(made["slug"]))


async def test_redraw_with_exclusions_and_only_two_loops_alternates(client: Any) -> None:
    made = await create(client, "kringle", {"names": SIX[:4],
                                            "households": [["Ann", "Bo"], ["Cy", "Di"]]})
    first = stored_loop(made["slug"])
    await client.post(f"/api/kringle/{made['editToken']}/redraw")
    second = stored_loop(made["slug"])
    assert first != second
    await client.post(f"/api/kringle/{made['editToken']}/redraw")
    assert stored_loop(made["slug"]) == first
