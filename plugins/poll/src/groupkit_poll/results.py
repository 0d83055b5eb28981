"""What each reader may see of a poll's results, and the ranked-choice count.

Three optional rules decide it, on top of the plain live tally:
- a closing time (`closesAt`): the poll is closed from that moment, computed from the clock
  on every read and vote, so nothing has to run at the closing time;
- `resultsAfterVote`: the public read and page show no counts until the poll closes; a
  voter's own page (and the reply to their vote) shows them; the organiser still sees them;
- `resultsAtClose`: nobody sees counts until the poll closes (on a secret ballot not even the
  organiser; on an open ballot the organiser already sees every ballot, so they keep the tally).

A secret ballot publishes its tally in batches (`BATCH`): the tally everyone reads, the
organiser included, is a copy taken when at least BATCH ballots have been cast or changed
since the last copy, so a watcher comparing reads over time sees BATCH ballots move at once,
never one. Suggested options join that copy at the next release too (a new option appearing
the moment someone voted would tell what they voted for). Closing shows the live tally.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import cast

import peewee as pw

from groupkit import Instance

from .ballots import is_closed
from .ballots import tally
from .models import PollBallot
from .models import PollOption
from .schema import RANKED

#: A secret ballot's tally moves only after this many new or changed ballots.
BATCH = 5

PUBLIC, VOTER, ORGANISER = "public", "voter", "organiser"


# --- ranked choice ------------------------------------------------------------------------

def rankings(instance: Instance) -> list[tuple[list[str], int]]:
    """Each distinct ranking with how many ballots hold it: the database groups the ballots,
    so the count works on each distinct ranking once, however many ballots hold it."""
    rows = (PollBallot.select(PollBallot.choices, pw.fn.COUNT(PollBallot.id).alias("n"))
            .where(PollBallot.instance == instance).group_by(PollBallot.choices).tuples())
    grouped = cast("Iterable[tuple[Any, int]]", rows)  # `.tuples()` rows: (choices, count)
    return [(list(choices), n) for choices, n in grouped]


def instant_runoff(option_ids: Sequence[str],
                   ballots: Iterable[tuple[Sequence[str], int]]) -> dict[str, Any]:
    """Instant-runoff: each round counts every ballot for its highest-ranked option still in
    the running; an option with more than half of those ballots wins; otherwise every option
    tied on the fewest votes is eliminated together. When all the options left are tied,
    there is no single winner and `tied` names them. Ballots with no option left are
    `exhausted`.

    Each distinct ranking (they come grouped, with how many ballots hold it) keeps the
    place of its current top choice, and only the rankings whose top was just eliminated
    move on: the whole count reads each ranking once, plus one pass over the options a
    round, however many rounds there are (a vote's reply computes it at 2,000 ballots)."""
    running = list(option_ids)
    alive = set(running)
    held = [(ranking, n) for ranking, n in ballots if n]
    counts = dict.fromkeys(running, 0)
    holders: dict[str, list[int]] = {option_id: [] for option_id in running}
    place = [0] * len(held)
    exhausted = 0

    def move_on(index: int, start: int) -> None:
        """Point ranking `index` at its first option still running from `start` on."""
        nonlocal exhausted
        ranking, n = held[index]
        end = len(ranking)
        while start < end and ranking[start] not in alive:
            start += 1
        place[index] = start
        if start == end:
            exhausted += n
        else:
            counts[ranking[start]] += n
            holders[ranking[start]].append(index)

    for index in range(len(held)):
        move_on(index, 0)
    rounds: list[dict[str, Any]] = []
    winner: str | None = None
    tied: list[str] = []
    while running and held:
        active = sum(counts.values())
        entry: dict[str, Any] = {"counts": {o: counts[o] for o in running},
                                 "exhausted": exhausted, "eliminated": []}
        rounds.append(entry)
        leader = max(running, key=lambda o: counts[o])
        if active and (counts[leader] * 2 > active or len(running) == 1):
            winner = leader
            break
        fewest = min(counts[o] for o in running)
        out = [o for o in running if counts[o] == fewest]
        if len(out) == len(running):
            tied = list(running)
            break
        entry["eliminated"] = out
        alive.difference_update(out)
        running = [o for o in running if o in alive]
        for option_id in out:
            counts.pop(option_id, None)
            for index in holders.pop(option_id, ()):
                move_on(index, place[index] + 1)
    return {"rounds": rounds, "winner": winner, "tied": tied}


def ranked_result(instance: Instance, options: Sequence[PollOption]) -> dict[str, Any]:
    return instant_runoff([option.option_id for option in options], rankings(instance))


# --- the secret ballot's published copy ---------------------------------------------------

def snapshot(instance: Instance, options: Sequence[PollOption]) -> dict[str, Any]:
    shown: dict[str, Any] = {"tally": tally(options), "ballots": instance.data["ballots"]}
    if instance.data["mode"] == RANKED:
        shown.update(ranked_result(instance, options))
    return shown


def published(data: dict[str, Any], options: Sequence[PollOption]) -> dict[str, Any]:
    """The copy a secret ballot shows; a poll stored before batching shows its live tally
    until its next ballot takes the first copy."""
    shown: dict[str, Any] | None = data.get("shown")
    if shown is None:
        return {"tally": tally(options), "ballots": data["ballots"]}
    return shown


def count_change(instance: Instance, options: Sequence[PollOption],
                 before: dict[str, Any]) -> None:
    """A ballot was cast or changed on a secret ballot: release a fresh copy once BATCH of
    them have landed since the last one. `before` is the copy in force before this ballot
    (taken from the live state when the poll has none yet). Mutates `instance.data`; the
    caller saves it. The release counts a ranked poll's runoff inside the write, since the
    copy must hold exactly the ballots of its batch: with the cheap runoff that is about
    15 ms of the write lock at 2,000 ballots, once every BATCH ballots."""
    data = dict(instance.data)
    data.setdefault("shown", before)
    data["pending"] = int(data.get("pending", 0)) + 1
    if data["pending"] >= BATCH:
        data["shown"], data["pending"] = snapshot(instance, options), 0
    instance.data = data


def organiser_edit(data: dict[str, Any], added: dict[str, Any] | None = None,
                   removed: str | None = None, renamed: Mapping[str, str] | None = None,
                   order: Sequence[str] | None = None) -> dict[str, Any]:
    """The organiser added, removed, renamed or reordered options of a secret ballot: the
    published copy shows it (added with no votes) or drops it straight away; the
    organiser's edits are not ballots. A ranked copy's rounds are dropped on removal until
    the next release."""
    shown = data.get("shown")
    if shown is None:
        return data
    shown = dict(shown)
    if added is not None:
        shown["tally"] = [*shown["tally"], {**added, "count": 0}]
    if removed is not None:
        shown["tally"] = [entry for entry in shown["tally"] if entry["id"] != removed]
        if "rounds" in shown:
            shown.update(rounds=[], winner=None, tied=[])
    if renamed:
        shown["tally"] = [{**entry, "text": renamed.get(entry["id"], entry["text"])}
                          for entry in shown["tally"]]
    if order is not None:
        place = {option_id: index for index, option_id in enumerate(order)}
        shown["tally"] = sorted(shown["tally"], key=lambda entry: place.get(entry["id"], 0))
    return {**data, "shown": shown}


# --- what a reader sees -------------------------------------------------------------------

def hidden_for(data: dict[str, Any], closed: bool, reader: str) -> bool:
    if closed:
        return False
    if data.get("resultsAtClose") and (reader != ORGANISER or data["secret"]):
        return True
    return bool(data.get("resultsAfterVote")) and reader == PUBLIC


def results(instance: Instance, options: Sequence[PollOption], now: dt.datetime,
            reader: str, runoff: bool = True) -> dict[str, Any]:
    """The result fields of a view for `reader`: `closed`, `tally`, and where the poll uses
    them `tallyHidden`, `tallyBallots` (ballots in a secret ballot's published tally),
    `rounds`, `winner` and `tied` (ranked choice). Hidden counts read as null. The live
    runoff is counted only when it is shown; `runoff=False` leaves the ranked fields out
    (the edit, inside a write, needs the tally's options only)."""
    data = instance.data
    closed = is_closed(data, now)
    live = closed or (not data["secret"])
    ranked = runoff and data["mode"] == RANKED
    if live:
        shown: dict[str, Any] = {"tally": tally(options), "ballots": data["ballots"]}
        if ranked and not hidden_for(data, closed, reader):
            shown.update(ranked_result(instance, options))
    else:
        shown = published(data, options)
        if ranked and "rounds" not in shown:
            shown = {**shown, "rounds": [], "winner": None, "tied": []}
    view: dict[str, Any] = {"closed": closed, "tally": shown["tally"]}
    if data["secret"]:
        view["tallyBallots"] = shown["ballots"]
        view["tallyBatch"] = BATCH
    hiding = bool(data.get("resultsAfterVote") or data.get("resultsAtClose"))
    hidden = hidden_for(data, closed, reader)
    if hiding:
        view["tallyHidden"] = hidden
    if hidden:
        view["tally"] = [{**entry, "count": None} for entry in shown["tally"]]
        if data["secret"]:
            view["tallyBallots"] = None
    if ranked:
        view.update({"rounds": [], "winner": None, "tied": []} if hidden else
                    {key: shown[key] for key in ("rounds", "winner", "tied")})
    return view
