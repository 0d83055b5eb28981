"""A secret ballot's tally moves in batches, so nobody (the organiser included) can tie a
ballot to the moment it was cast by comparing reads over time. Tested as that watcher would:
read the public JSON, the public page and the organiser's export before and after each of
many single ballots, and try to pin each ballot to an option."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_poll.results import BATCH


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["poll"], post_per_hour=100_000)


def counts_of(view: dict[str, Any]) -> dict[str, int]:
    return {option["id"]: option["count"] for option in view["tally"]}


def page_counts(page: str) -> dict[str, int]:
    return {option_id: int(count) for option_id, count in re.findall(
        r'data-option-id="(\w+)">.*?<span class="poll-count">(\d+)</span>', page, re.S)}


class Watcher:
    """Everything a watcher can read without voting, as option id -> count per surface."""

    def __init__(self, api: Any, made: dict[str, str]) -> None:
        self.api, self.made = api, made

    async def look(self) -> dict[str, dict[str, int]]:
        slug, edit = self.made["slug"], self.made["editToken"]
        export = await (await self.api.organiser(edit, "export")).get_json()
        return {"public read": counts_of(await self.api.read(slug)),
                "public page": page_counts(await self.api.page(f"/s/{slug}")),
                "organiser export": counts_of(export["data"]),
                "organiser page": page_counts(await self.api.page(f"/e/{edit}"))}


def moved(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {key: after.get(key, 0) - before.get(key, 0) for key in set(before) | set(after)
            if before.get(key) != after.get(key)}


def ties(diff: dict[str, int], own: dict[str, int]) -> bool:
    """Whether a change of counts gives a ballot away: it is exactly that ballot's own
    effect, or it moves one option only and that option is among the ballot's picks."""
    return bool(diff) and (diff == own or (len(diff) == 1 and set(diff) <= set(own)))


async def test_a_watcher_ties_no_single_ballot(api: Any) -> None:
    made = await api.make(secret=True, mode="multi")
    slug = made["slug"]
    ids = list((await api.ids(slug)).values())
    chance = random.Random(2026)
    watcher = Watcher(api, made)
    tied: list[str] = []
    ballots: list[tuple[str, list[str]]] = []
    releases = 0
    for n in range(24):
        before = await watcher.look()
        if n % 6 == 5:   # now and then a voter changes their ballot instead
            token, old = ballots[n // 6]
            picks = [option for option in ids if option not in old][:1]
            reply = await (await api.change(token, picks)).get_json()
            own = {option: (option in picks) - (option in old) for option in ids
                   if (option in picks) != (option in old)}
        else:
            picks = chance.sample(ids, chance.randint(1, 2))
            reply = await api.voted(slug, picks)
            ballots.append((reply["token"], picks))
            own = {option: 1 for option in picks}
        after = await watcher.look()
        # The voter's own reply shows only the published tally too.
        assert counts_of(reply) == after["public read"]
        for surface, counts in after.items():
            if ties(moved(before[surface], counts), own):
                tied.append(f"ballot {n} ({surface})")
        releases += after["public read"] != before["public read"]
    assert not tied, tied
    assert releases == 24 // BATCH   # changes are counted with new ballots
    view = await api.read(slug)
    assert view["ballots"] == 20 and view["tallyBallots"] == 17


async def test_the_tally_moves_every_batch(api: Any) -> None:
    made = await api.make(secret=True)
    slug = made["slug"]
    ids = await api.ids(slug)
    view = await api.read(slug)
    assert (view["tallyBallots"], view["tallyBatch"]) == (0, BATCH)
    for n in range(BATCH - 1):
        await api.voted(slug, [ids["Thai"]])
        view = await api.read(slug)
        assert set(counts_of(view).values()) == {0}
        assert (view["ballots"], view["tallyBallots"]) == (n + 1, 0)
    page = await api.page(f"/s/{slug}")
    assert "Counted so far: 0 of 4." in page
    # The zero bars under four votes are explained: counted in batches, and not yet.
    assert "votes are counted in batches of 5" in page and "4 votes, 0 counted</span>" in page
    await api.voted(slug, [ids["Pub"]])
    view = await api.read(slug)
    assert list(counts_of(view).values()) == [4, 1, 0] and view["tallyBallots"] == 5
    assert 'max="5" value="4"' in await api.page(f"/s/{slug}")


async def test_suggestions_wait_for_the_next_release(api: Any) -> None:
    """A new option appearing the moment someone voted would say what they voted for."""
    made = await api.make(secret=True, allowSuggestions=True)
    slug, edit = made["slug"], made["editToken"]
    ids = await api.ids(slug)
    reply = await api.voted(slug, [], suggestion="Dumplings")
    assert [o["text"] for o in reply["tally"]] == ["Thai", "Pub", "Picnic"]
    for reader in (await api.read(slug),
                   (await (await api.organiser(edit, "export")).get_json())["data"]):
        assert "Dumplings" not in str(reader)
        assert reply["addedOptionId"] not in str(reader)
    for path in (f"/s/{slug}", f"/e/{edit}"):
        assert "Dumplings" not in await api.page(path)
    for _ in range(BATCH - 1):
        await api.voted(slug, [ids["Pub"]])
    assert [o["count"] for o in (await api.read(slug))["tally"]] == [0, 4, 0, 1]


async def test_organiser_edits_show_at_once(api: Any) -> None:
    made = await api.make(secret=True)
    slug, edit = made["slug"], made["editToken"]
    ids = await api.ids(slug)
    for _ in range(BATCH):
        await api.voted(slug, [ids["Picnic"]])
    await api.voted(slug, [ids["Thai"]])
    added = await (await api.organiser(edit, "addOption", {"text": "Dumplings"})).get_json()
    assert [o["count"] for o in added["tally"]] == [0, 0, 5, 0]
    removed = await (await api.organiser(edit, "removeOption",
                                         {"optionId": ids["Pub"]})).get_json()
    assert [o["text"] for o in removed["tally"]] == ["Thai", "Picnic", "Dumplings"]
    assert [o["count"] for o in (await api.read(slug))["tally"]] == [0, 5, 0]


async def test_closing_shows_every_ballot(api: Any) -> None:
    made = await api.make(secret=True, ranked=True)
    slug, edit = made["slug"], made["editToken"]
    ids = await api.ids(slug)
    for ranking in ([ids["Thai"], ids["Pub"]], [ids["Pub"]], [ids["Pub"]],
                    [ids["Picnic"], ids["Pub"]]):
        await api.voted(slug, ranking)
    view = await api.read(slug)
    assert view["rounds"] == [] and view["winner"] is None and view["tallyBallots"] == 0
    closed = await (await api.organiser(edit, "close")).get_json()
    assert closed["winner"] == ids["Pub"] and len(closed["rounds"]) == 2
    final = await api.read(slug)
    assert final["tallyBallots"] == 4 and final["winner"] == ids["Pub"]


async def test_a_ranked_secret_ballot_releases_its_rounds(api: Any) -> None:
    made = await api.make(secret=True, ranked=True)
    slug = made["slug"]
    ids = await api.ids(slug)
    for _ in range(BATCH):
        await api.voted(slug, [ids["Thai"], ids["Pub"]])
    view = await api.read(slug)
    assert view["winner"] == ids["Thai"] and view["rounds"][0]["counts"][ids["Thai"]] == 5


async def test_a_secret_ballot_stored_before_batching(api: Any, db: Any) -> None:
    """A secret ballot created before batching existed shows its live tally until its next
    ballot, which starts batching from the tally everyone had already seen."""
    from groupkit import Instance

    made = await api.make(secret=True)
    slug = made["slug"]
    ids = await api.ids(slug)
    for _ in range(2):
        await api.voted(slug, [ids["Thai"]])

    def forget() -> None:
        instance = Instance.get(Instance.slug == slug)
        instance.data = {key: value for key, value in instance.data.items()
                         if key not in ("shown", "pending")}
        instance.save()
    db(forget)
    assert list(counts_of(await api.read(slug)).values()) == [2, 0, 0]
    await api.voted(slug, [ids["Pub"]])
    view = await api.read(slug)
    assert list(counts_of(view).values()) == [2, 0, 0] and view["tallyBallots"] == 2
    for _ in range(BATCH - 1):
        await api.voted(slug, [ids["Picnic"]])
    assert list(counts_of(await api.read(slug)).values()) == [2, 1, 4]
