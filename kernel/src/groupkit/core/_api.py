"""The JSON API: the kernel's create / read / delete / export endpoints and the mounting of
every tool's operations, all with one body parser, one resolution path and one error shape."""

from __future__ import annotations

import asyncio
import contextvars
import datetime as dt
import json
import re
from collections.abc import Awaitable
from collections.abc import Callable
from typing import Any
from typing import Protocol

from quart import Quart
from quart import Response
from quart import copy_current_request_context
from quart import current_app
from quart import g
from quart import request
from werkzeug.exceptions import RequestTimeout
from werkzeug.routing import BaseConverter

from groupkit.core import _edits as edits
from groupkit.core import _i18n as i18n
from groupkit.core import _limits as limits
from groupkit.core import _live as live
from groupkit.core import _resolve as resolve
from groupkit.core import _schema as schema
from groupkit.core._credentials import SLUG_REGEX
from groupkit.core._credentials import digest
from groupkit.core._credentials import new_edit_token
from groupkit.core._credentials import new_slug
from groupkit.core._errors import ALL_ERRORS_HEADER
from groupkit.core._errors import ApiError
from groupkit.core._fields import json_int
from groupkit.core._rendered import RenderCache
from groupkit.core._rendered import respond
from groupkit.core._storage import Instance
from groupkit.core._storage import Storage
from groupkit.core._tool import AfterCommit
from groupkit.core._tool import Call
from groupkit.core._tool import Edit
from groupkit.core._tool import Operation
from groupkit.core._tool import Operations
from groupkit.core._tool import Reply
from groupkit.core._tool import Tool
from groupkit.core._tool import store_changes


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _storable(value: Any) -> Any:
    """JSON may escape half a surrogate pair (`"\\ud800"`) or a NUL (`"\\u0000"`). Neither
    can be stored everywhere (PostgreSQL text refuses NUL) or sent as UTF-8, so each lone half
    becomes U+FFFD, as a browser's decoder would make it, and NUL is dropped."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value).replace("\x00", "")
    if isinstance(value, list):
        return [_storable(item) for item in value]
    if isinstance(value, dict):
        return {_storable(key): _storable(item) for key, item in value.items()}
    return value


#: What a body holds where it escapes half a surrogate pair or a NUL (see `_storable`).
_ESCAPES = ("\\ud", "\\uD", "\\u0000")


def parse_body(raw: bytes | str) -> Any:
    """Strict JSON (no NaN or Infinity; an integer of more than MAX_DIGITS digits reads as
    an infinity, as in a browser, see fields.json_int); anything unreadable, however broken
    or deeply nested, reads as `{}`. Lone surrogates become U+FFFD; NUL characters are dropped."""
    if not raw:
        return {}
    try:
        if isinstance(raw, str):
            text = raw
            body = json.loads(text, parse_constant=_refuse_constant, parse_int=json_int)
        elif json.detect_encoding(raw) in ("utf-8", "utf-8-sig"):
            # Decoded once, strictly (`json.loads` of bytes decodes them again, leniently);
            # a byte-order mark is read past, as `json.loads` of bytes does.
            text = raw.decode("utf-8").removeprefix("\ufeff")
            body = json.loads(text, parse_constant=_refuse_constant, parse_int=json_int)
        else:  # UTF-16 or UTF-32 as `json.loads` reads them: read only if UTF-8 too
            body = json.loads(raw, parse_constant=_refuse_constant, parse_int=json_int)
            text = raw.decode("utf-8")
        # Not in a lower-cased copy: that cost more than reading a 10 MB body. (`\\U` is no
        # JSON escape, so only the hex digits' case varies.) A backslash is looked for
        # first: most bodies have none, and one character is found many times faster than
        # a string (0.7 ms against 12 in 10 MB of text).
        if "\\" in text and any(escape in text for escape in _ESCAPES):
            body = _storable(body)
        return body
    except (ValueError, UnicodeDecodeError, RecursionError):
        return {}


async def json_body() -> Any:
    """The request body as JSON; invalid JSON (or none) reads as `{}`.

    Read as `request.get_data` reads it, under the same `body_timeout`, but through
    `asyncio.timeout` rather than `asyncio.wait_for`, which on Python 3.11 wraps the body in
    a task of its own that runs only at the loop's next turn, even when the body (a small
    JSON one, almost always) came with the headers and is complete already."""
    try:
        async with asyncio.timeout(request.body_timeout):
            raw: bytes = await request.body
    except TimeoutError as late:
        raise RequestTimeout() from late
    return parse_body(raw)


def json_response(body: Any, status: int = 200,
                  headers: dict[str, str] | None = None) -> Response:
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return Response(text, status=status, content_type="application/json",
                    headers=headers or {})


def now() -> dt.datetime:
    clock: Callable[[], dt.datetime] = current_app.config["GROUPKIT_CLOCK"]
    return clock()


def base_url() -> str:
    configured: str = current_app.config["GROUPKIT_SETTINGS"].base_url
    if configured:
        return configured
    # werkzeug's host_url re-reads and IRI-converts the URL each time; every operation
    # asks, so the answer is kept per (scheme, Host header, root path).
    key = (request.scheme, request.headers.get("Host", ""), request.root_path)
    found = _HOST_URLS.get(key)
    if found is None:
        found = request.host_url.rstrip("/")
        if len(_HOST_URLS) < 64:
            _HOST_URLS[key] = found
    return found


_HOST_URLS: dict[tuple[str, str, str], str] = {}


def storage() -> Storage:
    store: Storage = current_app.config["GROUPKIT_STORAGE"]
    return store


def render_cache() -> RenderCache:
    cache: RenderCache = current_app.config["GROUPKIT_RENDERED"]
    return cache


def pending_limit() -> Callable[[], None] | None:
    """The rate-limit count the limiter left for this request's database trip (see
    app._install_limits): counting in the same thread hop as the work saves a hop."""
    check: Callable[[], None] | None = g.get("groupkit_limit")
    return check


def _clean_create(tool: Tool, body: Any) -> dict[str, Any] | ApiError:
    """The cleaned create body, or the 400 it earns (raised later, in the transaction,
    after the rate-limit count)."""
    try:
        return schema.load(schema.instance_of(tool.create_schema), body)
    except ApiError as error:
        return error


def creator_language() -> str:
    """The language a new instance's group is sent messages in, until the organiser
    changes it: the creator's own (their choice in the switcher, else their browser's);
    empty for English."""
    catalogs: i18n.Catalogs | None = current_app.config.get("GROUPKIT_CATALOGS")
    if catalogs is None or len(catalogs.languages) == 1:
        return ""
    chosen = catalogs.pick(request.cookies.get(i18n.COOKIE),
                           request.headers.get("Accept-Language"))
    return "" if chosen == i18n.DEFAULT else chosen


def _create(tool: Tool, cleaned: dict[str, Any] | ApiError,
            language: str = "") -> dict[str, str]:
    if isinstance(cleaned, ApiError):
        raise cleaned
    data = cleaned
    edit_token = new_edit_token()
    title = tool.title_of(data)
    # Stored when the tool's create first needs its key (rows of its own), else in one
    # INSERT with everything the create filled in.
    instance = Instance.pending(tool=tool.name, slug=new_slug(title, tool.name),
                                edit_digest=digest(edit_token), title=title,
                                language=language)
    tool.create(instance, data)
    instance.save()
    return {"slug": instance.slug, "editToken": edit_token}


class FormPosts(Protocol):
    """How an operation answers a page's form posted without JavaScript: it runs as for
    JSON and the answer is a redirect back to the page. The web layer provides it
    (`groupkit.web._forms`) and the app hands it to `mount`; without it the API reads JSON
    only. Kept behind this protocol so the core imports no upper layer."""

    def is_form_post(self) -> bool: ...

    async def submit(self, storage: Storage, now: dt.datetime,
                     fallback: Callable[[dict[str, Any]], str],
                     run: Callable[[dict[str, Any]], Awaitable[Response]]) -> Response: ...


def create_view(tool: Tool, posts: FormPosts | None = None) -> Callable[[], Any]:
    async def run(body: Any) -> Response:
        # Cleaned before the transaction (it needs no database), so the write holds the
        # database only for the work itself.
        cleaned = _clean_create(tool, body)
        label = WRITING.set((tool.name, f"/api/{tool.name}"))
        try:
            created = await storage().write(_create, tool, cleaned, creator_language(),
                                            before=pending_limit())
        finally:
            WRITING.reset(label)
        return json_response(created, 201, PRIVATE)

    async def create() -> Response:
        if posts is not None and posts.is_form_post():
            return await posts.submit(storage(), now(), lambda _: f"/new/{tool.name}", run)
        try:
            return await run(await json_body())
        except ApiError as error:
            return _every_failure(error)
    create.__name__ = f"create_{tool.name}"
    return create


def _every_failure(error: ApiError) -> Response:
    """A body's 400 with every failing field, for a page that asks (`ALL_ERRORS_HEADER`,
    as groupkit.js does) so it can show each message at its field; else re-raised as is,
    the spec's `{"error"}` alone."""
    if error.errors and request.headers.get(ALL_ERRORS_HEADER) == "all":
        body = error.body()
        body["field"] = error.errors[0][0]
        body["errors"] = [{"field": f, "error": m} for f, m in error.errors]
        return json_response(for_page(body, error), error.status, error.headers)
    raise error


def for_page(body: dict[str, Any], error: ApiError) -> dict[str, Any]:
    """A refusal's body as a page's script asks for it (`ALL_ERRORS_HEADER`): beside the
    spec's English `error`, `shown` says it in the reader's language (and so does each of
    `errors`), when that is not English. Every other client gets the spec's body."""
    if request.headers.get(ALL_ERRORS_HEADER) != "all":
        return body
    catalogs: i18n.Catalogs = current_app.config["GROUPKIT_CATALOGS"]
    language = catalogs.pick(request.cookies.get(i18n.COOKIE),
                             request.headers.get("Accept-Language"))
    if language == i18n.DEFAULT:
        return body
    with i18n.speaking(catalogs, language):
        body["shown"] = i18n.translated(error.message)
        more = dict(error.errors)
        for entry in body.get("errors", ()):
            entry["shown"] = i18n.translated(more.get(entry["field"], entry["error"]))
        for conflict in body.get("conflicts", ()):  # an edit's (`groupkit.core._edits`)
            conflict["shown"] = i18n.translated(conflict["text"])
    return body


def not_found_message(tool: Tool, op: Operation | None = None) -> str | None:
    """The spec's wording of a 404 for this request, if it has its own."""
    if op is not None and op.not_found:
        return op.not_found
    if op is None or op.kind in ("public", "read"):
        return tool.not_found or None
    return None


def reworded(message: str | None, error: ApiError) -> ApiError:
    if message and error.status == 404:
        return ApiError(404, message, error.headers)
    return error


def _public_json(tool: Tool, instance: Instance) -> tuple[str, str]:
    body = json.dumps(tool.public_view(instance), ensure_ascii=False, separators=(",", ":"))
    return body, "application/json"


def public_read_view(tool: Tool) -> Callable[..., Any]:
    async def view(slug: str) -> Response:
        def locate() -> tuple[Tool, Instance]:
            try:
                return tool, resolve.by_slug(tool.name, slug)
            except ApiError as error:
                raise reworded(not_found_message(tool), error) from None

        rendered = await render_cache().serve(storage(), locate, "json:public", now(), (),
                                              _public_json, link=(tool.name, slug))
        return respond(rendered)
    view.__name__ = f"read_{tool.name}"
    return view


STREAMS_LIMIT_MESSAGE = i18n.N_(
    "Too many live pages open from this connection — close a few and try again.")


def live_view(tool: Tool) -> Callable[..., Any]:
    async def view(slug: str) -> Response:
        hub: live.LiveHub = current_app.config["GROUPKIT_LIVE"]
        settings = current_app.config["GROUPKIT_SETTINGS"]
        client = limits.client_address(request.remote_addr,
                                       request.headers.get("X-Forwarded-For"),
                                       current_app.config["GROUPKIT_TRUSTED"])
        if hub.streams_of(client) >= settings.streams_per_client:
            raise ApiError(429, STREAMS_LIMIT_MESSAGE, {"Retry-After": "30"})
        page: live.PageRenderer | None = None
        if request.args.get("page") == "public":
            renderer = current_app.config["GROUPKIT_PUBLIC_PAGE"]

            async def public_page() -> tuple[int, str] | None:
                result: tuple[int, str] | None = await renderer(slug)
                return result
            # Rendered later, while the stream runs: in a copy of this request's context.
            page = copy_current_request_context(public_page)
        try:
            events = await live.stream(hub, tool.name, slug, client, page)
        except ApiError as error:
            raise reworded(not_found_message(tool), error) from None
        response = Response(events, content_type="text/event-stream",
                            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        response.timeout = None
        return response
    view.__name__ = f"events_{tool.name}"
    return view


#: The tool and operation (its OpenAPI path) of the write this context runs: the labels the
#: write-lock measurement reports under (`Storage.lock_observer`).
WRITING: contextvars.ContextVar[tuple[str, str]] = contextvars.ContextVar(
    "groupkit_writing", default=("", ""))

#: Never kept by a browser or a shared proxy: every answer that may carry a participant's or
#: the organiser's private data (their own link's view, an export, a token just issued).
PRIVATE = {"Cache-Control": "no-store"}


def is_private(op: Operation) -> bool:
    """Organiser and participant routes, and every write (a claim answers with its token):
    only the group's public reads may be cached."""
    return op.kind in ("organiser", "participant") or op.writes


def _respond(op: Operation, result: dict[str, Any] | Reply) -> Response:
    if isinstance(result, Reply):
        headers = dict(result.headers)
        if result.content_type.startswith("application/json"):
            response = json_response(result.body, result.status, headers)
        else:
            response = Response(result.body, status=result.status,
                                content_type=result.content_type, headers=headers)
    else:
        response = json_response(result, op.status)
    if is_private(op):
        response.headers.update(PRIVATE)
    return response


def _page_of(tool: Tool, op: Operation, values: dict[str, str]) -> Callable[[Any], str]:
    """The page an operation's form lives on, where a form post returns when the browser
    sends no Referer."""
    def page(body: Any) -> str:
        if op.kind == "organiser":
            return f"/e/{values['edit_token']}"
        if op.kind == "participant":
            return f"/p/{values['token']}"
        slug = body.get("slug") if isinstance(body, dict) else None
        return f"/s/{slug}" if isinstance(slug, str) and slug else f"/new/{tool.name}"
    return page


def operation_view(tool: Tool, op: Operation,
                   posts: FormPosts | None = None) -> Callable[..., Any]:
    writing = (tool.name, route_rule(tool, op)[1])

    async def view(**values: str) -> Response:
        if op.writes and posts is not None and posts.is_form_post():
            return await posts.submit(storage(), now(), _page_of(tool, op, values),
                                      lambda body: execute(body, values))
        if not op.writes:
            return await execute({}, values)
        try:
            return await execute(await json_body(), values)
        except ApiError as error:
            return _every_failure(error)

    async def execute(body: Any, values: dict[str, str]) -> Response:
        # An operation rarely has a query string; parsing an empty one still builds a MultiDict.
        query = dict(request.args) if request.query_string else {}
        facts = _RequestFacts(now(), base_url(), query)
        if op.partial:
            facts.edit_base = (edits.form_base(), request.headers.get(edits.IF_MATCH))
        # Clean the body before the transaction (it needs no database), so the instance lock
        # is held only for the work itself; its error still comes after resolution's 404.
        facts.clean(op, body)

        def run() -> dict[str, Any] | Reply | AfterCommit:
            # Resolution and handler share one transaction, and so the instance lock.
            call = facts.resolve(tool, op, body, values)
            edit = tool.edit
            stamped = op.writes and op.changes and edit is not None and edit.watches(op) and \
                op.handler is not _delete
            before = edit.current(call.instance) if stamped and edit is not None else None
            if op.writes and op.changes:
                call.instance.hold_data_for_bump()
            result = op.handler(call)
            if op.writes and op.changes:
                if before is not None and edit is not None:
                    edits.stamp_changes(call.instance, before, edit.current(call.instance))
                live.changed(call.instance)
            return result

        if not op.writes:
            result = await storage().read(run)
        else:
            label = WRITING.set(writing)
            try:
                result = await storage().write(run, before=pending_limit(),
                                               key=_link(op, body, values))
            finally:
                WRITING.reset(label)
        if isinstance(result, AfterCommit):
            # Derived results: computed from the committed state, never under the write lock.
            result = await storage().read(result.fn)
        return _respond(op, result)
    view.__name__ = "_".join(
        [tool.name, op.kind, *op.path.replace("{", "").replace("}", "").split("/")])
    return view


#: The path value an operation of each kind (other than public) finds its instance by.
_LINK_VALUES = {"read": "slug", "organiser": "edit_token", "participant": "token"}


def _link(op: Operation, body: Any, values: dict[str, str]) -> str | None:
    """The link an operation resolves its instance by: a public operation's slug in the
    body (None when there is no string), else its slug, edit token or participant token in
    the path. Resolution uses it, and so does the write's turn (writes through one link
    lock one instance)."""
    if op.kind == "public":
        slug = body.get("slug") if isinstance(body, dict) else None
        return slug if isinstance(slug, str) else None
    return values[_LINK_VALUES[op.kind]]


class _RequestFacts:
    """What an operation needs from the request, captured before the unit of work."""

    def __init__(self, when: dt.datetime, base: str, query: dict[str, str]) -> None:
        self.when, self.base, self.query = when, base, query
        self.data: dict[str, Any] = {}
        self.invalid: ApiError | None = None
        #: An edit's base: (the form's, the `If-Match` header), read after resolution.
        self.edit_base: tuple[int | None, str | None] = (None, None)

    def clean(self, op: Operation, body: Any) -> None:
        if op.body is None:
            return
        try:
            self.data = schema.load(schema.instance_of(op.body), body, partial=op.partial)
        except ApiError as error:
            self.invalid = error

    def resolve(self, tool: Tool, op: Operation, body: Any, values: dict[str, str]) -> Call:
        try:
            return self._resolve(tool, op, body, values)
        except ApiError as error:
            raise reworded(not_found_message(tool, op), error) from None

    def _resolve(self, tool: Tool, op: Operation, body: Any, values: dict[str, str]) -> Call:
        lock = op.writes
        credential = token = edit_token = None
        link = _link(op, body, values)
        if op.kind in ("public", "read"):
            instance = resolve.by_slug(tool.name, link, lock=lock)
        elif op.kind == "organiser":
            edit_token = link
            instance = resolve.by_edit_token(tool.name, edit_token, lock=lock)
        else:
            token = link
            kinds = tuple(kind for kind in op.token_kinds if kind not in tool.reset_kinds)
            instance, credential = resolve.by_participant_token(tool.name, kinds, token,
                                                                lock=lock)
        if self.invalid is not None:
            raise self.invalid
        form_base, header = self.edit_base
        base_version = form_base if form_base is not None else edits.parse_base(header)
        data = self.data
        params = {k: v for k, v in values.items() if k not in ("slug", "edit_token", "token")}
        confirmed = isinstance(body, dict) and body.get("confirm") is True
        return Call(instance=instance, data=data, now=self.when, base_url=self.base,
                    credential=credential, token=token, edit_token=edit_token,
                    query=self.query, params=params, raw_body=body, confirmed=confirmed,
                    base_version=base_version)


def _delete(call: Call) -> dict[str, Any]:
    Instance.delete().where(Instance.id == call.instance.id).execute()
    live.removed(call.instance)
    return {"ok": True, "deleted": True}


def kernel_operations(tool: Tool) -> Operations:
    """Delete and export: organiser powers every tool has, provided by the kernel."""
    ops = Operations()

    ops.organiser("delete", returns={"type": "object", "properties": {
        "ok": {"type": "boolean"}, "deleted": {"type": "boolean"}}},
        summary="Delete the instance permanently, with every claim, participant and link.")(
        _delete)

    @ops.organiser("export", returns={"type": "object"}, changes=False,
                   summary="Export the whole instance as the organiser may see it.")
    def export(call: Call) -> Reply:
        instance = call.instance
        return Reply({"tool": tool.name, "toolVersion": tool.version, "slug": instance.slug,
                      "created": instance.created.replace(tzinfo=dt.UTC).isoformat(),
                      "title": instance.title, "data": tool.export_of(instance)},
                     headers={"ETag": edits.etag(instance.version)})

    if tool.edit is not None:
        edit_operation(tool, tool.edit, ops)
    return ops


EDIT_SUMMARY = ("Change what the organiser may change after creation; only the fields sent "
                "change. Links, claims and private pages stay valid.")
EDIT_NOTE = ("Partial: every field is optional and checked with the create rules and "
             "messages; a 400 or 409 also names the field it is about (`field`). A 409 "
             "with `confirm: true` (a redraw, or a sign-up board's group taken away with the "
             "claims in it, say) goes ahead when the same body is sent again with "
             "`\"confirm\": true`; a 409 without it cannot be confirmed: free the claim, "
             "vote, message or guess it names with the explicit remove first, or leave the "
             "outcome that is final (a closed poll, a revealed game) as it is. "
             "Send only the fields you change, with `If-Match` naming the version your edit "
             "is based on (the `ETag` the export or your last edit answered with): "
             "a field nobody changed since is applied; a field someone else changed since to "
             "another value is a 409 that names each such field (`conflicts`: `field`, "
             "`theirs`, `yours`, `text`) and the current `version`, and nothing is applied. "
             "Send the edit again with that version to keep yours, or without the field to "
             "keep theirs. Without `If-Match` every field sent is applied, as it comes.")


def edit_operation(tool: Tool, edit: Edit, ops: Operations) -> None:
    """`POST /api/<tool>/{editToken}/edit`: re-check the fields sent with the create rules,
    let the tool reconcile (or refuse with a 409), then set the title from the result."""
    body = schema.subset(edit.schema or tool.create_schema, edit.fields,
                         f"{tool.name.capitalize()}Edit")
    apply = edit.apply or (lambda call: call.data)

    @ops.organiser("edit", body=body, partial=True, summary=EDIT_SUMMARY,
                   description=" ".join(filter(None, [EDIT_NOTE, edit.description])),
                   errors=dict(edit.errors), returns={"type": "object", "properties": {
                       "ok": {"type": "boolean"},
                       "changed": {"type": "array", "items": {"type": "string"}}}})
    def edit_instance(call: Call) -> Reply:
        instance = call.instance
        if call.data:
            sent = call.raw_body if isinstance(call.raw_body, dict) else {}
            edits.check(instance, schema.instance_of(body),
                        {key: value for key, value in sent.items() if key in edit.fields},
                        edit.current(instance), call.base_version)
            left = apply(call)
            if left is not None:
                store_changes(instance, left)
            instance.title = tool.title_of({"title": instance.title, **edit.current(instance)})
            instance.save()
        # The version this edit makes (`live.changed` bumps it as the operation ends), as
        # the base of the next edit from the same client.
        return Reply({"ok": True, "changed": sorted(call.data)},
                     headers={"ETag": edits.etag(instance.version + 1)})


PLACEHOLDER = re.compile(r"\{(\w+)\}")
_RULE_NAMES = {"editToken": "<edit_token>", "slug": "<slug:slug>"}


class SlugConverter(BaseConverter):
    """Matches only slug-shaped segments, so an operation's own path (`/api/baby/guess`)
    never also reads as the public read of an instance called "guess"."""

    regex = SLUG_REGEX


def route_rule(tool: Tool, op: Operation) -> tuple[str, str]:
    """(Quart rule, OpenAPI path) of an operation."""
    base = f"/api/{tool.name}"
    if op.kind == "read":
        path = f"{base}/{{slug}}/{op.path}"
    elif op.kind == "organiser":
        path = f"{base}/{{editToken}}/{op.path}"
    else:
        path = f"{base}/{op.path}"
    rule = PLACEHOLDER.sub(lambda m: _RULE_NAMES.get(m[1], f"<{m[1]}>"), path)
    return rule, path


def all_operations(tool: Tool) -> list[Operation]:
    return [*tool.operations.operations, *kernel_operations(tool).operations]


def mount(app: Quart, tool: Tool, posts: FormPosts | None = None) -> set[str]:
    """Route the tool's API, its writes answering form posts through `posts`; returns the
    endpoints that take their rate-limit count from `pending_limit()`."""
    counted = {f"create_{tool.name}"}
    app.add_url_rule(f"/api/{tool.name}", f"create_{tool.name}", create_view(tool, posts),
                     methods=["POST"])
    app.add_url_rule(f"/api/{tool.name}/<slug:slug>", f"read_{tool.name}",
                     public_read_view(tool), methods=["GET"])
    app.add_url_rule(f"/api/{tool.name}/<slug:slug>/events", f"events_{tool.name}",
                     live_view(tool), methods=["GET"])
    for op in all_operations(tool):
        rule, _ = route_rule(tool, op)
        view = operation_view(tool, op, posts)
        app.add_url_rule(rule, view.__name__, view, methods=[op.method])
        counted.add(view.__name__)
    return counted
