"""Sharing a group's link on paper and screens: the share link as a QR code (SVG, drawn
server-side with segno so it works without JavaScript) and a printable share sheet for
noticeboards.

Both hang off the public link (`/s/{slug}/qr.svg`, `/s/{slug}/sheet`): they show nothing the
share link does not already give, never the organiser's link, and a bad slug gets the same
404 page as every other bad link."""

from __future__ import annotations

import io
from typing import Any

from quart import Quart
from quart import Response

from groupkit.core import _resolve as resolve
from groupkit.core._api import base_url
from groupkit.core._api import storage
from groupkit.core._errors import ApiError
from groupkit.core._tool import Tool
from groupkit.web._pages import not_found_page
from groupkit.web._pages import page
from groupkit.web._pages import tools


def share_qr_svg(link: str, scale: int = 1, title: str | None = None) -> str:
    """The link as a standalone SVG QR code: dark modules on a white quiet zone (so it scans
    in dark mode too), scaled by the page rather than by pixels."""
    import segno  # here: only share pages draw a QR code, not every process start-up

    buffer = io.BytesIO()
    segno.make_qr(link, error="m").save(
        buffer, kind="svg", scale=scale, border=4, dark="#000", light="#fff",
        xmldecl=False, svgns=True, title=title, omitsize=True, unit=None)
    return buffer.getvalue().decode()


def share_link(slug: str) -> str:
    return f"{base_url()}/s/{slug}"


def _instance(slug: str) -> tuple[Tool, Any, dict[str, Any]]:
    instance = resolve.by_slug(None, slug)
    tool = tools().get(instance.tool)
    if tool is None:
        raise ApiError(404, "disabled")
    return tool, instance, tool.preview_of(instance)


async def qr_svg(slug: str) -> Response:
    try:
        _tool, instance, _preview = await storage().read(lambda: _instance(slug))
    except ApiError:
        return await not_found_page()
    svg = share_qr_svg(share_link(instance.slug), title="QR code of the share link")
    return Response(svg, content_type="image/svg+xml; charset=utf-8",
                    headers={"Cache-Control": "public, max-age=300"})


async def share_sheet(slug: str) -> Response:
    try:
        tool, instance, preview = await storage().read(lambda: _instance(slug))
    except ApiError:
        return await not_found_page()
    link = share_link(instance.slug)
    return await page("groupkit/share.html", tool=tool, preview=preview, link=link,
                      short_link=link.split("://", 1)[-1], slug=instance.slug)


def mount(app: Quart) -> None:
    app.add_url_rule("/s/<slug>/qr.svg", "share_qr", qr_svg)
    app.add_url_rule("/s/<slug>/sheet", "share_sheet", share_sheet)
