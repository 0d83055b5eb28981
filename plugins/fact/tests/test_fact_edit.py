"""The organiser's edit: title, prompt and note change as sent; new starters join and leavers
go. A leaver who has claimed their name goes only once confirmed, and then visibly; nothing
about the edit says who has written a fact before the reveal."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from lxml import html as lxml_html

from groupkit import Instance
from groupkit_fact.models import Person
from groupkit_testing import edit

FEW = "Add at least three names — a guessing game needs a few people."
MANY = "Sixty names is the limit — split a big group into two rounds."
TWICE = "\"ann\" is on the list twice — add a surname initial so the right person claims it."
ONE_CLAIMED = ("Bo has already claimed their name. Taking them off the list wipes any fact "
               "they sent, takes it off everyone's guessing grid along with the guesses about "
               "it, and their private link stops working. Go ahead?")
TWO_CLAIMED = ("Bo and Cy have already claimed their names. Taking them off the list wipes "
               "any fact they sent, takes it off everyone's guessing grid along with the "
               "guesses about it, and their private links stop working. Go ahead?")
NOT_ON_LIST = "That name isn't on this list."
REVEALED = "The answers are out — the names can't change while they're showing."
NAMES = ["Ann", "Bo", "Cy", "Di"]


async def changed(board: Any, **body: Any) -> dict[str, Any]:
    status, payload = await edit(board.client, "fact", board.edit, body)
    assert status == 200, payload
    return dict(payload)


async def refused(board: Any, status: int, **body: Any) -> dict[str, Any]:
    code, payload = await edit(board.client, "fact", board.edit, body)
    assert code == status, payload
    return dict(payload)


@pytest.mark.parametrize(("field", "sent", "key", "stored"), [
    ("title", "  Offsite   day ", "heading", "Offsite day"),
    ("title", "", "heading", "Fact Matcher"),
    ("prompt", "Your strangest job", "prompt", "Your strangest job"),
    ("prompt", "  ", "prompt", "Share a fun fact about yourself"),
    ("note", "Reveal at 3pm.\nBring coffee.", "note", "Reveal at 3pm.\nBring coffee."),
])
async def test_each_detail_changes_alone(board: Any, field: str, sent: Any, key: str,
                                         stored: Any) -> None:
    token = await board.write("Ann", "I have met a moose")
    assert await changed(board, **{field: sent}) == {"ok": True, "changed": [field]}
    view = await board.public()
    assert view[key] == stored and view["names"] == NAMES
    page = await board.page(f"/p/{token}")
    assert "I have met a moose" in page


@pytest.mark.parametrize(("names", "message"), [
    (["Ann", "Bo"], FEW), ([], FEW), (["Ann", " ", "Bo"], FEW), ("Ann", FEW),
    ([f"Person {n}" for n in range(61)], MANY), (["Ann", "Bo", " ann "], TWICE)])
async def test_names_keep_the_create_rules(board: Any, names: Any, message: str) -> None:
    payload = await refused(board, 400, names=names, note="changed")
    assert payload == {"error": message, "field": "names"}
    view = await board.public()
    assert view["names"] == NAMES and view["note"] == ""


async def test_a_new_starter_joins_and_plays(board: Any) -> None:
    ann = await board.write("Ann", "I juggle")
    await changed(board, names=["Ann", "Bo", "Eve", "Cy", "Di"])
    view = await board.public()
    assert view["names"] == ["Ann", "Bo", "Eve", "Cy", "Di"] and view["total"] == 5
    eve = await board.write("Eve", "I was a lifeguard")
    assert "I juggle" in await board.page(f"/p/{ann}")
    assert "Hi Eve." in await board.page(f"/p/{eve}")
    people = (await board.export())["people"]
    assert [(p["name"], p["claimed"]) for p in people] == [
        ("Ann", True), ("Bo", False), ("Eve", True), ("Cy", False), ("Di", False)]


async def test_an_unclaimed_leaver_simply_goes(board: Any) -> None:
    await board.token("Ann")
    assert await changed(board, names=["Di", "Ann", "Cy"]) == {"ok": True, "changed": ["names"]}
    assert (await board.public())["names"] == ["Di", "Ann", "Cy"]
    response = await board.claim("Bo")
    assert response.status_code == 404 and (await response.get_json())["error"] == NOT_ON_LIST
    assert (await board.public())["notices"] == []


async def test_a_claimed_leaver_needs_confirming(board: Any) -> None:
    await board.token("Bo")
    payload = await refused(board, 409, title="Renamed", names=["Ann", "Cy", "Di"])
    assert payload == {"error": ONE_CLAIMED, "field": "names", "confirm": True}
    view = await board.public()
    assert view["title"] == "Offsite" and view["names"] == NAMES
    await board.token("Cy")
    payload = await refused(board, 409, names=["Ann", "Di", "Eve"])
    assert payload == {"error": TWO_CLAIMED, "field": "names", "confirm": True}


async def test_the_409_never_says_who_has_written(board: Any) -> None:
    """Bo claimed and wrote, Cy only claimed: the organiser hears the same about both."""
    await board.write("Bo", "I can whistle with my fingers")
    await board.token("Cy")
    bo = await refused(board, 409, names=["Ann", "Cy", "Di"])
    cy = await refused(board, 409, names=["Ann", "Bo", "Di"])
    assert bo["error"].replace("Bo", "X") == cy["error"].replace("Cy", "X")


async def test_a_confirmed_leaver_goes_with_their_fact_and_the_board_says_so(
        new_board: Callable[..., Any]) -> None:
    board = await new_board({"title": "Offsite", "names": ["Ann", "Bo", "Cy", "Di", "Ed"]})
    tokens = {name: await board.write(name, f"{name} once met a quokka")
              for name in ("Ann", "Bo", "Cy")}
    assert (await board.public())["factsIn"] == 3
    await changed(board, names=["Ann", "Cy", "Di", "Ed", "Fay"], confirm=True)
    view = await board.public()
    assert view["names"] == ["Ann", "Cy", "Di", "Ed", "Fay"]
    assert sorted(fact["text"] for fact in view["facts"]) == [
        "Ann once met a quokka", "Cy once met a quokka"]
    assert [(n["what"], n["name"], n["factRemoved"]) for n in view["notices"]] == [
        ("removed", "Bo", True)]
    page = await board.page(f"/s/{board.slug}")
    assert "The organiser took Bo off the list and their fact left the grid" in page
    await board.page(f"/p/{tokens['Bo']}", 404)
    saved = await board.save(tokens["Bo"], "again")
    assert saved.status_code == 404
    assert "Ann once met a quokka" in await board.page(f"/p/{tokens['Ann']}")
    # The answers later list the people still playing, and only them.
    await board.done("reveal", {"reveal": True})
    answers = (await board.public())["answers"]
    assert [answer["name"] for answer in answers] == ["Ann", "Cy", "Di", "Ed", "Fay"]


async def test_a_name_in_another_case_is_the_same_person(board: Any) -> None:
    token = await board.write("Ann", "I have two thumbs")
    await changed(board, names=["ANN", "Bo", "Cy", "Di"])
    assert (await board.public())["names"] == ["ANN", "Bo", "Cy", "Di"]
    assert "Hi ANN." in await board.page(f"/p/{token}")


async def test_a_list_made_before_look_alikes_counted_keeps_its_people_apart(
        board: Any) -> None:
    """People stored with the old key (NFC, case folded) still claim their names: names
    compare by keys computed afresh. Of two stored look-alikes each spelling finds its own
    person, and the organiser's list keeps the one spelled exactly as sent."""
    Person.update(name="\u0410nn", name_key="\u0430nn").where(Person.name == "Bo").execute()
    Person.update(name_key="ann").where(Person.name == "Ann").execute()
    cyrillic = await board.token("\u0410nn")
    latin = await board.token("Ann")
    assert "Hi \u0410nn." in await board.page(f"/p/{cyrillic}")
    assert "Hi Ann." in await board.page(f"/p/{latin}")
    await changed(board, names=["Ann", "Cy", "Di", "Ed"], confirm=True)
    assert (await board.public())["names"] == ["Ann", "Cy", "Di", "Ed"]
    assert "Hi Ann." in await board.page(f"/p/{latin}")
    await board.token("Ed")


async def test_the_same_names_change_nothing(board: Any) -> None:
    token = await board.write("Ann", "I have two thumbs")
    before = await board.public()
    await changed(board, names=NAMES)
    assert await board.public() == before
    assert "I have two thumbs" in await board.page(f"/p/{token}")


async def test_version_bumps_so_open_pages_refresh(board: Any) -> None:
    await board.page(f"/s/{board.slug}")  # cached
    before = Instance.get(Instance.slug == board.slug).version
    await changed(board, note="Answers at lunch.", names=[*NAMES, "Eve"])
    assert Instance.get(Instance.slug == board.slug).version == before + 1
    page = await board.page(f"/s/{board.slug}")
    assert "Answers at lunch." in page and "<option>Eve</option>" in page


async def test_the_form_is_prefilled_and_shows_nothing_about_facts(board: Any) -> None:
    await board.token("Bo")
    before = await board.page(f"/e/{board.edit}")
    assert f'data-api="/api/fact/{board.edit}/edit"' in before
    assert ('id="edit-names" name="names:lines" data-lines required>Ann\nBo\nCy\nDi'
            '</textarea>') in before
    assert ('id="edit-title" name="title" maxlength="80" '
            'placeholder="e.g. Team offsite icebreaker" value="Offsite"') in before
    # Writing a fact changes nothing the organiser sees of Bo (the form included).
    token = await board.claim("Cy")
    assert token.status_code == 200
    between = await board.page(f"/e/{board.edit}")
    await board.save((await token.get_json())["token"], "I was born at sea")
    after = await board.page(f"/e/{board.edit}")
    # The edit form comes before the board and names the version it shows: only that moves.
    def seen(page: str) -> str:
        head = page.split("<main")[1].split("fact-board")[0]
        return re.sub(r'(data-edit-version="|name="groupkit-version" value=")\d+', r"\1N", head)
    assert seen(between) == seen(after)
    create = await board.page("/new/fact")
    assert 'id="names" name="names:lines" data-lines required></textarea>' in create


@pytest.mark.parametrize("names", [
    ["Ann", "Bo", "Cy", "Di", "Eve"], ["Ann", "Bo", "Cy"], ["Ann", "Bo", "Cy", "Dee"],
    ["ann", "Bo", "Cy", "Di"], ["Bo", "Ann", "Cy", "Di"]])
async def test_revealed_answers_keep_their_names(board: Any, names: list[str]) -> None:
    """Adding, taking off, respelling or reordering a name would change the answer key."""
    await board.write("Ann", "I have met a moose")
    await board.done("reveal", {"reveal": True})
    before = (await board.export(), await board.public())
    payload = await refused(board, 409, names=names, note="changed", confirm=True)
    assert payload == {"error": REVEALED, "field": "names"}
    assert (await board.export(), await board.public()) == before


async def test_revealed_answers_keep_the_rest_editable(board: Any) -> None:
    await board.write("Ann", "I have met a moose")
    await board.done("reveal", {"reveal": True})
    before = await board.public()
    assert await changed(board, title="Offsite day", prompt="Your strangest job",
                         note="Well played.", names=NAMES) == {
        "ok": True, "changed": ["names", "note", "prompt", "title"]}
    after = await board.public()
    assert (after["heading"], after["prompt"], after["note"]) == (
        "Offsite day", "Your strangest job", "Well played.")
    assert after["answers"] == before["answers"] and after["names"] == NAMES
    # Hidden again, the game is open to changes again.
    await board.done("reveal", {"reveal": False})
    await changed(board, names=[*NAMES, "Eve"])
    assert (await board.public())["names"] == [*NAMES, "Eve"]


async def test_revealed_answers_leave_the_names_out_of_the_form(board: Any) -> None:
    await board.done("reveal", {"reveal": True})
    html = await board.page(f"/e/{board.edit}")
    form = lxml_html.fromstring(html).xpath(f'//form[@action="/api/fact/{board.edit}/edit"]')[0]
    fields = [(name, value) for name, value in form.form_values()
              if not name.startswith("groupkit-")]
    assert [name for name, _ in fields] == ["title", "prompt", "note"]
    assert "The answers are out, so the names stay as they are while they're showing." in html
    # Without the script the form posts the fields it shows, and they save.
    posted = await board.client.post(
        f"/api/fact/{board.edit}/edit", data=urlencode([*fields[:2], ("note", "Hi")]),
        headers={"Content-Type": "application/x-www-form-urlencoded",
                 "Sec-Fetch-Site": "same-origin"})
    assert posted.status_code == 303
    assert (await board.public())["note"] == "Hi"
    await board.done("reveal", {"reveal": False})
    assert 'id="edit-names" name="names:lines"' in await board.page(f"/e/{board.edit}")


async def test_the_edit_is_in_the_openapi_document(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    operation = document["paths"]["/api/fact/{editToken}/edit"]["post"]
    assert "names" in str(operation) and "confirm" in str(operation)
