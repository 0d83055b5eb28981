"""The organiser's edit: title, cadence and note change as sent; new starters join from the
next draw and leavers go between rounds. Rounds name people by id, so nobody else's partner,
link or repeat history changes; taking someone off who claimed (or anyone once a round is
drawn) asks first, in words that never depend on who is with whom."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from groupkit import Instance
from groupkit_coffee.models import MIGRATIONS
from groupkit_coffee.models import CoffeePerson
from groupkit_coffee.models import CoffeeRound
from groupkit_coffee.pairing import RECENT_ROUNDS
from groupkit_testing import create
from groupkit_testing import edit

NAMES = ["Ann Archer", "Bo Bramble", "Cy Cobb", "Di Dunlop", "Ed Ekins"]  # the `team` fixture's
FEW = "Add at least three names — with two there's only ever one pairing."
MANY = "That's more than 200 names — split the team into two roulettes."
TWICE = '"bo bramble" is on the list twice — add a surname initial to tell them apart.'
CLAIMED = ("Bo Bramble has already claimed their name: taking them off the list stops their "
           "private link working. Go ahead?")
CLAIMED_IN_ROUND = ("Bo Bramble and Cy Cobb have already claimed their names: taking them off "
                    "the list stops their private links working, and anyone paired with them "
                    "in round 1 waits for the next draw. Go ahead?")
IN_ROUND = ("Ed Ekins is in round 2: taking them off the list means anyone paired with them "
            "waits for the next draw. Go ahead?")
NOT_FOUND = "Nothing here — check the link you were given."


async def changed(client: Any, team: dict[str, str], **body: Any) -> dict[str, Any]:
    status, payload = await edit(client, "coffee", team["editToken"], body)
    assert status == 200, payload
    return dict(payload)


async def refused(client: Any, team: dict[str, str], status: int, **body: Any) -> dict[str, Any]:
    code, payload = await edit(client, "coffee", team["editToken"], body)
    assert code == status, payload
    return dict(payload)


async def read(client: Any, slug: str) -> dict[str, Any]:
    return dict(await (await client.get(f"/api/coffee/{slug}")).get_json())


async def token_for(client: Any, slug: str, name: str) -> str:
    response = await client.post("/api/coffee/claim", json={"slug": slug, "name": name})
    assert response.status_code == 200, await response.get_json()
    return str((await response.get_json())["token"])


async def private(client: Any, token: str) -> dict[str, Any]:
    response = await client.get(f"/api/coffee/p/{token}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def draw(client: Any, team: dict[str, str]) -> None:
    assert (await client.post(f"/api/coffee/{team['editToken']}/draw")).status_code == 200


async def partners(client: Any, tokens: dict[str, str]) -> dict[str, set[str]]:
    return {name: {partner["name"] for partner in (await private(client, token))["partners"]}
            for name, token in tokens.items()}


@pytest.mark.parametrize(("field", "sent", "stored"), [
    ("title", " Brew  crew ", "Brew  crew"), ("title", "", "Coffee roulette"),
    ("cadence", "Every Monday", "Every Monday"), ("cadence", "", ""),
    ("note", "Half an hour.\nAnywhere.", "Half an hour.\nAnywhere.")])
async def test_each_detail_changes_alone(client: Any, team: dict[str, str], field: str,
                                         sent: Any, stored: Any) -> None:
    token = await token_for(client, team["slug"], "Ann Archer")
    await draw(client, team)
    before = await private(client, token)
    assert await changed(client, team, **{field: sent}) == {"ok": True, "changed": [field]}
    view = await read(client, team["slug"])
    assert view[field] == stored
    assert [person["name"] for person in view["people"]] == NAMES
    after = await private(client, token)
    assert after["partners"] == before["partners"] and after[field] == stored


@pytest.mark.parametrize(("names", "message"), [
    (["Ann", "Bo"], FEW), ([], FEW), ("Ann", FEW), ([f"P{n}" for n in range(201)], MANY),
    (["Ann Archer", "Bo Bramble", " bo bramble "], TWICE),
    (["Ann Archer", "Bo Bramble", "\u0410nn \u0410rcher"],
     '"\u0410nn \u0410rcher" is on the list twice — add a surname initial to tell them apart.')])
async def test_names_keep_the_create_rules(client: Any, team: dict[str, str], names: Any,
                                           message: str) -> None:
    payload = await refused(client, team, 400, names=names, cadence="Daily")
    assert payload == {"error": message, "field": "names"}
    view = await read(client, team["slug"])
    assert [person["name"] for person in view["people"]] == NAMES
    assert view["cadence"] == "Every second Monday"


async def test_a_claim_matches_look_alike_letters(client: Any, team: dict[str, str]) -> None:
    """Names compare the same way everywhere: a name typed with a Cyrillic "А" claims the
    name it looks like, so it cannot slip past the claimed check."""
    token = await token_for(client, team["slug"], "\u0410nn \u0410rcher")
    assert (await private(client, token))["name"] == "Ann Archer"
    response = await client.post("/api/coffee/claim", json={"slug": team["slug"],
                                                            "name": "Ann Archer"})
    assert response.status_code == 409


async def test_a_list_made_before_look_alikes_counted_keeps_its_people_apart(
        client: Any, team: dict[str, str]) -> None:
    """A team stored before look-alike letters counted may hold "Ann Archer" and a Cyrillic
    "Аnn Archer": each spelling claims its own person, and the organiser's list keeps the
    person spelled exactly as sent."""
    CoffeePerson.update(name="\u0410nn Archer").where(CoffeePerson.name == "Bo Bramble").execute()
    latin = await token_for(client, team["slug"], "Ann Archer")
    cyrillic = await token_for(client, team["slug"], "\u0410nn Archer")
    assert (await private(client, cyrillic))["name"] == "\u0410nn Archer"
    await changed(client, team, names=["Cy Cobb", "Ann Archer", "Di Dunlop"], confirm=True)
    view = await read(client, team["slug"])
    assert [person["name"] for person in view["people"]] == ["Cy Cobb", "Ann Archer", "Di Dunlop"]
    assert (await private(client, latin))["name"] == "Ann Archer"
    assert (await client.get(f"/api/coffee/p/{cyrillic}")).status_code == 404


async def test_before_any_round_unclaimed_names_come_and_go_freely(
        client: Any, team: dict[str, str]) -> None:
    await changed(client, team, names=["Ed Ekins", "Ann Archer", "Fay Fox", "Cy Cobb"])
    view = await read(client, team["slug"])
    assert [person["name"] for person in view["people"]] == [
        "Ed Ekins", "Ann Archer", "Fay Fox", "Cy Cobb"]
    response = await client.post("/api/coffee/claim", json={"slug": team["slug"],
                                                            "name": "Bo Bramble"})
    assert response.status_code == 404
    await token_for(client, team["slug"], "Fay Fox")


async def test_a_claimed_leaver_asks_first_then_their_link_is_gone(
        client: Any, team: dict[str, str]) -> None:
    bo = await token_for(client, team["slug"], "Bo Bramble")
    ann = await token_for(client, team["slug"], "Ann Archer")
    payload = await refused(client, team, 409, title="New", names=[n for n in NAMES
                                                                  if n != "Bo Bramble"])
    assert payload == {"error": CLAIMED, "field": "names", "confirm": True}
    assert (await read(client, team["slug"]))["title"] == "Platform coffee"
    await changed(client, team, names=[n for n in NAMES if n != "Bo Bramble"], confirm=True)
    # The leaver's link answers as any bad link does; everyone else's still works.
    gone = await client.get(f"/api/coffee/p/{bo}")
    assert gone.status_code == 404 and await gone.get_json() == {"error": NOT_FOUND}
    assert (await client.get(f"/p/{bo}")).status_code == 404
    assert (await private(client, ann))["name"] == "Ann Archer"


async def test_after_a_draw_any_leaver_asks_first(client: Any, team: dict[str, str]) -> None:
    await token_for(client, team["slug"], "Bo Bramble")
    await token_for(client, team["slug"], "Cy Cobb")
    await draw(client, team)
    payload = await refused(client, team, 409, names=["Ann Archer", "Di Dunlop", "Ed Ekins"])
    assert payload == {"error": CLAIMED_IN_ROUND, "field": "names", "confirm": True}
    await draw(client, team)
    payload = await refused(client, team, 409, names=NAMES[:4])
    assert payload == {"error": IN_ROUND, "field": "names", "confirm": True}
    # Adding someone needs no confirmation at any time.
    await changed(client, team, names=[*NAMES, "Fay Fox"])


async def test_everyone_else_keeps_this_rounds_partner(client: Any) -> None:
    names = [f"Person {letter}" for letter in "ABCDEFGHIJ"]
    team = await create(client, "coffee", {"names": names})
    tokens = {name: await token_for(client, team["slug"], name) for name in names}
    await draw(client, team)
    before = await partners(client, tokens)
    leaver = names[0]
    stays = [name for name in names if name != leaver]
    await changed(client, team, names=[*stays[4:], "Newcomer", *stays[:4]], confirm=True)
    del tokens[leaver]
    after = await partners(client, tokens)
    for name in stays:
        assert after[name] == before[name] - {leaver}, name
    alone = next(name for name in stays if before[name] == {leaver})
    page = await (await client.get(f"/p/{tokens[alone]}")).get_data(as_text=True)
    assert "Your partner has left the team" in page
    newcomer = await token_for(client, team["slug"], "Newcomer")
    view = await private(client, newcomer)
    assert (view["inRound"], view["partners"]) == (False, [])
    assert "You're in from the next round" in \
        await (await client.get(f"/p/{newcomer}")).get_data(as_text=True)
    await draw(client, team)
    assert (await private(client, newcomer))["partners"]


async def test_the_repeat_rule_still_counts_rounds_drawn_before_an_edit(client: Any) -> None:
    """An even team of 18 always has a grouping with no recent pair. People leave and join
    between rounds; the next rounds still avoid everyone's last three partners."""
    names = [f"Person {chr(65 + i)}" for i in range(18)]
    team = await create(client, "coffee", {"names": names})
    tokens = {name: await token_for(client, team["slug"], name) for name in names}
    history: list[set[frozenset[str]]] = []

    async def seen() -> set[frozenset[str]]:
        found = await partners(client, tokens)
        return {frozenset([name, *mates]) for name, mates in found.items()}

    for number in range(1, 9):
        if number in (3, 5):
            leavers = list(tokens)[:2] if number == 3 else list(tokens)[-2:]
            joiners = [f"New {number}a", f"New {number}b"]
            await changed(client, team, confirm=True,
                          names=[*joiners, *(name for name in tokens if name not in leavers)])
            for leaver in leavers:
                del tokens[leaver]
            for joiner in joiners:
                tokens[joiner] = await token_for(client, team["slug"], joiner)
        await draw(client, team)
        groups = await seen()
        assert sorted(n for group in groups for n in group) == sorted(tokens)
        met = {frozenset(pair) for past in history[:RECENT_ROUNDS] for group in past
               for pair in itertools.combinations(group, 2)}
        mine = {frozenset(pair) for group in groups for pair in itertools.combinations(group, 2)}
        assert not mine & met, (number, mine & met)
        history.insert(0, groups)


async def test_rounds_stored_by_place_are_migrated_to_ids(client: Any, team: dict[str, str]
                                                          ) -> None:
    """A database from before the edit stored places in the list: the migration names the
    same people by id, so every private page shows what it showed before."""
    from groupkit_testing import rerun_migrations

    tokens = {name: await token_for(client, team["slug"], name) for name in NAMES}
    for _ in range(2):
        await draw(client, team)
    before = await partners(client, tokens)
    instance = Instance.get(Instance.slug == team["slug"])
    place = {person.id: person.position
             for person in CoffeePerson.select().where(CoffeePerson.instance == instance)}
    # The list was never reordered back then: move ids away from places to tell them apart.
    for stored in CoffeeRound.select().where(CoffeeRound.instance == instance):
        stored.groups = [[place[ref] for ref in group] for group in stored.groups]
        stored.save()
    assert set(place) != set(place.values())
    assert rerun_migrations("tool:coffee", MIGRATIONS, keep=["0001_initial"]) == [
        "0002_rounds_by_person_id"]
    assert rerun_migrations("tool:coffee", MIGRATIONS, keep=[
        "0001_initial", "0002_rounds_by_person_id"]) == []
    assert await partners(client, tokens) == before


async def test_version_bumps_so_open_pages_refresh(client: Any, team: dict[str, str]) -> None:
    await client.get(f"/s/{team['slug']}")
    before = Instance.get(Instance.slug == team["slug"]).version
    await changed(client, team, note="Bring a mug.", names=[*NAMES, "Fay Fox"])
    assert Instance.get(Instance.slug == team["slug"]).version == before + 1
    page = await (await client.get(f"/s/{team['slug']}")).get_data(as_text=True)
    assert "Bring a mug." in page and '<option value="Fay Fox">' in page


async def test_the_form_is_prefilled_with_names_only(client: Any, team: dict[str, str]) -> None:
    await token_for(client, team["slug"], "Ann Archer")
    await draw(client, team)
    page = await (await client.get(f"/e/{team['editToken']}")).get_data(as_text=True)
    assert f'data-api="/api/coffee/{team["editToken"]}/edit"' in page
    assert 'name="names:lines" data-lines required>' + "\n".join(NAMES) + "</textarea>" in page
    assert ('id="edit-cadence" name="cadence" maxlength="40" '
            'placeholder="e.g. Every second Monday" value="Every second Monday"') in page
    create_page = await (await client.get("/new/coffee")).get_data(as_text=True)
    assert 'id="names" name="names:lines" data-lines required></textarea>' in create_page


async def test_the_edit_is_in_the_openapi_document(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    operation = document["paths"]["/api/coffee/{editToken}/edit"]["post"]
    assert "confirm" in str(operation) and "names" in str(operation)
