"""The organiser sees who has claimed, never who is paired with whom; neither does anyone on
the share page. The strongest form of that: every public and organiser response is exactly
the same whatever groups are stored."""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

from groupkit import Instance
from groupkit_coffee.models import CoffeePerson
from groupkit_coffee.models import CoffeeRound
from groupkit_testing import create

NAMES = ["Ann Archer", "Bo Bramble", "Cy Cobb", "Di Dunlop", "Ed Ekins", "Flo Finch",
         "Gus Gale"]
PRIVATE_KEYS = {"partners", "groups", "partner", "pairs"}


def groupings(size: int) -> list[list[list[int]]]:
    """Every pairs-plus-one-trio grouping of an odd `size`."""
    def pairs(people: list[int]) -> list[list[list[int]]]:
        if not people:
            return [[]]
        first, rest = people[0], people[1:]
        return [[[first, other], *tail] for i, other in enumerate(rest)
                for tail in pairs(rest[:i] + rest[i + 1:])]
    return [[list(trio), *tail] for trio in itertools.combinations(range(size), 3)
            for tail in pairs([p for p in range(size) if p not in trio])]


def store(slug: str, grouping: list[list[int]]) -> None:
    """Store `grouping` (of places in the list) as every drawn round's groups."""
    instance = Instance.get(Instance.slug == slug)
    ids = [person.id for person in CoffeePerson.select().where(CoffeePerson.instance == instance)
           .order_by(CoffeePerson.position)]
    CoffeeRound.update(groups=[[ids[place] for place in group] for group in grouping]).where(
        CoffeeRound.instance == instance).execute()


async def text(client: Any, path: str, method: str = "GET") -> str:
    response = await (client.get(path) if method == "GET" else client.post(path))
    assert response.status_code == 200, path
    # The live-update version counts writes (an export is one); it is not about the groups.
    return re.sub(r' data-live-version="\d+"', "", (await response.get_data()).decode())


async def everything_but_private_pages(client: Any, made: dict[str, str]) -> dict[str, str]:
    slug, edit = made["slug"], made["editToken"]
    return {"public json": await text(client, f"/api/coffee/{slug}"),
            "public page": await text(client, f"/s/{slug}"),
            "organiser page": await text(client, f"/e/{edit}"),
            "export": await text(client, f"/api/coffee/{edit}/export", "POST"),
            # Taking a claimed person off the list: the confirmation it asks for.
            "edit refusal": await refusal(client, edit, [*NAMES[1:]])}


async def refusal(client: Any, edit: str, names: list[str]) -> str:
    response = await client.post(f"/api/coffee/{edit}/edit", json={"names": names})
    assert response.status_code == 409
    return str(await response.get_data(as_text=True))


async def busy_team(client: Any) -> tuple[dict[str, str], dict[str, str]]:
    """Seven people, five claimed, three rounds drawn."""
    made = await create(client, "coffee", {"title": "Brew crew", "names": NAMES})
    tokens = {}
    for name in NAMES[:5]:
        response = await client.post("/api/coffee/claim",
                                     json={"slug": made["slug"], "name": name})
        tokens[name] = (await response.get_json())["token"]
    for _ in range(3):
        await client.post(f"/api/coffee/{made['editToken']}/draw")
    return made, tokens


async def test_responses_do_not_depend_on_the_groups(client: Any) -> None:
    made, _ = await busy_team(client)
    options = groupings(len(NAMES))
    first = None
    for grouping in random.Random(3).sample(options, 40):
        store(made["slug"], grouping)
        seen = await everything_but_private_pages(client, made)
        first = first or seen
        assert seen == first


async def test_organiser_answers_carry_no_grouping(client: Any) -> None:
    made, _ = await busy_team(client)
    edit = made["editToken"]
    answers = [await client.post(f"/api/coffee/{edit}/draw"),
               await client.post(f"/api/coffee/{edit}/reset", json={"name": "Ann Archer"}),
               await client.post(f"/api/coffee/{edit}/export"),
               await client.post(f"/api/coffee/{edit}/edit",
                                 json={"names": [*NAMES[1:], "Hal Hart"], "confirm": True})]
    draw, reset, export, edited = [await answer.get_json() for answer in answers]
    assert edited == {"ok": True, "changed": ["names"]}
    assert set(draw) == {"ok", "round", "groupCount", "drawnAt"} and draw["groupCount"] == 3
    assert reset == {"ok": True, "reset": True}
    for person in export["data"]["people"]:
        assert set(person) == {"name", "claimed", "claimedAt"}
    for body in (draw, reset, export, edited):
        assert not PRIVATE_KEYS & set(re.findall(r'"(\w+)":', json.dumps(body)))
    public = await (await client.get(f"/api/coffee/{made['slug']}")).get_json()
    assert set(public) == {"title", "heading", "cadence", "note", "round", "drawnAt",
                           "people"}


async def test_a_private_page_names_only_its_holder_and_partners(client: Any) -> None:
    _, tokens = await busy_team(client)
    for holder, token in tokens.items():
        view = await (await client.get(f"/api/coffee/p/{token}")).get_json()
        mine = {holder, *(partner["name"] for partner in view["partners"])}
        assert len(mine) in (2, 3)
        page = await text(client, f"/p/{token}")
        for body in (page, json.dumps(view, ensure_ascii=False)):
            for name in NAMES:
                assert (name in body) == (name in mine), (holder, name)


async def test_link_previews_carry_no_names(client: Any) -> None:
    made, _ = await busy_team(client)
    page = await text(client, f"/s/{made['slug']}")
    metas = re.findall(r"<meta (?:property|name)=\"(?:og:[a-z]+|description)\" "
                       r"content=\"([^\"]*)\">", page)
    assert metas and all(name not in meta for meta in metas for name in NAMES)
    assert "Brew crew" in metas[0]


async def test_private_pages_are_not_cached_or_indexed(client: Any) -> None:
    _, tokens = await busy_team(client)
    response = await client.get(f"/p/{tokens['Bo Bramble']}")
    assert response.headers["Cache-Control"] == "no-store"
    assert "noindex" in response.headers["X-Robots-Tag"]
    assert response.headers["Referrer-Policy"] == "same-origin"


async def test_a_reset_link_says_so_and_names_no_partner(client: Any) -> None:
    """The old link of a reset person is no dead end: it says it was reset and where to
    claim again, and shows nobody's partner; its JSON read is gone."""
    made, tokens = await busy_team(client)
    old = tokens["Ann Archer"]
    partners = [partner["name"] for partner in
                (await (await client.get(f"/api/coffee/p/{old}")).get_json())["partners"]]
    assert partners
    await client.post(f"/api/coffee/{made['editToken']}/reset", json={"name": "Ann Archer"})
    response = await client.get(f"/p/{old}")  # an invalid credential: 404, never cached
    assert (response.status_code, response.headers["Cache-Control"]) == (404, "no-store")
    page = await response.get_data(as_text=True)
    assert "This link was reset" in page and f'href="http://localhost/s/{made["slug"]}"' in page
    for name in partners:
        assert name not in page
    assert (await client.get(f"/api/coffee/p/{old}")).status_code == 404
