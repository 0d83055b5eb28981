"""Group Vote: create, the views, voting, changing a ballot and the organiser's powers."""

from __future__ import annotations

import datetime as dt
from typing import Any

from groupkit import (
    PARTICIPANT_TOKEN_LENGTH,
    Call,
    Credential,
    Instance,
    Operations,
    bad_request,
    conflict,
    issue_token,
)

from . import ballots
from .ballots import (
    CLOSED,
    EMPTY_BALLOT,
    FULL,
    MAX_BALLOTS,
    OPTIONS_FULL,
    TOO_MANY_PICKS,
    add_option,
    build,
    ensure_open,
    options_of,
    recount,
    tally,
)
from .models import PollBallot, PollOption
from .schema import (
    MULTI,
    AddOptionBody,
    ChangeBody,
    RemoveOptionBody,
    VoteBody,
    option_text,
)

ops = Operations()

BALLOT = "ballot"
NO_OPTION_TEXT = "Type the option you want to add."
DUPLICATE_OPTION = "That option's already on the list."
UNKNOWN_OPTION = "That option isn't on this poll."
LAST_OPTIONS = "A poll needs at least two options — add another before removing this one."


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"mode": data["mode"], "maxPicks": data["maxPicks"],
                     "allowSuggestions": data["allowSuggestions"], "secret": data["secret"],
                     "closed": False, "ballots": 0}
    taken: list[str] = []
    for position, text in enumerate(data["options"]):
        option_id = ballots.new_option_id(taken)
        taken.append(option_id)
        PollOption.create(instance=instance, option_id=option_id, text=text,
                          position=position)


def _naive(moment: dt.datetime) -> dt.datetime:
    """Stored times are naive UTC, like the kernel's."""
    return moment.astimezone(dt.UTC).replace(tzinfo=None) if moment.tzinfo else moment


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.replace(tzinfo=dt.UTC).isoformat()


def _summary(instance: Instance, options: list[PollOption]) -> dict[str, Any]:
    data = instance.data
    return {"question": instance.title, "mode": data["mode"], "maxPicks": data["maxPicks"],
            "allowSuggestions": data["allowSuggestions"], "secret": data["secret"],
            "closed": data["closed"], "ballots": data["ballots"], "voteLimit": MAX_BALLOTS,
            "tally": tally(options)}


def public_view(instance: Instance) -> dict[str, Any]:
    """The question, the rules and the counts: never a voter's name or ballot."""
    return _summary(instance, options_of(instance))


def _ballot_rows(instance: Instance, options: list[PollOption]) -> list[dict[str, Any]]:
    texts = {option.option_id: option.text for option in options}
    rows = (PollBallot.select().where(PollBallot.instance == instance)
            .order_by(PollBallot.id))
    return [{"voterName": row.voter_name or "", "choices": row.choices,
             "choiceTexts": [texts[c] for c in row.choices if c in texts],
             "created": _iso(row.created), "changed": _iso(row.changed)} for row in rows]


def organiser_view(instance: Instance) -> dict[str, Any]:
    """The public view plus who voted for what; a secret ballot has no ballots to list."""
    options = options_of(instance)
    view = _summary(instance, options)
    view["suggested"] = [option.option_id for option in options if option.suggested]
    view["ballotList"] = [] if instance.data["secret"] else _ballot_rows(instance, options)
    return view


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """A voter's own page: the poll, their current choices and (open ballot) their name."""
    ballot = PollBallot.get_or_none(PollBallot.id == int(credential.ref))
    view = public_view(instance)
    view["mine"] = ballot.choices if ballot else []
    view["voterName"] = (ballot.voter_name or "") if ballot else ""
    return view


def preview(instance: Instance) -> dict[str, Any]:
    count = PollOption.select().where(PollOption.instance == instance).count()
    return {"title": instance.title,
            "description": f"A quick vote: {count} options to choose from."}


# --- documentation ------------------------------------------------------------------------

TALLY_SCHEMA: dict[str, Any] = {"type": "array", "items": {"type": "object", "properties": {
    "id": {"type": "string", "minLength": 6, "maxLength": 6},
    "text": {"type": "string"}, "count": {"type": "integer"}}}}

PUBLIC_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "question": {"type": "string"},
    "mode": {"type": "string", "enum": ["single", MULTI]},
    "maxPicks": {"type": ["integer", "null"]},
    "allowSuggestions": {"type": "boolean"}, "secret": {"type": "boolean"},
    "closed": {"type": "boolean"},
    "ballots": {"type": "integer", "description": "ballots cast so far"},
    "voteLimit": {"type": "integer", "const": MAX_BALLOTS},
    "tally": TALLY_SCHEMA}}

VOTE_REPLY: dict[str, Any] = {"type": "object", "properties": {
    "token": {"type": "string", "minLength": PARTICIPANT_TOKEN_LENGTH,
              "maxLength": PARTICIPANT_TOKEN_LENGTH,
              "description": "the ballot token: changes this ballot at /api/poll/v/{token} "
                             "and opens the voter's page /p/{token}"},
    "choices": {"type": "array", "items": {"type": "string"},
                "description": "the option ids recorded"},
    "addedOptionId": {"type": ["string", "null"],
                      "description": "id of the option a fresh suggestion added"},
    "tally": TALLY_SCHEMA}}

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
         "vote writes nothing (no ballot, no suggested option)."},
    description="voterName (C(40)) is discarded, never stored, on a secret ballot. A "
                "suggestion (C(80)) counts only when the poll allows suggestions; a fresh one "
                "is appended as a new option. Options added by suggestions (and by the "
                "organiser) are capped at 100 in all.")
def vote(call: Call) -> dict[str, Any]:
    """Cast a ballot; returns its token, the recorded choices and the tally."""
    instance, data = call.instance, dict(call.instance.data)
    options = options_of(instance)
    ballot = build(data, options, call.data["choices"], call.data["suggestion"])
    ensure_open(data)
    if data["ballots"] >= MAX_BALLOTS:
        raise conflict(FULL)
    added_id: str | None = None
    choices = list(ballot.choices)
    if ballot.fresh:
        added_id = add_option(instance, options, ballot.fresh, suggested=True).option_id
        choices.append(added_id)
    name = None if data["secret"] else (call.data["voterName"] or None)
    row = PollBallot.create(instance=instance, voter_name=name, choices=choices,
                            created=_naive(call.now))
    recount(instance, options, removed=(), added=choices)
    data["ballots"] += 1
    instance.data = data
    instance.save(only=[Instance.data])
    token = issue_token(instance, BALLOT, str(row.id))
    return {"token": token, "choices": choices, "addedOptionId": added_id,
            "tally": tally(options)}


CHANGE_REPLY: dict[str, Any] = {"type": "object", "properties": {
    "ok": {"type": "boolean"}, "choices": VOTE_REPLY["properties"]["choices"],
    "tally": TALLY_SCHEMA}}


@ops.participant("v/{token}", token_kinds=[BALLOT], body=ChangeBody, returns=CHANGE_REPLY,
                 errors={400: "Same rules as a vote without a suggestion: empty ballot "
                              f"`{EMPTY_BALLOT}`; over maxPicks "
                              f"`{TOO_MANY_PICKS.format(n='N')}`",
                         409: f"The poll is closed: `{CLOSED}`"},
                 description="Replaces the whole ballot. Does not count towards the 2000 "
                             "votes; the voter's name is unchanged.")
def change(call: Call) -> dict[str, Any]:
    """Change a ballot by its token."""
    instance, data = call.instance, call.instance.data
    assert call.credential is not None
    options = options_of(instance)
    ballot = build(data, options, call.data["choices"])
    ensure_open(data)
    row = PollBallot.get(PollBallot.id == int(call.credential.ref))
    old, new = list(row.choices), ballot.choices
    recount(instance, options, removed=[c for c in old if c not in new],
            added=[c for c in new if c not in old])
    row.choices, row.changed = new, _naive(call.now)
    row.save()
    return {"ok": True, "choices": new, "tally": tally(options)}


# --- organiser ----------------------------------------------------------------------------

STATE_REPLY: dict[str, Any] = {"type": "object", "properties": {
    "ok": {"type": "boolean"}, "closed": {"type": "boolean"}, "tally": TALLY_SCHEMA}}


@ops.organiser("close", returns=STATE_REPLY,
               description="Closing is final (the spec names no reopening); closing a closed "
                           "poll again is a harmless 200. Votes and ballot changes are then "
                           "refused with 409; the organiser may still add or remove options.")
def close(call: Call) -> dict[str, Any]:
    """Close the poll: no more votes or changes."""
    data = dict(call.instance.data)
    data["closed"] = True
    call.instance.data = data
    call.instance.save(only=[Instance.data])
    return {"ok": True, "closed": True, "tally": tally(options_of(call.instance))}


ADD_REPLY: dict[str, Any] = {"type": "object", "properties": {
    "ok": {"type": "boolean"},
    "option": {"type": "object", "properties": {"id": {"type": "string"},
                                                "text": {"type": "string"}}},
    "tally": TALLY_SCHEMA}}


@ops.organiser("addOption", body=AddOptionBody, returns=ADD_REPLY, errors={
    400: f"Empty after C(80): `{NO_OPTION_TEXT}`; equal to an option ignoring case: "
         f"`{DUPLICATE_OPTION}`",
    409: f"The poll already has 100 options: `{OPTIONS_FULL}`"},
    description="Body `{text}`; `{option: \"...\"}` or `{option: {text}}` is read when text "
                "is empty. The new option gets a fresh 6-character id and goes last, with no "
                "votes. Allowed on a closed poll.")
def add(call: Call) -> dict[str, Any]:
    """Add an option."""
    text = call.data["text"] or option_text(call.data.get("option"))
    if not text:
        raise bad_request(NO_OPTION_TEXT)
    options = options_of(call.instance)
    if any(option.text.casefold() == text.casefold() for option in options):
        raise bad_request(DUPLICATE_OPTION)
    option = add_option(call.instance, options, text, suggested=False)
    return {"ok": True, "option": {"id": option.option_id, "text": option.text},
            "tally": tally(options)}


@ops.organiser("removeOption", body=RemoveOptionBody, returns=STATE_REPLY, errors={
    400: f"No option with that id: `{UNKNOWN_OPTION}`",
    409: f"Only two options are left: `{LAST_OPTIONS}`"},
    description="Body `{optionId}` (`{option: \"<id>\"}` is read too). The option and its "
                "votes go; every ballot that picked it loses that pick and keeps the rest. "
                "A ballot left with no picks still counts towards the 2000 votes (it was "
                "cast) and its voter can pick again with their token.")
def remove(call: Call) -> dict[str, Any]:
    """Remove an option and its votes."""
    instance = call.instance
    option_id = call.data["optionId"] or call.data["option"]
    options = options_of(instance)
    target = next((option for option in options if option.option_id == option_id), None)
    if target is None:
        raise bad_request(UNKNOWN_OPTION)
    if len(options) <= 2:
        raise conflict(LAST_OPTIONS)
    # A rare organiser action over at most 2000 small rows: read them, rewrite the holders.
    rows = PollBallot.select(PollBallot.id, PollBallot.choices).where(
        PollBallot.instance == instance)
    for row in rows:
        if option_id in row.choices:
            row.choices = [choice for choice in row.choices if choice != option_id]
            row.save(only=[PollBallot.choices])
    target.delete_instance()
    options.remove(target)
    return {"ok": True, "closed": bool(instance.data["closed"]), "tally": tally(options)}
