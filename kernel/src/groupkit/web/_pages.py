"""Pages: home, create pages, `/s` `/e` `/p` dispatch to the owning tool, their headers,
robots.txt and the HTML 404."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2
import markupsafe
import peewee as pw
from quart import Quart
from quart import Response
from quart import current_app
from quart import request

from groupkit.blocks import _email as email
from groupkit.blocks import _language as group_language
from groupkit.blocks import _reminders as reminders
from groupkit.blocks import _webhooks as webhooks
from groupkit.core import _i18n as i18n
from groupkit.core import _logs as logs
from groupkit.core import _resolve as resolve
from groupkit.core._api import base_url
from groupkit.core._api import now
from groupkit.core._api import render_cache
from groupkit.core._api import storage
from groupkit.core._errors import ApiError
from groupkit.core._rendered import Rendered
from groupkit.core._rendered import respond
from groupkit.core._storage import Instance
from groupkit.core._tokens import lookup_token
from groupkit.core._tool import GROUPS
from groupkit.core._tool import Tool
from groupkit.web import _forms as forms
from groupkit.web._spot_rows import SpotRows

#: The kernel's page templates and static files (plugins add their own folders).
TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
PRIVATE_PREFIXES = ("/e/", "/p/")
NOINDEX_PREFIXES = ("/s/", "/e/", "/p/", "/api/")

ROBOTS_TXT = "User-agent: *\nDisallow: /s/\nDisallow: /e/\nDisallow: /p/\n"
HTML = "text/html; charset=utf-8"
#: /healthz waits this long for the database, then says it is degraded rather than hang.
HEALTH_SECONDS = 0.8

log = logging.getLogger("groupkit")


def tools() -> dict[str, Tool]:
    registry: dict[str, Tool] = current_app.config["GROUPKIT_TOOLS"]
    return registry


class SecurityHeaders:
    """Every response: strict CSP (unless the view set its own) and same-origin referrers.
    Capability pages: never indexed, and the organiser's and participants' pages never
    cached. An ASGI middleware that adds the headers ready-encoded: as an after-request
    hook (a coroutine, so not in a thread) it still cost every request the hook machinery
    and one scan of the response's headers per header set."""

    _ALWAYS = ((b"referrer-policy", b"same-origin"), (b"x-content-type-options", b"nosniff"))
    _NOINDEX = (b"x-robots-tag", b"noindex, nofollow")
    _PRIVATE = (b"cache-control", b"no-store")
    _CSP = (b"content-security-policy", CONTENT_SECURITY_POLICY.encode())

    def __init__(self, inner: logs.ASGIApp) -> None:
        self.inner = inner
        self.plans: dict[tuple[bool, bool], tuple[frozenset[bytes], list[tuple[bytes, bytes]]]] = {}
        for noindex in (False, True):
            for private in (False, True):
                added = [*self._ALWAYS, *([self._NOINDEX] if noindex else []),
                         *([self._PRIVATE] if private else [])]
                self.plans[noindex, private] = (frozenset(name for name, _ in added), added)

    async def __call__(self, scope: logs.Scope, receive: logs.Receive,
                       send: logs.Send) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        path = logs.request_path(scope)
        replaced, added = self.plans[path.startswith(NOINDEX_PREFIXES),
                                     path.startswith(PRIVATE_PREFIXES)]

        async def with_headers(message: logs.Message) -> None:
            if message["type"] == "http.response.start":
                headers = [header for header in message["headers"]
                           if header[0] not in replaced]
                if not any(name == b"content-security-policy" for name, _ in headers):
                    headers.append(self._CSP)
                headers += added
                message = {**message, "headers": headers}
            await send(message)

        await self.inner(scope, receive, with_headers)


class _CompiledPages(jinja2.BytecodeCache):
    """Compiled page templates, kept in memory for every app this process builds: a test
    process builds an app per test, and compiling a template anew for each cost more than
    the test's own work. Jinja checks each entry against its template's source, so an edited
    template (development mode reloads) is compiled again."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


#: Shared only by environments that `page_environment` configures, all alike.
_COMPILED_PAGES = _CompiledPages()


def page_environment(app: Quart, reload: bool) -> jinja2.Environment:
    """Pages render with a synchronous Jinja environment over the app's templates. Quart's
    own environment is asynchronous, and awaiting every expression made a page of a few
    hundred items several times slower to render; pages do no I/O while rendering (the data
    is read before), so nothing is lost."""
    environment = jinja2.Environment(loader=app.jinja_loader, autoescape=True,
                                     auto_reload=reload, cache_size=1000,
                                     bytecode_cache=_COMPILED_PAGES,
                                     extensions=["jinja2.ext.i18n", forms.AskFirst,
                                                 forms.FormHelpers, SpotRows])
    # Words in the language being spoken (`groupkit.core._i18n`); new-style gettext
    # formats `%(name)s` after translating and escapes the values, not the words.
    environment.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext, i18n.ngettext, newstyle=True)
    environment.globals.update(app.jinja_env.globals)
    catalogs: i18n.Catalogs = app.config.get("GROUPKIT_CATALOGS") or i18n.Catalogs([])
    environment.globals.update(page_language=i18n.language, page_direction=i18n.direction,
                               language_name=i18n.language_name,
                               format_money=i18n.format_money,
                               format_decimal=i18n.format_decimal,
                               script_words=lambda: catalogs.script_words(i18n.language()))
    environment.filters.update(app.jinja_env.filters)
    environment.policies.update(app.jinja_env.policies)
    return environment


def render(template: str, **context: Any) -> str:
    environment: jinja2.Environment = current_app.config["GROUPKIT_PAGES"]
    return environment.get_template(template).render(request=request, **context)


async def page(template: str, status: int = 200, **context: Any) -> Response:
    return await with_flash(Response(render(template, **context), status=status,
                                     content_type=HTML))


async def with_flash(response: Response, rendered: Rendered | None = None) -> Response:
    """The page with the flash a form post left for it (see `groupkit.web._forms`), if any."""
    if forms.FLASH_COOKIE not in request.cookies:
        return response
    body = rendered.body if rendered is not None else await response.get_data(as_text=False)
    status = 200 if rendered is not None else response.status_code
    return await forms.flashed(body, status, storage(), now(), base_url())


async def not_found_page() -> Response:
    return await page("groupkit/not_found.html", 404)


def home_groups(installed: Iterable[Tool]) -> list[dict[str, Any]]:
    """The home page's sections: tools by occasion (`Tool.group`, in `GROUPS` order; an
    unknown group counts as "other"), each sorted by title."""
    grouped: dict[str, list[Tool]] = {}
    for tool in installed:
        grouped.setdefault(tool.group if tool.group in GROUPS else "other", []).append(tool)
    return [{"key": key, "title": title,
             "tools": sorted(grouped[key], key=lambda tool: tool.title.casefold())}
            for key, title in GROUPS.items() if key in grouped]


async def home() -> Response:
    return await page("groupkit/home.html", groups=home_groups(tools().values()))


async def create_page(tool_name: str) -> Response:
    tool = tools().get(tool_name)
    if tool is None:
        return await not_found_page()
    return await page(f"{tool.name}/create.html", tool=tool, create_url=f"/api/{tool.name}",
                      values={}, prefix="")


def _links(slug: str, edit_token: str | None = None) -> dict[str, str]:
    base = base_url()
    links = {"public": f"{base}/s/{slug}"}
    if edit_token:
        links["organiser"] = f"{base}/e/{edit_token}"
    return links


def _enabled(instance: Instance) -> Tool:
    tool = tools().get(instance.tool)
    if tool is None:
        raise ApiError(404, "disabled")
    return tool


def _request_shape() -> tuple[str, bytes, str]:
    """What a page depends on besides the instance: the links' base, the query string and
    the reader's language."""
    return base_url(), request.query_string, i18n.language()


async def _public_rendered(slug: str, shape: tuple[str, bytes, str]) -> Rendered:
    def locate() -> tuple[Tool, Instance]:
        instance = resolve.by_slug(None, slug)
        return _enabled(instance), instance

    def make(tool: Tool, instance: Instance) -> tuple[str, str]:
        return render(f"{tool.name}/public.html", tool=tool, instance=instance,
                      view=tool.public_view(instance), preview=tool.preview_of(instance),
                      links=_links(instance.slug), slug=instance.slug,
                      remind=reminders.remind_panel(tool, instance)), HTML

    return await render_cache().serve(storage(), locate, "page:public", now(), shape, make,
                                      link=slug)


async def public_page(slug: str) -> Response:
    try:
        rendered = await _public_rendered(slug, _request_shape())
    except ApiError:
        return await not_found_page()
    return await with_flash(respond(rendered), rendered)


async def public_page_now(slug: str) -> tuple[int, str] | None:
    """For live streams (`groupkit.core._live`): the public page as a visitor without a query
    string sees it now, with the version it shows; None once it is gone."""
    try:
        rendered = await _public_rendered(slug, (base_url(), b"", i18n.language()))
    except ApiError:
        return None
    return rendered.version, rendered.body.decode("utf-8")


async def organiser_page(edit_token: str) -> Response:
    def locate() -> tuple[Tool, Instance]:
        instance = resolve.by_edit_token(None, edit_token)
        return _enabled(instance), instance

    def make(tool: Tool, instance: Instance) -> tuple[str, str]:
        chat = webhooks.chat_status(instance) if tool.chat is not None else None
        if chat is not None:
            for post in chat["log"]:
                post["said"] = webhooks.said(post)
        context = dict(tool=tool, instance=instance, view=tool.organiser_view(instance),
                       chat=chat, chat_what=tool.chat.what if tool.chat is not None else "",
                       chat_zone=(i18n.zone_city(tool.chat.zone)
                                  if tool.chat is not None and tool.chat.schedule else ""),
                       links=_links(instance.slug, edit_token), slug=instance.slug,
                       edit_token=edit_token, api=f"/api/{tool.name}/{edit_token}",
                       created=request.args.get("new") == "1",
                       invite=email.invite_panel(instance, tool.invite),
                       group_language=(group_language.language_panel(
                                           instance, bool(email.mailer().settings.email))
                                       if group_language.sends_to_group(tool) else None))
        return render(f"{tool.name}/organiser.html", **context,
                      **edit_form(tool, instance, context)), HTML

    try:
        rendered = await render_cache().serve(storage(), locate, "page:organiser", now(),
                                              (edit_token, *_request_shape()), make,
                                              stamp=_organiser_stamp, link=edit_token)
    except ApiError:
        return await not_found_page()
    return await with_flash(respond(rendered), rendered)


def _organiser_stamp(tool: Tool, instance: Instance) -> str | None:
    """What the organiser page shows besides the instance: the chat webhook's and the
    email's delivery logs change without a version bump (the delivery loop writes them), so
    they are part of the key."""
    stamps = [webhooks.chat_stamp(instance) if tool.chat is not None else "",
              email.email_stamp(instance) if tool.invite is not None else ""]
    return ":".join(stamps) if any(stamps) else None


def edit_form(tool: Tool, instance: Instance, context: dict[str, Any]) -> dict[str, Any]:
    """What the organiser page's edit form needs: its fields rendered with the current
    values, the version they are of, and the pairs the form posts unchanged (so a post
    without the script says which fields the person changed: `groupkit.core._edits`)."""
    if tool.edit is None:
        return {"editing": None, "edit_fields": edit_template(tool)}
    values = tool.edit.current(instance)
    fields = render(edit_template(tool), **context, values=values, prefix="edit-",
                    editing_now=True)
    return {"editing": values, "edit_fields": edit_template(tool),
            "edit_fields_html": markupsafe.Markup(fields),
            "edit_version": instance.version, "edit_shown": forms.shown_pairs(fields)}


def edit_template(tool: Tool) -> str:
    """The fields template an organiser's edit form (and the create form) renders."""
    if tool.edit is not None and tool.edit.template:
        return tool.edit.template
    return f"{tool.name}/_fields.html"


async def participant_page(token: str) -> Response:
    def load() -> tuple[Tool, Any, dict[str, Any], bool]:
        credential = lookup_token(token)
        if credential is None:
            raise ApiError(404, "unknown")
        tool = tools().get(credential.instance.tool)
        if tool is None or tool.participant_view is None or \
                credential.kind not in tool.participant_kinds:
            raise ApiError(404, "unknown")
        return (tool, credential.instance,
                tool.participant_view(credential.instance, credential),
                credential.kind in tool.reset_kinds)

    # A read: looking at a link never opens a write transaction. A tool may still note a
    # first visit (an "opened" mark, written once); should that meet a concurrent writer on
    # SQLite, the visit is simply done again as a write.
    try:
        try:
            tool, instance, view, reset = await storage().read(load)
        except pw.OperationalError:
            tool, instance, view, reset = await storage().write(load)
    except ApiError:
        return await not_found_page()
    # A link the organiser reset is an invalid credential: 404 like any other, but its page
    # still says what happened and how to get a fresh link.
    response = await page(f"{tool.name}/participant.html", 404 if reset else 200, tool=tool,
                          instance=instance, view=view, links=_links(instance.slug),
                          slug=instance.slug, token=token, api=f"/api/{tool.name}")
    if reset:
        response.headers["Cache-Control"] = "no-store"
    return response


async def robots() -> Response:
    return Response(ROBOTS_TXT, content_type="text/plain; charset=utf-8")


async def healthz() -> Response:
    """Answers within a second whatever the database is doing: 503 "degraded" when it does
    not answer in time (a held lock, a saturated pool, a lost server)."""
    def ping() -> None:
        storage().db.execute_sql("SELECT 1")
    try:
        await asyncio.wait_for(storage().read(ping), HEALTH_SECONDS)
    except Exception:
        log.warning("healthz: the database did not answer within %.1f s", HEALTH_SECONDS)
        return Response('{"ok":false,"status":"degraded"}', status=503,
                        content_type="application/json", headers={"Cache-Control": "no-store"})
    return Response('{"ok":true}', content_type="application/json",
                    headers={"Cache-Control": "no-store"})


#: How long a reader's choice of language is remembered.
LANGUAGE_KEPT = 365 * 24 * 3600


async def choose_language() -> Response:
    """The language switcher's form post: remember the choice in a cookie (no account) and
    go back to the page it was made on, read from the Referer (pages send it to their own
    site only): the page never writes its own address into itself, so every bad link's 404
    stays the same page. A Referer from elsewhere, or none, goes home."""
    form = await request.form
    chosen = form.get("language", "")
    referer = urlsplit(request.headers.get("Referer", ""))
    back = referer.path or "/"
    if referer.netloc != request.host or not back.startswith("/") or \
            back.startswith("//") or "\\" in back or any(ord(c) < 32 for c in back):
        back = "/"
    response = Response("", status=303, headers={"Location": back, "Cache-Control": "no-store"})
    if chosen in current_app.config["GROUPKIT_CATALOGS"].languages:
        response.set_cookie(i18n.COOKIE, chosen, max_age=LANGUAGE_KEPT, httponly=True,
                            samesite="Lax", secure=request.scheme == "https")
    return response


def mount(app: Quart) -> None:
    app.add_url_rule("/", "home", home)
    app.add_url_rule("/new/<tool_name>", "create_page", create_page)
    app.add_url_rule("/s/<slug>", "public_page", public_page)
    app.add_url_rule("/e/<edit_token>", "organiser_page", organiser_page)
    app.add_url_rule("/p/<token>", "participant_page", participant_page)
    app.add_url_rule("/robots.txt", "robots", robots)
    app.add_url_rule("/language", "choose_language", choose_language, methods=["POST"])
    app.add_url_rule("/healthz", "healthz", healthz)
    setattr(app, "asgi_app", SecurityHeaders(app.asgi_app))  # noqa: B010
    app.config["GROUPKIT_PUBLIC_PAGE"] = public_page_now
