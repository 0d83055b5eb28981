"""Group Vote: create, the views, voting, changing a ballot and the organiser's powers."""

from __future__ import annotations

import datetime as dt
from typing import Any

from groupkit import N_
from groupkit import AfterCommit
from groupkit import Call
from groupkit import Credential
from groupkit import Instance
from groupkit import Operations
from groupkit import bad_request
from groupkit import conflict
from groupkit import gettext
from groupkit import issue_token
from groupkit import request_time
from groupkit import utc_iso
from groupkit.entries import token_schema

from . import ballots
from .ballots import CLOSED
from .ballots import CLOSED_OPTIONS
from .ballots import EMPTY_BALLOT
from .ballots import FULL
from .ballots import MAX_BALLOTS
from .ballots import OPTIONS_FULL
from .ballots import TOO_MANY_PICKS
from .ballots import add_option
from .ballots import build
from .ballots import drop_options
from .ballots import ensure_open
from .ballots import options_of
from .ballots import recount
from .models import PollBallot
from .models import PollOption
from .results import BATCH
from .results import ORGANISER
from .results import PUBLIC
from .results import VOTER
from .results import count_change
from .results import organiser_edit
from .results import published
from .results import results
from .results import snapshot
from .schema import MULTI
from .schema import RANKED
from .schema import AddOptionBody
from .schema import ChangeBody
from .schema import RemoveOptionBody
from .schema import VoteBody
from .schema import option_text

ops = Operations()

BALLOT = "ballot"
NO_OPTION_TEXT = N_("Type the option you want to add.")
DUPLICATE_OPTION = N_("That option's already on the list.")
UNKNOWN_OPTION = N_("That option isn't on this poll.")
LAST_OPTIONS = N_("A poll needs at least two options — add another before removing this one.")


#: Optional additions kept in the instance data only when chosen, so a poll created without
#: them stores and shows exactly what it did before they existed.
EXTRAS = ("resultsAfterVote", "resultsAtClose")


def create(instance: Instance, data: dict[str, Any]) -> None:
    stored: dict[str, Any] = {
        "mode": data["mode"], "maxPicks": data["maxPicks"],
        "allowSuggestions": data["allowSuggestions"], "secret": data["secret"],
        "closed": False, "ballots": 0}
    if data.get("closesAt"):
        stored["closesAt"] = data["closesAt"].isoformat()
    stored.update({key: True for key in EXTRAS if data.get(key)})
    instance.data = stored
    taken: list[str] = []
    options = []
    for position, text in enumerate(data["options"]):
        option_id = ballots.new_option_id(taken)
        taken.append(option_id)
        options.append(PollOption.create(instance=instance, option_id=option_id, text=text,
                                         position=position))
    if data["secret"]:
        instance.data = {**stored, "shown": snapshot(instance, options), "pending": 0}


def _utc(value: str) -> str:
    return value.replace("+00:00", "Z")


def _summary(instance: Instance, options: list[PollOption], reader: str,
             now: dt.datetime | None = None) -> dict[str, Any]:
    """The spec's fields in their usual order, then the optional additions in use."""
    data = instance.data
    shown = results(instance, options, now or request_time(), reader)
    view = {"question": instance.title, "mode": data["mode"], "maxPicks": data["maxPicks"],
            "allowSuggestions": data["allowSuggestions"], "secret": data["secret"],
            "closed": shown.pop("closed"), "ballots": data["ballots"],
            "voteLimit": MAX_BALLOTS, "tally": shown.pop("tally")}
    if data.get("closesAt"):
        view["closesAt"] = _utc(data["closesAt"])
    view.update({key: True for key in EXTRAS if data.get(key)})
    view.update(shown)
    return view


def _result_fields(view: dict[str, Any]) -> dict[str, Any]:
    """What a reply adds after a change: the tally as its caller may see it, and a ranked
    poll's rounds."""
    return {key: view[key] for key in ("tally", "rounds", "winner", "tied") if key in view}


def _reply(instance: Instance, options: list[PollOption], reader: str, now: dt.datetime,
           head: dict[str, Any]) -> dict[str, Any] | AfterCommit:
    """A change's reply: `head`, then the results as `reader` may see them. A ranked poll's
    runoff is derived from every ballot, so it is counted after the commit, from the
    committed state, never under the write lock; the other modes' tallies are on the option
    rows the write already holds."""
    if instance.data["mode"] != RANKED:
        return {**head, **_result_fields(_summary(instance, options, reader, now))}
    instance_id = instance.id

    def after() -> dict[str, Any]:
        fresh = Instance.get_by_id(instance_id)
        return {**head, **_result_fields(_summary(fresh, options_of(fresh), reader, now))}
    return AfterCommit(after)


def public_view(instance: Instance) -> dict[str, Any]:
    """The question, the rules and the counts as the public may see them: never a voter's
    name or ballot."""
    return _summary(instance, options_of(instance), PUBLIC)


def _ballot_rows(instance: Instance, options: list[PollOption]) -> list[dict[str, Any]]:
    texts = {option.option_id: option.text for option in options}
    rows = (PollBallot.select().where(PollBallot.instance == instance)
            .order_by(PollBallot.id))
    return [{"voterName": row.voter_name or "", "choices": row.choices,
             "choiceTexts": [texts[c] for c in row.choices if c in texts],
             "created": utc_iso(row.created), "changed": utc_iso(row.changed)} for row in rows]


def organiser_view(instance: Instance) -> dict[str, Any]:
    """The public view plus who voted for what; a secret ballot has no ballots to list."""
    options = options_of(instance)
    view = _summary(instance, options, ORGANISER)
    shown = {entry["id"] for entry in view["tally"]}
    view["suggested"] = [option.option_id for option in options
                         if option.suggested and option.option_id in shown]
    view["ballotList"] = [] if instance.data["secret"] else _ballot_rows(instance, options)
    return view


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """A voter's own page: the poll, their current choices and (open ballot) their name."""
    ballot = PollBallot.get_or_none(PollBallot.id == int(credential.ref))
    view = _summary(instance, options_of(instance), VOTER)
    view["mine"] = ballot.choices if ballot else []
    view["voterName"] = (ballot.voter_name or "") if ballot else ""
    return view


#: A link preview's words, said in the language of the page that shows it.
PREVIEW = N_("A quick vote: {count} options to choose from.")


def preview(instance: Instance) -> dict[str, Any]:
    count = PollOption.select().where(PollOption.instance == instance).count()
    return {"title": instance.title, "description": gettext(PREVIEW).format(count=count)}


# --- documentation ------------------------------------------------------------------------

TALLY_SCHEMA: dict[str, Any] = {"type": "array", "items": {"type": "object", "properties": {
    "id": {"type": "string", "minLength": 6, "maxLength": 6},
    "text": {"type": "string"},
    "count": {"type": ["integer", "null"],
              "description": "null where the poll hides its counts from this reader; on a "
                             "ranked poll, the first choices"}}}}

ROUNDS_SCHEMA: dict[str, Any] = {
    "type": "array", "description": "ranked polls: the instant-runoff rounds in order",
    "items": {"type": "object", "properties": {
        "counts": {"type": "object", "additionalProperties": {"type": "integer"},
                   "description": "option id -> ballots counted for it this round"},
        "exhausted": {"type": "integer",
                      "description": "ballots with no option left in the running"},
        "eliminated": {"type": "array", "items": {"type": "string"},
                       "description": "options tied on the fewest votes, out after this "
                                      "round"}}}}

RANKED_FIELDS: dict[str, Any] = {
    "rounds": ROUNDS_SCHEMA,
    "winner": {"type": ["string", "null"],
               "description": "ranked polls: the option with more than half of the ballots "
                              "still counting in the last round; null with no ballots, a "
                              "tie, or counts hidden"},
    "tied": {"type": "array", "items": {"type": "string"},
             "description": "ranked polls: the options left all tied when there is no "
                            "single winner"}}

PUBLIC_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "question": {"type": "string"},
    "mode": {"type": "string", "enum": ["single", MULTI]},
    "maxPicks": {"type": ["integer", "null"]},
    "allowSuggestions": {"type": "boolean"}, "secret": {"type": "boolean"},
    "closed": {"type": "boolean"},
    "ballots": {"type": "integer", "description": "ballots cast so far"},
    "voteLimit": {"type": "integer", "enum": [MAX_BALLOTS]},
    "tally": TALLY_SCHEMA,
    "closesAt": {"type": "string", "format": "date-time",
                 "description": "present when the poll has a closing time (UTC); `closed` "
                                "turns true at that moment"},
    "resultsAfterVote": {"type": "boolean", "const": True,
                         "description": "present when chosen at creation"},
    "resultsAtClose": {"type": "boolean", "const": True,
                       "description": "present when chosen at creation"},
    "tallyHidden": {"type": "boolean",
                    "description": "present when the poll hides counts: whether this reader "
                                   "sees them now"},
    "tallyBallots": {"type": ["integer", "null"],
                     "description": "secret ballots: how many ballots the published tally "
                                    "counts (it moves in batches; see tallyBatch)"},
    "tallyBatch": {"type": "integer", "enum": [BATCH],
                   "description": "secret ballots: the published tally moves only once this "
                                  "many ballots have been cast or changed since it last "
                                  "moved, so no single ballot shows; closing shows all"},
    **RANKED_FIELDS}}

VOTE_REPLY: dict[str, Any] = {"type": "object", "properties": {
    "token": token_schema("the ballot token: changes this ballot at /api/poll/v/{token} "
                          "and opens the voter's page /p/{token}"),
    "choices": {"type": "array", "items": {"type": "string"},
                "description": "the option ids recorded"},
    "addedOptionId": {"type": ["string", "null"],
                      "description": "id of the option a fresh suggestion added"},
    "tally": TALLY_SCHEMA, **RANKED_FIELDS}}

ORDER = ("Checked in this order: the ballot is built (unknown ids dropped, repeats ignored, "
         "suggestion matched ignoring case or kept as fresh, single choice keeps a fresh "
         "suggestion alone or else the first pick); empty ballot: "
         f"`{EMPTY_BALLOT}`; more than maxPicks (a fresh suggestion counts as one): "
         f"`{TOO_MANY_PICKS.format(n='N')}`")


# --- voting -------------------------------------------------------------------------------

@ops.public("vote", body=VoteBody, status=201, returns=VOTE_REPLY, errors={
    400: ORDER,
    409: f"Then: the poll is closed: `{CLOSED}`; 2000 ballots already cast: `{FULL}`; a fresh "
         f"suggestion when the poll already has 100 options: `{OPTIONS_FULL}`. A refused "
         "vote writes nothing (no ballot, no suggested option)."})
def vote(call: Call) -> dict[str, Any] | AfterCommit:
    """Cast a ballot; returns its token, the recorded choices and the tally.

    voterName (C(40)) is discarded, never stored, on a secret ballot. A suggestion (C(80)) counts
    only when the poll allows suggestions; a fresh one is appended as a new option. Options added by
    suggestions (and by the organiser) are capped at 100 in all.
    """
    instance, data = call.instance, dict(call.instance.data)
    options = options_of(instance)
    ballot = build(data, options, call.data["choices"], call.data["suggestion"])
    ensure_open(data, call.now)
    if data["ballots"] >= MAX_BALLOTS:
        raise conflict(FULL)
    before = published(data, options) if data["secret"] else None
    added_id: str | None = None
    choices = list(ballot.choices)
    if ballot.fresh:
        added_id = add_option(instance, options, ballot.fresh, suggested=True).option_id
        choices.append(added_id)
    name = None if data["secret"] else (call.data["voterName"] or None)
    row = PollBallot.create(instance=instance, voter_name=name, choices=choices,
                            created=call.now)
    recount(instance, options, removed=(), added=_counted(data, choices))
    data["ballots"] += 1
    instance.data = data
    if before is not None:
        count_change(instance, options, before)
    instance.save(only=[Instance.data])
    token = issue_token(instance, BALLOT, str(row.id))
    return _reply(instance, options, VOTER, call.now,
                  {"token": token, "choices": choices, "addedOptionId": added_id})


def _counted(data: dict[str, Any], choices: list[str]) -> list[str]:
    """The options a ballot adds one to: all its picks, or a ranked ballot's first choice."""
    return choices[:1] if data["mode"] == RANKED else choices


CHANGE_REPLY: dict[str, Any] = {"type": "object", "properties": {
    "ok": {"type": "boolean"}, "choices": VOTE_REPLY["properties"]["choices"],
    "tally": TALLY_SCHEMA, **RANKED_FIELDS}}


@ops.participant("v/{token}", token_kinds=[BALLOT], body=ChangeBody, returns=CHANGE_REPLY,
                 errors={400: "Same rules as a vote without a suggestion: empty ballot "
                              f"`{EMPTY_BALLOT}`; over maxPicks "
                              f"`{TOO_MANY_PICKS.format(n='N')}`",
                         409: f"The poll is closed: `{CLOSED}`"})
def change(call: Call) -> dict[str, Any] | AfterCommit:
    """Change a ballot by its token.

    Replaces the whole ballot. Does not count towards the 2000 votes; the voter's name is unchanged.
    """
    instance, data = call.instance, call.instance.data
    assert call.credential is not None
    options = options_of(instance)
    ballot = build(data, options, call.data["choices"])
    ensure_open(data, call.now)
    row = PollBallot.get(PollBallot.id == int(call.credential.ref))
    old, new = list(row.choices), ballot.choices
    before = published(data, options) if data["secret"] and old != new else None
    was, now = _counted(data, old), _counted(data, new)
    recount(instance, options, removed=[c for c in was if c not in now],
            added=[c for c in now if c not in was])
    row.choices, row.changed = new, call.now
    row.save()
    if before is not None:
        count_change(instance, options, before)
        instance.save(only=[Instance.data])
    return _reply(instance, options, VOTER, call.now, {"ok": True, "choices": new})


# --- organiser ----------------------------------------------------------------------------

STATE_REPLY: dict[str, Any] = {"type": "object", "properties": {
    "ok": {"type": "boolean"}, "closed": {"type": "boolean"}, "tally": TALLY_SCHEMA,
    **RANKED_FIELDS}}


@ops.organiser("close", returns=STATE_REPLY)
def close(call: Call) -> dict[str, Any] | AfterCommit:
    """Close the poll: no more votes or changes.

    Closing is final (the spec names no reopening); closing a closed poll again is a harmless 200.
    Votes and ballot changes are then refused with 409, and so is any change to the options
    (adding, removing, or editing them): the result stands as it closed.
    """
    data = dict(call.instance.data)
    data["closed"] = True
    call.instance.data = data
    call.instance.save(only=[Instance.data])
    return _reply(call.instance, options_of(call.instance), ORGANISER, call.now,
                  {"ok": True, "closed": True})


ADD_REPLY: dict[str, Any] = {"type": "object", "properties": {
    "ok": {"type": "boolean"},
    "option": {"type": "object", "properties": {"id": {"type": "string"},
                                                "text": {"type": "string"}}},
    "tally": TALLY_SCHEMA, **RANKED_FIELDS}}


@ops.organiser("addOption", body=AddOptionBody, returns=ADD_REPLY, errors={
    400: f"Empty after C(80): `{NO_OPTION_TEXT}`; equal to an option ignoring case: "
         f"`{DUPLICATE_OPTION}`",
    409: f"Checked after the 400s, in this order: the poll is closed (its result is final): "
         f"`{CLOSED_OPTIONS}`; the poll already has 100 options: `{OPTIONS_FULL}`"})
def add(call: Call) -> dict[str, Any] | AfterCommit:
    """Add an option.

    Body `{text}`; `{option: "..."}` or `{option: {text}}` is read when text is empty. The new
    option gets a fresh 6-character id and goes last, with no votes. Refused once the poll is
    closed: a new option would change the final result.
    """
    text = call.data["text"] or option_text(call.data.get("option"))
    if not text:
        raise bad_request(NO_OPTION_TEXT)
    options = options_of(call.instance)
    if any(option.text.casefold() == text.casefold() for option in options):
        raise bad_request(DUPLICATE_OPTION)
    ensure_open(call.instance.data, call.now, CLOSED_OPTIONS)
    option = add_option(call.instance, options, text, suggested=False)
    if call.instance.data["secret"]:
        call.instance.data = organiser_edit(
            call.instance.data, added={"id": option.option_id, "text": option.text})
        call.instance.save(only=[Instance.data])
    return _reply(call.instance, options, ORGANISER, call.now,
                  {"ok": True, "option": {"id": option.option_id, "text": option.text}})


@ops.organiser("removeOption", body=RemoveOptionBody, returns=STATE_REPLY, errors={
    400: f"No option with that id: `{UNKNOWN_OPTION}`",
    409: f"Checked after the 400, in this order: the poll is closed (its result is final): "
         f"`{CLOSED_OPTIONS}`; only two options are left: `{LAST_OPTIONS}`"})
def remove(call: Call) -> dict[str, Any] | AfterCommit:
    """Remove an option and its votes.

    Body `{optionId}` (`{option: "<id>"}` is read too). The option and its votes go; every ballot
    that picked it loses that pick and keeps the rest. A ballot left with no picks still counts
    towards the 2000 votes (it was cast) and its voter can pick again with their token. Refused
    once the poll is closed: its result is final.
    """
    instance = call.instance
    option_id = call.data["optionId"] or call.data["option"]
    options = options_of(instance)
    target = next((option for option in options if option.option_id == option_id), None)
    if target is None:
        raise bad_request(UNKNOWN_OPTION)
    ensure_open(instance.data, call.now, CLOSED_OPTIONS)
    if len(options) <= 2:
        raise conflict(LAST_OPTIONS)
    target.delete_instance()
    options.remove(target)
    drop_options(instance, options, [option_id], ranked=instance.data["mode"] == RANKED)
    if instance.data["secret"]:
        instance.data = organiser_edit(instance.data, removed=option_id)
        instance.save(only=[Instance.data])
    return _reply(instance, options, ORGANISER, call.now,
                  {"ok": True, "closed": ballots.is_closed(instance.data, call.now)})
