"""What each reader sees of a poll in the cases the other tests leave out: a ranked poll that
hides its counts, the organiser's replies on a poll that hides counts until it closes, a
ranked secret ballot stored before batching, the voter's own view without a name, the
export's change times and the link preview."""

from __future__ import annotations

from typing import Any

from groupkit import Instance

NO_RUNOFF = ([], None, [])


def runoff(view: dict[str, Any]) -> tuple[Any, Any, Any]:
    return view["rounds"], view["winner"], view["tied"]


def counts(view: dict[str, Any]) -> list[int | None]:
    return [entry["count"] for entry in view["tally"]]


async def export(api: Any, made: dict[str, str]) -> dict[str, Any]:
    return dict((await (await api.organiser(made["editToken"], "export")).get_json())["data"])


async def test_a_ranked_poll_hides_its_runoff_where_it_hides_its_counts(api: Any) -> None:
    made = await api.make(ranked=True, resultsAfterVote=True)
    ids = await api.ids(made["slug"])
    reply = await api.voted(made["slug"], [ids["Pub"], ids["Thai"]])
    assert reply["winner"] == ids["Pub"] and counts(reply) == [0, 1, 0]
    public = await api.read(made["slug"])
    assert public["tallyHidden"] is True and counts(public) == [None, None, None]
    assert runoff(public) == NO_RUNOFF
    assert (await export(api, made))["winner"] == ids["Pub"]


async def test_a_closed_ranked_poll_shows_its_runoff_to_everyone(api: Any) -> None:
    made = await api.make(ranked=True, resultsAtClose=True)
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["Pub"], ids["Thai"]])
    assert runoff(await api.read(made["slug"])) == NO_RUNOFF
    await api.organiser(made["editToken"], "close")
    public = await api.read(made["slug"])
    assert public["tallyHidden"] is False and counts(public) == [0, 1, 0]
    assert public["winner"] == ids["Pub"] and len(public["rounds"]) == 1


async def test_the_organiser_of_an_open_ballot_sees_what_waits_for_the_close(api: Any) -> None:
    """`resultsAtClose` on an open ballot: the organiser sees every ballot anyway, so they
    keep the tally and the runoff, in the export and in the replies to their actions."""
    for ranked in (False, True):
        made = await api.make(ranked=ranked, resultsAtClose=True, options=["A", "B", "C"])
        ids = await api.ids(made["slug"])
        await api.voted(made["slug"], [ids["B"]])
        assert counts(await api.read(made["slug"])) == [None, None, None]
        view = await export(api, made)
        assert view["tallyHidden"] is False and counts(view) == [0, 1, 0]
        added = await (await api.organiser(made["editToken"], "addOption",
                                           {"text": "D"})).get_json()
        assert counts(added) == [0, 1, 0, 0]
        removed = await (await api.organiser(made["editToken"], "removeOption",
                                             {"optionId": ids["A"]})).get_json()
        assert counts(removed) == [1, 0, 0]
        if ranked:
            assert view["winner"] == ids["B"]
            assert added["winner"] == ids["B"] and removed["winner"] == ids["B"]


async def test_a_ranked_reply_names_the_tied_options(api: Any) -> None:
    made = await api.make(ranked=True)
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["Thai"]])
    reply = await api.voted(made["slug"], [ids["Pub"]])
    assert runoff(reply)[1:] == (None, [ids["Thai"], ids["Pub"]])
    changed = await (await api.change(reply["token"], [ids["Thai"]])).get_json()
    assert runoff(changed)[1:] == (ids["Thai"], [])


async def test_a_ranked_secret_ballot_stored_before_batching(api: Any, db: Any) -> None:
    """Such a poll has no published copy, so no published runoff: it shows none until its
    batches start."""
    made = await api.make(secret=True, ranked=True)
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["Thai"]])

    def forget() -> None:
        instance = Instance.get(Instance.slug == made["slug"])
        instance.data = {key: value for key, value in instance.data.items()
                         if key not in ("shown", "pending")}
        instance.save()
    db(forget)
    view = await api.read(made["slug"])
    assert counts(view) == [1, 0, 0] and runoff(view) == NO_RUNOFF


async def test_the_voters_own_page_without_a_name(api: Any) -> None:
    made = await api.make()
    ids = await api.ids(made["slug"])
    named = await api.voted(made["slug"], [ids["Pub"]], voterName="Ann")
    unnamed = await api.voted(made["slug"], [ids["Thai"]])
    assert "Your vote, Ann." in await api.page(f"/p/{named['token']}")
    page = await api.page(f"/p/{unnamed['token']}")
    assert "Your vote." in page and "Your vote," not in page
    assert f'value="{ids["Thai"]}" data-choice checked' in page


async def test_the_export_says_when_a_ballot_changed(api: Any) -> None:
    made = await api.make()
    ids = await api.ids(made["slug"])
    ballot = await api.voted(made["slug"], [ids["Pub"]], voterName="Ann")
    await api.voted(made["slug"], [ids["Thai"]], voterName="Bo")
    assert (await api.change(ballot["token"], [ids["Picnic"]])).status_code == 200
    rows = (await export(api, made))["ballotList"]
    assert [(row["voterName"], row["choiceTexts"]) for row in rows] == [
        ("Ann", ["Picnic"]), ("Bo", ["Thai"])]
    assert rows[0]["changed"].endswith("+00:00") and rows[0]["changed"] >= rows[0]["created"]
    assert rows[1]["changed"] is None


async def test_the_link_preview_counts_this_polls_options(api: Any) -> None:
    made = await api.make()
    await api.make(options=["A", "B", "C", "D", "E"])
    page = await api.page(f"/s/{made['slug']}")
    assert "A quick vote: 3 options to choose from." in page
