"""The organiser's edit of the tools whose details are plain text (Group Card, Recipe
Collection, Pixel Gift Registry, Baby Guess Pool, Kudos Wall, Question of the Day, Weekly
Pulse): each editable field changes alone, a wrong value gets the create rule's message with
its field named, and what people already did (signed, guessed, claimed, posted) stays."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import edit

PAYMENT = {"method": "PayID", "aliasId": "mia.sam@exmaple.com", "accountName": "M & S",
           "bsb": "", "accountNumber": "", "note": ""}

#: tool -> (create body, [(field, sent, where to read it, stored)], [(field, sent, message)])
CASES: dict[str, tuple[dict[str, Any], list[tuple[str, Any, str, Any]],
                       list[tuple[str, Any, str]]]] = {
    "card": ({"recipient": "Margaret", "note": "From all of us."},
             [("recipient", " Maggie ", "recipient", "Maggie"),
              ("title", "Happy retirement!", "title", "Happy retirement!"),
              ("note", "", "note", "")],
             [("recipient", "  ", "Who's the card for? Add their name.")]),
    "recipe": ({"title": "Family cookbook", "forWhom": "Mum", "note": "By Friday."},
               [("title", "Nguyen family cookbook", "title", "Nguyen family cookbook"),
                ("forWhom", "Mum's 70th", "forWhom", "Mum's 70th"),
                ("note", "By Sunday.\r\nThanks!", "note", "By Sunday.\nThanks!")],
               [("title", "", "What's the book called? Add a name.")]),
    "registry": ({"coupleNames": "Mia & Sam", "payment": PAYMENT},
                 [("payment", {**PAYMENT, "aliasId": "mia.sam@example.com"}, "payment",
                   {**PAYMENT, "aliasId": "mia.sam@example.com"}),
                  ("coupleNames", "Mia & Sam K", "coupleNames", "Mia & Sam K"),
                  ("tagline", "Help us build the van", "tagline", "Help us build the van"),
                  ("weddingDate", "Sat 14 March", "weddingDate", "Sat 14 March")],
                 [("coupleNames", None, "Add your names — it's your registry.")]),
    "baby": ({"parents": "Priya & Tom", "dueDate": "14 March"},
             [("parents", "Priya & Tom S", "parents", "Priya & Tom S"),
              ("dueDate", "mid March", "dueDate", "mid March"),
              ("note", "Winner gets a cake.", "note", "Winner gets a cake.")],
             [("parents", "", "Whose bub is it? Add the parents' names.")]),
    "kudos": ({"team": "Support", "intro": "Say thanks."},
              [("team", "Support team", "team", "Support team"),
               ("intro", "Say thanks here.", "intro", "Say thanks here.")], []),
    "qotd": ({"teamName": "Platform"},
             [("teamName", "Platform team", "teamName", "Platform team")], []),
    "pulse": ({"team": "Data crew"},
              [("team", "Data team", "team", "Data team"),
               ("question", "Energy this week?", "question", "Energy this week?"),
               ("question", "", "question", "How was your week?"),
               ("askWords", False, "askWords", False)], []),
}

#: tool -> (the public operation taking part, its body, the organiser view's list of it)
PARTICIPATION: dict[str, tuple[str, dict[str, Any], str]] = {
    "card": ("sign", {"name": "Ann", "message": "Enjoy!"}, "messages"),
    "baby": ("guess", {"guesser": "Ann", "date": "2026-03-14", "weightGrams": 3400},
             "guesses"),
    "registry": ("claim", {"name": "Ann", "message": "Congrats", "partId": "p001"}, "claims"),
    "kudos": ("note", {"recipient": "Bo", "message": "Great work", "sender": "Ann"}, "notes"),
    "recipe": ("add", {"cook": "Ann", "dish": "Pavlova", "ingredients": "Eggs",
                       "method": "Whisk"}, "recipes"),
}


@pytest.fixture
def client(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=sorted(CASES)).test_client()


async def organiser(client: Any, tool: str, token: str) -> dict[str, Any]:
    exported = await (await client.post(f"/api/{tool}/{token}/export")).get_json()
    return {"title": exported["title"], **exported["data"]}


@pytest.mark.parametrize(("tool", "field", "sent", "key", "stored"), [
    (tool, *case) for tool, (_, changes, _) in CASES.items() for case in changes])
async def test_each_field_changes_alone(client: Any, tool: str, field: str, sent: Any,
                                        key: str, stored: Any) -> None:
    made = await create(client, tool, CASES[tool][0])
    before = await organiser(client, tool, made["editToken"])
    assert await edit(client, tool, made["editToken"], {field: sent}) == (
        200, {"ok": True, "changed": [field]})
    after = await organiser(client, tool, made["editToken"])
    assert after[key] == stored
    assert {k: v for k, v in after.items() if k not in (key, "title", "heading", "subline")} \
        == {k: v for k, v in before.items() if k not in (key, "title", "heading", "subline")}


@pytest.mark.parametrize(("tool", "field", "sent", "message"), [
    (tool, *case) for tool, (_, _, refusals) in CASES.items() for case in refusals])
async def test_the_create_rule_and_message(client: Any, tool: str, field: str, sent: Any,
                                           message: str) -> None:
    made = await create(client, tool, CASES[tool][0])
    before = await organiser(client, tool, made["editToken"])
    assert await edit(client, tool, made["editToken"], {field: sent}) == (
        400, {"error": message, "field": field})
    assert await organiser(client, tool, made["editToken"]) == before


@pytest.mark.parametrize("tool", sorted(PARTICIPATION))
async def test_what_people_did_stays(client: Any, tool: str) -> None:
    made = await create(client, tool, CASES[tool][0])
    path, body, listed = PARTICIPATION[tool]
    taken = await client.post(f"/api/{tool}/{path}", json={"slug": made["slug"], **body})
    assert taken.status_code == 201, await taken.get_json()
    before = (await organiser(client, tool, made["editToken"]))[listed]
    field, sent, *_ = CASES[tool][1][0]
    assert (await edit(client, tool, made["editToken"], {field: sent}))[0] == 200
    assert (await organiser(client, tool, made["editToken"]))[listed] == before
    assert len(before) == 1


async def test_a_card_title_left_empty_follows_the_recipient(client: Any) -> None:
    made = await create(client, "card", {"recipient": "Margaret"})
    await edit(client, "card", made["editToken"], {"recipient": "Maggie"})
    view = await (await client.get(f"/api/card/{made['slug']}")).get_json()
    assert view["title"] == "A card for Maggie" and view["subline"] == ""
    await edit(client, "card", made["editToken"], {"title": "Happy retirement!"})
    view = await (await client.get(f"/api/card/{made['slug']}")).get_json()
    assert (view["title"], view["subline"]) == ("Happy retirement!", "A card for Maggie")


async def test_the_payid_typo_reaches_the_next_receipt_never_the_public(client: Any) -> None:
    made = await create(client, "registry", CASES["registry"][0])
    fixed = {**PAYMENT, "aliasId": "mia.sam@example.com"}
    await edit(client, "registry", made["editToken"], {"payment": fixed})
    claim = await client.post("/api/registry/claim", json={
        "slug": made["slug"], "name": "Ann", "partId": "p002"})
    assert (await claim.get_json())["payment"]["aliasId"] == "mia.sam@example.com"
    public = await (await client.get(f"/api/registry/{made['slug']}")).get_data(as_text=True)
    page = await (await client.get(f"/s/{made['slug']}")).get_data(as_text=True)
    assert "mia.sam@" not in public and "mia.sam@" not in page
    html = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert 'data-key="aliasId" maxlength="80" placeholder="mia.sam@example.com" ' \
           'value="mia.sam@example.com"' in html


@pytest.mark.parametrize("tool", sorted(CASES))
async def test_the_organiser_page_has_the_prefilled_form(client: Any, tool: str) -> None:
    made = await create(client, tool, CASES[tool][0])
    html = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert f'data-api="/api/{tool}/{made["editToken"]}/edit"' in html
    field, *_ = CASES[tool][1][0]
    assert f'id="edit-{field}"' in html or f'data-group="{field}"' in html
    page = await (await client.get(f"/new/{tool}")).get_data(as_text=True)
    assert "edit-" not in page
