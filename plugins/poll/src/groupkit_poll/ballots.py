"""The ballot rules and the bookkeeping that keeps every count without recounting."""

from __future__ import annotations

import dataclasses
import datetime as dt
import secrets
from collections.abc import Iterable
from collections.abc import Sequence
from typing import Any
from typing import cast

import peewee as pw

from groupkit import N_
from groupkit import Instance
from groupkit import bad_request
from groupkit import conflict
from groupkit import mark_edited
from groupkit import message
from groupkit import prepared_rows
from groupkit import run_prepared

from .models import PollBallot
from .models import PollOption
from .schema import MULTI
from .schema import RANKED

EMPTY_BALLOT = N_("Pick an option before you vote.")
TOO_MANY_PICKS = N_("This vote lets each person pick up to {n} — untick one first.")
CLOSED = N_("This poll has closed — the organiser has stopped the voting.")
#: A closed poll's result is final: its options no longer change (edit, add or remove).
CLOSED_OPTIONS = N_("This poll has closed — its options can't change now.")
FULL = N_("This poll is chockers — 2000 votes is the limit.")
OPTIONS_FULL = N_("This poll has 100 options already — pick from those.")

MAX_BALLOTS = 2000
MAX_TOTAL_OPTIONS = 100

#: Option ids: six characters from the credential alphabet (no look-alikes).
ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
ID_LENGTH = 6


def new_option_id(taken: Iterable[str]) -> str:
    used = set(taken)
    while True:
        candidate = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
        if candidate not in used:
            return candidate


def options_of(instance: Instance) -> list[PollOption]:
    instance_id = instance.id
    return prepared_rows(PollOption, "poll.options", lambda: (
        PollOption.select().where(PollOption.instance == instance_id)
        .order_by(PollOption.position)), (instance_id,))


def tally(options: Sequence[PollOption]) -> list[dict[str, Any]]:
    return [{"id": option.option_id, "text": option.text, "count": option.votes}
            for option in options]


@dataclasses.dataclass
class Ballot:
    """What a vote will record: known option ids in order, plus a fresh suggestion that is
    not yet an option (nothing is written until every rule has passed)."""

    choices: list[str]
    fresh: str | None = None

    @property
    def size(self) -> int:
        return len(self.choices) + (1 if self.fresh else 0)


def build(data: dict[str, Any], options: Sequence[PollOption], choices: list[Any],
          suggestion: str = "") -> Ballot:
    """Apply the spec's vote rules in order; raise the first refusal.

    Unknown ids are dropped and repeats ignored. A suggestion (only where suggestions are
    allowed) equal to an option ignoring case counts as that option, appended to the picks;
    otherwise it is fresh. Single choice: a fresh suggestion is the whole ballot, else only
    the first pick is kept. Then an empty ballot, then a ballot over maxPicks, is refused."""
    known = {option.option_id for option in options}
    picked: list[str] = []
    for choice in choices:
        if isinstance(choice, str) and choice in known and choice not in picked:
            picked.append(choice)
    fresh: str | None = None
    if suggestion and data["allowSuggestions"]:
        match = next((option for option in options
                      if option.text.casefold() == suggestion.casefold()), None)
        if match is None:
            fresh = suggestion
        elif match.option_id not in picked:
            picked.append(match.option_id)
    if data["mode"] not in (MULTI, RANKED):
        picked = [] if fresh else picked[:1]
    ballot = Ballot(picked, fresh)
    if ballot.size == 0:
        raise bad_request(EMPTY_BALLOT)
    cap = data.get("maxPicks")
    if cap and ballot.size > cap:
        raise bad_request(message(TOO_MANY_PICKS, n=cap))
    return ballot


def closes_at(data: dict[str, Any]) -> dt.datetime | None:
    value = data.get("closesAt")
    return dt.datetime.fromisoformat(value) if value else None


def is_closed(data: dict[str, Any], now: dt.datetime) -> bool:
    """Closed by the organiser, or its closing time has come: computed from the clock on
    every read and vote, so nothing has to run at the closing time."""
    moment = closes_at(data)
    if now.tzinfo is None:
        now = now.replace(tzinfo=dt.UTC)
    return bool(data.get("closed")) or (moment is not None and now >= moment)


def ensure_open(data: dict[str, Any], now: dt.datetime, message: str = CLOSED) -> None:
    if is_closed(data, now):
        raise conflict(message)


def add_option(instance: Instance, options: list[PollOption], text: str,
               suggested: bool) -> PollOption:
    """Append an option (the caller has checked it is new); refused past 100 options."""
    if len(options) >= MAX_TOTAL_OPTIONS:
        raise conflict(OPTIONS_FULL)
    option = PollOption.create(
        instance=instance, option_id=new_option_id(o.option_id for o in options), text=text,
        position=max((o.position for o in options), default=-1) + 1, suggested=suggested)
    options.append(option)
    mark_edited(instance, "options")  # a suggestion is a change to the edit's options
    return option


def _move_votes(instance_id: int, ids: list[str], step: int) -> None:
    run_prepared(("poll.recount", step, len(ids)), lambda: (
        PollOption.update(votes=PollOption.votes + step)
        .where((PollOption.instance == instance_id) & PollOption.option_id.in_(ids))),
        (step, instance_id, *ids))


def recount(instance: Instance, options: list[PollOption], removed: Sequence[str],
            added: Sequence[str]) -> None:
    """Move one vote off each `removed` option and onto each `added` one: one UPDATE per
    direction on the counts, mirrored on the loaded rows so the reply needs no re-read."""
    for ids, step in ((removed, -1), (added, 1)):
        if ids:
            _move_votes(instance.id, list(ids), step)
    for option in options:
        option.votes += (option.option_id in added) - (option.option_id in removed)


def holding(instance: Instance, option_id: str) -> Any:
    """Where a ballot of `instance` picks `option_id`, found in its stored JSON text (ids
    are `ID_LENGTH` characters of `ID_ALPHABET`, so a quoted id matches only itself)."""
    pattern = pw.Value(f'%"{option_id}"%', converter=False)  # the text, not JSON of it
    return (PollBallot.instance == instance.id) & (PollBallot.choices ** pattern)


def drop_options(instance: Instance, kept: Sequence[PollOption], gone: Sequence[str],
                 ranked: bool) -> None:
    """Every ballot loses its picks of `gone` and keeps the rest, rewritten by the database
    (one UPDATE per option, the quoted id cut out of the stored JSON text): read and saved
    one by one, 2,000 ranked ballots held the write lock for some 60 ms. A ranked poll's
    counts (first choices) are then recounted by the database too."""
    for option_id in gone:
        quoted = f'"{option_id}"'
        text: Any = PollBallot.choices
        for cut in (f"{quoted},", f",{quoted}", quoted):  # first or middle, last, alone
            text = pw.fn.replace(text, cut, "").coerce(False)
        PollBallot.update(choices=text).where(holding(instance, option_id)).execute()
    if ranked:
        recount_first_choices(instance, kept)


def recount_first_choices(instance: Instance, options: Sequence[PollOption]) -> None:
    """A ranked ballot whose first choice was removed now counts for its next one: the
    database groups the ballots by the first id of their stored text, `["<id>"`."""
    # Literal bounds: a parameter in both SELECT and GROUP BY would be two different
    # expressions to PostgreSQL.
    head = pw.fn.substr(PollBallot.choices, pw.SQL("1"), pw.SQL(str(ID_LENGTH + 3))
                        ).coerce(False)
    rows = (PollBallot.select(head, pw.fn.COUNT(PollBallot.id))
            .where(PollBallot.instance == instance.id).group_by(head).tuples())
    grouped = cast("Iterable[tuple[str, int]]", rows)  # `.tuples()` rows: (head, count)
    firsts = {text[2:-1]: n for text, n in grouped if text.startswith('["')}
    for option in options:
        if option.votes != firsts.get(option.option_id, 0):
            option.votes = firsts.get(option.option_id, 0)
            option.save(only=[PollOption.votes])
