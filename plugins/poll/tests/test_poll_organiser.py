"""The organiser's powers: close (tested with voting), add and remove options, export, and
the one 404 for every bad organiser code."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit import Instance
from groupkit_poll.models import PollBallot
from groupkit_poll.models import PollOption

NO_TEXT = "Type the option you want to add."
DUPLICATE = "That option's already on the list."
UNKNOWN = "That option isn't on this poll."
LAST_TWO = "A poll needs at least two options — add another before removing this one."
OPTIONS_FULL = "This poll has 100 options already — pick from those."
EMPTY = "Pick an option before you vote."
CLOSED_OPTIONS = "This poll has closed — its options can't change now."


async def add(api: Any, edit: str, body: Any) -> Any:
    return await api.organiser(edit, "addOption", body)


async def remove(api: Any, edit: str, body: Any) -> Any:
    return await api.organiser(edit, "removeOption", body)


# --- addOption ----------------------------------------------------------------------------

async def test_add_option(api: Any, poll: dict[str, str]) -> None:
    response = await add(api, poll["editToken"], {"text": "  Sushi \n train "})
    assert response.status_code == 200
    reply = await response.get_json()
    assert reply["ok"] is True
    assert reply["option"]["text"] == "Sushi train"
    assert re.fullmatch(r"[23456789abcdefghjkmnpqrstuvwxyz]{6}", reply["option"]["id"])
    assert reply["tally"][-1] == {**reply["option"], "count": 0}
    view = await api.read(poll["slug"])
    assert [o["text"] for o in view["tally"]] == ["Thai", "Pub", "Picnic", "Sushi train"]
    assert reply["tally"] == view["tally"]
    # People can vote for it straight away.
    voted = await api.voted(poll["slug"], [reply["option"]["id"]])
    assert voted["choices"] == [reply["option"]["id"]]


@pytest.mark.parametrize("body", [{"option": "Sushi"}, {"option": {"text": " Sushi "}},
                                  {"text": "", "option": "Sushi"}])
async def test_add_option_reads_the_option_key_too(api: Any, poll: dict[str, str],
                                                  body: Any) -> None:
    reply = await (await add(api, poll["editToken"], body)).get_json()
    assert reply["option"]["text"] == "Sushi"


@pytest.mark.parametrize("body", [{}, {"text": ""}, {"text": "   "}, {"text": 5},
                                  {"option": None}, {"option": {"text": 3}}, {"option": 7}])
async def test_add_option_needs_text(api: Any, poll: dict[str, str], body: Any) -> None:
    assert await api.error_of(await add(api, poll["editToken"], body), 400) == NO_TEXT


@pytest.mark.parametrize("text", ["thai", "PUB", "  Picnic  "])
async def test_add_option_refuses_a_duplicate(api: Any, poll: dict[str, str],
                                             text: str) -> None:
    assert await api.error_of(await add(api, poll["editToken"], {"text": text}), 400) == \
        DUPLICATE


async def test_add_option_is_cut_to_80(api: Any, poll: dict[str, str]) -> None:
    reply = await (await add(api, poll["editToken"], {"text": "z" * 200})).get_json()
    assert reply["option"]["text"] == "z" * 80


async def test_a_closed_polls_options_are_neither_added_nor_removed(
        api: Any, poll: dict[str, str]) -> None:
    """Closing makes the result final: adding or removing an option is refused (after the
    body's own 400s), and the tally stays as it closed."""
    slug, edit = poll["slug"], poll["editToken"]
    ids = await api.ids(slug)
    await api.voted(slug, [ids["Pub"]])
    await api.organiser(edit, "close")
    before = await api.read(slug)
    assert await api.error_of(await add(api, edit, {"text": "Late idea"}), 409) == \
        CLOSED_OPTIONS
    assert await api.error_of(await remove(api, edit, {"optionId": ids["Pub"]}), 409) == \
        CLOSED_OPTIONS
    assert await api.error_of(await add(api, edit, {"text": " "}), 400) == NO_TEXT
    assert await api.error_of(await remove(api, edit, {"optionId": "zzzzzz"}), 400) == UNKNOWN
    assert await api.read(slug) == before


async def test_one_hundred_options_in_all(api: Any) -> None:
    made = await api.make(options=[f"o{n}" for n in range(30)], allowSuggestions=True)
    for n in range(30, 99):
        assert (await add(api, made["editToken"], {"text": f"o{n}"})).status_code == 200
    # The 100th arrives as a suggestion; after that neither way adds one.
    reply = await api.voted(made["slug"], [], suggestion="o99")
    assert reply["addedOptionId"] is not None
    assert len((await api.read(made["slug"]))["tally"]) == 100
    response = await add(api, made["editToken"], {"text": "o100"})
    assert await api.error_of(response, 409) == OPTIONS_FULL
    response = await api.vote(made["slug"], [], suggestion="o100")
    assert await api.error_of(response, 409) == OPTIONS_FULL
    view = await api.read(made["slug"])
    assert view["ballots"] == 1 and len(view["tally"]) == 100
    # A suggestion matching an existing option still counts when the poll is full of options.
    assert (await api.voted(made["slug"], [], suggestion="O5"))["addedOptionId"] is None


# --- removeOption -------------------------------------------------------------------------

async def test_remove_option_takes_its_votes_off_every_ballot(api: Any, db: Any) -> None:
    made = await api.make(mode="multi", options=["a", "b", "c", "d"], allowSuggestions=True)
    ids = await api.ids(made["slug"])
    both = await api.voted(made["slug"], [ids["a"], ids["b"]], voterName="Ann")
    only = await api.voted(made["slug"], [ids["b"]], voterName="Bo")
    await api.voted(made["slug"], [ids["c"]], voterName="Cy")
    response = await remove(api, made["editToken"], {"optionId": ids["b"]})
    assert response.status_code == 200
    reply = await response.get_json()
    assert reply["ok"] is True
    assert [o["text"] for o in reply["tally"]] == ["a", "c", "d"]
    assert await api.counts(made["slug"]) == {"a": 1, "c": 1, "d": 0}
    view = await api.read(made["slug"])
    assert view["ballots"] == 3  # ballots cast stay cast

    export = (await (await api.organiser(made["editToken"], "export")).get_json())["data"]
    assert [(b["voterName"], b["choices"]) for b in export["ballotList"]] == [
        ("Ann", [ids["a"]]), ("Bo", []), ("Cy", [ids["c"]])]

    def rows() -> list[list[str]]:
        instance = Instance.get(Instance.slug == made["slug"])
        assert not PollOption.select().where((PollOption.instance == instance)
                                             & (PollOption.option_id == ids["b"])).exists()
        return [b.choices for b in PollBallot.select().where(PollBallot.instance == instance)
                .order_by(PollBallot.id)]
    assert db(rows) == [[ids["a"]], [], [ids["c"]]]

    # The removed id is unknown from now on; a voter left with nothing can pick again.
    assert await api.error_of(await api.vote(made["slug"], [ids["b"]]), 400) == EMPTY
    assert await api.error_of(await api.change(only["token"], [ids["b"]]), 400) == EMPTY
    assert (await api.change(only["token"], [ids["d"]])).status_code == 200
    assert (await api.change(both["token"], [ids["a"], ids["d"]])).status_code == 200
    assert await api.counts(made["slug"]) == {"a": 1, "c": 1, "d": 2}
    # Its text is free again: a suggestion makes a new option with a new id.
    again = await api.voted(made["slug"], [], suggestion="B")
    assert again["addedOptionId"] not in (None, ids["b"])


async def test_remove_option_reads_the_option_key_too(api: Any, poll: dict[str, str]) -> None:
    ids = await api.ids(poll["slug"])
    assert (await remove(api, poll["editToken"], {"option": ids["Pub"]})).status_code == 200
    assert list(await api.ids(poll["slug"])) == ["Thai", "Picnic"]


@pytest.mark.parametrize("option_id", ["", "zzzzzz", None, 5, ["x"], "THAI"])
async def test_remove_unknown_option(api: Any, poll: dict[str, str], option_id: Any) -> None:
    response = await remove(api, poll["editToken"], {"optionId": option_id})
    assert await api.error_of(response, 400) == UNKNOWN


async def test_remove_another_polls_option(api: Any, poll: dict[str, str]) -> None:
    other = await api.make()
    theirs = (await api.ids(other["slug"]))["Thai"]
    response = await remove(api, poll["editToken"], {"optionId": theirs})
    assert await api.error_of(response, 400) == UNKNOWN
    assert len((await api.read(other["slug"]))["tally"]) == 3


async def test_two_options_always_remain(api: Any, poll: dict[str, str]) -> None:
    ids = await api.ids(poll["slug"])
    assert (await remove(api, poll["editToken"], {"optionId": ids["Pub"]})).status_code == 200
    response = await remove(api, poll["editToken"], {"optionId": ids["Thai"]})
    assert await api.error_of(response, 409) == LAST_TWO
    assert list(await api.ids(poll["slug"])) == ["Thai", "Picnic"]


# --- export and credentials ---------------------------------------------------------------

async def test_export_lists_who_voted_for_what(api: Any, poll: dict[str, str]) -> None:
    ids = await api.ids(poll["slug"])
    await api.voted(poll["slug"], [ids["Thai"]], voterName="Ann")
    response = await api.organiser(poll["editToken"], "export")
    assert response.status_code == 200
    export = await response.get_json()
    assert export["tool"] == "poll" and export["title"] == "Where for lunch?"
    data = export["data"]
    assert data["question"] == "Where for lunch?"
    (ballot,) = data["ballotList"]
    assert ballot["voterName"] == "Ann" and ballot["choices"] == [ids["Thai"]]
    assert ballot["choiceTexts"] == ["Thai"]
    assert ballot["created"].endswith("+00:00") and ballot["changed"] is None


@pytest.mark.parametrize("action", ["close", "addOption", "removeOption", "export", "delete"])
async def test_bad_organiser_codes_are_404(api: Any, poll: dict[str, str], action: str) -> None:
    edit = poll["editToken"]
    altered = edit[:-1] + ("x" if edit[-1] != "x" else "y")
    for code in ("2" * 26, poll["slug"], "short", altered, edit.upper()):
        response = await api.organiser(code, action, {"text": "x", "optionId": "abcdef"})
        assert response.status_code == 404, code
        assert await response.get_json() == api.NOT_FOUND


async def test_organiser_code_of_another_tool_is_404(make_app: Any) -> None:
    client = make_app(tools=["poll", "sweeps"]).test_client()
    sweep = await client.post("/api/sweeps", json={"outcomes": ["a", "b"], "names": ["x", "y"]})
    edit = (await sweep.get_json())["editToken"]
    assert (await client.post(f"/api/poll/{edit}/close")).status_code == 404
