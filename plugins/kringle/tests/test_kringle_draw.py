"""The draw: always one single loop through everybody, uniform among all single loops, fixed
at creation until the organiser redraws."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from groupkit import Instance
from groupkit.testing import create
from groupkit_kringle.draw import another_loop, single_loop
from groupkit_kringle.models import KringlePerson

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
