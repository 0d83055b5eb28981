"""What a tool plugin declares (`Tool`) and how it declares its operations (`Operations`).

A tool's operations are plain synchronous functions. The kernel resolves the credential,
cleans the body with the operation's schema, opens one write transaction holding the
instance lock, and calls the function with a `Call` (in a database thread, or for a SQLite
write whose turn is free, in the event loop's thread: so it must not wait on anything but the
database; on SQLite, in a savepoint of a transaction that writes arriving together share).
A function returns a JSON-able dict (sent with the operation's status) or a
`Reply`, or raises `ApiError`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import importlib.metadata
import importlib.resources
import sys
import tomllib
from collections.abc import Callable
from collections.abc import Hashable
from collections.abc import Mapping
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any
from typing import Protocol
from typing import Required
from typing import TypedDict
from typing import Unpack

import marshmallow as ma
import peewee as pw
import pluggy

from groupkit.core._declared import ChatRitual
from groupkit.core._declared import FeedSource
from groupkit.core._declared import Invitations
from groupkit.core._i18n import N_
from groupkit.core._i18n import translated
from groupkit.core._storage import Credential
from groupkit.core._storage import Instance
from groupkit.core._storage import Migration

#: Marks a plugin's hook implementations (`groupkit.hookimpl`); the specs are in
#: `groupkit.hookspecs`, which the kernel's plugin manager loads.
hookimpl = pluggy.HookimplMarker("groupkit")

#: The entry-point group through which tool plugins are installed.
ENTRY_POINT_GROUP = "groupkit.tools"

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
    #: True when the body carried `"confirm": true`: the organiser accepted the consequence a
    #: `conflict(..., confirm=True)` warned about (a redraw, say).
    confirmed: bool = False
    #: The instance version an edit was based on (`If-Match`, or the version the organiser
    #: page's form showed); None when the client did not say. The kernel's edit refuses a
    #: field someone changed since then (`groupkit.core._edits`).
    base_version: int | None = None


@dataclasses.dataclass
class Reply:
    """A response that is not plain JSON with the operation's status (CSV, a custom status)."""

    body: Any
    status: int = 200
    content_type: str = "application/json"
    headers: Mapping[str, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class AfterCommit:
    """A reply computed after the write has committed, in a read transaction of its own.

    Derived results (a recount, a ranking, a summary over every row) are not the write:
    computed inside it they hold the database's write lock, and on SQLite every other
    write on the server waits for them. A write handler returns `AfterCommit(fn)` instead
    of its reply; the kernel commits, then calls `fn()` in `storage().read(...)` and
    answers what it returns (a dict or a `Reply`, as a handler's), with the operation's
    status. `fn` reads the committed state afresh (a write committed meanwhile shows too),
    so it captures ids and values from the write, not rows loaded there."""

    fn: Callable[[], dict[str, Any] | Reply]


Handler = Callable[[Call], "dict[str, Any] | Reply | AfterCommit"]


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
    tells open pages the instance changed (see `groupkit.core._live`).
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
    #: The body is partial (only the fields sent are cleaned; an edit) and a 400 names its
    #: field in an extra `field` member.
    partial: bool = False

    @property
    def writes(self) -> bool:
        return self.method == "POST"


class ReadOptions(TypedDict, total=False):
    """The options every `Operations` decorator takes, as typed keywords (so mypy reports an
    unknown or mistyped one); each defaults to the `Operation` field of the same name."""

    body: type[ma.Schema] | None
    status: int
    returns: BodyDoc | None
    content_type: str
    errors: Mapping[int, str]
    summary: str
    description: str
    changes: bool
    not_found: str
    partial: bool


class OperationOptions(ReadOptions, total=False):
    """`ReadOptions` plus `method`, which every decorator but `read` (always GET) takes."""

    method: str


class Operations:
    """A tool's route table, filled by decorators:

        ops = Operations()

        @ops.public("claim", body=ClaimBody, status=201, returns=SecretReply,
                    errors={409: "spot taken"})
        def claim(call: Call) -> dict: ...

    The handler's docstring is the operation's OpenAPI text: its first line the summary, the
    rest the description, unless `summary=` or `description=` is given (as where the text
    quotes the code's constants).
    """

    def __init__(self) -> None:
        self.operations: list[Operation] = []

    def _add(self, kind: str, path: str, **options: Any) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            first, _, rest = (handler.__doc__ or "").strip().partition("\n")
            options.setdefault("summary", first)
            options.setdefault("description", " ".join(rest.split()))
            self.operations.append(Operation(kind=kind, path=path.strip("/"), handler=handler,
                                             **options))
            return handler
        return register

    def public(self, path: str,
               **options: Unpack[OperationOptions]) -> Callable[[Handler], Handler]:
        """`POST /api/<tool>/<path>`: anyone with the public link; the body carries `slug`."""
        return self._add("public", path, **options)

    def organiser(self, path: str,
                  **options: Unpack[OperationOptions]) -> Callable[[Handler], Handler]:
        """`/api/<tool>/{editToken}/<path>`: the organiser link only."""
        return self._add("organiser", path, **options)

    def participant(self, path: str, *, token_kinds: Sequence[str],
                    **options: Unpack[OperationOptions]) -> Callable[[Handler], Handler]:
        """`/api/<tool>/<path>` with `{token}` in the path: a participant token of one of
        `token_kinds`, issued by this tool."""
        if "{token}" not in path:
            raise ValueError("a participant path carries {token}")
        return self._add("participant", path, token_kinds=tuple(token_kinds), **options)

    def read(self, path: str, **options: Unpack[ReadOptions]) -> Callable[[Handler], Handler]:
        """`GET /api/<tool>/{slug}/<path>`: a read with the public link (a feed, a CSV)."""
        return self._add("read", path, method="GET", **options)


View = Callable[[Instance], dict[str, Any]]
ParticipantView = Callable[[Instance, Credential], dict[str, Any]]


@dataclasses.dataclass(init=False)
class Edit:
    """What a tool's organiser may change after creation: `POST /api/<name>/{editToken}/edit`
    and the "Change details" form on the organiser page.

    fields:  the create-schema fields the organiser may change, re-checked with the create
             schema's own rules and messages (or `schema`'s). The body is partial: only the
             fields sent are cleaned, and only they change.
    current: `(instance) -> dict`: the current values of `fields`, shaped like a create body;
             pre-fills the form and gives the title after an edit (`Tool.title_of`).
             Default `stored_values(*fields)`: the title, the rest from `instance.data`.
    apply:   `apply(call)` with `call.data` holding only the changed fields, cleaned. It
             reconciles the change with what participants did, inside the operation's
             transaction and instance lock: it applies it, or raises `conflict(message,
             field)` when it would lose someone's claim, vote, message or guess (never drop
             one silently; the organiser frees it with the tool's explicit remove first, or,
             where the tool offers it, by confirming) or change an outcome that is final (a
             closed poll, a revealed game). A change the organiser may accept (a redraw, a
             board group taken away with its claims) raises `conflict(..., confirm=True)`
             until `call.confirmed`. It returns the changes left to store the default
             way, or None when it stored everything itself. The default way (and the
             default `apply`): each value replaces `instance.data[field]`; `title` sets
             the instance title.
    schema:  the schema to check fields with; default the tool's `create_schema`. A subclass
             may add keys the form needs (e.g. which existing row an entry continues).
    errors:  the 409s `apply` raises, for the OpenAPI document.
    description: notes on the edit operation for the OpenAPI document.
    template: the form's fields, default `<name>/_fields.html`: the same template the
             create page includes, rendered with `values` (the current values here, the
             defaults there) and `prefix` (prepended to every id; "edit-" here).
    A write that changes an edit field is noted (`groupkit.core._edits`), so an edit based
    on an older version never overwrites it unseen: the kernel reads `current` on both
    sides of every organiser operation, and of every operation when `current` is
    `stored_values` (which reads no table). A public or participant operation that changes
    an edit field otherwise (a vote whose suggestion adds a poll option) calls
    `mark_edited(instance, field)`.
    """

    fields: Sequence[str]
    current: View
    apply: Callable[[Call], Mapping[str, Any] | None] | None = None
    schema: type[ma.Schema] | None = None
    errors: Mapping[int, str] = dataclasses.field(default_factory=dict)
    description: str = ""
    template: str = ""

    def __init__(self, fields: Sequence[str], current: View | None = None,
                 apply: Callable[[Call], Mapping[str, Any] | None] | None = None,
                 schema: type[ma.Schema] | None = None,
                 errors: Mapping[int, str] | None = None, description: str = "",
                 template: str = "") -> None:
        self.fields, self.apply, self.schema = tuple(fields), apply, schema
        self.current = current or stored_values(*fields)
        self.errors, self.description, self.template = dict(errors or {}), description, template

    def watches(self, op: Operation) -> bool:
        """Whether the kernel notes which edit fields `op` changes (see above)."""
        return op.kind == "organiser" or getattr(self.current, "reads_data_only", False)


def stored_values(*fields: str) -> View:
    """An `Edit.current` for a tool that keeps its create fields as they were cleaned:
    `title` from the instance, every other field from `instance.data`."""
    def current(instance: Instance) -> dict[str, Any]:
        data = instance.data or {}
        return {field: instance.title if field == "title" else data[field] for field in fields}
    setattr(current, "reads_data_only", True)  # noqa: B010
    return current


def store_changes(instance: Instance, changes: Mapping[str, Any]) -> None:
    """The default way an edit is stored: each changed value replaces the stored one."""
    rest = dict(changes)
    if "title" in rest:
        instance.title = rest.pop("title")
    instance.data = {**(instance.data or {}), **rest}


class Participation(Protocol):
    """What a `Walkthrough` drives: the tool's JSON API on one instance of its `example`.
    Each call asserts success and answers the reply's JSON; participant tokens in replies
    are noted, so their `/p/{token}` pages can be visited."""

    def public(self, path: str, body: dict[str, Any]) -> Any:
        """`POST /api/<tool>/<path>` with the instance's slug added to the body."""

    def organiser(self, path: str, body: Any = None) -> Any:
        """`POST /api/<tool>/{editToken}/<path>`."""

    def participant(self, path: str, token: str, body: Any = None) -> Any:
        """`POST /api/<tool>/<path>` with `{token}` in the path filled in."""

    def read(self) -> Any:
        """`GET /api/<tool>/{slug}`: the public view."""

    def get(self, path: str, **params: str) -> Any:
        """`GET /api/<tool>/{slug}/<path>` (a read operation)."""

    def text(self, label: str, example: str) -> Any:
        """A free-text value to send: `example` for the page-state suite; the security
        suites put their payloads there instead (`label` names the field, e.g.
        "respond.name.1"; a non-zero index marks one of several siblings)."""


@dataclasses.dataclass(frozen=True)
class Walkthrough:
    """How an instance of the tool's `example` reaches each page state, for the kit's
    all-states browser suite (`groupkit_testing.allstates`) and cross-tool suites: `take_part`
    makes the calls of ordinary participation (issuing at least one participant token when
    the tool has a private page); `reveal`, where the tool has one, the organiser's step that
    shows what participation kept back (a reveal, a close, a result)."""

    take_part: Callable[[Participation], None]
    reveal: Callable[[Participation], None] | None = None


#: Where a `Hidden` value may (and must) be seen.
HIDDEN_PLACES = ("organiser", "participant", "reply")


@dataclasses.dataclass(frozen=True)
class Hidden:
    """A value the tool keeps off the public side, declared in `Tool.hidden` so the kit's
    privacy suite (`groupkit_testing.PrivacySuite`) can check any tool: whatever is written
    into `field` of `operation` ("create" for the create body, else an operation's path as
    declared: "claim", "details", "p/{token}/wishlist"; a dotted field such as "payment"
    covers everything inside it) never shows on the public page, its link preview, the
    public JSON and read operations, the live stream, the share sheet or the server's log.

    shown_to: the places that do show it, and must (so the scan is never vacuous):
              "organiser" (organiser page, export, organiser reads), "participant" (the
              `/p/{token}` pages and their reads), "reply" (the answer to the call that
              sent it). Any place not named must not show it either.
    """

    field: str
    operation: str = "create"
    shown_to: tuple[str, ...] = ("organiser",)

    def __post_init__(self) -> None:
        unknown = set(self.shown_to) - set(HIDDEN_PLACES)
        if not self.shown_to or unknown:
            raise ValueError(f"Hidden({self.field!r}): shown_to names one or more of "
                             f"{HIDDEN_PLACES}, not {sorted(unknown) or 'nothing'}")


#: Home page groups a tool may name in `Tool.group`, in the order the home page shows them.
GROUPS: Mapping[str, str] = {
    "work": N_("Work team"),
    "celebrations": N_("Celebrations and gifts"),
    "events": N_("Events and sign-ups"),
    "games": N_("Games and draws"),
    "other": N_("More tools"),
}


@dataclasses.dataclass
class Tool:
    """A tool plugin's whole declaration, returned by its `groupkit_tool` hook.

    name:       url name, `[a-z][a-z0-9]{1,29}` (`/api/<name>`), none of the kernel's own
                (`api`, `new`, `static`, ...); the entry point must have this name.
    title:      human name for menus and headings.
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
    reset_kinds: those of `participant_kinds` that mark a link the organiser reset
                (`retire_tokens`): `/p/{token}` still renders the participant page (which
                says so) but answers 404 with `Cache-Control: no-store`, as every invalid
                credential does, and no API operation accepts it.
    operations: the tool's `Operations`.
    models:     peewee models the tool owns (each with a CASCADE foreign key to Instance).
    migrations: ordered `(name, fn(database))` steps; default: create `models`.
    static:     optional folder served at `/static/<name>/`; default the `static` folder
                beside that `templates` folder, if there is one.
    description: longer notes for the OpenAPI document (design choices the spec leaves open).
    not_found:  404 message for this tool's public-link requests (reads and public
                operations), where the spec words one; unknown, wrong-tool and deleted
                links still all answer alike.
    prune:      `(now) -> int` drops data past the tool's retention (returns rows removed);
                run by `groupkit prune` and periodically by the server, in one transaction.
    view_time:  `(instance, now) -> hashable`, for a tool whose views depend on the clock:
                the part they depend on (e.g. the local day). Rendered views are cached per
                instance version and this value; a view that reads `request_time()` without
                it is not cached at all.
    plugin_api: required, keyword only: the oldest and newest groupkit plugin API versions
                the plugin works with, as literals, e.g. `plugin_api=(1, 1)`; a kernel
                whose `PLUGIN_API_VERSION` is outside that range refuses the plugin at
                start-up, by name (the plugin docs list what changed in each version).
    limits:     capacity limits by name (e.g. `{"messages": 400}`), shown in the OpenAPI
                document and enforced by the tool under the instance lock.
    preview:    `(instance) -> dict(title, description)` for link previews; default: title.
    public_schema: JSON Schema (or marshmallow schema) of `public_view`, for OpenAPI.
    example:    a valid create body: the OpenAPI example, and what the shared contract
                tests create every installed tool with.
    edit:       what the organiser may change after creation (`Edit`); None: nothing.
    chat:       optional: the tool posts to a team chat webhook (`ChatRitual`, made with
                `chat_operations`).
    invite:     optional: the tool's people have personal links (`Invitations`): the kernel
                adds `invite`, which emails each person their own link.
    feed:       optional: private calendar subscriptions of one claim or one participant
                link (`FeedSource`, made by `slot_feed_operations` or
                `participant_feed_operations`).
    group:      the home page group, a key of `GROUPS` ("work", "celebrations", "events",
                "games"); default "other".
    icon:       one emoji (or a short symbol) shown beside the title on the home page.
    walkthrough: how an instance of `example` reaches each page state (`Walkthrough`),
                for the all-states browser suite; None: only the pages creation makes.
    hidden:     the values the tool keeps off the public side (`Hidden`), for the kit's
                privacy suite; `()` declares that nothing but the links themselves is
                private. None (the default) declares nothing: the suite reports the tool.
    version:    keyword only: the plugin's version string; default the version of the
                distribution that installed the package defining `create`.
    templates:  keyword only: folder holding `<name>/create.html`, `public.html`,
                `organiser.html` and `participant.html` (if any), each extending
                `groupkit/base.html`; default the `templates` folder of the package that
                defines `create` (the nearest one up from its module).
    """

    name: str
    title: str
    create_schema: type[ma.Schema]
    create: Callable[[Instance, dict[str, Any]], None]
    public_view: View
    organiser_view: View
    summary: str = ""
    title_of: Callable[[dict[str, Any]], str] = lambda data: str(data.get("title", ""))
    export: View | None = None
    participant_view: ParticipantView | None = None
    participant_kinds: tuple[str, ...] = ()
    reset_kinds: tuple[str, ...] = ()
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
    view_time: Callable[[Instance, dt.datetime], Hashable] | None = None
    # Written as literals by the plugin, never read from the running kernel's constant,
    # so a kernel of another contract version can tell the plugin was not written for it.
    plugin_api: tuple[int, int] = dataclasses.field(kw_only=True)
    edit: Edit | None = None
    chat: ChatRitual | None = None
    feed: FeedSource | None = None
    invite: Invitations | None = None
    group: str = "other"
    icon: str = ""
    walkthrough: Walkthrough | None = None
    hidden: Sequence[Hidden] | None = None
    # Found from the plugin's own package when not given (`__post_init__`), so a plugin
    # declares them only to point elsewhere.
    version: str = dataclasses.field(default="", kw_only=True)
    templates: Path | None = dataclasses.field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        module = getattr(self.create, "__module__", None) or ""
        folder = _package_folder(module)
        if self.templates is None and folder is not None:
            self.templates = folder / "templates"
        if self.static is None and folder is not None and (folder / "static").is_dir():
            self.static = folder / "static"
        if not self.version:
            self.version = _distribution_version(module.partition(".")[0])

    @functools.cached_property
    def stylesheet(self) -> str:
        """`/static/<name>/<name>.css` where the tool's static folder has that file, else "":
        every page of the tool links it (base.html's `assets` block)."""
        return self._asset("css")

    @functools.cached_property
    def script(self) -> str:
        """`/static/<name>/<name>.js` where the tool's static folder has that file, else "":
        every page of the tool loads it, so it acts only where its own markup is."""
        return self._asset("js")

    def _asset(self, suffix: str) -> str:
        found = self.static is not None and (self.static / f"{self.name}.{suffix}").is_file()
        return f"/static/{self.name}/{self.name}.{suffix}" if found else ""

    @classmethod
    def from_module(cls, module: ModuleType, /, **fields: Unpack[ToolFields]) -> Tool:
        """The declaration with the callables a plugin's api module defines under their
        usual names, so the `Tool` call lists only what is particular to the tool:
        `create`, `public_view`, `organiser_view`, `participant_view`, `export`,
        `preview`, `title_of` by those names, `operations` from `ops`, `edit` from `EDIT`.
        A field given in `fields` wins; a name the module lacks keeps the field's default.
        The catalogue facts may come from the package's `tool.toml` instead (`toml_fields`)."""
        found: dict[str, Any] = {}
        data = toml_fields(module)
        if twice := sorted(set(data) & set(fields)):
            raise DeclarationError(f"{_toml_path(module)}: {', '.join(twice)} also given in "
                                   f"Python; declare each field once")
        found.update(data)
        for field, attribute in MODULE_NAMES.items():
            if field in fields or not hasattr(module, attribute):
                continue
            value = getattr(module, attribute)
            kind = {"operations": Operations, "edit": Edit}.get(field)
            if not (isinstance(value, kind) if kind else callable(value)):
                raise TypeError(f"{module.__name__}.{attribute} is not "
                                f"{'an ' + kind.__name__ if kind else 'callable'}")
            found[field] = value
        declared = {**found, **fields}
        if missing := [field for field in ("name", "title") if field not in declared]:
            raise DeclarationError(f"{module.__name__}: the declaration has no "
                                   f"{' and no '.join(missing)}: give it in Python or in "
                                   f"{_toml_path(module)}")
        return cls(**declared)

    @classmethod
    def hook(cls, module: ModuleType, /, **fields: Unpack[ToolFields]) -> Callable[[], Tool]:
        """The plugin's `groupkit_tool` hook implementation, in one assignment:
        `groupkit_tool = Tool.hook(api, name=..., ...)` declares what `@hookimpl def
        groupkit_tool(): return Tool.from_module(api, ...)` does. The `Tool` is built when
        the kernel calls the hook, so a faulty declaration is reported like any other."""
        def groupkit_tool() -> Tool:
            return cls.from_module(module, **fields)
        return hookimpl(groupkit_tool)

    def export_of(self, instance: Instance) -> dict[str, Any]:
        return (self.export or self.organiser_view)(instance)

    def preview_of(self, instance: Instance) -> dict[str, Any]:
        if self.preview is not None:
            return self.preview(instance)
        # The tool's own words, in the reader's language (an instance's title is typed).
        return {"title": instance.title or translated(self.title),
                "description": translated(self.summary)}


#: The `Tool` fields `Tool.from_module` takes from the module, and the names it looks for.
MODULE_NAMES: Mapping[str, str] = {
    "create": "create", "public_view": "public_view", "organiser_view": "organiser_view",
    "participant_view": "participant_view", "export": "export", "preview": "preview",
    "title_of": "title_of", "operations": "ops", "edit": "EDIT"}


#: The `Tool` fields a plugin may write in `tool.toml`, in its package beside the api module,
#: and the TOML type each takes: the catalogue facts, which are data that writers edit, not
#: code. Everything else (schemas, callables, models, limits built from constants) stays in
#: Python, where mypy checks it.
TOML_FIELDS: Mapping[str, type] = {
    "name": str, "title": str, "plugin_api": list, "summary": str, "description": str,
    "group": str, "icon": str, "not_found": str, "example": dict}


class DeclarationError(ValueError):
    """A declaration the kernel refuses with one line naming the file and the field, at
    start-up (never a traceback): a faulty `tool.toml` or a field declared twice."""


def _toml_path(module: ModuleType) -> str:
    return f"{module.__name__.rpartition('.')[0] or module.__name__}/tool.toml"


def toml_fields(module: ModuleType) -> dict[str, Any]:
    """The fields the `tool.toml` of `module`'s package declares ({} when it has none),
    checked against `TOML_FIELDS`; `plugin_api` becomes the tuple `Tool` takes."""
    package = module.__name__.rpartition(".")[0] if not hasattr(module, "__path__") \
        else module.__name__
    if not package:
        return {}
    try:
        text = importlib.resources.files(package).joinpath("tool.toml").read_text("utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return {}
    where = _toml_path(module)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeclarationError(f"{where} is not valid TOML: {exc}") from None
    for key, value in data.items():
        kind = TOML_FIELDS.get(key)
        if kind is None:
            raise DeclarationError(f"{where}: {key!r} is not a field tool.toml may declare "
                                   f"(it may declare {', '.join(TOML_FIELDS)})")
        if not isinstance(value, kind):
            raise DeclarationError(f"{where}: {key!r} must be a TOML "
                                   f"{_TOML_NAMES[kind]}, not {type(value).__name__}")
    if "plugin_api" in data:
        api = data["plugin_api"]
        if len(api) != 2 or not all(type(end) is int for end in api):
            raise DeclarationError(f"{where}: 'plugin_api' must be two whole numbers, "
                                   f"[oldest, newest], e.g. [1, 1]")
        data["plugin_api"] = tuple(api)
    return data


_TOML_NAMES: Mapping[type, str] = {str: "string", list: "array", dict: "table"}


class ToolFields(TypedDict, total=False):
    """`Tool`'s fields as typed keywords of `Tool.from_module` (so mypy checks them); the
    ones `from_module` can find in the module or its package's `tool.toml` are optional here
    (`Tool` still refuses a declaration that ends up without them)."""

    name: str
    title: str
    create_schema: Required[type[ma.Schema]]
    plugin_api: tuple[int, int]
    create: Callable[[Instance, dict[str, Any]], None]
    public_view: View
    organiser_view: View
    summary: str
    title_of: Callable[[dict[str, Any]], str]
    export: View | None
    participant_view: ParticipantView | None
    participant_kinds: tuple[str, ...]
    reset_kinds: tuple[str, ...]
    operations: Operations
    models: Sequence[type[pw.Model]]
    migrations: Sequence[Migration]
    static: Path | None
    limits: Mapping[str, int]
    preview: View | None
    public_schema: BodyDoc | None
    example: Mapping[str, Any]
    description: str
    prune: Callable[[dt.datetime], int] | None
    not_found: str
    view_time: Callable[[Instance, dt.datetime], Hashable] | None
    edit: Edit | None
    chat: ChatRitual | None
    feed: FeedSource | None
    invite: Invitations | None
    group: str
    icon: str
    walkthrough: Walkthrough | None
    hidden: Sequence[Hidden] | None
    version: str
    templates: Path | None


def _package_folder(module: str) -> Path | None:
    """The folder of the nearest package, from `module` up, that holds a `templates` folder;
    never the kernel's own."""
    parts = module.split(".")
    if parts[0] == "groupkit":
        return None
    for end in range(len(parts), 0, -1):
        file = getattr(sys.modules.get(".".join(parts[:end])), "__file__", None)
        if file and (Path(file).parent / "templates").is_dir():
            return Path(file).parent
    return None


@functools.cache
def _entry_point_versions() -> dict[str, str]:
    """Top-level package -> version of the distribution whose tool entry point names it, from
    one scan of the installed distributions (a scan per tool was a tenth of a start-up)."""
    versions: dict[str, str] = {}
    for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(entry_point, "dist", None)
        if dist is not None:
            versions.setdefault(entry_point.module.partition(".")[0], str(dist.version))
    return versions


@functools.cache
def _distribution_version(package: str) -> str:
    """The version of the distribution that installed top-level `package`: the one whose
    tool entry point names it (an editable install records no package files), else the
    one that lists it; "unknown" for one no distribution installed (a test's own module)."""
    found = _entry_point_versions().get(package)
    if found is not None:
        return found
    for dist in importlib.metadata.packages_distributions().get(package, ()):
        return importlib.metadata.version(dist)
    return "unknown"
