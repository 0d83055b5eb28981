"""Nobody but a person's own private page can learn who they drew: not the group, not the
organiser, not the export. The strongest form of that: every public and organiser response
is exactly the same whichever loop is stored."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

import pytest

from groupkit import Instance
from groupkit_kringle.models import KringlePerson
from groupkit_testing import create
from groupkit_testing import edit

NAMES = ["Ann Archer", "Bo Bramble", "Cy Cobb", "Di Dunlop", "Ed Ekins"]
PRIVATE_KEYS = {"giftee", "gifteeWishlist", "myWishlist", "wishlist"}


def wish(name: str) -> str:
    return f"wish-of-{name.split()[0].lower()}"


def loops(size: int) -> list[list[int]]:
    result = []
    for rest in itertools.permutations(range(1, size)):
        order = (0, *rest)
        giftee = [0] * size
        for index, giver in enumerate(order):
            giftee[giver] = order[(index + 1) % size]
        result.append(giftee)
    return result


def store_loop(slug: str, giftee: list[int]) -> None:
    instance = Instance.get(Instance.slug == slug)
    for position, target in enumerate(giftee):
        KringlePerson.update(giftee=target).where(
            (KringlePerson.instance == instance) & (KringlePerson.position == position)
        ).execute()


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


async def text(client: Any, path: str, method: str = "GET") -> str:
    response = await (client.get(path) if method == "GET" else client.post(path))
    assert response.status_code == 200, path
    body = (await response.get_data()).decode()
    # The live-update version counts writes (an export is one); it is not about the draw.
    return re.sub(r' data-live-version="\d+"', "", body)


async def everything_but_private_pages(client: Any, made: dict[str, str]) -> dict[str, str]:
    slug, edit = made["slug"], made["editToken"]
    return {"public json": await text(client, f"/api/kringle/{slug}"),
            "public page": await text(client, f"/s/{slug}"),
            "organiser page": await text(client, f"/e/{edit}"),
            "export": await text(client, f"/api/kringle/{edit}/export", "POST")}


async def busy_draw(client: Any) -> tuple[dict[str, str], dict[str, str]]:
    """Five people; four claimed, three opened their page, three wrote wishlists."""
    made = await create(client, "kringle", {"title": "Elves", "names": NAMES})
    tokens = {}
    for name in NAMES[:4]:
        response = await client.post("/api/kringle/claim",
                                     json={"slug": made["slug"], "name": name})
        tokens[name] = (await response.get_json())["token"]
    for name in NAMES[:3]:
        await client.get(f"/p/{tokens[name]}")
        await client.post(f"/api/kringle/p/{tokens[name]}/wishlist", json={"text": wish(name)})
    return made, tokens


async def test_public_and_organiser_responses_do_not_depend_on_the_loop(client: Any) -> None:
    made, _ = await busy_draw(client)
    first = None
    for giftee in loops(len(NAMES)):  # all 24 single loops on five people
        store_loop(made["slug"], giftee)
        seen = await everything_but_private_pages(client, made)
        first = first or seen
        assert seen == first


async def test_organiser_answers_carry_no_pairing(client: Any) -> None:
    made, _ = await busy_draw(client)
    edit = made["editToken"]
    export = await (await client.post(f"/api/kringle/{edit}/export")).get_json()
    assert not keys_of(export) & PRIVATE_KEYS
    for person in export["data"]["people"]:
        assert set(person) == {"name", "claimed", "claimedAt", "opened", "openedAt"}
    answers = [
        await client.post(f"/api/kringle/{edit}/reset", json={"name": "Ed Ekins"}),
        await client.post(f"/api/kringle/{edit}/reset", json={"name": "Di Dunlop"}),
        await client.post(f"/api/kringle/{edit}/redraw"),
    ]
    assert [await answer.get_json() for answer in answers] == [
        {"ok": True, "reset": False}, {"ok": True, "reset": True}, {"ok": True}]
    claim = await client.post("/api/kringle/claim", json={"slug": made["slug"],
                                                          "name": "Ed Ekins"})
    assert set(await claim.get_json()) == {"token"}


async def test_no_wishlist_leaves_the_private_pages(client: Any) -> None:
    made, _ = await busy_draw(client)
    for where, body in (await everything_but_private_pages(client, made)).items():
        for name in NAMES[:3]:
            assert wish(name) not in body, where
        assert not PRIVATE_KEYS & set(re.findall(r'"(\w+)":', body)), where


async def test_a_private_page_names_only_its_holder_and_their_giftee(client: Any) -> None:
    _, tokens = await busy_draw(client)
    for holder, token in tokens.items():
        view = await (await client.get(f"/api/kringle/p/{token}")).get_json()
        giftee = view["giftee"]
        for page in (await text(client, f"/p/{token}"), json.dumps(view, ensure_ascii=False)):
            for name in NAMES:
                assert (name in page) == (name in (holder, giftee)), (holder, name)
                # Wishlists: the giftee's (to read) and the holder's own (to edit), no other.
                if name in NAMES[:3]:
                    assert (wish(name) in page) == (name in (holder, giftee)), (holder, name)


async def test_link_previews_carry_no_names(client: Any) -> None:
    made, _ = await busy_draw(client)
    page = await text(client, f"/s/{made['slug']}")
    metas = re.findall(r"<meta (?:property|name)=\"(?:og:[a-z]+|description)\" "
                       r"content=\"([^\"]*)\">", page)
    assert metas and all(name not in meta for meta in metas for name in NAMES)
    assert "Elves" in metas[0]


async def test_private_pages_are_not_cached_or_indexed(client: Any) -> None:
    _, tokens = await busy_draw(client)
    response = await client.get(f"/p/{tokens['Ann Archer']}")
    assert response.headers["Cache-Control"] == "no-store"
    assert "noindex" in response.headers["X-Robots-Tag"]
    assert response.headers["Referrer-Policy"] == "same-origin"


# --- the organiser's edit -----------------------------------------------------------------

async def claimed(client: Any, names: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    made = await create(client, "kringle", {"title": "Elves", "names": NAMES})
    tokens = {}
    for name in names:
        response = await client.post("/api/kringle/claim",
                                     json={"slug": made["slug"], "name": name})
        tokens[name] = (await response.get_json())["token"]
    return made, tokens


EDITS = [{"names": [*NAMES, "Flo Finch"]}, {"names": NAMES[:2] + NAMES[3:]},
         {"names": NAMES[1:], "confirm": True}, {"budget": "$50"}]


@pytest.mark.parametrize("body", EDITS)
async def test_edit_replies_and_pages_do_not_depend_on_the_loop(client: Any,
                                                               body: dict[str, Any]) -> None:
    """The same edit of the same claims over every one of the 24 loops of five people:
    every answer, page and export the organiser (or the group) can read is the same."""
    first = None
    for loop in loops(len(NAMES)):
        made, tokens = await claimed(client, NAMES[:3])
        await client.get(f"/p/{tokens[NAMES[0]]}")
        store_loop(made["slug"], loop)
        refused = await edit(client, "kringle", made["editToken"], {
            **{k: v for k, v in body.items() if k != "confirm"}, "names": ["Ann", "Bo"]})
        answer = await edit(client, "kringle", made["editToken"], body)
        seen = await everything_but_private_pages(client, made)
        seen = {where: page.replace(made["slug"], "SLUG").replace(made["editToken"], "EDIT")
                for where, page in seen.items()}
        seen = {where: re.sub(r"\d{4}-\d\d-\d\dT[\d:.+]+|\d{4}-\d\d-\d\d at \d\d:\d\d", "T",
                              page) for where, page in seen.items()}
        result = (refused, answer, seen)
        first = first or result
        assert result == first


async def test_the_edit_form_shows_nothing_of_the_draw(client: Any) -> None:
    made, tokens = await claimed(client, NAMES[:3])
    await client.post(f"/api/kringle/p/{tokens[NAMES[0]]}/wishlist", json={"text": "wish-x"})
    html = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    form = html[html.index('class="edit-details"'):]
    form = form[:form.index("</section>")]
    assert "wish-x" not in form and "giftee" not in form
    assert "Ann Archer\nBo Bramble\nCy Cobb\nDi Dunlop\nEd Ekins" in form
