"""An organiser's edit and the group's participation (claims, votes, messages, guesses)
arrive together, on one real 2-worker server with every tool, on SQLite and on PostgreSQL:
every participation answered 2xx is still there afterwards (no edit drops one), no cap is
overshot, and every edit is either applied whole or refused with its tool's documented 409.

Each tool is one `Race` row in RACES: its create body, the i-th edit's body (carrying the
mark `fix(i)`), where the view shows that mark, the i-th participation call and what the
view lists of everyone who took part. Where an edit may take away what a participation aims
at (a name off the list), that participation's 404 is `gone`. A tool with nothing for
participants to do (a sweep, teams) races its edits against each other instead: the view
must hold one edit whole."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Awaitable
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from groupkit_testing import server_backends

pytestmark = pytest.mark.server

View = dict[str, Any]
Context = dict[str, Any]  # slug, editToken and whatever `prepare` adds
#: (path under /api/<tool>/, body, who it stands for in `taken`)
Take = tuple[str, dict[str, Any], str]

TAKERS = 12
EDITS = 4


def fix(i: int) -> str:
    """The mark the i-th edit leaves in the view."""
    return f"Fix {i}"


@dataclasses.dataclass(frozen=True)
class Race:
    create: dict[str, Any]
    edit: Callable[[int], dict[str, Any]]
    shows: Callable[[View], Any]  # what the view shows where an edit leaves its mark
    take: Callable[[Context, int], Take] | None = None
    taken: Callable[[View], list[str]] = lambda view: []
    refused: str = "(?!)"  # the edit's documented 409 messages, a regular expression
    fits: Callable[[View], bool] = lambda view: True  # caps held, the view holds together
    read: str = ""  # another read merged into the view: /api/<tool>/<slug><read>
    export: bool = False  # the organiser's export merged in (who claimed, where only it says)
    gone: str = "(?!)"  # a participation's 404 once an edit took its aim away, a regex
    prepare: Callable[[httpx.AsyncClient, Context], Awaitable[Context]] | None = None


# --- sign-up boards: shrink the first group under its claims, rename one, add one ---------

def board(groups: str, label: str, prefix: str, extra: dict[str, str], held: str) -> Race:
    def edit(i: int) -> dict[str, Any]:
        # Every other edit also cuts the first group to 3 spots: refused once more are taken.
        return {groups: [{label: "First", "capacity": 3 + 3 * (i % 2), "was": 0},
                         {label: fix(i), "capacity": 2, "was": 1},
                         {label: "Third", "capacity": 1, "was": None}]}

    def fits(view: View) -> bool:
        rows = view[groups]
        first = rows[0]["capacity"]
        whole = (len(rows), first) == (2, 6) if rows[1][label] == "Second" else (
            len(rows) == 3 and first == 3 + 3 * (int(rows[1][label].split()[-1]) % 2))
        return whole and all(row["taken"] == len(names(row)) <= row["capacity"]
                             for row in rows)

    return Race(
        create={"title": "Race", groups: [{label: "First", "capacity": 6},
                                          {label: "Second", "capacity": 2}]},
        edit=edit, shows=lambda view: view[groups][1][label],
        take=lambda c, i: ("claim", {"slug": c["slug"], "slotId": f"{prefix}0-{i % 6 + 1}",
                                     "name": f"P{i}", **extra}, f"P{i}"),
        taken=lambda view: [name for row in view[groups] for name in names(row)],
        refused=rf"First has [4-6] {held} — remove someone first, or keep at least [4-6] "
                r"spots\.",
        fits=fits)


def names(row: dict[str, Any]) -> list[str]:
    return [spot["name"] for spot in row["spots"] if spot["taken"]]


# --- name lists: each edit takes one name off while its owner claims it ------------------

NAMES = ["Ann", "Bo", "Cy", "Di", *(f"P{i}" for i in range(TAKERS))]


def roll(create: dict[str, Any], mark: str, claimed: Callable[[View], list[str]],
         refused: str, gone: str, export: bool = False,
         private: Callable[[View], bool] = lambda view: True) -> Race:
    """The i-th edit leaves P<i> out while P<i> claims it: whichever lands first wins (the
    edit asks before taking a claimed name off; the claim of a name gone is a 404). Another
    edit names P<i> again, as somebody new who has claimed nothing."""
    def edit(i: int) -> dict[str, Any]:
        return {mark: fix(i), "names": [name for name in NAMES if name != f"P{i}"]}

    def fits(view: View) -> bool:
        listed = [person["name"] for person in view["people"]] if "people" in view \
            else view["names"]
        last = view[mark]
        whole = NAMES if not last.startswith("Fix ") else edit(int(last[4:]))["names"]
        return listed == whole and private(view)

    return Race(create={**create, "names": NAMES}, edit=edit, shows=lambda view: view[mark],
                take=lambda c, i: ("claim", {"slug": c["slug"], "name": f"P{i}"}, f"P{i}"),
                taken=claimed, refused=refused, gone=gone, fits=fits, export=export)


def claimed(view: View) -> list[str]:
    return [person["name"] for person in view["people"] if person["claimed"]]


def pairings_unseen(view: View) -> bool:
    """Kris Kringle: nothing the group or the organiser reads says who buys for whom."""
    return not re.search(r"giftee|buysFor|santa|pair", str(view), re.IGNORECASE)


async def poll_options(client: httpx.AsyncClient, made: Context) -> Context:
    view = (await client.get(f"/api/poll/{made['slug']}")).raise_for_status().json()
    return {**made, "ids": {entry["text"]: entry["id"] for entry in view["tally"]}}


def picnic_votes(view: View) -> list[str]:
    return ["a vote"] * sum(entry["count"] for entry in view["tally"]
                            if entry["text"] == "Picnic")


def poll_edit(i: int) -> dict[str, Any]:
    # Every other edit leaves Picnic out: refused once someone voted for it.
    return {"question": fix(i), "options": ["Thai", "Pub", "Picnic"][: 3 - i % 2]}


def roles_edit(i: int) -> dict[str, Any]:
    # Every other edit swaps the Spy for a Wolf (and back): refused while someone holds it.
    return {"title": fix(i), "roles": ["Wolf" if i % 2 else "Spy", *["Villager"] * TAKERS,
                                       "Villager"]}


# --- the rest, one row each ---------------------------------------------------------------

async def qotd_today(client: httpx.AsyncClient, made: Context) -> Context:
    today = (await client.get(f"/api/qotd/{made['slug']}/tally")).raise_for_status().json()
    return {**made, "day": today["day"], "qi": today["qi"]}


async def bracket_read(client: httpx.AsyncClient, made: Context) -> Context:
    view = (await client.get(f"/api/bracket/{made['slug']}")).raise_for_status().json()
    return {**made, "version": view["version"],
            "tops": [match["sides"][0]["name"] for match in view["rounds"][0]["matches"]]}


async def poker_seats(client: httpx.AsyncClient, made: Context) -> Context:
    tokens = []
    for i in range(TAKERS):
        joined = await client.post("/api/poker/join", json={"slug": made["slug"],
                                                            "name": f"P{i}"})
        tokens.append(joined.raise_for_status().json()["token"])
    return {**made, "tokens": tokens}


def sweep_edit(i: int) -> dict[str, Any]:
    # An unconfirmed new name is always the redraw question; a confirmed one redraws.
    return {"title": fix(i), "names": ["Ann", "Bo", fix(i)], "confirm": i % 2 == 1}


def drawn(view: View) -> set[str]:
    """Everyone in the draw: holding an outcome, or left over (`surplus`, names alone)."""
    return {row["name"] for row in view["draw"] if row["name"]} | set(view["surplus"])


FINDDATE_ANSWERS = [{"slotId": "d1", "answer": "yes"}, {"slotId": "d2", "answer": "maybe"}]

RACES: dict[str, Race] = {
    "plate": board("categories", "name", "c", {"dish": "Salad"}, "spots taken"),
    "hens": board("categories", "name", "c", {"message": "on it"}, "spots taken"),
    "roster": board("shifts", "label", "s", {"message": "call me"}, "volunteers"),
    "meal": Race(
        create={"forWhom": "Jo", "startDate": "2026-12-02", "days": 3, "capacityPerDay": 2},
        edit=lambda i: {"forWhom": fix(i), "note": "Knock twice"},
        shows=lambda view: view["forWhom"],
        take=lambda c, i: ("claim", {"slug": c["slug"], "slotId": f"d{i % 3}-{i % 2 + 1}",
                                     "name": f"P{i}", "dish": "Soup"}, f"P{i}"),
        taken=lambda view: [spot["name"] for day in view["days"] for spot in day["spots"]
                            if spot["taken"]],
        fits=lambda view: all(day["taken"] <= 2 for day in view["days"])),
    "registry": Race(
        create={"coupleNames": "Mia & Sam", "payment": {"aliasId": "mia@exmaple.com"}},
        edit=lambda i: {"tagline": fix(i), "payment": {"aliasId": "mia@example.com"}},
        shows=lambda view: view["tagline"],
        take=lambda c, i: ("claim", {"slug": c["slug"], "partId": f"p00{i % 6 + 1}",
                                     "name": f"P{i}"}, f"P{i}"),
        taken=lambda view: [part["claimedBy"] for part in view["parts"] if part["claimed"]]),
    "card": Race(
        create={"recipient": "Margaret"},
        edit=lambda i: {"recipient": fix(i)}, shows=lambda view: view["recipient"],
        take=lambda c, i: ("sign", {"slug": c["slug"], "name": f"P{i}", "message": "Enjoy"},
                           f"P{i}"),
        taken=lambda view: [message["name"] for message in view["messages"]]),
    "recipe": Race(
        create={"title": "Family cookbook", "forWhom": "Mum"},
        edit=lambda i: {"note": fix(i)}, shows=lambda view: view["note"],
        take=lambda c, i: ("add", {"slug": c["slug"], "cook": f"P{i}", "dish": "Pavlova",
                                   "ingredients": "Eggs", "method": "Whisk"}, f"P{i}"),
        taken=lambda view: [recipe["cook"] for recipe in view["recipes"]]),
    "baby": Race(
        create={"parents": "Priya & Tom", "dueDate": "14 March"},
        edit=lambda i: {"note": fix(i)}, shows=lambda view: view["note"],
        take=lambda c, i: ("guess", {"slug": c["slug"], "guesser": f"P{i}",
                                     "date": "2026-12-14", "weightGrams": 3000 + i}, f"P{i}"),
        taken=lambda view: [guess["guesser"] for guess in view["guesses"]]),
    "kudos": Race(
        create={"team": "Support"},
        edit=lambda i: {"intro": fix(i)}, shows=lambda view: view["intro"],
        take=lambda c, i: ("note", {"slug": c["slug"], "recipient": "Bo", "message": "Thanks",
                                    "sender": f"P{i}"}, f"P{i}"),
        taken=lambda view: [note["sender"] for note in view["notes"]]),
    "pulse": Race(
        create={"team": "Data crew"},
        edit=lambda i: {"question": fix(i), "askWords": i % 2 == 0},
        shows=lambda view: view["question"],
        take=lambda c, i: ("respond", {"slug": c["slug"], "score": i % 5 + 1, "words": "ok"},
                           "a response"),
        taken=lambda view: ["a response"] * view["weeks"][0]["responses"]),
    "qotd": Race(
        create={"teamName": "Platform"},
        edit=lambda i: {"teamName": fix(i)}, shows=lambda view: view["teamName"],
        take=lambda c, i: ("vote", {"slug": c["slug"], "choice": "ab"[i % 2], "day": c["day"],
                                    "qi": c["qi"], "voterName": f"P{i}"}, f"P{i}"),
        taken=lambda view: [*view["names"]["a"], *view["names"]["b"]],
        read="/tally", prepare=qotd_today),
    "poker": Race(
        # A new deck is refused once a card is down (the same deck is not new); "?" is in
        # both decks.
        create={"team": "Squad"},
        edit=lambda i: {"story": fix(i), "deck": ["fib", "tshirt"][i % 2]},
        shows=lambda view: view["story"],
        take=lambda c, i: (f"v/{c['tokens'][i]}/vote", {"card": "?"}, f"P{i}"),
        taken=lambda view: [voter["name"] for voter in view["voters"] if voter["voted"]],
        refused=r"Cards are already down for this story — start the next one, then change "
                r"the deck\.",
        fits=lambda view: len(view["voters"]) == TAKERS, prepare=poker_seats),
    "bracket": Race(
        # Every result quotes one read's version: one lands at most, and a rename (which
        # moves the version on too) may beat it.
        create={"title": "Cup", "seeding": "listed", "entrants": ["A", "B", "C", "D"]},
        edit=lambda i: {"title": fix(i), "entrants": [fix(i), "B", "C", "D"]},
        shows=lambda view: view["title"],
        take=lambda c, i: (f"{c['editToken']}/result", {
            "round": 0, "match": i % 2, "winner": c["tops"][i % 2], "version": c["version"]},
            str(i % 2)),
        taken=lambda view: [str(match["match"]) for match in view["rounds"][0]["matches"]
                            if match["winner"] and match["winner"] == match["sides"][0]["name"]],
        fits=lambda view: view["entrants"][0] == view["title"] or view["title"] == "Cup",
        prepare=bracket_read),
    "finddate": Race(
        # Leaving out an answered option asks first; the confirmed edits take it away.
        create={"title": "Dinner", "slots": [{"date": "2026-12-10"}, {"date": "2026-12-11"}]},
        edit=lambda i: {"note": fix(i), "confirm": i % 2 == 1,
                        "slots": [{"date": "2026-12-10"}, {"date": "2026-12-12"}]},
        shows=lambda view: view["note"],
        take=lambda c, i: ("respond", {"slug": c["slug"], "name": f"P{i}",
                                       "answers": FINDDATE_ANSWERS}, f"P{i}"),
        taken=lambda view: [response["name"] for response in view["responses"]],
        refused=r"(1 person has|\d+ people have) already answered Fri 11 Dec 2026 — remove "
                r"it anyway\? Their answers for it go with it\.",
        fits=lambda view: [slot["date"] for slot in view["slots"]] == (
            ["2026-12-10", "2026-12-11"] if view["note"] == "" else
            ["2026-12-10", "2026-12-12"])),
    "sweeps": Race(
        create={"title": "Grand final", "outcomes": ["Lions", "Swans"], "names": ["Ann", "Bo"]},
        edit=sweep_edit, shows=lambda view: view["title"],
        refused=r"Changing the names or outcomes draws the sweep again — everyone may end up "
                r"with a different one\. Go ahead\?",
        fits=lambda view: drawn(view) == ({"Ann", "Bo"} if view["title"] == "Grand final"
                                          else {"Ann", "Bo", view["title"]})),
    "teams": Race(
        create={"title": "Trivia", "teams": [{"title": "Red", "members": ["Ann", "Bo"]},
                                             {"title": "Blue", "members": ["Cy", "Di"]}]},
        edit=lambda i: {"title": fix(i), "teams": [
            {"title": "Red", "members": ["Ann", fix(i)]},
            {"title": "Blue", "members": ["Cy", "Di", "Eve"][: 2 + i % 2]}]},
        shows=lambda view: view["title"],
        fits=lambda view: view["title"] == "Trivia" or view["title"] in {
            member for team in view["teams"] for member in team["members"]}),
    "giftidea": Race(
        create={"recipient": "Priya"},
        edit=lambda i: {"occasion": fix(i), "budget": "About $20 each"},
        shows=lambda view: view["occasion"],
        take=lambda c, i: ("suggest", {"slug": c["slug"], "idea": "Hiking socks",
                                       "suggestedBy": f"P{i}"}, f"P{i}"),
        taken=lambda view: [idea["suggestedBy"] for idea in view["ideas"]]),
    "kringle": roll(
        {"title": "Office"}, "title", claimed,
        refused=r'Already claimed: "P[0-3]"\. Remove anyway\? Their private links stop '
                r"working, and whoever drew them gets someone new\.",
        gone=r"That name isn't in this draw\.", export=True, private=pairings_unseen),
    "fact": roll(
        {"title": "Offsite"}, "title", claimed,
        refused=r"P[0-3] has already claimed their name\. Taking them off the list wipes any "
                r"fact they sent, takes it off everyone's guessing grid along with the "
                r"guesses about it, and their private link stops working\. Go ahead\?",
        gone=r"That name isn't on this list\.", export=True),
    "coffee": roll(
        {"title": "Coffee"}, "title", claimed,
        refused=r"P[0-3] has already claimed their name: taking them off the list stops their "
                r"private link working\. Go ahead\?",
        gone=r"That name isn't on this team's list\."),
    "poll": Race(
        # A vote for Picnic after it went is an empty ballot: 400, nothing recorded.
        create={"question": "Lunch", "options": ["Thai", "Pub", "Picnic"]},
        edit=poll_edit, shows=lambda view: view["question"],
        take=lambda c, i: ("vote", {"slug": c["slug"], "choices": [c["ids"]["Picnic"]]},
                           "a vote"),
        taken=picnic_votes,
        refused=r'People voted for "Picnic"\. Remove anyway\? Those votes go; every ballot '
                r"keeps its other picks\.",
        fits=lambda view: [entry["text"] for entry in view["tally"]] == (
            poll_edit(int(view["question"][4:]))["options"]
            if view["question"].startswith("Fix ") else ["Thai", "Pub", "Picnic"]),
        prepare=poll_options),
    "roles": Race(
        # Roles are dealt at random: a list without the role one holds asks first.
        create={"title": "Game night", "roles": roles_edit(0)["roles"]},
        edit=roles_edit, shows=lambda view: view["title"],
        take=lambda c, i: ("claim", {"slug": c["slug"], "name": f"P{i}"}, "a player"),
        taken=lambda view: ["a player"] * view["dealt"],
        refused=r"This takes away the role 1 player who joined already holds: they'll be "
                r"dealt a new one from the roles left\. Go ahead\?",
        fits=lambda view: view["total"] == TAKERS + 2 and view["dealt"] <= view["total"]),
}


@pytest.fixture(scope="module", params=server_backends())
def race_server(request: pytest.FixtureRequest, live_server: Callable[..., Any]) -> Any:
    """One 2-worker server with every tool, per backend, shared by every row."""
    return live_server(workers=2, database=request.param, limits={"post_per_hour": 100_000})


async def read(client: httpx.AsyncClient, tool: str, race: Race, made: Context) -> View:
    slug = made["slug"]
    view = dict((await client.get(f"/api/{tool}/{slug}")).raise_for_status().json())
    if race.read:
        view.update((await client.get(f"/api/{tool}/{slug}{race.read}")).raise_for_status()
                    .json())
    if race.export:
        view.update((await client.post(f"/api/{tool}/{made['editToken']}/export"))
                    .raise_for_status().json()["data"])
    return view


@pytest.mark.parametrize("tool", sorted(RACES))
async def test_an_edit_and_the_group_together_lose_nothing(race_server: Any,
                                                           tool: str) -> None:
    race = RACES[tool]
    takers = TAKERS if race.take else 0
    limits = httpx.Limits(max_connections=takers + EDITS, max_keepalive_connections=0)
    async with race_server.async_client(limits=limits) as client:
        created = await client.post(f"/api/{tool}", json=race.create)
        assert created.status_code == 201, created.text
        made: Context = created.json()
        context = await race.prepare(client, made) if race.prepare else made
        before = race.shows(await read(client, tool, race, made))
        start = asyncio.Event()

        async def take(i: int) -> tuple[str, httpx.Response]:
            assert race.take is not None
            path, body, who = race.take(context, i)
            await start.wait()
            return who, await client.post(f"/api/{tool}/{path}", json=body)

        async def edit(i: int) -> httpx.Response:
            await start.wait()
            return await client.post(f"/api/{tool}/{made['editToken']}/edit",
                                     json=race.edit(i))

        # The edits queue up among the participation, not after it.
        takes = [asyncio.create_task(take(i)) for i in range(takers // 2)]
        edits = [asyncio.create_task(edit(i)) for i in range(EDITS)]
        takes += [asyncio.create_task(take(i)) for i in range(takers // 2, takers)]
        await asyncio.sleep(0)  # every task is waiting on the start line
        start.set()
        taken = await asyncio.gather(*takes)
        edited = await asyncio.gather(*edits)
        view = await read(client, tool, race, made)

    # Nothing lost, nothing invented: exactly the acknowledged participation is there.
    for _, response in taken:
        if response.status_code == 404:  # what it aimed at went with an edit
            assert re.fullmatch(race.gone, response.json()["error"]), response.text
        else:
            assert response.status_code in (200, 201, 400, 409), response.text
    acknowledged = sorted(who for who, response in taken if response.is_success)
    assert sorted(race.taken(view)) == acknowledged
    assert race.fits(view), view
    # Each edit applied whole, or refused with the tool's own 409.
    for response in edited:
        assert response.status_code in (200, 409), response.text
        if response.status_code == 409:
            assert re.fullmatch(race.refused, response.json()["error"]), response.text
    applied = {fix(i) for i, response in enumerate(edited) if response.status_code == 200}
    assert race.shows(view) in (applied or {before})
