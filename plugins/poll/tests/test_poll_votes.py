"""Voting and changing a ballot: every vote rule of the spec, the messages to the
character, the check order, and counts that always agree with the stored ballots."""

from __future__ import annotations

import asyncio
import logging
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from groupkit import Instance
from groupkit_poll.models import PollBallot
from groupkit_poll.models import PollOption

EMPTY = "Pick an option before you vote."
CLOSED = "This poll has closed — the organiser has stopped the voting."
FULL = "This poll is chockers — 2000 votes is the limit."
TOKEN = re.compile(r"[23456789abcdefghjkmnpqrstuvwxyz]{22}")


def up_to(n: int) -> str:
    return f"This vote lets each person pick up to {n} — untick one first."


def stored_counts_agree(db: Callable[..., Any], slug: str) -> dict[str, int]:
    """Each option's kept count equals a recount of the stored ballots; returns the counts."""
    def check() -> dict[str, int]:
        instance = Instance.get(Instance.slug == slug)
        recount = Counter(choice for ballot in PollBallot.select().where(
            PollBallot.instance == instance) for choice in ballot.choices)
        options = PollOption.select().where(PollOption.instance == instance)
        kept = {option.option_id: option.votes for option in options}
        assert kept == {option_id: recount.get(option_id, 0) for option_id in kept}
        assert set(recount) <= set(kept)
        total = PollBallot.select().where(PollBallot.instance == instance).count()
        assert instance.data["ballots"] == total
        return kept
    result: dict[str, int] = db(check)
    return result


async def test_votes_that_come_together_each_count_once(
        app: Any, api: Any, db: Callable[..., Any]) -> None:
    """Votes sent at once (on SQLite they share one transaction, each in a savepoint of its
    own): each accepted one is stored and counted once with a token of its own, a refused
    one leaves nothing (its suggestion is no option), and the others stand."""
    made = await api.make(allowSuggestions=True, maxPicks=2, mode="multi")
    slug = made["slug"]
    ids = await api.ids(slug)
    storage = app.config["GROUPKIT_STORAGE"]
    commit, commits = storage.db.commit, []
    storage.db.commit = lambda: (commits.append(1), commit())[1]
    try:
        replies = await asyncio.gather(
            api.vote(slug, [ids["Pub"]], voterName="Ann"),
            api.vote(slug, [], voterName="Bo"),
            api.vote(slug, [ids["Thai"], ids["Pub"]], suggestion="Beach", voterName="Cy"),
            api.vote(slug, [ids["Thai"]], suggestion="Beach", voterName="Di"),
            api.vote(slug, [ids["Picnic"]], voterName="Ed"))
    finally:
        storage.db.commit = commit
    assert [reply.status_code for reply in replies] == [201, 400, 400, 201, 201]
    assert await api.error_of(replies[1], 400) == EMPTY
    assert await api.error_of(replies[2], 400) == up_to(2)
    if not storage.postgres:
        assert len(commits) == 1, commits  # the five shared one transaction
    payloads = [await replies[n].get_json() for n in (0, 3, 4)]
    tokens = [payload["token"] for payload in payloads]
    assert len(set(tokens)) == 3 and all(TOKEN.fullmatch(token) for token in tokens)
    beach = payloads[1]["addedOptionId"]
    assert beach is not None
    assert await api.counts(slug) == {"Thai": 1, "Pub": 1, "Picnic": 1, "Beach": 1}
    kept = stored_counts_agree(db, slug)
    assert kept[beach] == 1
    for token in tokens:
        assert (await api.change(token, [ids["Picnic"]])).status_code == 200


# --- the reply ----------------------------------------------------------------------------

async def test_vote_reply(api: Any, poll: dict[str, str]) -> None:
    ids = await api.ids(poll["slug"])
    response = await api.vote(poll["slug"], [ids["Pub"]], voterName="Ann")
    assert response.status_code == 201
    reply = await response.get_json()
    assert set(reply) == {"token", "choices", "addedOptionId", "tally"}
    assert TOKEN.fullmatch(reply["token"])
    assert reply["choices"] == [ids["Pub"]]
    assert reply["addedOptionId"] is None
    assert reply["tally"] == [{"id": ids["Thai"], "text": "Thai", "count": 0},
                              {"id": ids["Pub"], "text": "Pub", "count": 1},
                              {"id": ids["Picnic"], "text": "Picnic", "count": 0}]
    view = await api.read(poll["slug"])
    assert view["tally"] == reply["tally"] and view["ballots"] == 1


async def test_tokens_differ_per_ballot(api: Any, poll: dict[str, str]) -> None:
    ids = await api.ids(poll["slug"])
    tokens = {(await api.voted(poll["slug"], [ids["Thai"]]))["token"] for _ in range(5)}
    assert len(tokens) == 5
    assert (await api.counts(poll["slug"]))["Thai"] == 5


# --- choices ------------------------------------------------------------------------------

async def test_unknown_ids_dropped(api: Any, db: Any) -> None:
    made = await api.make(mode="multi")
    ids = await api.ids(made["slug"])
    other = await api.make()
    stranger = next(iter((await api.ids(other["slug"])).values()))
    reply = await api.voted(made["slug"], ["zzzzzz", ids["Pub"], stranger, 5, None,
                                           ["x"], {"id": ids["Thai"]}, ids["Thai"].upper()])
    assert reply["choices"] == [ids["Pub"]]
    assert stored_counts_agree(db, made["slug"])[ids["Pub"]] == 1


async def test_repeats_ignored(api: Any, db: Any) -> None:
    made = await api.make(mode="multi")
    ids = await api.ids(made["slug"])
    reply = await api.voted(made["slug"], [ids["Pub"], ids["Thai"], ids["Pub"], ids["Pub"]])
    assert reply["choices"] == [ids["Pub"], ids["Thai"]]
    assert await api.counts(made["slug"]) == {"Thai": 1, "Pub": 1, "Picnic": 0}
    stored_counts_agree(db, made["slug"])


async def test_single_choice_keeps_the_first_pick(api: Any, poll: dict[str, str]) -> None:
    ids = await api.ids(poll["slug"])
    reply = await api.voted(poll["slug"], ["nope99", ids["Picnic"], ids["Thai"]])
    assert reply["choices"] == [ids["Picnic"]]
    assert await api.counts(poll["slug"]) == {"Thai": 0, "Pub": 0, "Picnic": 1}


async def test_multi_choice_records_every_pick(api: Any) -> None:
    made = await api.make(mode="multi")
    ids = await api.ids(made["slug"])
    reply = await api.voted(made["slug"], [ids["Picnic"], ids["Thai"], ids["Pub"]])
    assert reply["choices"] == [ids["Picnic"], ids["Thai"], ids["Pub"]]
    assert await api.counts(made["slug"]) == {"Thai": 1, "Pub": 1, "Picnic": 1}


@pytest.mark.parametrize("choices", [[], None, "abcdef", 5, {"a": 1}, ["zzzzzz"], [None]])
async def test_empty_ballot(api: Any, poll: dict[str, str], db: Any, choices: Any) -> None:
    assert await api.error_of(await api.vote(poll["slug"], choices), 400) == EMPTY
    assert (await api.read(poll["slug"]))["ballots"] == 0
    stored_counts_agree(db, poll["slug"])


async def test_missing_choices_is_an_empty_ballot(api: Any, poll: dict[str, str]) -> None:
    response = await api.client.post("/api/poll/vote", json={"slug": poll["slug"]})
    assert await api.error_of(response, 400) == EMPTY


# --- suggestions --------------------------------------------------------------------------

async def test_suggestion_ignored_when_not_allowed(api: Any, poll: dict[str, str]) -> None:
    ids = await api.ids(poll["slug"])
    response = await api.vote(poll["slug"], [], suggestion="Sushi")
    assert await api.error_of(response, 400) == EMPTY
    reply = await api.voted(poll["slug"], [ids["Thai"]], suggestion="Sushi")
    assert reply["choices"] == [ids["Thai"]] and reply["addedOptionId"] is None
    assert [option["text"] for option in reply["tally"]] == ["Thai", "Pub", "Picnic"]
    response = await api.vote(poll["slug"], [], suggestion="pub")
    assert await api.error_of(response, 400) == EMPTY


async def test_suggestion_matching_an_option_counts_as_it(api: Any, db: Any) -> None:
    made = await api.make(allowSuggestions=True)
    ids = await api.ids(made["slug"])
    reply = await api.voted(made["slug"], [], suggestion="  THAI ")
    assert reply["choices"] == [ids["Thai"]] and reply["addedOptionId"] is None
    assert len(reply["tally"]) == 3
    # Single choice: the match joins the picks, and the first pick is kept.
    reply = await api.voted(made["slug"], [ids["Pub"]], suggestion="picnic")
    assert reply["choices"] == [ids["Pub"]]
    assert await api.counts(made["slug"]) == {"Thai": 1, "Pub": 1, "Picnic": 0}
    stored_counts_agree(db, made["slug"])


async def test_matching_suggestion_in_multi_mode(api: Any) -> None:
    made = await api.make(mode="multi", allowSuggestions=True)
    ids = await api.ids(made["slug"])
    reply = await api.voted(made["slug"], [ids["Pub"]], suggestion="picnic")
    assert reply["choices"] == [ids["Pub"], ids["Picnic"]]
    reply = await api.voted(made["slug"], [ids["Pub"], ids["Thai"]], suggestion="pub")
    assert reply["choices"] == [ids["Pub"], ids["Thai"]]
    assert await api.counts(made["slug"]) == {"Thai": 1, "Pub": 2, "Picnic": 1}


async def test_fresh_suggestion_is_the_whole_single_choice_ballot(api: Any, db: Any) -> None:
    made = await api.make(allowSuggestions=True)
    ids = await api.ids(made["slug"])
    reply = await api.voted(made["slug"], [ids["Thai"]], suggestion="  Sushi \n train ")
    added = reply["addedOptionId"]
    assert re.fullmatch(r"[23456789abcdefghjkmnpqrstuvwxyz]{6}", added)
    assert added not in ids.values()
    assert reply["choices"] == [added]
    assert reply["tally"][-1] == {"id": added, "text": "Sushi train", "count": 1}
    assert await api.counts(made["slug"]) == {"Thai": 0, "Pub": 0, "Picnic": 0,
                                              "Sushi train": 1}
    # Now it is an option like any other, matched ignoring case.
    reply = await api.voted(made["slug"], [], suggestion="SUSHI TRAIN")
    assert reply["choices"] == [added] and reply["addedOptionId"] is None
    assert (await api.counts(made["slug"]))["Sushi train"] == 2
    stored_counts_agree(db, made["slug"])


async def test_fresh_suggestion_joins_a_multi_ballot(api: Any) -> None:
    made = await api.make(mode="multi", allowSuggestions=True)
    ids = await api.ids(made["slug"])
    reply = await api.voted(made["slug"], [ids["Thai"], ids["Pub"]], suggestion="Sushi")
    assert reply["choices"] == [ids["Thai"], ids["Pub"], reply["addedOptionId"]]
    assert await api.counts(made["slug"]) == {"Thai": 1, "Pub": 1, "Picnic": 0, "Sushi": 1}


async def test_suggestion_is_cut_to_80(api: Any) -> None:
    made = await api.make(allowSuggestions=True)
    reply = await api.voted(made["slug"], [], suggestion="s" * 300)
    assert reply["tally"][-1]["text"] == "s" * 80


@pytest.mark.parametrize("suggestion", ["", "   ", None, 5, ["Sushi"]])
async def test_blank_suggestion_is_no_suggestion(api: Any, suggestion: Any) -> None:
    made = await api.make(allowSuggestions=True)
    response = await api.vote(made["slug"], [], suggestion=suggestion)
    assert await api.error_of(response, 400) == EMPTY
    assert len((await api.read(made["slug"]))["tally"]) == 3


# --- maxPicks -----------------------------------------------------------------------------

async def test_more_than_max_picks_refused_before_anything_is_written(api: Any,
                                                                      db: Any) -> None:
    made = await api.make(mode="multi", maxPicks=2, allowSuggestions=True,
                          options=["a", "b", "c", "d"])
    ids = await api.ids(made["slug"])
    response = await api.vote(made["slug"], [ids["a"], ids["b"], ids["c"]])
    assert await api.error_of(response, 400) == up_to(2)
    # A fresh suggestion counts as one pick, and is not added when the ballot is refused.
    response = await api.vote(made["slug"], [ids["a"], ids["b"]], suggestion="e")
    assert await api.error_of(response, 400) == up_to(2)
    # A matching suggestion that is not already picked counts too.
    response = await api.vote(made["slug"], [ids["a"], ids["b"]], suggestion="C")
    assert await api.error_of(response, 400) == up_to(2)
    view = await api.read(made["slug"])
    assert view["ballots"] == 0 and len(view["tally"]) == 4
    assert all(option["count"] == 0 for option in view["tally"])
    stored_counts_agree(db, made["slug"])
    # At the cap is fine; repeats and unknown ids do not count towards it.
    reply = await api.voted(made["slug"], [ids["a"], ids["a"], "zzzzzz", ids["b"]])
    assert reply["choices"] == [ids["a"], ids["b"]]
    reply = await api.voted(made["slug"], [ids["a"]], suggestion="e")
    assert len(reply["choices"]) == 2
    reply = await api.voted(made["slug"], [ids["a"], ids["b"]], suggestion="B")
    assert reply["choices"] == [ids["a"], ids["b"]]


async def test_message_names_the_cap(api: Any) -> None:
    made = await api.make(mode="multi", maxPicks="5", options=[f"o{n}" for n in range(8)])
    ids = list((await api.ids(made["slug"])).values())
    assert await api.error_of(await api.vote(made["slug"], ids[:6]), 400) == up_to(5)
    assert (await api.voted(made["slug"], ids[:5]))["choices"] == ids[:5]


async def test_no_cap_in_multi_without_max_picks(api: Any) -> None:
    made = await api.make(mode="multi", options=[f"o{n}" for n in range(30)])
    ids = list((await api.ids(made["slug"])).values())
    assert (await api.voted(made["slug"], ids))["choices"] == ids


async def test_empty_ballot_wins_over_everything_else(api: Any) -> None:
    made = await api.make(mode="multi", maxPicks=2)
    await api.organiser(made["editToken"], "close")
    assert await api.error_of(await api.vote(made["slug"], []), 400) == EMPTY


# --- voter names --------------------------------------------------------------------------

async def test_voter_name_is_cleaned_and_optional(api: Any, poll: dict[str, str]) -> None:
    ids = await api.ids(poll["slug"])
    await api.voted(poll["slug"], [ids["Thai"]], voterName="  Ann \t Lee ")
    await api.voted(poll["slug"], [ids["Pub"]], voterName="n" * 100)
    await api.voted(poll["slug"], [ids["Pub"]])
    await api.voted(poll["slug"], [ids["Pub"]], voterName=7)
    export = await (await api.organiser(poll["editToken"], "export")).get_json()
    assert [ballot["voterName"] for ballot in export["data"]["ballotList"]] == [
        "Ann Lee", "n" * 40, "", ""]


# --- closed and full ----------------------------------------------------------------------

async def test_closed_poll_refuses_votes_and_changes(api: Any, poll: dict[str, str],
                                                     db: Any) -> None:
    ids = await api.ids(poll["slug"])
    token = (await api.voted(poll["slug"], [ids["Thai"]]))["token"]
    response = await api.organiser(poll["editToken"], "close")
    assert response.status_code == 200
    assert (await response.get_json())["closed"] is True
    assert await api.error_of(await api.vote(poll["slug"], [ids["Pub"]]), 409) == CLOSED
    assert await api.error_of(await api.change(token, [ids["Pub"]]), 409) == CLOSED
    view = await api.read(poll["slug"])
    assert view["closed"] is True and view["ballots"] == 1
    assert await api.counts(poll["slug"]) == {"Thai": 1, "Pub": 0, "Picnic": 0}
    # Closing again changes nothing.
    assert (await api.organiser(poll["editToken"], "close")).status_code == 200
    stored_counts_agree(db, poll["slug"])


async def test_closed_poll_adds_no_suggestion(api: Any) -> None:
    made = await api.make(allowSuggestions=True)
    await api.organiser(made["editToken"], "close")
    response = await api.vote(made["slug"], [], suggestion="Sushi")
    assert await api.error_of(response, 409) == CLOSED
    assert len((await api.read(made["slug"]))["tally"]) == 3


def prefill(db: Callable[..., Any], slug: str, ballots: int) -> None:
    """Store `ballots` ballots for the first option straight in the database, keeping the
    counts as the vote operation does (2000 votes through the API would only be slow)."""
    def fill() -> None:
        instance = Instance.get(Instance.slug == slug)
        first = (PollOption.select().where(PollOption.instance == instance)
                 .order_by(PollOption.position).first())
        PollBallot.insert_many([{"instance": instance.id, "voter_name": f"Voter {n}",
                                 "choices": [first.option_id]} for n in range(ballots)]
                               ).execute()
        first.votes += ballots
        first.save()
        instance.data = {**instance.data, "ballots": instance.data["ballots"] + ballots}
        instance.save()
    db(fill)


async def test_two_thousand_votes_then_409(api: Any, poll: dict[str, str], db: Any) -> None:
    ids = await api.ids(poll["slug"])
    token = (await api.voted(poll["slug"], [ids["Pub"]]))["token"]
    prefill(db, poll["slug"], 1998)
    last = await api.voted(poll["slug"], [ids["Picnic"]])
    assert sum(option["count"] for option in last["tally"]) == 2000
    assert (await api.read(poll["slug"]))["ballots"] == 2000
    assert await api.error_of(await api.vote(poll["slug"], [ids["Picnic"]]), 409) == FULL
    # The cap is on ballots cast: changing one still works.
    response = await api.change(token, [ids["Thai"]])
    assert response.status_code == 200, await response.get_json()
    assert await api.counts(poll["slug"]) == {"Thai": 1999, "Pub": 0, "Picnic": 1}
    stored_counts_agree(db, poll["slug"])


async def test_full_poll_adds_no_suggestion(api: Any, db: Any) -> None:
    made = await api.make(allowSuggestions=True)
    prefill(db, made["slug"], 2000)
    assert await api.error_of(await api.vote(made["slug"], [], suggestion="New"), 409) == FULL
    assert len((await api.read(made["slug"]))["tally"]) == 3


async def test_validation_comes_before_the_cap(api: Any, db: Any) -> None:
    made = await api.make(mode="multi", maxPicks=2)
    prefill(db, made["slug"], 2000)
    ids = list((await api.ids(made["slug"])).values())
    assert await api.error_of(await api.vote(made["slug"], []), 400) == EMPTY
    assert await api.error_of(await api.vote(made["slug"], ids), 400) == up_to(2)
    assert await api.error_of(await api.vote(made["slug"], ids[:1]), 409) == FULL


class Statements(logging.Handler):
    """Every SQL statement peewee runs while attached."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.sql: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        # The kernel's rate-limit bookkeeping is not the vote's work.
        if isinstance(record.msg, tuple) and record.msg and "rate_counter" not in record.msg[0]:
            self.sql.append(str(record.msg[0]))


async def statements_of_one_vote(api: Any, slug: str, option_id: str) -> list[str]:
    logger = logging.getLogger("peewee")
    handler, level = Statements(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        await api.voted(slug, [option_id], voterName="Counter")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    return handler.sql


async def test_a_vote_never_recounts_the_ballots(api: Any, poll: dict[str, str],
                                                  db: Any) -> None:
    """The work of a vote does not grow with the ballots already cast: the same statements
    run for the first vote and the 2000th, and none of them counts or reads ballots."""
    ids = await api.ids(poll["slug"])
    first = await statements_of_one_vote(api, poll["slug"], ids["Thai"])
    prefill(db, poll["slug"], 1998)
    last = await statements_of_one_vote(api, poll["slug"], ids["Thai"])
    assert len(first) == len(last)
    assert [re.sub(r"\d+", "N", sql) for sql in first] == [re.sub(r"\d+", "N", sql)
                                                            for sql in last]
    for sql in first:
        assert not ("poll_ballot" in sql and sql.lstrip().upper().startswith("SELECT")), sql
        assert "COUNT(" not in sql.upper() or "poll_ballot" not in sql, sql
    assert (await api.read(poll["slug"]))["ballots"] == 2000


# --- changing a ballot --------------------------------------------------------------------

async def test_change_moves_the_counts(api: Any, poll: dict[str, str], db: Any) -> None:
    ids = await api.ids(poll["slug"])
    token = (await api.voted(poll["slug"], [ids["Thai"]]))["token"]
    await api.voted(poll["slug"], [ids["Thai"]])
    response = await api.change(token, [ids["Picnic"], ids["Pub"]])
    assert response.status_code == 200
    reply = await response.get_json()
    assert reply["ok"] is True and reply["choices"] == [ids["Picnic"]]
    assert {o["text"]: o["count"] for o in reply["tally"]} == {"Thai": 1, "Pub": 0,
                                                               "Picnic": 1}
    view = await api.read(poll["slug"])
    assert view["ballots"] == 2
    assert reply["tally"] == view["tally"]
    stored_counts_agree(db, poll["slug"])


async def test_change_to_the_same_choice_keeps_the_count(api: Any,
                                                         poll: dict[str, str]) -> None:
    ids = await api.ids(poll["slug"])
    token = (await api.voted(poll["slug"], [ids["Thai"]]))["token"]
    assert (await api.change(token, [ids["Thai"]])).status_code == 200
    assert (await api.counts(poll["slug"]))["Thai"] == 1


async def test_change_in_multi_mode_applies_max_picks(api: Any, db: Any) -> None:
    made = await api.make(mode="multi", maxPicks=2, options=["a", "b", "c"])
    ids = await api.ids(made["slug"])
    token = (await api.voted(made["slug"], [ids["a"], ids["b"]]))["token"]
    response = await api.change(token, [ids["a"], ids["b"], ids["c"]])
    assert await api.error_of(response, 400) == up_to(2)
    assert await api.counts(made["slug"]) == {"a": 1, "b": 1, "c": 0}
    reply = await (await api.change(token, [ids["c"], ids["b"], ids["c"], "zzzzzz"])).get_json()
    assert reply["choices"] == [ids["c"], ids["b"]]
    assert await api.counts(made["slug"]) == {"a": 0, "b": 1, "c": 1}
    stored_counts_agree(db, made["slug"])


@pytest.mark.parametrize("choices", [[], None, ["zzzzzz"], "abc"])
async def test_change_to_an_empty_ballot_is_refused(api: Any, poll: dict[str, str],
                                                    choices: Any) -> None:
    ids = await api.ids(poll["slug"])
    token = (await api.voted(poll["slug"], [ids["Thai"]]))["token"]
    assert await api.error_of(await api.change(token, choices), 400) == EMPTY
    assert (await api.counts(poll["slug"]))["Thai"] == 1


async def test_change_ignores_suggestions(api: Any) -> None:
    made = await api.make(allowSuggestions=True)
    ids = await api.ids(made["slug"])
    token = (await api.voted(made["slug"], [ids["Thai"]]))["token"]
    response = await api.change(token, [], suggestion="Sushi")
    assert await api.error_of(response, 400) == EMPTY
    assert len((await api.read(made["slug"]))["tally"]) == 3


@pytest.mark.parametrize("token", ["2" * 22, "x", "2" * 23, "2" * 26])
async def test_change_with_an_unknown_token_is_404(api: Any, poll: dict[str, str],
                                                   token: str) -> None:
    ids = await api.ids(poll["slug"])
    response = await api.change(token, [ids["Thai"]])
    assert response.status_code == 404
    assert await response.get_json() == api.NOT_FOUND


async def test_tokens_belong_to_their_own_poll(api: Any) -> None:
    first, second = await api.make(), await api.make()
    first_ids, second_ids = await api.ids(first["slug"]), await api.ids(second["slug"])
    token = (await api.voted(first["slug"], [first_ids["Thai"]]))["token"]
    # A ballot token changes only its own ballot; another poll's ids are unknown there.
    response = await api.change(token, [second_ids["Pub"]])
    assert await api.error_of(response, 400) == EMPTY
    assert await api.counts(second["slug"]) == {"Thai": 0, "Pub": 0, "Picnic": 0}


# --- credentials --------------------------------------------------------------------------

@pytest.mark.parametrize("slug", [None, "", "nope", "where-for-lunch-23456789abcdef", 5])
async def test_vote_with_an_unknown_slug_is_404(api: Any, slug: Any) -> None:
    response = await api.vote(slug, ["abcdef"])
    assert response.status_code == 404
    assert await response.get_json() == api.NOT_FOUND


async def test_slug_of_another_tool_is_404(make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["poll", "sweeps"]).test_client()
    sweep = await client.post("/api/sweeps", json={"outcomes": ["a", "b"], "names": ["x", "y"]})
    slug = (await sweep.get_json())["slug"]
    response = await client.post("/api/poll/vote", json={"slug": slug, "choices": []})
    assert response.status_code == 404
