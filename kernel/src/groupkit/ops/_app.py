"""`create_app`: the one place where settings, storage, plugins, API, pages and documents are
wired together."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader
from jinja2 import FileSystemLoader
from quart import Quart
from quart import Response
from quart import g
from quart import request
from quart.routing import QuartRule
from werkzeug.exceptions import HTTPException

from groupkit.blocks import _email as email
from groupkit.blocks import _feeds as feeds
from groupkit.blocks import _outbox as outbox
from groupkit.blocks import _reminders as reminders
from groupkit.blocks import _webhooks as webhooks
from groupkit.blocks._slots import SlotClaim
from groupkit.core import _api as api
from groupkit.core import _edits as edits
from groupkit.core import _i18n as i18n
from groupkit.core import _limits as limits
from groupkit.core import _live as live
from groupkit.core import _logs as logs
from groupkit.core import _moments as times
from groupkit.core import _rendered as rendered
from groupkit.core._config import ConfigError
from groupkit.core._config import Settings
from groupkit.core._errors import ApiError
from groupkit.core._i18n import N_
from groupkit.core._openapi import CATALOG_PROFILE
from groupkit.core._openapi import OPENAPI_PATH
from groupkit.core._openapi import api_catalog
from groupkit.core._openapi import openapi_document
from groupkit.core._storage import KERNEL_MODELS
from groupkit.core._storage import LANGUAGE_MIGRATION
from groupkit.core._storage import Storage
from groupkit.core._storage import apply_migrations
from groupkit.core._storage import initial_migration
from groupkit.core._storage import open_database
from groupkit.ops import _retention as retention
from groupkit.ops._plugins import Registry
from groupkit.ops._plugins import load_tools
from groupkit.web import _forms as forms
from groupkit.web import _pages as web
from groupkit.web import _share as share

log = logging.getLogger("groupkit")

UNEXPECTED = N_(
    "Something went wrong on our side — nothing was changed. Try again in a moment.")
HTTP_MESSAGES = {
    404: N_("Nothing here — check the link you were given."),
    405: N_("That method isn't allowed here."),
    413: N_("That request is too large."),
}


def utc_clock() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def migrate(storage: Storage, registry: Registry) -> dict[str, list[str]]:
    """Bring the kernel's and every enabled tool's tables up to date; returns what ran."""
    plan = {"groupkit": [initial_migration([*KERNEL_MODELS, SlotClaim, limits.RateCounter]),
                         webhooks.MIGRATION, forms.MIGRATION, edits.MIGRATION,
                         outbox.MIGRATION, email.MIGRATION, LANGUAGE_MIGRATION]}
    for tool in registry.tools.values():
        steps = list(tool.migrations) or ([initial_migration(tool.models)] if tool.models else [])
        plan[f"tool:{tool.name}"] = steps

    def run() -> dict[str, list[str]]:
        return {app: apply_migrations(app, steps) for app, steps in plan.items()}

    return storage.run_sync(run, write=True)


class _LazyBuildRule(QuartRule):
    """A route whose URL builder is compiled when a URL is first built from it, not when it
    is added. Werkzeug compiles two builders per route up front (Python code through `ast`
    and `compile`): two-thirds of the time `create_app` took with every tool (0.15 of 0.23 s
    for 284 routes), paid by every worker at start and by every test's app, while pages
    build URLs from a handful of routes (kernel/tests/test_app_routes.py)."""

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        compile_now = super()._compile_builder
        slot = "_build_unknown" if append_unknown else "_build"

        def build(rule: _LazyBuildRule, **values: Any) -> tuple[str, str]:
            compiled: Callable[..., tuple[str, str]] = compile_now(append_unknown).__get__(
                rule, None)
            setattr(rule, slot, compiled)
            return compiled(**values)

        return build


class _Groupkit(Quart):
    url_rule_class = _LazyBuildRule


def create_app(settings: Settings | None = None, *, extra_plugins: Iterable[object] = (),
               entry_points: bool = True, clock: Callable[[], dt.datetime] | None = None,
               run_migrations: bool = True) -> Quart:
    """The ASGI app with every enabled tool: what `groupkit serve` runs in each worker and
    what tests build (through `groupkit_testing.make_app`) on a database of their own."""
    settings = settings or Settings()
    registry = load_tools(settings, extra_plugins, entry_points)
    refused = webhooks.base_url_problem(settings, registry.tools.values())
    if refused:
        raise ConfigError(refused)
    storage = Storage(open_database(settings.database_url, settings.database_threads),
                      settings.database_threads)
    storage.bind()
    if run_migrations:
        migrate(storage, registry)

    app = _Groupkit("groupkit", static_folder=str(web.STATIC), static_url_path="/static",
                    template_folder=str(web.TEMPLATES))
    app.config.update(
        GROUPKIT_SETTINGS=settings, GROUPKIT_TOOLS=registry.tools,
        GROUPKIT_REGISTRY=registry, GROUPKIT_STORAGE=storage,
        GROUPKIT_CLOCK=clock or utc_clock, GROUPKIT_LIVE=live.LiveHub(storage),
        GROUPKIT_RENDERED=rendered.RenderCache(),
        GROUPKIT_MAILER=email.Mailer(settings, web.TEMPLATES / "email"),
        GROUPKIT_TRUSTED=limits.parse_networks(settings.trusted_proxies),
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        JSON_SORT_KEYS=False)
    app.jinja_loader = ChoiceLoader([FileSystemLoader(str(web.TEMPLATES)),
                                     *(FileSystemLoader(str(t.templates))
                                       for t in registry.tools.values())])
    app.jinja_env.autoescape = True
    catalogs = i18n.Catalogs.of(
        [t.templates.parent for t in registry.tools.values() if t.templates is not None],
        scripts=[web.STATIC, *(t.static for t in registry.tools.values() if t.static)],
        previews=i18n.preview_folders())
    app.config["GROUPKIT_CATALOGS"] = catalogs
    app.config["GROUPKIT_MAILER"].catalogs = catalogs
    app.jinja_env.globals.update(enabled_tools=registry.tools, next_midnight=times.next_midnight,
                                 sends_email=bool(settings.email),
                                 languages=catalogs.languages)
    app.jinja_env.filters["local_time"] = times.local_time
    # A value whose words a catalog holds (a tool's title, a message), translated as plain
    # text: escaped like any value, never %-formatted as `_()` formats its words.
    app.jinja_env.filters["translate"] = i18n.translated
    app.config["GROUPKIT_PAGES"] = web.page_environment(app, reload=not settings.production)

    app.url_map.converters["slug"] = api.SlugConverter
    counted: set[str] = set()
    for tool in registry.tools.values():
        counted |= api.mount(app, tool, forms)
        if tool.static is not None:
            app.add_url_rule(f"/static/{tool.name}/<path:filename>", f"static_{tool.name}",
                             _static_view(tool.static))
    web.mount(app)
    share.mount(app)
    _install_language(app, catalogs)
    email.mount(app, web.page, web.not_found_page)
    email.button_page(app, "confirm", "groupkit/email_confirm.html", reminders.confirm,
                      web.page, web.not_found_page)
    if any(tool.feed is not None for tool in registry.tools.values()):
        feeds.mount(app, web.not_found_page)
    _mount_documents(app, registry)
    _install_limits(app, settings, counted)
    _install_errors(app)
    logs.install_request_log(app)

    background: list[asyncio.Task[None]] = []

    @app.before_serving
    async def start_retention() -> None:
        if settings.prune_every_minutes > 0:
            background.append(asyncio.get_running_loop().create_task(retention.prune_forever(
                storage, registry.tools, app.config["GROUPKIT_CLOCK"],
                settings.prune_every_minutes * 60)))
        channels = sending_channels(settings, registry)
        if channels:
            mailer = app.config["GROUPKIT_MAILER"]
            queuers: list[outbox.Queuer] = [
                lambda now: webhooks.queue_scheduled(registry.tools, now, settings, catalogs)]
            if settings.email:
                queuers.append(lambda now: reminders.queue_reminders(now, registry.tools,
                                                                     mailer))
            background.append(asyncio.get_running_loop().create_task(outbox.deliver_forever(
                storage, channels, queuers, app.config["GROUPKIT_CLOCK"],
                settings.webhook_every_seconds)))

    @app.after_serving
    async def close_storage() -> None:
        for task in background:
            task.cancel()
        app.config["GROUPKIT_LIVE"].shutdown()
        app.config["GROUPKIT_RENDERED"].close()
        storage.close()

    return app


def _install_language(app: Quart, catalogs: i18n.Catalogs) -> None:
    """Every request speaks its reader's language (pages, and the pages a form post
    answers with); the API's JSON messages stay the specification's English."""
    if len(catalogs.languages) == 1:
        return

    @app.before_request
    async def speak() -> None:
        # The JSON API speaks the specification's English to every client; a form post
        # to it answers with a page, and a live stream sends page parts.
        if request.path.startswith("/api/") and (
                (not forms.is_form_post() and not request.path.endswith("/events"))
                or request.path.endswith("/export")):
            return  # an export is the API's data, downloaded by a form or not: English
        i18n.use(catalogs, catalogs.pick(request.cookies.get(i18n.COOKIE),
                                         request.headers.get("Accept-Language")))


def sending_channels(settings: Settings, registry: Registry) -> dict[str, outbox.Channel]:
    """The outbox channels this service sends on: chat while a tool posts to chat, email
    while the operator set an SMTP server."""
    channels: dict[str, outbox.Channel] = {}
    if any(tool.chat is not None for tool in registry.tools.values()):
        channels["chat"] = webhooks.channel(settings)
    if settings.email:
        channels["email"] = email.channel(settings)
    return channels


def _static_view(folder: Path) -> Callable[..., Any]:
    from quart import send_from_directory

    async def serve(filename: str) -> Response:
        return await send_from_directory(folder, filename)
    return serve


def _mount_documents(app: Quart, registry: Registry) -> None:
    document: dict[str, Any] = {}

    async def openapi() -> Response:
        if not document:
            document.update(openapi_document(registry.tools))
        return api.json_response(document)

    async def catalog() -> Response:
        body = api_catalog(api.base_url())
        return Response(api.json.dumps(body), content_type=(
            f'application/linkset+json; profile="{CATALOG_PROFILE}"'))

    app.add_url_rule(OPENAPI_PATH, "openapi", openapi)
    app.add_url_rule("/.well-known/api-catalog", "api_catalog", catalog, methods=["GET", "HEAD"])


def _install_limits(app: Quart, settings: Settings, api_endpoints: set[str]) -> None:
    """Count every POST /api/ request. For the kernel's API views the count rides along in
    the view's own database trip (`api.pending_limit`); anything else is counted here."""
    trusted = limits.parse_networks(settings.trusted_proxies)
    create_paths = {f"/api/{name}" for name in app.config["GROUPKIT_TOOLS"]}

    @app.before_request
    async def rate_limit() -> Response | None:
        if request.method != "POST" or not request.path.startswith("/api/"):
            return None
        client = limits.client_address(request.remote_addr,
                                       request.headers.get("X-Forwarded-For"), trusted)
        is_create = request.path.rstrip("/") in create_paths
        if is_create and not settings.production:
            return None
        bucket, allowed, message = (
            (limits.CREATE, settings.create_per_hour, limits.CREATE_LIMIT_MESSAGE) if is_create
            else (limits.POST, settings.post_per_hour, limits.POST_LIMIT_MESSAGE))
        when = api.now()

        def check() -> None:
            if limits.count_request(client, bucket, when) > allowed:
                raise ApiError(429, message, {"Retry-After": limits.retry_after(when)})

        if request.endpoint in api_endpoints:
            g.groupkit_limit = check  # counted in the view's own database trip
            return None
        try:
            await api.storage().write(check)
        except ApiError as refused:
            return api.json_response(refused.body(), refused.status, refused.headers)
        return None


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _public_not_found(app: Quart) -> str | None:
    """A tool's own 404 wording for a public read whose link is not even slug-shaped."""
    parts = request.path.split("/")
    if request.method != "GET" or len(parts) not in (4, 5) or parts[1] != "api":
        return None
    if len(parts) == 5 and parts[4] != "events":
        return None
    tool = app.config["GROUPKIT_TOOLS"].get(parts[2])
    return api.not_found_message(tool) if tool is not None else None


def _install_errors(app: Quart) -> None:
    @app.errorhandler(ApiError)
    async def api_error(error: ApiError) -> Response:
        if not _wants_json():
            return await web.not_found_page()
        return api.json_response(api.for_page(error.body(), error), error.status,
                                 error.headers)

    @app.errorhandler(HTTPException)
    async def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        if _wants_json() or status not in (404,):
            message = HTTP_MESSAGES.get(status, error.name)
            if status == 404:
                message = _public_not_found(app) or message
            response = api.json_response({"error": message}, status)
            if status == 405 and error.get_response().headers.get("Allow"):
                response.headers["Allow"] = error.get_response().headers["Allow"]
            return response
        return await web.not_found_page()

    @app.errorhandler(Exception)
    async def unexpected(error: Exception) -> Response:
        log.exception("unexpected failure on %s %s", request.method, logs.redact(request.path))
        if not _wants_json():
            return await web.page("groupkit/error.html", 500)
        return api.json_response({"error": UNEXPECTED}, 500)
