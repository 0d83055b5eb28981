"""The kit's participation driver: an instance created with a placeholder in every free-text
field, and the calls of ordinary participation sent with placeholders too, for the suites
that scan what comes back (privacy, hostile input, script injection).

    made = create_instance(client, "plate", example, fill=lambda label: PAYLOAD)
    session = Session(client, made, fill=lambda label: PAYLOAD)
    tool.walkthrough.take_part(session)   # every `session.text(...)` becomes a PAYLOAD
    session.tokens, session.secrets       # what the calls handed back

Labels name each text field: `create.categories.1.name`, `claim.message.0`. A label whose
path holds a non-zero index is one of several siblings; fillers use that to keep siblings
distinct where a tool wants distinct names.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Mapping
from typing import Any

import httpx

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
    """An instance `create_instance` made: its links and the create body as sent."""

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
