"""Ranked-choice counts after the organiser removes an option: first choices are recounted
from the ballots, and a secret ballot's published runoff is withdrawn until the next batch."""

from __future__ import annotations

from typing import Any

import pytest

from groupkit import Instance
from groupkit_poll.models import PollOption
from groupkit_poll.results import BATCH
from groupkit_testing import edit


async def test_the_recount_reads_first_choices_from_the_ballots(api: Any, db: Any) -> None:
    """Removing an option recounts every option from the ballots, not by moving votes: an
    option nobody ranks first reads 0 whatever its stored count said (here a count left at
    1), and one that gains a first choice reads it."""
    made = await api.make(ranked=True, options=["A", "B", "C", "D"])
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["A"], ids["C"]])
    await api.voted(made["slug"], [ids["B"]])

    def count_d_as(votes: int) -> None:
        instance = Instance.get(Instance.slug == made["slug"])
        PollOption.update(votes=votes).where((PollOption.instance == instance)
                                             & (PollOption.option_id == ids["D"])).execute()
    db(count_d_as, 1)
    assert await api.counts(made["slug"]) == {"A": 1, "B": 1, "C": 0, "D": 1}
    reply = await api.organiser(made["editToken"], "removeOption", {"optionId": ids["A"]})
    assert [(entry["text"], entry["count"]) for entry in (await reply.get_json())["tally"]] \
        == [("B", 1), ("C", 1), ("D", 0)]
    assert await api.counts(made["slug"]) == {"B": 1, "C": 1, "D": 0}


#: Ballots (rankings of A, B, C, D) whose first batch publishes a winner, or a tie.
FIRST_BATCH = {"winner": ["AB", "A", "A", "BA", "C"], "tie": ["A", "AC", "B", "BC", "D"]}


@pytest.mark.parametrize("outcome", sorted(FIRST_BATCH))
@pytest.mark.parametrize("how", ["removeOption", "edit"])
async def test_removing_an_option_withdraws_a_secret_ballots_published_runoff(
        api: Any, client: Any, outcome: str, how: str) -> None:
    """The published rounds counted the removed option: they go with it (no rounds, no
    winner, no tie) until the next batch publishes a fresh count, for every reader."""
    made = await api.make(secret=True, ranked=True, options=["A", "B", "C", "D", "E"])
    slug = made["slug"]
    ids = await api.ids(slug)
    for ranking in FIRST_BATCH[outcome]:
        await api.voted(slug, [ids[letter] for letter in ranking])
    published = await api.read(slug)
    assert published["rounds"]
    if outcome == "winner":
        assert (published["winner"], published["tied"]) == (ids["A"], [])
    else:
        assert published["winner"] is None and published["tied"] == [ids["A"], ids["B"]]
    if how == "removeOption":
        reply = await api.organiser(made["editToken"], "removeOption", {"optionId": ids["E"]})
        assert reply.status_code == 200
    else:
        assert (await edit(client, "poll", made["editToken"], {
            "options": ["A", "B", "C", "D"], "confirm": True}))[0] == 200
    export = (await (await api.organiser(made["editToken"], "export")).get_json())["data"]
    for view in (await api.read(slug), export):
        assert (view["rounds"], view["winner"], view["tied"]) == ([], None, [])
        assert [entry["text"] for entry in view["tally"]] == ["A", "B", "C", "D"]
    for _ in range(BATCH):
        await api.voted(slug, [ids["D"], ids["C"]])
    view = await api.read(slug)
    assert view["winner"] == ids["D"] and view["tallyBallots"] == 2 * BATCH
