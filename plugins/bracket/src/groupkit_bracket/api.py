"""Tournament Bracket: create, views, and the organiser's result recording."""

from __future__ import annotations

from typing import Any

from groupkit import N_
from groupkit import ApiError
from groupkit import Call
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import bad_request
from groupkit import checked_in_order
from groupkit import conflict
from groupkit import message
from groupkit import whole_number

from .draw import BAD_SCORE
from .draw import LISTED
from .draw import SCORE_BACKWARDS
from .draw import Bracket
from .draw import new_bracket
from .draw import read_score
from .draw import round_name
from .draw import score_text
from .schema import ResultBody

ops = Operations()

#: The heading of an untitled bracket (translated on pages, English in the API).
DEFAULT_HEADING = N_("Tournament bracket")

NO_MATCH = N_("That match isn't in this bracket.")
BAD_WINNER = N_("The winner has to be one of the two names in that match.")
NO_VERSION = N_("That result didn't say which version of the bracket it was made on — "
                "refresh and tap again.")
BYE = N_("That one's a bye — it sorted itself out.")
SIDE_MISSING = N_("Both spots in that match need filling first — decide the earlier games.")
TWO_AT_ONCE = N_("Two results landed at once — refresh and tap again.")


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = new_bracket(data["entrants"], data["seeding"])


def _side(bracket: Bracket, name: str | None, bye: bool, listed: bool,
          points: int | None) -> dict[str, Any]:
    return {"name": name, "seed": bracket.seed_of(name) if listed else None, "bye": bye,
            "score": points}


def _points(score: list[int] | None, winner: str | None, name: str | None) -> int | None:
    """One side's points of a score stored winner first."""
    if score is None or name is None:
        return None
    return score[0] if name == winner else score[1]


def public_view(instance: Instance) -> dict[str, Any]:
    """The whole bracket as everyone sees it: every round, who is in each match, results,
    and the champion once the final is decided. `version` is what a result must quote."""
    data = instance.data
    bracket = Bracket(data)
    listed = data["seeding"] == LISTED
    rounds = []
    for round_index in range(bracket.rounds):
        matches = []
        for match in range(len(bracket.results[round_index])):
            bye = bracket.is_bye(round_index, match)
            top, bottom = bracket.sides(round_index, match)
            winner, score = bracket.winner(round_index, match), bracket.score(round_index, match)
            matches.append({
                "round": round_index, "match": match, "bye": bye,
                "ready": not bye and top is not None and bottom is not None,
                "winner": winner, "score": score_text(score),
                "sides": [_side(bracket, top, bye and top is None, listed,
                                _points(score, winner, top)),
                          _side(bracket, bottom, bye and bottom is None, listed,
                                _points(score, winner, bottom))]})
        rounds.append({"round": round_index, "name": round_name(round_index, bracket.rounds),
                       "matches": matches})
    return {"title": instance.title, "heading": instance.title or DEFAULT_HEADING,
            "seeding": data["seeding"], "entrants": list(bracket.seeds),
            "size": 2 * len(bracket.results[0]),
            "byes": 2 * len(bracket.results[0]) - len(bracket.seeds),
            "rounds": rounds, "champion": bracket.champion, "version": data["version"]}


def organiser_view(instance: Instance) -> dict[str, Any]:
    """The organiser sees what everyone sees; nothing about a bracket is private."""
    return public_view(instance)


SIDE_SCHEMA = {"type": "object", "properties": {
    "name": {"type": ["string", "null"],
             "description": "null for a bye or a side still to be decided"},
    "seed": {"type": ["integer", "null"], "description": "seed number with `listed` seeding"},
    "bye": {"type": "boolean"},
    "score": {"type": ["integer", "null"],
              "description": "this side's points when the result came with a score"}}}
MATCH_SCHEMA = {"type": "object", "properties": {
    "round": {"type": "integer"}, "match": {"type": "integer"},
    "bye": {"type": "boolean", "description": "first-round match against a bye"},
    "ready": {"type": "boolean", "description": "both names known: a result can be recorded"},
    "winner": {"type": ["string", "null"]},
    "score": {"type": ["string", "null"],
              "description": "the result's score, the winner's points first (`3–1`, an en "
                             "dash); null when none was recorded"},
    "sides": {"type": "array", "items": SIDE_SCHEMA, "minItems": 2, "maxItems": 2}}}
BRACKET_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "title": {"type": "string"},
    "heading": {"type": "string", "description": f"title, or `{DEFAULT_HEADING}`"},
    "seeding": {"type": "string", "enum": [LISTED, "random"]},
    "entrants": {"type": "array", "items": {"type": "string"},
                 "description": "in seed order (seed 1 first)"},
    "size": {"type": "integer", "description": "field size: the next power of two"},
    "byes": {"type": "integer"},
    "rounds": {"type": "array", "items": {"type": "object", "properties": {
        "round": {"type": "integer"}, "name": {"type": "string"},
        "matches": {"type": "array", "items": MATCH_SCHEMA}}}},
    "champion": {"type": ["string", "null"]},
    "version": {"type": "integer",
                "description": "the results version: moves on by one with every result "
                               "recorded or cleared; send it with the next result"}}}
RESULT_REPLY = {"type": "object", "properties": {
    "ok": {"type": "boolean"},
    "version": {"type": "integer", "description": "the bracket's version after this result"},
    "round": {"type": "integer"}, "match": {"type": "integer"},
    "winner": {"type": ["string", "null"]},
    "score": {"type": "string",
              "description": "the score recorded with the result (`3–1`); only when one was"},
    "cleared": {"type": "array", "description": "later results cleared by this change",
                "items": {"type": "object", "properties": {
                    "round": {"type": "integer"}, "match": {"type": "integer"}}}},
    "champion": {"type": ["string", "null"]}}}

RESULT_DESCRIPTION = (
    "Body `{round, match, winner, version}`. `round` and `match` are 0-based indices (round 0 "
    "is the first round, match 0 the top match of a round). `winner` is exactly one of the "
    "two names in the match (compared as stored), or null to clear the result; leaving the "
    "field out is refused, unlike null. A recorded result may also be changed straight to "
    "the other name.\n\n"
    "`score` is optional: the result's score as short text, the winner's points first, two "
    "whole numbers (0 to 999) joined by a dash or a colon (`\"3-1\"`, `\"21 – 19\"`, "
    "`\"2:2\"` for a game settled otherwise); stored and shown as `3–1`. Null, blank or "
    "left out: no score. A result is stored as sent, so recording a match again without a "
    "score drops its score, and clearing a result (or a change that clears later results) "
    "clears their scores; with a null `winner` any score is ignored.\n\n"
    "Clearing or changing a result clears every later result that match fed into (the next "
    "round's match, the one after, up to the final), because those games had someone else "
    "in them; the reply lists them in `cleared`. Recording the result already stored clears "
    "nothing (the version still moves on).\n\n"
    "Concurrency: `version` is the bracket's `version` from the read the result is based on "
    "(the public read, or the `version` of the reply to your previous result). Every "
    "successful result moves it on by one, in the same transaction that holds the bracket's "
    "lock, so when two results based on the same read land at once, the first wins and the "
    "other is refused with 409; re-read and send again. Pages send it for you. (This is the "
    "bracket's own results version, not the number on the live-update stream, which also "
    "moves for other writes such as an export.)\n\n"
    "Checks, in order: the match exists; `winner` is present; `version` is present and "
    "current; the match is not a first-round bye; both names in the match are known; "
    "`winner` is null or one of them; then, for a winner, the score reads as two numbers, "
    "and the winner's are not the lower (both with `field` `score`).")


@ops.organiser("result", body=ResultBody, returns=RESULT_REPLY, description=RESULT_DESCRIPTION,
               errors={
                   400: checked_in_order(
                       ("no such round and match", NO_MATCH), ("`winner` left out", BAD_WINNER),
                       ("`version` missing or not a number", NO_VERSION),
                       ("a first-round bye", BYE), ("a side still to be decided", SIDE_MISSING),
                       ("`winner` neither null nor one of the two names", BAD_WINNER),
                       ("`score` not two whole numbers joined by a dash", BAD_SCORE),
                       ("`score` with the winner's points lower", SCORE_BACKWARDS)),
                   409: f"`version` is not the bracket's current version (another result "
                        f"landed first): `{TWO_AT_ONCE}`"})
def result(call: Call) -> dict[str, Any]:
    """Record the winner of one match (with its score, if given), or clear it with a null
    winner."""
    instance, body = call.instance, call.data
    bracket = Bracket(instance.data)
    round_index, match = whole_number(body.get("round")), whole_number(body.get("match"))
    if round_index is None or match is None or not bracket.exists(round_index, match):
        raise bad_request(NO_MATCH)
    if "winner" not in body:
        raise bad_request(BAD_WINNER)
    version = whole_number(body.get("version"))
    if version is None:
        raise bad_request(NO_VERSION)
    if version != instance.data["version"]:
        raise conflict(TWO_AT_ONCE)
    if bracket.is_bye(round_index, match):
        raise bad_request(BYE)
    sides = bracket.sides(round_index, match)
    if None in sides:
        raise bad_request(SIDE_MISSING)
    winner = body["winner"]
    if winner is not None and (not isinstance(winner, str) or winner not in sides):
        raise bad_request(BAD_WINNER)
    try:
        score = read_score(body.get("score")) if winner is not None else None
    except ValueError as refused:
        # The spec's `{"error"}` body; the field goes only to a page that asks for it.
        raise ApiError(400, str(refused), errors=(("score", str(refused)),)) from None
    cleared = bracket.record(round_index, match, winner, score)
    version += 1
    instance.data = {**instance.data, "results": bracket.results, "scores": bracket.scores,
                     "version": version}
    instance.save(only=[Instance.data])
    reply: dict[str, Any] = {"ok": True, "version": version, "round": round_index,
                             "match": match, "winner": winner, "cleared": cleared,
                             "champion": bracket.champion}
    if score is not None:
        reply["score"] = score_text(score)
    return reply


DRAW_MADE = N_("The draw is made for {count} — rename anyone you like, but to add or drop "
                "a name, start a new bracket.")
#: A finished bracket's names are its result (the champion among them): they stay.
FINISHED = N_("The final's been decided — the names can't change now.")


def current(instance: Instance) -> dict[str, Any]:
    """The title and the names in draw order (seed order), one per line in the form."""
    return {"title": instance.title, "entrants": list(instance.data["seeds"])}


def apply_edit(call: Call) -> dict[str, Any]:
    """Names are renamed in place, by their place in the draw: every match and recorded
    result follows. The field stays the same size (no redraw under results).

    Once the final is decided the bracket is finished and its names are the result: a
    rename there would rename the champion, or hand the title to someone else by swapping
    two names, so the names must come back exactly as they are (the form sends them all)
    or are refused, until the final's result is cleared. The title only labels the
    bracket and stays editable."""
    changes, data = dict(call.data), dict(call.instance.data)
    if "entrants" in changes:
        names = changes.pop("entrants")
        if names == data["seeds"]:
            return changes
        if Bracket(data).champion is not None:
            raise conflict(FINISHED, "entrants")
        if len(names) != len(data["seeds"]):
            raise conflict(message(DRAW_MADE, count=len(data["seeds"])), "entrants")
        renamed = dict(zip(data["seeds"], names, strict=True))
        data["seeds"] = names
        data["results"] = [[renamed.get(winner, winner) if winner else winner
                            for winner in round_results] for round_results in data["results"]]
        data["version"] += 1  # a result quoting the old names is refused as stale
        call.instance.data = data
    return changes


EDIT = Edit(fields=("title", "entrants"), current=current, apply=apply_edit,
            errors={409: f"Checked in this order, `field` `entrants` for both: the final is "
                         f"decided and the names differ from the draw's: `{FINISHED}`; a "
                         f"different number of names: `{DRAW_MADE}`."},
            description="`entrants` lists the names in draw order (seed order, as `current` "
                        "pre-fills it): each replaces the name at its place, in every match "
                        "and result; the bracket's `version` moves on. The names exactly as "
                        "they are change nothing (the version stays). Once the final is "
                        "decided the names are the result and no longer change (until the "
                        "final's result is cleared); the title stays editable.")
