"""The organiser's edit of a Kris Kringle draw: the details change as sent; adding or
removing names keeps whoever has claimed on the giftee they saw, redraws the rest as one
single loop that keeps the exclusions, and asks before anything a claimed person would
notice; the organiser never learns a pairing from any of it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit import Instance
from groupkit_kringle.edit import REDRAW_ALL
from groupkit_kringle.edit import REDRAW_RULES
from groupkit_kringle.edit import REMOVE_CLAIMED
from groupkit_kringle.edit import REMOVE_OPENED
from groupkit_kringle.models import KringlePerson
from groupkit_testing import create
from groupkit_testing import edit

NAMES = ["Ann Archer", "Bo Bramble", "Cy Cobb", "Di Dunlop", "Ed Ekins"]
DRAW = {"title": "Office Kris Kringle", "names": NAMES, "budget": "$30",
        "exchangeDate": "Friday 19 December", "note": "Gifts under the kitchen tree."}


async def claim(client: Any, slug: str, name: str) -> str:
    response = await client.post("/api/kringle/claim", json={"slug": slug, "name": name})
    assert response.status_code == 200, await response.get_json()
    return str((await response.get_json())["token"])


async def giftee(client: Any, token: str) -> str:
    response = await client.get(f"/api/kringle/p/{token}")
    assert response.status_code == 200
    return str((await response.get_json())["giftee"])


async def export(client: Any, made: dict[str, str]) -> dict[str, Any]:
    reply = await (await client.post(f"/api/kringle/{made['editToken']}/export")).get_json()
    return {"title": reply["title"], **reply["data"]}


def stored_loop(slug: str) -> dict[str, str]:
    """Who draws whom as stored, checked to be one single loop through everybody."""
    instance = Instance.get(Instance.slug == slug)
    people = list(KringlePerson.select().where(KringlePerson.instance == instance)
                  .order_by(KringlePerson.position))
    assert [person.position for person in people] == list(range(len(people)))
    giftees = [person.giftee for person in people]
    place, seen = 0, []
    for _ in people:
        seen.append(place)
        place = giftees[place]
    assert place == 0 and sorted(seen) == list(range(len(people)))
    return {person.name: people[person.giftee].name for person in people}


async def claimed_draw(client: Any, claimers: list[str], body: dict[str, Any] | None = None
                       ) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """A draw with `claimers` claimed: (made, tokens, who each claimer buys for)."""
    made = await create(client, "kringle", body or DRAW)
    tokens = {name: await claim(client, made["slug"], name) for name in claimers}
    return made, tokens, {name: await giftee(client, token) for name, token in tokens.items()}


@pytest.mark.parametrize(("field", "sent", "stored"), [
    ("title", " Elves  2026 ", "Elves  2026"), ("budget", "$40", "$40"),
    ("exchangeDate", "Monday 22 December", "Monday 22 December"),
    ("note", "No re-gifting.\r\nWrap it.", "No re-gifting.\r\nWrap it."), ("note", "", "")])
async def test_each_detail_changes_alone_and_the_draw_stays(
        client: Any, field: str, sent: str, stored: str) -> None:
    made, tokens, giftees = await claimed_draw(client, NAMES[:2])
    before, loop = await export(client, made), stored_loop(made["slug"])
    assert await edit(client, "kringle", made["editToken"], {field: sent}) == (
        200, {"ok": True, "changed": [field]})
    after = await export(client, made)
    assert after[field] == stored
    assert {k: v for k, v in after.items() if k not in (field, "heading")} == \
        {k: v for k, v in before.items() if k not in (field, "heading")}
    assert stored_loop(made["slug"]) == loop
    view = await (await client.get(f"/api/kringle/p/{tokens[NAMES[0]]}")).get_json()
    assert view[field] == stored and view["giftee"] == giftees[NAMES[0]]


@pytest.mark.parametrize(("names", "message"), [
    (["Ann", "Bo", " "], "Add at least three names — with two it's not a secret, it's a swap."),
    ([f"P{n}" for n in range(101)], "That's more than 100 people — split it into two draws."),
    (["Ann", "Bo", "ann"], '"ann" is in the list twice — add a surname initial so the right '
                           "one gets claimed.")])
async def test_names_follow_the_create_rules(client: Any, names: list[str],
                                             message: str) -> None:
    made = await create(client, "kringle", DRAW)
    before = await export(client, made)
    assert await edit(client, "kringle", made["editToken"], {"names": names, "title": "X"}) \
        == (400, {"error": message, "field": "names"})
    assert await export(client, made) == before


async def test_adding_a_name_keeps_every_claimed_giftee(client: Any) -> None:
    for _ in range(5):  # the unclaimed part is drawn at random: several draws
        made, tokens, giftees = await claimed_draw(client, NAMES[:3])
        names = [*NAMES, "Flo Finch"]
        assert await edit(client, "kringle", made["editToken"], {"names": names}) == (
            200, {"ok": True, "changed": ["names"]})
        loop = stored_loop(made["slug"])
        assert sorted(loop) == sorted(names)
        for name, token in tokens.items():
            assert loop[name] == giftees[name] == await giftee(client, token)
        people = (await export(client, made))["people"]
        assert [person["name"] for person in people] == names
        assert [person["claimed"] for person in people] == [True] * 3 + [False] * 3
        await claim(client, made["slug"], "Flo Finch")


async def test_removing_an_unclaimed_name_redraws_only_what_it_must(client: Any) -> None:
    made, tokens, giftees = await claimed_draw(client, NAMES[:2])
    names = [name for name in NAMES if name != "Cy Cobb"]
    assert (await edit(client, "kringle", made["editToken"], {"names": names}))[0] == 200
    loop = stored_loop(made["slug"])
    assert sorted(loop) == sorted(names)
    for name, token in tokens.items():
        assert await giftee(client, token) == loop[name]
        if giftees[name] != "Cy Cobb":
            assert loop[name] == giftees[name]
    response = await client.post("/api/kringle/claim", json={"slug": made["slug"],
                                                             "name": "Cy Cobb"})
    assert response.status_code == 404


async def test_removing_a_claimed_name_asks_first(client: Any) -> None:
    made, tokens, _ = await claimed_draw(client, NAMES[:2])
    await client.post(f"/api/kringle/p/{tokens['Bo Bramble']}/wishlist", json={"text": "Tea"})
    names = NAMES[2:]
    before = await export(client, made)
    message = REMOVE_CLAIMED.format(names='"Ann Archer" and "Bo Bramble"')
    assert message == ('Already claimed: "Ann Archer" and "Bo Bramble". Remove anyway? Their '
                       "private links stop working, and whoever drew them gets someone new.")
    assert await edit(client, "kringle", made["editToken"], {"names": names}) == (
        409, {"error": message, "field": "names", "confirm": True})
    assert await export(client, made) == before
    assert await edit(client, "kringle", made["editToken"],
                      {"names": names, "confirm": True}) == (
        200, {"ok": True, "changed": ["names"]})
    assert sorted(stored_loop(made["slug"])) == sorted(names)
    for token in tokens.values():
        assert (await client.get(f"/api/kringle/p/{token}")).status_code == 404
        assert (await client.get(f"/p/{token}")).status_code == 404


async def test_a_name_joining_a_fully_claimed_draw_asks_before_drawing_everybody(
        client: Any) -> None:
    names = NAMES[:3]
    made, tokens, _ = await claimed_draw(client, names, {"names": names})
    before = stored_loop(made["slug"])
    assert await edit(client, "kringle", made["editToken"], {"names": [*names, "Di"]}) == (
        409, {"error": REDRAW_ALL, "field": "names", "confirm": True})
    assert stored_loop(made["slug"]) == before
    assert (await edit(client, "kringle", made["editToken"],
                       {"names": [*names, "Di"], "confirm": True}))[0] == 200
    loop = stored_loop(made["slug"])
    assert sorted(loop) == sorted([*names, "Di"])
    for name, token in tokens.items():
        assert await giftee(client, token) == loop[name]


async def test_fixing_a_names_capitals_keeps_the_person(client: Any) -> None:
    made, tokens, giftees = await claimed_draw(client, NAMES[:1])
    names = ["ANN ARCHER", *NAMES[1:]]
    loop = stored_loop(made["slug"])
    assert (await edit(client, "kringle", made["editToken"], {"names": names}))[0] == 200
    after = stored_loop(made["slug"])
    assert after["ANN ARCHER"] == loop["Ann Archer"] == giftees["Ann Archer"]
    view = await (await client.get(f"/api/kringle/p/{tokens['Ann Archer']}")).get_json()
    assert view["name"] == "ANN ARCHER"


async def test_reordering_the_names_keeps_the_whole_loop(client: Any) -> None:
    made = await create(client, "kringle", DRAW)
    loop = stored_loop(made["slug"])
    assert (await edit(client, "kringle", made["editToken"],
                       {"names": list(reversed(NAMES))}))[0] == 200
    assert stored_loop(made["slug"]) == loop
    assert [p["name"] for p in (await export(client, made))["people"]] == NAMES[::-1]


EXCLUDED = {**DRAW, "households": [["Ann Archer", "Bo Bramble"]],
            "exclusions": [{"giver": "Cy Cobb", "giftee": "Di Dunlop"}]}


async def test_exclusions_hold_after_names_change(client: Any) -> None:
    for _ in range(5):
        made, tokens, _giftees = await claimed_draw(client, ["Ed Ekins"], EXCLUDED)
        names = ["Flo Finch", *NAMES]
        assert await edit(client, "kringle", made["editToken"], {"names": names}) == (
            409, {"error": REDRAW_RULES, "field": "names", "confirm": True})
        assert (await edit(client, "kringle", made["editToken"],
                           {"names": names, "confirm": True}))[0] == 200
        loop = stored_loop(made["slug"])
        assert loop["Ann Archer"] != "Bo Bramble" and loop["Bo Bramble"] != "Ann Archer"
        assert loop["Cy Cobb"] != "Di Dunlop"
        assert await giftee(client, tokens["Ed Ekins"]) == loop["Ed Ekins"]
        view = await export(client, made)
        assert view["households"] == [["Ann Archer", "Bo Bramble"]]
        assert view["exclusions"] == [{"giver": "Cy Cobb", "giftee": "Di Dunlop"}]


async def test_without_claims_the_rules_need_no_confirmation(client: Any) -> None:
    made = await create(client, "kringle", EXCLUDED)
    names = [name for name in NAMES if name != "Cy Cobb"]
    assert (await edit(client, "kringle", made["editToken"], {"names": names}))[0] == 200
    loop = stored_loop(made["slug"])
    assert loop["Ann Archer"] != "Bo Bramble" and loop["Bo Bramble"] != "Ann Archer"
    assert (await export(client, made))["exclusions"] == []


async def test_names_that_break_the_exclusions_are_the_creates_400(client: Any) -> None:
    made = await create(client, "kringle", {**DRAW, "names": [*NAMES, "Flo"],
                                            "households": [NAMES[:3]]})
    before = await export(client, made)
    assert await edit(client, "kringle", made["editToken"], {"names": NAMES}) == (400, {
        "error": 'The household "Ann Archer", "Bo Bramble" and "Cy Cobb" is more than half '
                 "the draw: in one loop some of them would have to draw each other.",
        "field": "names"})
    assert await export(client, made) == before


async def test_personal_links_for_new_names_and_opened_links_ask(client: Any) -> None:
    made = await create(client, "kringle", {**DRAW, "personalLinks": True})
    people = (await export(client, made))["people"]
    await client.get(people[0]["link"])  # Ann opens her link
    assert await edit(client, "kringle", made["editToken"], {"names": NAMES[1:]}) == (
        409, {"error": REMOVE_OPENED.format(names='"Ann Archer"'), "field": "names",
              "confirm": True})
    assert (await edit(client, "kringle", made["editToken"],
                       {"names": [*NAMES, "Flo Finch"]}))[0] == 200
    people = (await export(client, made))["people"]
    assert people[-1]["name"] == "Flo Finch" and people[-1]["link"].startswith("/p/")
    view = await client.get(people[-1]["link"])
    assert view.status_code == 200 and "Hi Flo Finch." in await view.get_data(as_text=True)


async def test_broken_pairs_start_their_conversations_afresh(client: Any) -> None:
    made, tokens, giftees = await claimed_draw(client, NAMES, {**DRAW, "questions": True})
    for token in tokens.values():
        assert (await client.post(f"/api/kringle/p/{token}/ask", json={
            "to": "giftee", "text": "Size?"})).status_code == 200
    gone = NAMES[0]
    names = NAMES[1:]
    assert (await edit(client, "kringle", made["editToken"],
                       {"names": names, "confirm": True}))[0] == 200
    loop = stored_loop(made["slug"])
    for name in names:
        view = await (await client.get(f"/api/kringle/p/{tokens[name]}")).get_json()
        kept = giftees[name] != gone
        assert loop[name] == giftees[name] if kept else loop[name] != gone
        assert len(view["questions"]["withGiftee"]) == (1 if kept else 0)


async def test_the_form_is_prefilled_and_the_create_page_is_not(client: Any) -> None:
    made = await create(client, "kringle", DRAW)
    html = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert f'data-api="/api/kringle/{made["editToken"]}/edit"' in html
    assert ">Ann Archer\nBo Bramble\nCy Cobb\nDi Dunlop\nEd Ekins</textarea>" in html
    assert ('id="edit-budget" name="budget" maxlength="40" placeholder="e.g. $30" '
            'value="$30"') in html
    page = await (await client.get("/new/kringle")).get_data(as_text=True)
    assert 'id="edit-' not in page and 'id="names" name="names:lines"' in page


async def test_an_edit_reaches_open_pages(client: Any) -> None:
    made, tokens, _ = await claimed_draw(client, NAMES[:1])
    pages = [f"/s/{made['slug']}", f"/e/{made['editToken']}", f"/p/{tokens[NAMES[0]]}"]

    async def version(path: str) -> int:
        html = await (await client.get(path)).get_data(as_text=True)
        return int(re.search(r'data-live-version="(\d+)"', html).group(1))  # type: ignore[union-attr]

    before = [await version(path) for path in pages]
    await edit(client, "kringle", made["editToken"], {"exchangeDate": "Boxing Day",
                                                     "names": [*NAMES, "Flo Finch"]})
    for path, was in zip(pages, before, strict=True):
        html = await (await client.get(path)).get_data(as_text=True)
        assert await version(path) > was and "Boxing Day" in html
    assert "Flo Finch" in await (await client.get(pages[0])).get_data(as_text=True)


async def test_a_draw_made_before_look_alikes_counted_keeps_its_people_apart(
        client: Any) -> None:
    """A draw stored before look-alike letters counted may hold "Ann Archer" and a Cyrillic
    "Аnn Archer": each spelling still finds its own person, and the organiser's list keeps
    the person spelled exactly as sent."""
    made = await create(client, "kringle", DRAW)
    instance = Instance.get(Instance.slug == made["slug"])
    KringlePerson.update(name="\u0410nn Archer").where(
        (KringlePerson.instance == instance) & (KringlePerson.name == "Bo Bramble")).execute()
    latin = await claim(client, made["slug"], "Ann Archer")
    cyrillic = await claim(client, made["slug"], "\u0410nn Archer")
    for token, name in ((latin, "Ann Archer"), (cyrillic, "\u0410nn Archer")):
        view = await (await client.get(f"/api/kringle/p/{token}")).get_json()
        assert view["name"] == name
    names = ["Ann Archer", *NAMES[2:]]
    assert (await edit(client, "kringle", made["editToken"],
                       {"names": names, "confirm": True}))[0] == 200
    assert sorted(stored_loop(made["slug"])) == sorted(names)
    assert (await client.get(f"/api/kringle/p/{latin}")).status_code == 200
    assert (await client.get(f"/api/kringle/p/{cyrillic}")).status_code == 404
