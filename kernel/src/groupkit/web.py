"""Pages: home, create pages, `/s` `/e` `/p` dispatch to the owning tool, their headers,
robots.txt and the HTML 404."""

from __future__ import annotations

from typing import Any

import jinja2
from quart import Quart, Response, current_app, request

from . import resolve, webhooks
from .api import base_url, storage
from .errors import ApiError
from .tokens import lookup_token
from .tool import Tool

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
PRIVATE_PREFIXES = ("/e/", "/p/")
NOINDEX_PREFIXES = ("/s/", "/e/", "/p/", "/api/")

ROBOTS_TXT = "User-agent: *\nDisallow: /s/\nDisallow: /e/\nDisallow: /p/\n"


def tools() -> dict[str, Tool]:
    registry: dict[str, Tool] = current_app.config["GROUPKIT_TOOLS"]
    return registry


def apply_headers(response: Response) -> Response:
    """Every response: strict CSP and same-origin referrers. Capability pages: never indexed,
    and the organiser's and participants' pages never cached."""
    path = request.path
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["X-Content-Type-Options"] = "nosniff"
    if path.startswith(NOINDEX_PREFIXES):
        response.headers["X-Robots-Tag"] = "noindex, nofollow"
    if path.startswith(PRIVATE_PREFIXES):
        response.headers["Cache-Control"] = "no-store"
    return response


def page_environment(app: Quart, reload: bool) -> jinja2.Environment:
    """Pages render with a synchronous Jinja environment over the app's templates. Quart's
    own environment is asynchronous, and awaiting every expression made a page of a few
    hundred items several times slower to render; pages do no I/O while rendering (the data
    is read before), so nothing is lost."""
    environment = jinja2.Environment(loader=app.jinja_loader, autoescape=True,
                                     auto_reload=reload, cache_size=1000)
    environment.globals.update(app.jinja_env.globals)
    environment.filters.update(app.jinja_env.filters)
    environment.policies.update(app.jinja_env.policies)
    return environment


async def page(template: str, status: int = 200, **context: Any) -> Response:
    environment: jinja2.Environment = current_app.config["GROUPKIT_PAGES"]
    html = environment.get_template(template).render(request=request, **context)
    return Response(html, status=status, content_type="text/html; charset=utf-8")


async def not_found_page() -> Response:
    return await page("groupkit/not_found.html", 404)


async def home() -> Response:
    return await page("groupkit/home.html", tools=list(tools().values()))


async def create_page(tool_name: str) -> Response:
    tool = tools().get(tool_name)
    if tool is None:
        return await not_found_page()
    return await page(f"{tool.name}/create.html", tool=tool, create_url=f"/api/{tool.name}")


def _links(slug: str, edit_token: str | None = None) -> dict[str, str]:
    base = base_url()
    links = {"public": f"{base}/s/{slug}"}
    if edit_token:
        links["organiser"] = f"{base}/e/{edit_token}"
    return links


async def public_page(slug: str) -> Response:
    def load() -> tuple[Tool, Any, dict[str, Any], dict[str, Any]]:
        instance = resolve.by_slug(None, slug)
        tool = tools().get(instance.tool)
        if tool is None:
            raise ApiError(404, "disabled")
        return tool, instance, tool.public_view(instance), tool.preview_of(instance)

    try:
        tool, instance, view, preview = await storage().read(load)
    except ApiError:
        return await not_found_page()
    return await page(f"{tool.name}/public.html", tool=tool, instance=instance, view=view,
                      preview=preview, links=_links(instance.slug), slug=instance.slug)


async def organiser_page(edit_token: str) -> Response:
    def load() -> tuple[Tool, Any, dict[str, Any], dict[str, Any] | None]:
        instance = resolve.by_edit_token(None, edit_token)
        tool = tools().get(instance.tool)
        if tool is None:
            raise ApiError(404, "disabled")
        chat = webhooks.chat_status(instance) if tool.chat is not None else None
        return tool, instance, tool.organiser_view(instance), chat

    try:
        tool, instance, view, chat = await storage().read(load)
    except ApiError:
        return await not_found_page()
    return await page(f"{tool.name}/organiser.html", tool=tool, instance=instance, view=view,
                      chat=chat, chat_what=tool.chat.what if tool.chat is not None else "",
                      links=_links(instance.slug, edit_token), slug=instance.slug,
                      edit_token=edit_token, api=f"/api/{tool.name}/{edit_token}",
                      created=request.args.get("new") == "1")


async def participant_page(token: str) -> Response:
    def load() -> tuple[Tool, Any, dict[str, Any]]:
        credential = lookup_token(token)
        if credential is None:
            raise ApiError(404, "unknown")
        tool = tools().get(credential.instance.tool)
        if tool is None or tool.participant_view is None or \
                credential.kind not in tool.participant_kinds:
            raise ApiError(404, "unknown")
        return tool, credential.instance, tool.participant_view(credential.instance, credential)

    try:
        tool, instance, view = await storage().write(load)
    except ApiError:
        return await not_found_page()
    return await page(f"{tool.name}/participant.html", tool=tool, instance=instance, view=view,
                      links=_links(instance.slug), slug=instance.slug, token=token,
                      api=f"/api/{tool.name}")


async def robots() -> Response:
    return Response(ROBOTS_TXT, content_type="text/plain; charset=utf-8")


async def healthz() -> Response:
    def ping() -> None:
        storage().db.execute_sql("SELECT 1")
    await storage().read(ping)
    return Response('{"ok":true}', content_type="application/json")


def mount(app: Quart) -> None:
    app.add_url_rule("/", "home", home)
    app.add_url_rule("/new/<tool_name>", "create_page", create_page)
    app.add_url_rule("/s/<slug>", "public_page", public_page)
    app.add_url_rule("/e/<edit_token>", "organiser_page", organiser_page)
    app.add_url_rule("/p/<token>", "participant_page", participant_page)
    app.add_url_rule("/robots.txt", "robots", robots)
    app.add_url_rule("/healthz", "healthz", healthz)
    app.after_request(apply_headers)
