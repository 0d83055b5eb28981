"""The organiser's edit: recipient, occasion, budget and note change as sent, checked with
the create rules; the title follows the recipient; every idea, vote and claim stays."""

from __future__ import annotations

from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import edit

NO_RECIPIENT = "Who's the gift for? Add their name."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


async def read(client: Any, slug: str) -> dict[str, Any]:
    return dict(await (await client.get(f"/api/giftidea/{slug}")).get_json())


@pytest.mark.parametrize(("field", "value"), [
    ("recipient", "Priya Shah"), ("occasion", "Farewell — Friday 4 April"),
    ("budget", "About $25 each"), ("note", "Loves hiking.\r\nAnd tea, not coffee.")])
async def test_each_field_changes_alone(client: Any, board: dict[str, str], field: str,
                                        value: str) -> None:
    before = await read(client, board["slug"])
    status, payload = await edit(client, "giftidea", board["editToken"], {field: value})
    assert status == 200, payload
    assert payload == {"ok": True, "changed": [field]}
    after = await read(client, board["slug"])
    assert after[field] == value
    assert {key: after[key] for key in ("recipient", "occasion", "budget", "note")
            if key != field} == {key: before[key] for key in ("recipient", "occasion",
                                                               "budget", "note")
                                 if key != field}


async def test_the_title_follows_the_recipient(client: Any, board: dict[str, str]) -> None:
    await edit(client, "giftidea", board["editToken"], {"recipient": "  Priya   Shah "})
    view = await read(client, board["slug"])
    assert (view["recipient"], view["title"]) == ("Priya Shah", "Gift ideas for Priya Shah")


@pytest.mark.parametrize("recipient", ["", "   ", None])
async def test_a_blank_recipient_is_the_create_message(client: Any, board: dict[str, str],
                                                       recipient: Any) -> None:
    status, payload = await edit(client, "giftidea", board["editToken"],
                                 {"recipient": recipient, "budget": "None"})
    assert status == 400
    assert payload == {"error": NO_RECIPIENT, "field": "recipient"}
    view = await read(client, board["slug"])
    assert (view["recipient"], view["budget"]) == ("Priya", "About $20 each")


async def test_long_values_are_cut_as_at_create(client: Any, board: dict[str, str]) -> None:
    long = {"recipient": "R" * 100, "occasion": "O" * 100, "budget": "B" * 100,
            "note": "N" * 400}
    made = await create(client, "giftidea", long)
    await edit(client, "giftidea", board["editToken"], long)
    created, edited = await read(client, made["slug"]), await read(client, board["slug"])
    assert {key: edited[key] for key in long} == {key: created[key] for key in long}
    assert len(edited["recipient"]) == 80 and len(edited["note"]) == 300


async def test_ideas_votes_and_claims_stay(client: Any, board: dict[str, str]) -> None:
    slug = board["slug"]
    suggested = await client.post("/api/giftidea/suggest",
                                  json={"slug": slug, "idea": "Hiking socks"})
    idea = (await suggested.get_json())["id"]
    assert (await client.post("/api/giftidea/upvote",
                              json={"slug": slug, "ideaId": idea})).status_code == 200
    claim = await client.post("/api/giftidea/claim",
                              json={"slug": slug, "ideaId": idea, "name": "Bo"})
    secret = (await claim.get_json())["secret"]
    ideas = (await read(client, slug))["ideas"]
    status, _ = await edit(client, "giftidea", board["editToken"],
                           {"recipient": "Priya Shah", "note": ""})
    assert status == 200
    assert (await read(client, slug))["ideas"] == ideas
    # The claim's secret still undoes it.
    undone = await client.post("/api/giftidea/unclaim",
                               json={"slug": slug, "ideaId": idea, "secret": secret})
    assert undone.status_code == 200


async def test_only_the_edit_token_edits(client: Any, board: dict[str, str]) -> None:
    for token in (board["slug"], "2" * 26):
        status, payload = await edit(client, "giftidea", token, {"recipient": "Sam"})
        assert (status, payload) == (404, NOT_FOUND)
    assert (await read(client, board["slug"]))["recipient"] == "Priya"


async def test_the_organiser_page_has_the_form(client: Any, board: dict[str, str]) -> None:
    page = await (await client.get(f"/e/{board['editToken']}")).get_data(as_text=True)
    assert 'data-api="/api/giftidea/' + board["editToken"] + '/edit"' in page
    assert 'id="edit-recipient"' in page and 'value="Priya"' in page
    assert 'id="edit-budget"' in page and 'value="About $20 each"' in page
