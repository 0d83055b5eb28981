"""Results hidden until you have voted (`resultsAfterVote`) or until the poll closes
(`resultsAtClose`): who sees counts when, in the JSON reads, the replies and the pages."""

from __future__ import annotations

from typing import Any


def counts_of(view: dict[str, Any]) -> list[Any]:
    return [option["count"] for option in view["tally"]]


async def test_results_after_vote(api: Any) -> None:
    made = await api.make(resultsAfterVote=True)
    slug, edit = made["slug"], made["editToken"]
    ids = await api.ids(slug)
    view = await api.read(slug)
    assert view["resultsAfterVote"] is True and view["tallyHidden"] is True
    assert counts_of(view) == [None, None, None]
    reply = await api.voted(slug, [ids["Pub"]])
    assert counts_of(reply) == [0, 1, 0]
    await api.voted(slug, [ids["Pub"]])
    public = await api.read(slug)
    assert counts_of(public) == [None, None, None] and public["ballots"] == 2
    assert [o["text"] for o in public["tally"]] == ["Thai", "Pub", "Picnic"]
    page = await api.page(f"/s/{slug}")
    assert "Vote to see the results" in page and "poll-count" not in page
    assert "<meter" not in page and 'data-choice' in page
    mine = await api.page(f"/p/{reply['token']}")
    assert '<span class="poll-count">2</span>' in mine
    changed = await (await api.change(reply["token"], [ids["Thai"]])).get_json()
    assert counts_of(changed) == [1, 1, 0]
    export = await (await api.organiser(edit, "export")).get_json()
    assert counts_of(export["data"]) == [1, 1, 0] and export["data"]["tallyHidden"] is False
    assert '<span class="poll-count">1</span>' in await api.page(f"/e/{edit}")
    await api.organiser(edit, "close")
    final = await api.read(slug)
    assert final["tallyHidden"] is False and counts_of(final) == [1, 1, 0]
    assert '<span class="poll-count">1</span>' in await api.page(f"/s/{slug}")


async def test_results_at_close_on_a_secret_ballot(api: Any) -> None:
    made = await api.make(resultsAtClose=True, secret=True)
    slug, edit = made["slug"], made["editToken"]
    ids = await api.ids(slug)
    replies = [await api.voted(slug, [ids["Thai" if n % 3 else "Pub"]]) for n in range(7)]
    assert all(counts_of(reply) == [None, None, None] for reply in replies)
    export = (await (await api.organiser(edit, "export")).get_json())["data"]
    readers = [await api.read(slug), export,
               await (await api.client.get(f"/api/poll/{slug}")).get_json()]
    for view in readers:
        assert view["tallyHidden"] is True and counts_of(view) == [None, None, None]
        assert view["tallyBallots"] is None and view["ballots"] == 7
    for path in (f"/s/{slug}", f"/e/{edit}", f"/p/{replies[0]['token']}"):
        page = await api.page(path)
        assert "stay hidden until voting closes" in page and "poll-count" not in page
    assert "the organiser can't see them either" in await api.page(f"/e/{edit}")
    added = await (await api.organiser(edit, "addOption", {"text": "Dumplings"})).get_json()
    assert counts_of(added) == [None] * 4
    closed = await (await api.organiser(edit, "close")).get_json()
    assert counts_of(closed) == [4, 3, 0, 0]
    assert counts_of(await api.read(slug)) == [4, 3, 0, 0]


async def test_results_at_close_on_an_open_ballot(api: Any) -> None:
    """The organiser of an open ballot sees every ballot anyway, so they keep the tally."""
    made = await api.make(resultsAtClose=True)
    ids = await api.ids(made["slug"])
    reply = await api.voted(made["slug"], [ids["Thai"]], voterName="Ann")
    assert counts_of(reply) == [None, None, None]
    assert counts_of(await api.read(made["slug"])) == [None, None, None]
    export = (await (await api.organiser(made["editToken"], "export")).get_json())["data"]
    assert counts_of(export) == [1, 0, 0] and export["ballotList"][0]["voterName"] == "Ann"


async def test_a_plain_poll_shows_what_it_always_did(api: Any, db: Any) -> None:
    """Created without the new fields: the same keys as ever, stored and shown."""
    from groupkit import Instance

    made = await api.make()
    view = await api.read(made["slug"])
    assert list(view) == ["question", "mode", "maxPicks", "allowSuggestions", "secret",
                          "closed", "ballots", "voteLimit", "tally"]

    def stored() -> dict[str, Any]:
        return dict(Instance.get(Instance.slug == made["slug"]).data)
    assert set(db(stored)) == {"mode", "maxPicks", "allowSuggestions", "secret", "closed",
                               "ballots"}
    ids = await api.ids(made["slug"])
    assert set(await api.voted(made["slug"], [ids["Thai"]])) == {
        "token", "choices", "addedOptionId", "tally"}
