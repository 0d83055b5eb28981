"""The organiser's operations of the tools in this repository that need a body the kit's
live-regions suite cannot make itself (`groupkit_testing._live_regions.LiveRegionsSuite`):
an id read from the organiser's export, a time in the future, a value from a fixed list.
Each runs after the tool's participation (`participation.SCENARIOS`, or the tool's
`Walkthrough`), through the kit's `Session`; a label's first word is what it exercises.
Operations without a body and edits the suite can make from the example are left to it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from participation import REVEALS

from groupkit_testing import Session
from groupkit_testing._live_regions import OrganiserStep

__all__ = ["KEPT_BY_SCRIPT", "ORGANISER_STEPS"]

#: A chat webhook on a host the default allow list names (nothing is delivered in a test).
WEBHOOK = "https://hooks.slack.com/services/T000/B000/livetestwebhook"


def exported(s: Session) -> dict[str, Any]:
    """The organiser's export of the instance (its `data`): where the ids are."""
    response = s.client.post(f"/api/{s.tool}/{s.edit}/export")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


def edit(body: dict[str, Any]) -> OrganiserStep:
    """The organiser's edit of `body`, confirmed (a change that redraws asks first)."""
    return OrganiserStep(act=lambda s: s.organiser("edit", {**body, "confirm": True}))


def call(path: str, body: Any = None) -> OrganiserStep:
    """The organiser's `path` with `body`."""
    return OrganiserStep(act=lambda s: s.organiser(path, body))


def on_listed(path: str, key: str, listed: str, field: str = "id",
              index: int = 0) -> OrganiserStep:
    """The organiser's `path` naming one entry of the export's `listed` (the `index`th): its
    `field`, sent as `key`."""
    return OrganiserStep(act=lambda s: s.organiser(
        path, {key: exported(s)[listed][index][field]}))


def connect_chat(s: Session) -> None:
    """A chat webhook connected, as a test post needs."""
    s.organiser("chat", {"url": WEBHOOK})


#: A connected chat's own case, and its test post (which needs one connected).
CHAT = {"chat": call("chat", {"url": WEBHOOK}),
        "chat/test": OrganiserStep(act=lambda s: s.organiser("chat/test"),
                                   prepare=connect_chat)}
#: The group's language (every tool that sends its group anything): Spanish, from English.
LANGUAGE = {"language": call("language", {"language": "es"})}
CHAT = {**CHAT, **LANGUAGE}
#: Revoking calendar feeds: every feed of the instance.
FEEDS = {"feeds/revoke": call("feeds/revoke", {}), **LANGUAGE}


def _closes_in_an_hour(s: Session) -> None:
    at = dt.datetime.now(dt.UTC).replace(microsecond=0) + dt.timedelta(hours=1)
    s.organiser("edit", {"closesAt": at.isoformat().replace("+00:00", "Z")})


def _rename_an_option(s: Session) -> None:
    tally = exported(s)["tally"]
    options = [{"id": option["id"], "text": option["text"]} for option in tally]
    options[0]["text"] += " (changed)"
    s.organiser("edit", {"options": options, "confirm": True})


def _rename_a_role(s: Session) -> None:
    setup = exported(s)["setup"]
    rows = [{"name": row["name"], "count": row["count"], "brief": row["brief"]} for row in setup]
    was = rows[-1]["name"]
    rows[-1] = {**rows[-1], "name": "Townsfolk", "was": was}
    s.organiser("edit", {"roles": rows, "renamed": {was: "Townsfolk"}, "confirm": True})


ORGANISER_STEPS: dict[str, dict[str, OrganiserStep]] = {
    "baby": {
        "remove": on_listed("remove", "id", "guesses"),
        "result": OrganiserStep(act=REVEALS["baby"]),
    },
    "bracket": {
        "result": OrganiserStep(act=lambda s: s.organiser("result", {
            "round": 1, "match": 0, "winner": "Ann", "version": s.read()["version"]})),
        "result with a score": OrganiserStep(act=lambda s: s.organiser("result", {
            "round": 1, "match": 0, "winner": "Ann", "score": "3-1",
            "version": s.read()["version"]})),
    },
    "card": {
        "remove": on_listed("remove", "messageId", "messages"),
    },
    "coffee": {**CHAT, "reset": call("reset", {"name": "Ann"})},
    "fact": {
        **LANGUAGE,
        "reset": call("reset", {"name": "Ann"}),
        "reveal": OrganiserStep(act=REVEALS["fact"]),
        "reveal hidden again": OrganiserStep(act=lambda s: s.organiser("reveal", {
            "reveal": False}), prepare=REVEALS["fact"]),
    },
    "finddate": {
        **FEEDS,
        "choose": OrganiserStep(act=lambda s: s.organiser("choose", {
            "slotId": s.read()["best"]})),
        "remove": on_listed("remove", "id", "responses"),
        "edit.timezone": edit({"timezone": "Europe/London"}),
    },
    "giftidea": {
        "removeIdea": on_listed("removeIdea", "itoken", "ideas", "itoken"),
    },
    "hens": {**FEEDS, "remove": call("remove", {"slotId": "c0-1"}),
             "rsvp/remove": OrganiserStep(act=lambda s: s.organiser("rsvp/remove", {
                 "guestId": exported(s)["guests"]["answers"][0]["id"]}))},
    "kringle": {**LANGUAGE, "reset": call("reset", {"name": "Ann"})},
    "kudos": {
        **CHAT,
        "remove": on_listed("remove", "noteId", "notes"),
    },
    "meal": {
        **FEEDS,
        "remove": call("remove", {"slotId": "d0-1"}),
        "details": call("details", {"forWhom": "the Tran family", "note": "From Monday.",
                                    "allergies": "None.", "dropoff": "Front desk."}),
        "addDays": call("addDays", {"startDate": "2026-03-20", "days": 2}),
        "addTask": call("addTask", {"label": "Mow the lawn", "capacity": 1}),
        "removeTask": call("removeTask", {"taskId": "t0"}),
    },
    "plate": {"remove": call("remove", {"slotId": "c0-1"})},
    "poker": {
        **CHAT,
        "seat": call("seat", {"name": "Facilitator"}),
        "vote": OrganiserStep(act=lambda s: s.organiser("vote", {"card": "5"}),
                              prepare=lambda s: s.organiser("seat", {"name": "Facilitator"})),
        "reveal": OrganiserStep(act=REVEALS["poker"]),
        "next": call("next", {"story": "PAY-143 Refund by card"}),
        "remove": on_listed("remove", "voterId", "voters"),
        "edit.stories": edit({"stories": ["PAY-150 Split bills", "PAY-151 Receipts"]}),
        "edit.deck": OrganiserStep(act=lambda s: s.organiser("edit", {"deck": "tshirt"}),
                                   prepare=lambda s: s.organiser("next", {"story": "PAY-143"})),
    },
    "poll": {
        "addOption": call("addOption", {"text": "Dumplings"}),
        "removeOption": on_listed("removeOption", "optionId", "tally"),
        "edit.closesAt": OrganiserStep(act=_closes_in_an_hour),
        "edit.closesAt cleared": OrganiserStep(act=lambda s: s.organiser(
            "edit", {"closesAt": None}), prepare=_closes_in_an_hour),
        "close with a closing time": OrganiserStep(act=lambda s: s.organiser("close"),
                                                   prepare=_closes_in_an_hour),
        "edit.options": OrganiserStep(act=_rename_an_option),
    },
    "pulse": {
        **CHAT,
        "details": call("details", {"team": "Data team", "question": "Energy this week?",
                                    "askWords": False}),
        "edit.question emptied": edit({"question": ""}),
    },
    "qotd": {
        **CHAT,
        "add": call("add", {"question": "Tea or coffee?", "a": "Tea", "b": "Coffee"}),
        "remove": on_listed("remove", "qi", "upcoming", "qi", 2),
        "remove today's question": OrganiserStep(act=lambda s: s.organiser(
            "remove", {"qi": exported(s)["today"]["qi"]})),
    },
    "recipe": {
        "remove": on_listed("remove", "rtoken", "recipes", "rtoken"),
    },
    "registry": {
        "paid": on_listed("paid", "reference", "claims", "reference"),
        "release": on_listed("release", "reference", "claims", "reference"),
        "edit.overflowTitle": edit({"overflowTitle": "Fuel for the trip"}),
    },
    "roles": {
        **LANGUAGE,
        "reset": on_listed("reset", "name", "players", "name"),
        "details": call("details", {"title": "Saturday werewolf", "note": "Phones away."}),
        "roles": call("roles", {"roles": ["Werewolf", "Seer", "Villager", "Villager"],
                                "briefs": {"Seer": "Ask about one player."}}),
        "edit.renamed": OrganiserStep(act=_rename_a_role),
    },
    "roster": {**FEEDS, "remove": call("remove", {"slotId": "s0-1"})},
    "sweeps": {"edit.kind": edit({"kind": "cup"})},
}

#: A player's page in Secret Role Dealer follows the event stream with its own script (it must
#: explain a dead link, where the kernel's would reload it): what that script keeps up to date.
KEPT_BY_SCRIPT: dict[str, tuple[str, ...]] = {
    "roles": ("roles-heading", "roles-hand", "roles-from-organiser"),
}
