"""Every installed tool's create body and participation, written once with a placeholder in
each free-text field, for the cross-tool security suites (script injection, privacy, hostile
input). A suite decides what goes into the placeholders and reads what came back:

    made = create_instance(client, "plate", example, fill=lambda label: PAYLOAD)
    session = Session(client, made, fill=lambda label: PAYLOAD)
    SCENARIOS["plate"](session)      # claims, signatures, votes... every text a PAYLOAD
    session.tokens, session.secrets  # what the calls handed back

Labels name each text field: `create.categories.1.name`, `claim.message.0`. A label whose
path holds a non-zero index is one of several siblings; fillers use that to keep siblings
distinct where a tool wants distinct names.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
from collections.abc import Callable, Collection, Mapping
from typing import Any

import httpx

from groupkit._config import Settings
from groupkit._plugins import load_tools

Fill = Callable[[str], str]

#: Reply keys that carry a credential meant for one person only.
TOKEN_KEYS = ("token",)
SECRET_KEYS = ("secret",)


@dataclasses.dataclass(frozen=True)
class Free:
    """A free-text field of a call. `fallback` is sent instead of the filled text when the
    call refuses it with a 400 (a link field given a script, say)."""

    label: str
    fallback: str = "Ann"


@dataclasses.dataclass
class Made:
    tool: str
    slug: str
    edit: str
    body: dict[str, Any]
    #: Labels of create fields whose filled text was refused, so the example's value stayed.
    refused: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Sent:
    """One participation call as it went out and came back."""

    method: str
    template: str  # the OpenAPI path, e.g. /api/kringle/p/{token}/wishlist
    path: str
    body: Any
    status: int
    reply: Any
    refused: list[str]
    headers: Mapping[str, str]


def sibling_index(label: str) -> str:
    """`create.teams.1.members.2` -> "1-2"; "" when every index on the path is 0 (or none)."""
    indices = [part for part in label.split(".") if part.isdigit()]
    return "-".join(indices) if any(index != "0" for index in indices) else ""


# --- create bodies ---------------------------------------------------------------------------

def string_leaves(value: Any, path: str = "create") -> list[str]:
    """Labels of every string value in a create example, lists and objects included."""
    if isinstance(value, str):
        return [path]
    if isinstance(value, list):
        return [leaf for index, item in enumerate(value)
                for leaf in string_leaves(item, f"{path}.{index}")]
    if isinstance(value, dict):
        return [leaf for key, item in value.items()
                for leaf in string_leaves(item, f"{path}.{key}")]
    return []


def fill_example(example: Any, fill: Fill, labels: set[str] | None = None) -> Any:
    """The example with the string values at `labels` (default: all) replaced by `fill`.
    Object keys that equal a replaced value move with it (a role's briefing stays keyed
    by the role)."""
    renamed: dict[str, str] = {}

    def walk(value: Any, path: str) -> Any:
        if isinstance(value, str):
            if labels is not None and path not in labels:
                return value
            text = fill(path)
            renamed.setdefault(value, text)
            return text
        if isinstance(value, list):
            return [walk(item, f"{path}.{index}") for index, item in enumerate(value)]
        if isinstance(value, dict):
            return {key: walk(item, f"{path}.{key}") for key, item in value.items()}
        return value

    body = walk(copy.deepcopy(example), "create")

    def rekey(value: Any) -> Any:
        if isinstance(value, list):
            return [rekey(item) for item in value]
        if isinstance(value, dict):
            return {renamed.get(key, key): rekey(item) for key, item in value.items()}
        return value

    return rekey(body)


def _post(client: httpx.Client, path: str, body: Any) -> httpx.Response:
    return client.post(path, json=body)


def create_instance(client: httpx.Client, tool: str, example: Mapping[str, Any],
                    fill: Fill, keep: Collection[str] = ()) -> Made:
    """Create with every string of the example filled (except the labels in `keep`); when
    that is refused (400), keep the example's value for each field that refuses its filled
    text on its own."""
    labels = [label for label in string_leaves(example) if label not in keep]
    body = fill_example(example, fill, set(labels))
    response = _post(client, f"/api/{tool}", body)
    refused: list[str] = []
    if response.status_code == 400:
        kept: set[str] = set()
        for label in labels:
            trial = _post(client, f"/api/{tool}", fill_example(example, fill, kept | {label}))
            if trial.status_code == 201:
                kept.add(label)
                client.post(f"/api/{tool}/{trial.json()['editToken']}/delete")
            else:
                refused.append(label)
        body = fill_example(example, fill, kept)
        response = _post(client, f"/api/{tool}", body)
    assert response.status_code == 201, (tool, body, response.status_code, response.text)
    made = response.json()
    return Made(tool, made["slug"], made["editToken"], body, refused)


# --- participation ---------------------------------------------------------------------------

class Session:
    """Runs one tool's participation calls against one instance, filling every `Free`."""

    def __init__(self, client: httpx.Client, made: Made, fill: Fill) -> None:
        self.client, self.made, self.fill = client, made, fill
        self.tool, self.slug, self.edit = made.tool, made.slug, made.edit
        self.sent: list[Sent] = []
        #: (template of the call that issued it, token) for every participant token.
        self.tokens: list[tuple[str, str]] = []
        self.secrets: list[str] = []
        #: Values the suites may need for other paths: `{slotId}` of a read operation.
        self.params: dict[str, str] = {}

    # the three kinds of call -------------------------------------------------------------

    def public(self, path: str, body: dict[str, Any]) -> Any:
        return self._call("POST", path, {"slug": self.slug, **body})

    def organiser(self, path: str, body: Any = None) -> Any:
        return self._call("POST", "{editToken}/" + path, body)

    def participant(self, path: str, token: str, body: Any = None) -> Any:
        return self._call("POST", path, body, token=token)

    def text(self, label: str, example: str) -> Free:
        """A declared walkthrough's free-text field: filled like any other `Free`."""
        return Free(label, fallback=example)

    def read(self) -> Any:
        """The public read, `GET /api/<tool>/{slug}`."""
        response = self.client.get(f"/api/{self.tool}/{self.slug}")
        assert response.status_code == 200, response.text
        return response.json()

    def get(self, path: str, **params: str) -> Any:
        """A read operation `GET /api/<tool>/{slug}/<path>`."""
        response = self.client.get(f"/api/{self.tool}/{self.slug}/" + path.format(**params))
        assert response.status_code == 200, response.text
        return response.json()

    # machinery ---------------------------------------------------------------------------

    def _frees(self, value: Any) -> list[Free]:
        if isinstance(value, Free):
            return [value]
        if isinstance(value, list):
            return [free for item in value for free in self._frees(item)]
        if isinstance(value, dict):
            return [free for item in value.values() for free in self._frees(item)]
        return []

    def _render(self, value: Any, fallen: set[str]) -> Any:
        if isinstance(value, Free):
            return value.fallback if value.label in fallen else self.fill(value.label)
        if isinstance(value, list):
            return [self._render(item, fallen) for item in value]
        if isinstance(value, dict):
            return {key: self._render(item, fallen) for key, item in value.items()}
        return value

    def _call(self, method: str, path: str, body: Any, **params: str) -> Any:
        template = f"/api/{self.tool}/{path}"
        url = template.format(editToken=self.edit, **params)
        frees = [free.label for free in self._frees(body)]
        tries: list[set[str]] = [set(), *({label} for label in frees)]
        if len(frees) > 1:
            tries.append(set(frees))
        for fallen in tries:
            sent = self._render(body, fallen)
            response = self.client.request(method, url, json=sent)
            if response.status_code != 400:
                break
        assert response.status_code < 300, (
            f"{self.tool}: {method} {template} with {sent!r} answered "
            f"{response.status_code} {response.text[:300]}")
        reply = response.json() if "json" in response.headers.get("content-type", "") else None
        self.sent.append(Sent(method, template, url, sent, response.status_code, reply,
                              sorted(fallen),
                              {key.lower(): value for key, value in response.headers.items()}))
        if isinstance(reply, dict):
            self.tokens += [(template, reply[key]) for key in TOKEN_KEYS
                            if isinstance(reply.get(key), str)]
            self.secrets += [reply[key] for key in SECRET_KEYS
                             if isinstance(reply.get(key), str)]
        return reply


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
