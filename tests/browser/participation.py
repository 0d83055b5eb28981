"""Every installed tool's participation, written once with a placeholder in each free-text
field, for the cross-tool security suites (script injection, privacy, hostile input). The
driver (`Session`, `create_instance`, `Free`...) is the kit's (`groupkit_testing`); this file
holds the scenarios of the tools in this repository, which declare no `Walkthrough`:

    made = create_instance(client, "plate", example, fill=lambda label: PAYLOAD)
    session = Session(client, made, fill=lambda label: PAYLOAD)
    SCENARIOS["plate"](session)      # claims, signatures, votes... every text a PAYLOAD
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from groupkit.core._config import Settings
from groupkit.ops._plugins import load_tools
from groupkit_testing import Free
from groupkit_testing import Session

__all__ = ["REVEALS", "SCENARIOS", "soon"]


# --- the tools -------------------------------------------------------------------------------

def soon(days: int = 30) -> str:
    """A day the baby pool accepts as a guess or a result (within its window)."""
    return (dt.datetime.now(dt.UTC).date() + dt.timedelta(days=days)).isoformat()


def _plate(s: Session) -> None:
    for index, slot in enumerate(("c0-1", "c1-1")):
        s.public("claim", {"slotId": slot, "name": Free(f"claim.name.{index}"),
                           "dish": Free(f"claim.dish.{index}")})


def _roster(s: Session) -> None:
    for index, slot in enumerate(("s0-1", "s1-1")):
        s.public("claim", {"slotId": slot, "name": Free(f"claim.name.{index}"),
                           "message": Free(f"claim.message.{index}")})
    s.params["shiftId"] = "s0"


def _meal(s: Session) -> None:
    s.public("claim", {"slotId": "d0-1", "name": Free("claim.name.0"),
                       "dish": Free("claim.dish.0")})
    task = s.organiser("addTask", {"label": Free("addTask.label"), "capacity": 2})["task"]
    s.public("claim", {"slotId": f"{task['taskId']}-1", "name": Free("claim.name.1"),
                       "dish": Free("claim.dish.1")})
    s.params["slotId"] = "d0-1"


def _hens(s: Session) -> None:
    for index, slot in enumerate(("c0-1", "c1-1")):
        s.public("claim", {"slotId": slot, "name": Free(f"claim.name.{index}"),
                           "message": Free(f"claim.message.{index}")})
    s.public("rsvp", {"name": Free("rsvp.name.0"), "answer": "going",
                      "note": Free("rsvp.note.0")})
    token = s.public("rsvp", {"name": Free("rsvp.name.1"), "answer": "no"})["token"]
    s.participant("r/{token}", token, {"name": Free("r/{token}.name"), "answer": "maybe",
                                       "note": Free("r/{token}.note")})


def _giftidea(s: Session) -> None:
    ideas = [s.public("suggest", {
        "idea": Free(f"suggest.idea.{index}"),
        "link": Free(f"suggest.link.{index}", fallback="https://example.com/gift"),
        "suggestedBy": Free(f"suggest.suggestedBy.{index}")})["id"] for index in range(2)]
    s.public("upvote", {"ideaId": ideas[0]})
    s.public("claim", {"ideaId": ideas[0], "name": Free("claim.name.0")})


def _kringle(s: Session) -> None:
    for index, person in enumerate(s.read()["people"]):
        token = s.public("claim", {"name": person["name"]})["token"]
        s.participant("p/{token}/wishlist", token, {"text": Free(f"wishlist.text.{index}")})


def _roles(s: Session) -> None:
    for index in range(3):
        s.public("claim", {"name": Free(f"claim.name.{index}")})


def _fact(s: Session) -> None:
    for index, name in enumerate(s.read()["names"][:3]):
        token = s.public("claim", {"name": name})["token"]
        s.participant("p/{token}/save", token, {"text": Free(f"save.text.{index}")})


def _card(s: Session) -> None:
    for index in range(2):
        s.public("sign", {"name": Free(f"sign.name.{index}"),
                          "message": Free(f"sign.message.{index}")})


def _bracket(s: Session) -> None:
    board = s.read()
    match = next(match for match in board["rounds"][0]["matches"] if match["ready"])
    s.organiser("result", {"round": 0, "match": match["match"],
                           "winner": match["sides"][0]["name"], "version": board["version"]})


def _baby(s: Session) -> None:
    for index in range(2):
        s.public("guess", {"guesser": Free(f"guess.guesser.{index}"), "date": soon(20 + index),
                           "weightGrams": 3300 + 100 * index,
                           "message": Free(f"guess.message.{index}")})


def _registry(s: Session) -> None:
    part = s.read()["parts"][0]["id"]
    s.public("claim", {"partId": part, "name": Free("claim.name.0"),
                       "message": Free("claim.message.0")})
    s.public("overflow", {"amountCents": 2500, "name": Free("overflow.name.1"),
                          "message": Free("overflow.message.1")})


def _poll(s: Session) -> None:
    options = [option["id"] for option in s.read()["tally"]]
    token = s.public("vote", {"choices": [options[0]], "voterName": Free("vote.voterName.0"),
                              "suggestion": Free("vote.suggestion.0")})["token"]
    s.public("vote", {"choices": [options[1]], "voterName": Free("vote.voterName.1")})
    s.participant("v/{token}", token, {"choices": [options[0]]})
    s.organiser("addOption", {"text": Free("addOption.text")})


def _recipe(s: Session) -> None:
    for index in range(2):
        s.public("add", {field: Free(f"add.{field}.{index}") for field in (
            "cook", "dish", "ingredients", "method", "serves", "story")})


def _qotd(s: Session) -> None:
    today = s.get("tally")
    s.public("vote", {"choice": "a", "day": today["day"], "qi": today["qi"],
                      "voterName": Free("vote.voterName.0")})
    s.organiser("add", {"question": Free("add.question"), "a": Free("add.a"),
                        "b": Free("add.b")})


def _coffee(s: Session) -> None:
    for person in s.read()["people"]:
        s.public("claim", {"name": person["name"]})
    s.organiser("draw")


def _pulse(s: Session) -> None:
    s.organiser("details", {"team": Free("details.team"), "question": Free("details.question"),
                            "askWords": True})
    for index in range(4):
        s.public("respond", {"score": index % 5 + 1, "words": Free(f"respond.words.{index}")})


def _kudos(s: Session) -> None:
    for index in range(2):
        s.public("note", {"recipient": Free(f"note.recipient.{index}"),
                          "message": Free(f"note.message.{index}"),
                          "sender": Free(f"note.sender.{index}")})


def _poker(s: Session) -> None:
    s.organiser("next", {"story": Free("next.story")})
    cards = s.read()["cards"]
    for index in range(2):
        token = s.public("join", {"name": Free(f"join.name.{index}")})["token"]
        s.participant("v/{token}/vote", token, {"card": cards[index + 1]})


def _sweeps(s: Session) -> None:
    s.organiser("redraw")


def _teams(s: Session) -> None:
    """Nothing to take part in: the draw is stored whole at creation."""


#: tool -> its participation: every kind of record a visitor or the organiser can add, with
#: a placeholder in every free-text field.
SCENARIOS: dict[str, Callable[[Session], None]] = {
    "baby": _baby, "bracket": _bracket, "card": _card, "coffee": _coffee, "fact": _fact,
    "giftidea": _giftidea, "hens": _hens, "kringle": _kringle,
    "kudos": _kudos, "meal": _meal, "plate": _plate, "poker": _poker, "poll": _poll,
    "pulse": _pulse, "qotd": _qotd, "recipe": _recipe, "registry": _registry,
    "roles": _roles, "roster": _roster, "sweeps": _sweeps, "teams": _teams,
}


def _reveal_fact(s: Session) -> None:
    s.organiser("reveal", {"reveal": True})


def _reveal_poker(s: Session) -> None:
    s.organiser("reveal")


def _reveal_baby(s: Session) -> None:
    s.organiser("result", {"date": soon(21), "weightGrams": 3350,
                           "arrivedAt": Free("result.arrivedAt")})


#: tool -> the organiser's step that shows what participation kept back until then.
REVEALS: dict[str, Callable[[Session], None]] = {
    "fact": _reveal_fact, "poker": _reveal_poker, "baby": _reveal_baby,
}

# Tools that declare a `Walkthrough` (third-party plugins such as Find a Date) take part
# through it; their free-text fields (`Participation.text`) are filled like the others.
for _tool in load_tools(Settings()).tools.values():
    if _tool.walkthrough is not None:
        SCENARIOS.setdefault(_tool.name, _tool.walkthrough.take_part)
        if _tool.walkthrough.reveal is not None:
            REVEALS.setdefault(_tool.name, _tool.walkthrough.reveal)
