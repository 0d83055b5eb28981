"""Browser fixtures shared by every tool's browser tests: Debian's Chromium driven by
Playwright, a development server, and `open_context()` pages whose console errors, uncaught
exceptions and CSP violations fail the test. Screenshots go to artifacts/screenshots/.

    def test_my_tool(open_context, api):
        watched = open_context()                  # a fresh browser profile
        watched.page.goto("/new/mytool")
        watched.check("mytool-create")            # screenshot + no problems so far
"""

from __future__ import annotations

import os
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from typing import Literal

import httpx
import pytest
from browsing import REPORT_CSP_VIOLATIONS
from browsing import TIMEOUT_MS
from browsing import Watched
from browsing import chromium_path
from browsing import launch
from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import Playwright
from playwright.sync_api import ViewportSize
from playwright.sync_api import sync_playwright

from groupkit.testing import external_missing


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    executable = chromium_path()
    if not (os.path.isfile(executable) and os.access(executable, os.X_OK)):
        external_missing("Chromium")
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = launch(playwright)
    yield chromium
    chromium.close()


@pytest.fixture(scope="module")
def server(live_server: Callable[..., Any]) -> Any:
    return live_server(mode="development")


@pytest.fixture
def api(server: Any) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


@pytest.fixture
def open_context(browser: Browser, server: Any,
                 screenshot: Callable[[Any, str], Path]) -> Iterator[Callable[..., Watched]]:
    """Each call is a fresh browser profile (own localStorage): `watched = open_context()`;
    optionally another viewport, `color_scheme="dark"`, and an init `script` run before
    every page's own (e.g. a stand-in for a browser API)."""
    contexts: list[BrowserContext] = []
    pages: list[Watched] = []

    def start(viewport: ViewportSize | None = None,
              color_scheme: Literal["light", "dark"] = "light",
              script: str | None = None) -> Watched:
        context = browser.new_context(base_url=server.base_url,
                                      viewport=viewport or {"width": 1024, "height": 800},
                                      color_scheme=color_scheme)
        context.grant_permissions(["clipboard-read", "clipboard-write"],
                                  origin=server.base_url)
        context.set_default_timeout(TIMEOUT_MS)
        context.add_init_script(REPORT_CSP_VIOLATIONS)
        if script:
            context.add_init_script(script)
        contexts.append(context)
        pages.append(Watched(context.new_page(), screenshot))
        return pages[-1]

    yield start
    for context in contexts:
        context.close()
    # Nothing may go wrong after a page's last check either.
    assert [watched.problems for watched in pages] == [[] for _ in pages]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything under tests/browser drives a browser against a real server."""
    for item in items:
        if "/tests/browser/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.server)
