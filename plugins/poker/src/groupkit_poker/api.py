"""Scrum Poker: create, the board everyone sees, joining, voting, reveal and next story.

No view shows a card before the reveal: not the public page, not the facilitator's page, not
the export, not another voter's page. A voter's own page shows only their own pick; a
facilitator who takes a seat at the table votes from their own page, which shows their own
pick and nobody else's.
"""

from __future__ import annotations

from typing import Any

from groupkit import N_
from groupkit import Call
from groupkit import Credential
from groupkit import Edit
from groupkit import Instance
from groupkit import Operations
from groupkit import Reply
from groupkit import bad_request
from groupkit import checked_in_order
from groupkit import conflict
from groupkit import gettext
from groupkit import issue_token
from groupkit import name_digest
from groupkit import not_found
from groupkit import text_key
from groupkit.entries import Entries
from groupkit.entries import ok_reply
from groupkit.entries import token_reply
from groupkit.signups import csv_reply

from .models import PokerVoter
from .rituals import announce_reveal
from .schema import DECKS
from .schema import EXTRAS
from .schema import JoinBody
from .schema import NextBody
from .schema import RemoveBody
from .schema import VoteBody

ops = Operations()

DEFAULT_HEADING = N_("Scrum Poker")
MAX_VOTERS = 60
#: Earlier rounds kept on the board (the oldest go first, silently).
HISTORY = 50
VOTER = "voter"
VOTERS = Entries(PokerVoter, VOTER, code="id")

NO_NAME = N_("Add your name so the team knows who's voting.")
FULL = N_("Sixty voters is the limit for one game.")
SAME_NAME = N_("Someone's already in with that name — add a surname initial.")
NOT_IN_DECK = N_("That card isn't in this deck.")
ALREADY_REVEALED = N_("The cards are already on the table — wait for the next story.")
NOBODY_VOTED = N_("Nobody has voted yet — nothing to turn over.")
NO_SEAT = N_("Take a seat at the table first — add your name, then pick a card.")


def create(instance: Instance, data: dict[str, Any]) -> None:
    story, stories = data["story"], list(data["stories"])
    if not story and stories:  # a pasted list and no first story: the list's first
        story = stories.pop(0)
    instance.data = {"team": data["team"], "deck": data["deck"], "story": story,
                     "round": 1, "revealed": False, "history": [], "stories": stories}


def up_next(instance: Instance) -> list[str]:
    """The stories still to vote on (none on a board made before there was a list)."""
    return list(instance.data.get("stories", []))


def title_of(data: dict[str, Any]) -> str:
    return str(data["team"])


def _voters(instance: Instance) -> list[PokerVoter]:
    return list(PokerVoter.select().where(PokerVoter.instance == instance)
                .order_by(PokerVoter.joined, PokerVoter.id))


def summarise(deck: str, votes: list[tuple[str, str]]) -> dict[str, Any]:
    """The high and the low (with who played them), never an average: the people at either
    end explain their thinking. `?` and coffee are counted apart and are neither."""
    cards = DECKS[deck]
    sized = [(name, card) for name, card in votes if card not in EXTRAS]

    def end(card: str) -> dict[str, Any]:
        return {"card": card, "names": [name for name, played in sized if played == card]}

    ranks = sorted({cards.index(card) for _, card in sized})
    return {
        "votes": len(votes),
        "high": end(cards[ranks[-1]]) if ranks else None,
        "low": end(cards[ranks[0]]) if ranks else None,
        "agreed": len(ranks) == 1,
        "unsure": [name for name, card in votes if card == "?"],
        "coffee": [name for name, card in votes if card == "coffee"],
        "counts": [{"card": card, "count": sum(1 for _, played in votes if played == card)}
                   for card in cards if any(played == card for _, played in votes)]}


def board(instance: Instance) -> dict[str, Any]:
    """The board as everyone sees it: who has voted, and the cards only once revealed."""
    data = instance.data
    revealed = bool(data["revealed"])
    voters = _voters(instance)
    votes = [(voter.name, voter.card) for voter in voters if voter.card is not None]
    return {
        "title": instance.title, "heading": data["team"] or gettext(DEFAULT_HEADING),
        "team": data["team"], "story": data["story"], "deck": data["deck"],
        "cards": list(DECKS[data["deck"]]), "round": data["round"], "revealed": revealed,
        "maxVoters": MAX_VOTERS,
        "voters": [{"id": voter.id, "name": voter.name, "voted": voter.card is not None,
                    "card": voter.card if revealed else None} for voter in voters],
        "voted": len(votes),
        "summary": summarise(data["deck"], votes) if revealed else None,
        "history": list(reversed(data["history"])), "upNext": up_next(instance)}


def _seat(instance: Instance, voter_id: int | None) -> PokerVoter | None:
    if voter_id is None:
        return None
    voter: PokerVoter | None = PokerVoter.get_or_none((PokerVoter.id == voter_id)
                                                      & (PokerVoter.instance == instance))
    return voter


def _me(voter: PokerVoter | None) -> dict[str, Any] | None:
    return None if voter is None else {"id": voter.id, "name": voter.name, "card": voter.card}


def participant_view(instance: Instance, credential: Credential) -> dict[str, Any]:
    """The board plus the voter's own name and pick (their own card, nobody else's)."""
    return {**board(instance), "me": _me(_seat(instance, _ref(credential.ref)))}


def organiser_view(instance: Instance) -> dict[str, Any]:
    """The board plus the facilitator's own seat and pick, once they took a seat: the
    facilitator's page is theirs as a voter's page is the voter's. The export stays the
    board alone."""
    return {**board(instance), "me": _me(_seat(instance, instance.data.get("seat")))}


def preview(instance: Instance) -> dict[str, Any]:
    team = instance.data["team"]
    description = (gettext("Planning poker for {team}: pick a card, then everyone's flips at "
                           "once.").format(team=team) if team else
                   gettext("Planning poker: pick a card, then everyone's flips at once."))
    return {"title": team or gettext(DEFAULT_HEADING), "description": description}


def _ref(ref: str) -> int:
    return int(ref) if ref.isdigit() else -1


def _schema(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


NAMES = {"type": "array", "items": {"type": "string"}}
END = {"type": ["object", "null"], "properties": {"card": {"type": "string"}, "names": NAMES}}
SUMMARY = {"type": ["object", "null"], "description": "only once revealed", "properties": {
    "votes": {"type": "integer"}, "high": END, "low": END,
    "agreed": {"type": "boolean", "description": "every sized card the same"},
    "unsure": NAMES, "coffee": NAMES,
    "counts": {"type": "array", "items": _schema({"card": {"type": "string"},
                                                  "count": {"type": "integer"}})}}}
BOARD_SCHEMA = _schema({
    "title": {"type": "string"}, "heading": {"type": "string"}, "team": {"type": "string"},
    "story": {"type": "string"}, "deck": {"type": "string", "enum": list(DECKS)},
    "cards": NAMES, "round": {"type": "integer"}, "revealed": {"type": "boolean"},
    "maxVoters": {"type": "integer"},
    "voters": {"type": "array", "items": _schema({
        "id": {"type": "integer"}, "name": {"type": "string"}, "voted": {"type": "boolean"},
        "card": {"type": ["string", "null"], "description": "null until the reveal"}})},
    "voted": {"type": "integer"}, "summary": SUMMARY,
    "history": {"type": "array", "description": "earlier rounds, newest first",
                "items": _schema({"round": {"type": "integer"}, "story": {"type": "string"},
                                  "summary": SUMMARY})},
    "upNext": {"type": "array", "items": {"type": "string"},
               "description": "the stories still to vote on, in order (the create's and "
                              "edit's optional `stories`); empty without a list"}})


@ops.public("join", body=JoinBody, status=201, returns=token_reply(
    "the voter's private link `/p/{token}` and voting key", id_type="integer"), errors={
    400: f"Name empty after cleaning (C(40)): `{NO_NAME}`",
    409: checked_in_order((f"{MAX_VOTERS} voters already in", FULL),
                          ("the name is taken on this board, ignoring case and look-alike letters",
                           SAME_NAME))})
def join(call: Call) -> dict[str, Any]:
    """Join the board with your name; returns your private voting link's token.

    Join the board as a voter; the token is the voter's private page and the only way to vote as
    them. Joining is possible while the cards are on the table (the new voter picks from the next
    story).
    """
    voter = _new_voter(call.instance, call.data["name"])
    return {"token": issue_token(call.instance, VOTER, str(voter.id)), "id": voter.id}


def _new_voter(instance: Instance, name: str) -> PokerVoter:
    """A seat at the table, checked in the spec's order: a name, room, no namesake."""
    if not name:
        raise bad_request(NO_NAME)
    voters = PokerVoter.select().where(PokerVoter.instance == instance)
    if voters.count() >= MAX_VOTERS:
        raise conflict(FULL)
    # Names compare by their key computed afresh (`text_key`), never by the stored one: a
    # voter who joined before look-alike letters counted holds an older key.
    key = text_key(name)
    if any(text_key(voter.name) == key for voter in voters):
        raise conflict(SAME_NAME)
    voter: PokerVoter = PokerVoter.create(instance=instance, name=name,
                                          name_key=name_digest(name))
    return voter


def _card(deck: str, sent: str) -> str:
    for card in DECKS[deck]:
        if card.casefold() == sent.casefold():
            return card
    raise bad_request(NOT_IN_DECK)


@ops.participant("v/{token}/vote", token_kinds=[VOTER], body=VoteBody, returns=_schema({
    "ok": {"type": "boolean"}, "card": {"type": "string"}}), errors={
    400: checked_in_order(("the card is not in the board's deck", NOT_IN_DECK),
                          ("the round is revealed", ALREADY_REVEALED))})
def vote(call: Call) -> dict[str, Any]:
    """Play (or change) your card for the current story.

    Pick or change your card until the facilitator reveals. Cards match the deck ignoring case; a
    whole number stands for its digits.
    """
    assert call.credential is not None
    return _play(call, _ref(call.credential.ref))


def _play(call: Call, voter_id: int | None) -> dict[str, Any]:
    card = _card(call.instance.data["deck"], call.data["card"])
    if call.instance.data["revealed"]:
        raise bad_request(ALREADY_REVEALED)
    updated = voter_id is not None and (
        PokerVoter.update(card=card)
        .where((PokerVoter.id == voter_id) & (PokerVoter.instance == call.instance))
        .execute())
    if not updated:
        raise not_found()
    return {"ok": True, "card": card}


@ops.organiser("seat", body=JoinBody, returns=_schema({
    "ok": {"type": "boolean"}, "id": {"type": "integer"}}), errors={
    400: f"Name empty after cleaning (C(40)): `{NO_NAME}`",
    409: f"As for `join`: `{FULL}`; `{SAME_NAME}`"})
def seat(call: Call) -> dict[str, Any]:
    """Take a seat at the table as the facilitator, to vote from the facilitator's page.

    The facilitator takes a seat at the table under a name, as a voter who joins does, and then
    votes from the facilitator's page (`vote`) without another link. A facilitator already seated
    keeps their seat (the reply names it). Removing that voter frees the seat.
    """
    voter = _seat(call.instance, call.instance.data.get("seat"))
    if voter is None:
        voter = _new_voter(call.instance, call.data["name"])
        call.instance.data = {**call.instance.data, "seat": voter.id}
        call.instance.save()
    return {"ok": True, "id": voter.id}


@ops.organiser("vote", body=VoteBody, returns=_schema({
    "ok": {"type": "boolean"}, "card": {"type": "string"}}), errors={
    400: f"As for a voter's vote: `{NOT_IN_DECK}`; `{ALREADY_REVEALED}`",
    409: f"Then, the facilitator has no seat (`seat` first): `{NO_SEAT}`"})
def facilitator_vote(call: Call) -> dict[str, Any]:
    """Play (or change) the facilitator's own card for the current story.

    The facilitator picks or changes their own card, as a voter does, until the reveal; it stays
    face down for everyone else until then.
    """
    voter = _seat(call.instance, call.instance.data.get("seat"))
    if voter is None:  # the voter's checks first, then the seat
        _card(call.instance.data["deck"], call.data["card"])
        if call.instance.data["revealed"]:
            raise bad_request(ALREADY_REVEALED)
        raise conflict(NO_SEAT)
    return _play(call, voter.id)


@ops.organiser("reveal", returns=_schema({
    "ok": {"type": "boolean"}, "revealed": {"type": "boolean"}, "summary": SUMMARY}), errors={
    400: f"No voter has a card yet: `{NOBODY_VOTED}`"})
def reveal(call: Call) -> dict[str, Any]:
    """Turn every card over at once.

    Turn every card over at once. Revealing a board that is already revealed changes nothing and
    answers the same.
    """
    data = dict(call.instance.data)
    votes = [(voter.name, voter.card) for voter in _voters(call.instance)
             if voter.card is not None]
    if not votes:
        raise bad_request(NOBODY_VOTED)
    if not data["revealed"]:
        data["revealed"] = True
        call.instance.data = data
        call.instance.save()
    summary = summarise(data["deck"], votes)
    announce_reveal(call, data, summary)
    return {"ok": True, "revealed": True, "summary": summary}


@ops.organiser("next", body=NextBody, returns=_schema({
    "ok": {"type": "boolean"}, "round": {"type": "integer"}, "story": {"type": "string"}}),
    description="Start the next story (C(120), may be empty): every card is cleared and "
                "voting opens again. A revealed round is kept in the board's history "
                f"(the last {HISTORY}); an unrevealed round's cards are discarded unseen. "
                "With `story` empty and stories waiting (the board's `upNext`), the first "
                "of them is the next story and leaves the list.")
def next_story(call: Call) -> dict[str, Any]:
    """Clear the cards and start voting on the next story."""
    data = dict(call.instance.data)
    if data["revealed"]:
        votes = [(voter.name, voter.card) for voter in _voters(call.instance)
                 if voter.card is not None]
        data["history"] = [*data["history"], {
            "round": data["round"], "story": data["story"],
            "summary": summarise(data["deck"], votes)}][-HISTORY:]
    PokerVoter.update(card=None).where(PokerVoter.instance == call.instance).execute()
    story, stories = call.data["story"], up_next(call.instance)
    if not story and stories:
        story = stories.pop(0)
    data.update(round=data["round"] + 1, story=story, revealed=False, stories=stories)
    call.instance.data = data
    call.instance.save()
    return {"ok": True, "round": data["round"], "story": data["story"]}


def average(deck: str, summary: dict[str, Any]) -> str:
    """The mean of a round's number cards, to one decimal ("" for T-shirt sizes, or when
    only ? and coffee were played): the estimate a backlog tool takes, beside the low and
    the high the board shows."""
    numbers = [(int(entry["card"]), entry["count"]) for entry in summary["counts"]
               if deck == "fib" and entry["card"].isdigit()]
    played = sum(count for _, count in numbers)
    return f"{sum(card * count for card, count in numbers) / played:.1f}" if played else ""


@ops.organiser("estimates", method="GET", content_type="text/csv", description=(
    "Every revealed story as CSV, oldest first (the history's last "
    f"{HISTORY}, then the current round once revealed): `round`, `story`, `votes`, `low`, "
    "`high` (cards), `average` (number cards only, one decimal; empty for T-shirt sizes). "
    "Served no-store."))
def estimates(call: Call) -> Reply:
    """Download the estimates, one story a row."""
    data = call.instance.data
    rounds = list(data["history"])
    if data["revealed"]:
        votes = [(voter.name, voter.card) for voter in _voters(call.instance)
                 if voter.card is not None]
        rounds.append({"round": data["round"], "story": data["story"],
                       "summary": summarise(data["deck"], votes)})

    def card(end: dict[str, Any] | None) -> str:
        return end["card"] if end else ""

    rows = [(past["round"], past["story"], past["summary"]["votes"],
             card(past["summary"]["low"]), card(past["summary"]["high"]),
             average(data["deck"], past["summary"])) for past in rounds]
    return csv_reply(("round", "story", "votes", "low", "high", "average"), rows,
                     f"estimates-{call.instance.slug}.csv")


@ops.organiser("remove", body=RemoveBody,
               returns=ok_reply(removed="false when no such voter was on the board"))
def remove(call: Call) -> dict[str, Any]:
    """Take one voter off the board.

    Take a voter off the board (someone who left, or a duplicate): their card goes with them, their
    private link stops working, and their seat is free.
    """
    return {"ok": True, "removed": VOTERS.remove_code(call.instance, call.data["voterId"])}


DECK_IN_PLAY = N_("Cards are already down for this story — start the next one, "
                  "then change the deck.")


def apply_edit(call: Call) -> dict[str, Any]:
    """Team and story change as sent (a typo in the story mid-round is fine). The deck
    changes only between rounds: a card already played would not be in the new deck."""
    changes = dict(call.data)
    if changes.get("deck", call.instance.data["deck"]) != call.instance.data["deck"] and any(
            voter.card is not None for voter in _voters(call.instance)):
        raise conflict(DECK_IN_PLAY, "deck")
    return changes


def current_values(instance: Instance) -> dict[str, Any]:
    """The edit form's values: the create's fields, the waiting stories among them."""
    data = instance.data
    return {"team": data["team"], "story": data["story"], "deck": data["deck"],
            "stories": up_next(instance)}


EDIT = Edit(fields=("team", "story", "deck", "stories"), current=current_values,
            apply=apply_edit,
            errors={409: f"A new deck while cards are down this round: `{DECK_IN_PLAY}`; "
                         "`field` is `deck`."})
