"""Baby Guess Pool: create, views, guessing, removing guesses and recording the result."""

from __future__ import annotations

import datetime as dt
import secrets
import statistics
from typing import Any

import marshmallow as ma

from groupkit import N_
from groupkit import ApiError
from groupkit import Call
from groupkit import Credential
from groupkit import Edit
from groupkit import Instance
from groupkit import Line
from groupkit import Operations
from groupkit import bad_request
from groupkit import conflict
from groupkit import gettext
from groupkit import issue_token
from groupkit import local_date
from groupkit import revoke_tokens
from groupkit import utc_iso
from groupkit.entries import OK_REPLY
from groupkit.entries import token_reply
from groupkit.signups import board_views

from .models import BabyGuess
from .schema import ARRIVED_AT_LIMIT
from .schema import BAD_WEIGHT
from .schema import CLOSED
from .schema import DAYS_AFTER
from .schema import DAYS_BEFORE
from .schema import FULL
from .schema import MAX_GRAMS
from .schema import MAX_GUESSES
from .schema import MIN_GRAMS
from .schema import NO_RESULT_DATE
from .schema import OUT_OF_WINDOW
from .schema import GuessBody
from .schema import RemoveBody
from .schema import ResultBody
from .schema import parse_day
from .schema import rounded_grams

ops = Operations()

TOKEN_KIND = "guess"


#: A pool's title, made from whose bub it is (pages say it in their reader's language).
TITLE = N_("Baby pool for {parents}")
PREVIEW = N_("Guess the arrival date and birth weight — closest guess wins.")
DUE_PREVIEW = N_("Due {due}. {description}")


def title_of(data: dict[str, Any]) -> str:
    return TITLE.format(parents=data["parents"])


def create(instance: Instance, data: dict[str, Any]) -> None:
    instance.data = {"parents": data["parents"], "dueDate": data["dueDate"],
                     "note": data["note"], "result": None}


# --- views --------------------------------------------------------------------------------

def _guesses(instance: Instance) -> list[BabyGuess]:
    """Every guess, earliest first (insertion order breaks a tie in time)."""
    return list(BabyGuess.select().where(BabyGuess.instance == instance)
                .order_by(BabyGuess.created, BabyGuess.id))


def _entry(guess: BabyGuess, organiser: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": guess.gid, "guesser": guess.guesser,
                             "date": guess.day.isoformat(), "weightGrams": guess.grams,
                             "message": guess.message}
    if organiser:
        entry["guessedAt"] = utc_iso(guess.created)
    return entry


def leaderboard(guesses: list[BabyGuess], result: dict[str, Any],
                organiser: bool = False) -> list[dict[str, Any]]:
    """Closest first: fewest days off the arrival date, then fewest grams off the weight,
    then whoever guessed earliest (`guesses` is already in guessing order)."""
    arrived = dt.date.fromisoformat(result["date"])
    scored = [(abs((guess.day - arrived).days), abs(guess.grams - result["weightGrams"]),
               order, guess) for order, guess in enumerate(guesses)]
    scored.sort(key=lambda row: row[:3])
    return [{"rank": rank, **_entry(guess, organiser), "daysOff": days, "gramsOff": grams}
            for rank, (days, grams, _, guess) in enumerate(scored, start=1)]


def _crowd(guesses: list[BabyGuess]) -> dict[str, Any] | None:
    """The group's middle guess: median day and median weight."""
    if not guesses:
        return None
    day = statistics.median_low(sorted(guess.day for guess in guesses))
    grams = statistics.median_low(sorted(guess.grams for guess in guesses))
    return {"date": day.isoformat(), "weightGrams": grams}


def _pool(instance: Instance, organiser: bool) -> dict[str, Any]:
    """Public: everyone's guesses (a pool is played in the open) and, once bub is here, the result
    and the leaderboard. Tokens never appear. Organiser: the public pool plus when each guess
    came in."""
    data = instance.data
    guesses = _guesses(instance)
    result = data.get("result")
    return {"title": instance.title, "heading": instance.title, "parents": data["parents"],
            "dueDate": data["dueDate"], "note": data["note"], "open": result is None,
            "limit": MAX_GUESSES, "guessCount": len(guesses),
            "guesses": [_entry(guess, organiser) for guess in guesses],
            "crowd": _crowd(guesses), "result": result,
            "leaderboard": None if result is None else leaderboard(guesses, result, organiser)}


public_view, organiser_view = board_views(_pool)


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """The guesser's own page (the link a guess made without JavaScript shows): their guess
    as the pool shows it (with its rank once bub is here), to take it back later."""
    pool = _pool(instance, organiser=False)
    entries = pool["leaderboard"] if pool["leaderboard"] is not None else pool["guesses"]
    mine = [entry for entry in entries if entry["id"] == credential.ref]
    if not mine:
        raise ApiError(404, "unknown")
    return {"title": instance.title, "parents": pool["parents"], "open": pool["open"],
            "result": pool["result"], "guess": mine[0]}


def preview(instance: Instance) -> dict[str, Any]:
    """A link preview, made as a page is, in its reader's language."""
    due = instance.data["dueDate"]
    description = gettext(PREVIEW)
    if due:
        description = gettext(DUE_PREVIEW).format(due=due, description=description)
    return {"title": gettext(TITLE).format(parents=instance.data["parents"]),
            "description": description}


# --- guessing -----------------------------------------------------------------------------

def _in_window(day: dt.date, now: dt.datetime) -> bool:
    today = local_date(now, "UTC")
    return today - dt.timedelta(days=DAYS_BEFORE) <= day <= today + dt.timedelta(days=DAYS_AFTER)


def _refused(message: str, field: str) -> ApiError:
    """A 400 whose body is the spec's `{"error"}`; the field it is about goes to a page
    that asks (the script's every-failure header, the form post), never into the body."""
    return ApiError(400, message, errors=((field, message),))


def _weight(value: Any) -> int:
    grams = rounded_grams(value)
    if grams is None or not MIN_GRAMS <= grams <= MAX_GRAMS:
        raise _refused(BAD_WEIGHT, "weightGrams")
    return grams


ENTRY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "id": {"type": "string"}, "guesser": {"type": "string"},
    "date": {"type": "string", "format": "date"},
    "weightGrams": {"type": "integer", "minimum": MIN_GRAMS, "maximum": MAX_GRAMS},
    "message": {"type": "string"}}}
RANKED_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    **ENTRY_SCHEMA["properties"], "rank": {"type": "integer", "minimum": 1},
    "daysOff": {"type": "integer", "minimum": 0}, "gramsOff": {"type": "integer", "minimum": 0}}}
RESULT_SCHEMA: dict[str, Any] = {"type": ["object", "null"], "properties": {
    "date": {"type": "string", "format": "date"}, "weightGrams": {"type": "integer"},
    "arrivedAt": {"type": "string"}}}
POOL_SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "title": {"type": "string"}, "heading": {"type": "string"}, "parents": {"type": "string"},
    "dueDate": {"type": "string"}, "note": {"type": "string"},
    "open": {"type": "boolean", "description": "false once a result is recorded"},
    "limit": {"type": "integer"}, "guessCount": {"type": "integer"},
    "guesses": {"type": "array", "items": ENTRY_SCHEMA,
                "description": "earliest first"},
    "crowd": {"type": ["object", "null"], "description": "median date and median weight"},
    "result": RESULT_SCHEMA,
    "leaderboard": {"type": ["array", "null"], "items": RANKED_SCHEMA,
                    "description": "once the result is in: closest first"}}}
GUESS_REPLY = token_reply("keep it: POST /api/baby/g/{token}/remove removes this guess",
                          "the guess's public id")


@ops.public("guess", body=GuessBody, status=201, returns=GUESS_REPLY, errors={
    400: "Checked in this order: guesser empty after C(40); date blank; date not "
         "`YYYY-MM-DD`; not a real calendar day; outside 400 days before to 550 days after "
         "the request's UTC date (both ends included); weight (rounded to the nearest gram, "
         "halves up; numeric strings accepted) outside 500 to 7000.",
    409: f"Checked after the 400s, in this order: {MAX_GUESSES} guesses held: `{FULL}`; "
         f"a result is recorded: `{CLOSED}`"})
def guess(call: Call) -> dict[str, Any]:
    """Add a guess; returns the token that removes it and the guess's id."""
    data = call.data
    if not _in_window(data["date"], call.now):
        raise _refused(OUT_OF_WINDOW, "date")
    if data["weightGrams"] is None or not MIN_GRAMS <= data["weightGrams"] <= MAX_GRAMS:
        raise _refused(BAD_WEIGHT, "weightGrams")
    instance = call.instance
    # The kernel holds the instance lock: this count and the insert cannot interleave.
    if BabyGuess.select().where(BabyGuess.instance == instance).count() >= MAX_GUESSES:
        raise conflict(FULL)
    if instance.data.get("result") is not None:
        raise conflict(CLOSED)
    gid = secrets.token_hex(5)
    BabyGuess.create(instance=instance, gid=gid, guesser=data["guesser"], day=data["date"],
                     grams=data["weightGrams"], message=data["message"],
                     created=call.now)
    return {"token": issue_token(instance, TOKEN_KIND, gid), "id": gid}


def _remove(instance: Instance, gid: str) -> bool:
    removed = BabyGuess.delete().where(
        (BabyGuess.instance == instance) & (BabyGuess.gid == gid)).execute()
    revoke_tokens(instance, TOKEN_KIND, gid)
    return bool(removed)


@ops.participant("g/{token}/remove", token_kinds=[TOKEN_KIND], returns=OK_REPLY)
def remove_own(call: Call) -> dict[str, Any]:
    """Remove your own guess with the token its guess returned.

    Allowed whether or not the result is in: a guess is its guesser's to take back. The token stops
    working afterwards.
    """
    assert call.credential is not None
    _remove(call.instance, call.credential.ref)
    return {"ok": True}


@ops.organiser("remove", body=RemoveBody, returns={"type": "object", "properties": {
    "ok": {"type": "boolean"},
    "removed": {"type": "boolean", "description": "false when no such guess was there"}}})
def remove(call: Call) -> dict[str, Any]:
    """Remove any one guess.

    Body `{id}`: the guess's public id (from the guess reply or the pool's `guesses`). Idempotent:
    an id that is not (or no longer) in the pool answers `removed: false`. The guesser's token stops
    working.
    """
    gid = call.data.get("id")
    return {"ok": True, "removed": isinstance(gid, str) and _remove(call.instance, gid)}


def _read_result(data: dict[str, Any]) -> dict[str, Any]:
    """The result in the spec's order: date (a real day; no window, bub is already here),
    weight, then arrivedAt (C(40), optional)."""
    try:
        day = parse_day(data.get("date"), NO_RESULT_DATE)
    except ma.ValidationError as error:
        raise bad_request(str(error.messages[0])) from None
    grams = _weight(data.get("weightGrams"))
    arrived_at = Line(ARRIVED_AT_LIMIT).clean(data.get("arrivedAt", ma.missing))
    return {"date": day.isoformat(), "weightGrams": grams, "arrivedAt": arrived_at}


@ops.organiser("result", body=ResultBody, returns={"type": "object", "properties": {
    "ok": {"type": "boolean"}, "open": {"type": "boolean"}, "result": RESULT_SCHEMA,
    "leaderboard": {"type": ["array", "null"], "items": RANKED_SCHEMA}}},
    errors={400: f"date blank: `{NO_RESULT_DATE}`; then the guess's date-format, real-day "
                 f"and weight messages."},
    description="`{date, weightGrams, arrivedAt?}` records the result (again to correct it), "
                "closes the pool and reveals the leaderboard. `{\"result\": null}` or a JSON "
                "`null` body reopens the pool and forgets the result (whatever else the "
                "object carries). Any other body, an empty object, no body or unreadable "
                "JSON included, is a result and goes through its checks (so those answer "
                f"`{NO_RESULT_DATE}`).")
def result(call: Call) -> dict[str, Any]:
    """Record the arrival (closing the pool) or send a null result to reopen it."""
    data = call.data
    reopen = call.raw_body is None or ("result" in data and data["result"] is None)
    instance = call.instance
    recorded = None if reopen else _read_result(data)
    instance.data = {**instance.data, "result": recorded}
    instance.save(only=[Instance.data])
    board = None if recorded is None else leaderboard(_guesses(instance), recorded, True)
    return {"ok": True, "open": recorded is None, "result": recorded, "leaderboard": board}


#: Once bub is here the due date is what every guess was made against: it stays.
DUE_DATE_SET = N_("Bub's already here — the due date can't change now.")


def apply_edit(call: Call) -> dict[str, Any]:
    """Once the result is in, the pool is settled: the due date everyone guessed against
    is part of that story, so changing it is refused (sending it as it is is no change),
    until the organiser reopens the pool. Whose bub it is and the note only label the
    pool and stay editable."""
    data = call.instance.data
    if data.get("result") is not None and call.data.get("dueDate", data["dueDate"]) != \
            data["dueDate"]:
        raise conflict(DUE_DATE_SET, "dueDate")
    return call.data


EDIT = Edit(fields=("parents", "dueDate", "note"), apply=apply_edit,
            errors={409: f"`dueDate` changed while a result is recorded: `{DUE_DATE_SET}` "
                         "(reopening the pool makes it editable again)."},
            description="Every guess stays as it was; so does a recorded result. While a "
                        "result is recorded the due date stays as it is (sent unchanged it "
                        "is accepted); parents and note stay editable.")
