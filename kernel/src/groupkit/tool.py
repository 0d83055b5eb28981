"""What a tool plugin declares (`Tool`) and how it declares its operations (`Operations`).

A tool's operations are plain synchronous functions. The kernel resolves the credential,
cleans the body with the operation's schema, opens one write transaction holding the
instance lock, and calls the function in a database thread with a `Call`. A function returns
a JSON-able dict (sent with the operation's status) or a `Reply`, or raises `ApiError`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import marshmallow as ma
import peewee as pw

from .storage import Credential, Instance, Migration

if TYPE_CHECKING:
    from .calendar import CalendarEvent
    from .slots import SlotClaim
    from .webhooks import ChatRitual

#: What a response or request body is documented as: a marshmallow schema (class or
#: instance) or a JSON Schema dict.
BodyDoc = type[ma.Schema] | ma.Schema | Mapping[str, Any]


@dataclasses.dataclass
class Call:
    """Everything an operation may need; nothing it must look up itself."""

    instance: Instance
    data: dict[str, Any]
    now: dt.datetime
    base_url: str
    credential: Credential | None = None
    token: str | None = None
    edit_token: str | None = None
    query: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: Values of the operation path's own `{placeholders}` (e.g. `ics/{shiftId}`).
    params: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: The request body as parsed JSON before cleaning (`None` for a JSON `null` body; `{}`
    #: for no body or unreadable JSON), for the rare rule about the body's very shape.
    raw_body: Any = None


@dataclasses.dataclass
class Reply:
    """A response that is not plain JSON with the operation's status (CSV, a custom status)."""

    body: Any
    status: int = 200
    content_type: str = "application/json"
    headers: Mapping[str, str] = dataclasses.field(default_factory=dict)


Handler = Callable[[Call], "dict[str, Any] | Reply"]


@dataclasses.dataclass
class Operation:
    """One API route of a tool.

    kind "public": `POST /api/<tool>/<path>`, body carries `slug`.
    kind "organiser": `/api/<tool>/{editToken}/<path>`.
    kind "participant": `/api/<tool>/<path>` where path contains `{token}`, a participant token
    of one of `token_kinds` issued by this tool.
    kind "read": `GET /api/<tool>/{slug}/<path>`, read only.

    A path may carry further `{placeholders}` (`ics/{shiftId}`); their values reach the
    handler as `call.params`. A successful write operation bumps `instance.version` and
    tells open pages the instance changed (see `groupkit.live`).
    """

    kind: str
    path: str
    handler: Handler
    method: str = "POST"
    body: type[ma.Schema] | None = None
    status: int = 200
    returns: BodyDoc | None = None
    content_type: str = "application/json"
    errors: Mapping[int, str] = dataclasses.field(default_factory=dict)
    summary: str = ""
    description: str = ""
    token_kinds: tuple[str, ...] = ()
    #: False for a POST that only reads (an export): it does not bump the version or wake
    #: live pages.
    changes: bool = True
    #: The 404 message when the credential is not found, where the spec words it for this
    #: operation (default: the tool's `not_found`, then the kernel's one message).
    not_found: str = ""

    @property
    def writes(self) -> bool:
        return self.method == "POST"


class Operations:
    """A tool's route table, filled by decorators:

        ops = Operations()

        @ops.public("claim", body=ClaimBody, status=201, returns=SecretReply,
                    errors={409: "spot taken"})
        def claim(call: Call) -> dict: ...
    """

    def __init__(self) -> None:
        self.operations: list[Operation] = []

    def _add(self, kind: str, path: str, **options: Any) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            summary = options.pop("summary", "") or (handler.__doc__ or "").strip().split("\n")[0]
            self.operations.append(Operation(kind=kind, path=path.strip("/"), handler=handler,
                                             summary=summary, **options))
            return handler
        return register

    def public(self, path: str, **options: Any) -> Callable[[Handler], Handler]:
        return self._add("public", path, **options)

    def organiser(self, path: str, **options: Any) -> Callable[[Handler], Handler]:
        return self._add("organiser", path, **options)

    def participant(self, path: str, *, token_kinds: Sequence[str],
                    **options: Any) -> Callable[[Handler], Handler]:
        if "{token}" not in path:
            raise ValueError("a participant path carries {token}")
        return self._add("participant", path, token_kinds=tuple(token_kinds), **options)

    def read(self, path: str, **options: Any) -> Callable[[Handler], Handler]:
        return self._add("read", path, method="GET", **options)


View = Callable[[Instance], dict[str, Any]]
ParticipantView = Callable[[Instance, Credential], dict[str, Any]]


@dataclasses.dataclass
class Tool:
    """A tool plugin's whole declaration, returned by its `groupkit_tool` hook.

    name:       url name, `[a-z][a-z0-9]*` (`/api/<name>`); the entry point must have this name.
    title:      human name for menus and headings.
    version:    the plugin's version string.
    summary:    one sentence for the home page.
    create_schema: marshmallow schema class of the create body; fields in check order.
    create:     `create(instance, data)` stores a cleaned create body: sets `instance.data`
                and writes the tool's own rows; runs inside the create transaction.
    title_of:   the instance title from the cleaned body (slug words come from it).
    public_view:    `(instance) -> dict`: everything the public page shows; also served as
                    `GET /api/<name>/{slug}`. Never include private fields.
    organiser_view: `(instance) -> dict` for the organiser page.
    export:     `(instance) -> dict`, the organiser's JSON export (default: organiser_view).
    participant_view: `(instance, credential) -> dict` for `/p/{token}` (may write, e.g. to
                note that the page was opened); None when the tool has no private page.
    participant_kinds: credential kinds that open `/p/{token}`.
    operations: the tool's `Operations`.
    models:     peewee models the tool owns (each with a CASCADE foreign key to Instance).
    migrations: ordered `(name, fn(database))` steps; default: create `models`.
    templates:  folder holding `<name>/create.html`, `public.html`, `organiser.html` and
                `participant.html` (if any), each extending `groupkit/base.html`.
    static:     optional folder served at `/static/<name>/`.
    description: longer notes for the OpenAPI document (design choices the spec leaves open).
    not_found:  404 message for this tool's public-link requests (reads and public
                operations), where the spec words one; unknown, wrong-tool and deleted
                links still all answer alike.
    prune:      `(now) -> int` drops data past the tool's retention (returns rows removed);
                run by `groupkit prune` and periodically by the server, in one transaction.
    plugin_api: the kernel plugin API version the plugin is written for
                (`groupkit.PLUGIN_API_VERSION`); another version is refused at start-up.
    limits:     capacity limits by name (e.g. `{"messages": 400}`), shown in the OpenAPI
                document and enforced by the tool under the instance lock.
    preview:    `(instance) -> dict(title, description)` for link previews; default: title.
    public_schema: JSON Schema (or marshmallow schema) of `public_view`, for OpenAPI.
    example:    a valid create body: the OpenAPI example, and what the shared contract
                tests create every installed tool with.
    """

    name: str
    title: str
    version: str
    create_schema: type[ma.Schema]
    create: Callable[[Instance, dict[str, Any]], None]
    public_view: View
    organiser_view: View
    templates: Path
    summary: str = ""
    title_of: Callable[[dict[str, Any]], str] = lambda data: str(data.get("title", ""))
    export: View | None = None
    participant_view: ParticipantView | None = None
    participant_kinds: tuple[str, ...] = ()
    operations: Operations = dataclasses.field(default_factory=Operations)
    models: Sequence[type[pw.Model]] = ()
    migrations: Sequence[Migration] = ()
    static: Path | None = None
    limits: Mapping[str, int] = dataclasses.field(default_factory=dict)
    preview: View | None = None
    public_schema: BodyDoc | None = None
    example: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    description: str = ""
    prune: Callable[[dt.datetime], int] | None = None
    not_found: str = ""
    plugin_api: int = 1
    #: Optional: the tool posts to a chat webhook (`groupkit.ChatRitual`); see webhooks.py.
    chat: ChatRitual | None = None
    #: Optional, slot-claim tools: `(instance, claim, base_url) -> [CalendarEvent]`, the
    #: events of one claim's private subscription feed (see feeds.py).
    feed: Callable[[Instance, SlotClaim, str], Sequence[CalendarEvent]] | None = None

    def export_of(self, instance: Instance) -> dict[str, Any]:
        return (self.export or self.organiser_view)(instance)

    def preview_of(self, instance: Instance) -> dict[str, Any]:
        if self.preview is not None:
            return self.preview(instance)
        return {"title": instance.title or self.title, "description": self.summary}
