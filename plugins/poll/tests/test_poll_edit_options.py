"""The organiser's edit of a Group Vote's options, in the details: how a question names
three or more options, where waiting suggestions end up, and what an added option is."""

from __future__ import annotations

from typing import Any

from groupkit_testing import edit

REMOVE_VOTED = ("People voted for {options}. Remove anyway? Those votes go; every ballot keeps "
                "its other picks.")
REMOVE_SECRET = ("It's a secret ballot, so you can't see every vote yet: removing {options} "
                 "drops any votes it has. Remove anyway?")
FIVE = ["Thai", "Pub", "Picnic", "Sushi", "Curry"]


async def export(api: Any, made: dict[str, str]) -> dict[str, Any]:
    reply = await api.organiser(made["editToken"], "export")
    return dict((await reply.get_json())["data"])


def texts(view: dict[str, Any]) -> list[str]:
    return [entry["text"] for entry in view["tally"]]


async def test_a_question_names_three_voted_options_in_a_list(api: Any, client: Any) -> None:
    made = await api.make(mode="multi", options=FIVE)
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["Thai"], ids["Pub"], ids["Sushi"]])
    await api.voted(made["slug"], [ids["Picnic"]])
    before = await export(api, made)
    assert await edit(client, "poll", made["editToken"], {"options": ["Curry", "Ramen"]}) == (
        409, {"error": REMOVE_VOTED.format(options='"Thai", "Pub", "Picnic" and "Sushi"'),
              "field": "options", "confirm": True})
    assert await edit(client, "poll", made["editToken"], {
        "options": ["Pub", "Curry"]}) == (409, {
            "error": REMOVE_VOTED.format(options='"Thai", "Picnic" and "Sushi"'),
            "field": "options", "confirm": True})
    assert await export(api, made) == before


async def test_a_secret_ballots_question_names_three_options_in_a_list(api: Any,
                                                                       client: Any) -> None:
    made = await api.make(secret=True, options=FIVE)
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["Curry"]])
    assert await edit(client, "poll", made["editToken"], {"options": ["Sushi", "Curry"]}) == (
        409, {"error": REMOVE_SECRET.format(options='"Thai", "Pub" and "Picnic"'),
              "field": "options", "confirm": True})


async def test_waiting_suggestions_keep_the_organisers_order(api: Any, client: Any) -> None:
    """On a secret ballot two suggestions wait for the next batch. The organiser types one
    of them first in the list: it stands there; the other, left out of the edit, stays in
    the poll after the organiser's list."""
    made = await api.make(secret=True, allowSuggestions=True)
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [], suggestion="Dumplings")
    await api.voted(made["slug"], [], suggestion="Sushi")
    sent = ["sushi", {"id": ids["Thai"], "text": "Thai"}, "Pub", "Picnic"]
    assert await edit(client, "poll", made["editToken"], {"options": sent}) == (
        200, {"ok": True, "changed": ["options"]})
    assert texts(await api.read(made["slug"])) == ["sushi", "Thai", "Pub", "Picnic"]
    await api.organiser(made["editToken"], "close")
    closed = await api.read(made["slug"])
    assert [(entry["text"], entry["count"]) for entry in closed["tally"]] == [
        ("sushi", 1), ("Thai", 0), ("Pub", 0), ("Picnic", 0), ("Dumplings", 1)]


async def test_an_option_the_organiser_adds_is_not_a_suggestion(api: Any,
                                                               client: Any) -> None:
    made = await api.make(allowSuggestions=True)
    reply = await api.voted(made["slug"], [], suggestion="Dumplings")
    suggested = reply["addedOptionId"]
    assert (await export(api, made))["suggested"] == [suggested]
    sent = ["Thai", "Pub", "Picnic", "Dumplings", "Sushi"]
    assert (await edit(client, "poll", made["editToken"], {"options": sent}))[0] == 200
    view = await export(api, made)
    assert texts(view) == sent
    assert view["suggested"] == [suggested]
    page = await api.page(f"/e/{made['editToken']}")
    assert page.count('class="poll-badge"') == 1


async def test_a_renamed_option_frees_its_old_name_for_a_new_one(api: Any, client: Any) -> None:
    made = await api.make()
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["Pub"]])
    sent = [{"id": ids["Pub"], "text": "Pub bistro"}, "Pub", "Thai", "Picnic"]
    assert (await edit(client, "poll", made["editToken"], {"options": sent}))[0] == 200
    view = await export(api, made)
    assert [(entry["text"], entry["count"]) for entry in view["tally"]] == [
        ("Pub bistro", 1), ("Pub", 0), ("Thai", 0), ("Picnic", 0)]
    assert view["tally"][0]["id"] == ids["Pub"] and view["tally"][1]["id"] not in ids.values()


async def test_a_suggestion_made_while_the_organiser_edits_is_not_lost(api: Any,
                                                                      client: Any) -> None:
    """A suggestion changes the options: an edit of the options based on the version before
    it is refused as a conflict, not applied over the new option."""
    made = await api.make(allowSuggestions=True)
    exported = await api.organiser(made["editToken"], "export")
    base = exported.headers["ETag"]
    await api.voted(made["slug"], [], suggestion="Dumplings")
    late = await client.post(f"/api/poll/{made['editToken']}/edit",
                             json={"options": ["Thai", "Pub", "Picnic", "Sushi"]},
                             headers={"If-Match": base})
    body = await late.get_json()
    assert late.status_code == 409 and body["field"] == "options"
    assert body["error"].startswith("Someone else saved a change while you were editing")
    assert "confirm" not in body
    assert texts(await export(api, made)) == ["Thai", "Pub", "Picnic", "Dumplings"]
