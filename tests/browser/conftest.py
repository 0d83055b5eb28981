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
from browsing import TIMEOUT_MS
from browsing import Profile
from browsing import Profiles
from browsing import Watched
from browsing import emptied
from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import ViewportSize

from groupkit_testing import LiveServer
from groupkit_testing._browser import REPORT_CSP_VIOLATIONS


@pytest.fixture(scope="module")
def browser(kit_chromium: Browser) -> Browser:
    """The kit's Chromium of the module; every test opens fresh profiles of it
    (`open_context`)."""
    return kit_chromium


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One development server per test process for every module that needs no server of
    its own (those that do override `server`): every test makes its own instances, so
    they share nothing else. Its POST limit is out of reach of all of them together."""
    served = LiveServer(tmp_path_factory.mktemp("server"), workers=1, mode="development",
                        database="sqlite", limits={"post_per_hour": 1_000_000},
                        trusted_proxies=(), tools=("*",)).start()
    yield served
    served.stop()


@pytest.fixture(scope="module", autouse=True)
def _no_server_failure(server: LiveServer) -> Iterator[None]:
    """A module whose pages made the server answer 500 fails, as with `live_server`."""
    seen = len(server.log())
    yield
    # The kernel logs every unhandled exception (a 500) with this phrase.
    if "unexpected failure" in server.log()[seen:]:
        pytest.fail(f"server answered 500 during this module: see {server.log_path}")


@pytest.fixture
def api(server: Any) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


@pytest.fixture(scope="module")
def _profiles(browser: Browser) -> Iterator[Profiles]:
    profiles = Profiles()
    yield profiles
    profiles.close()


@pytest.fixture
def open_context(browser: Browser, server: Any, screenshot: Callable[[Any, str], Path],
                 _profiles: Profiles) -> Iterator[Callable[..., Watched]]:
    """Each call is a fresh browser profile (own localStorage): `watched = open_context()`;
    optionally another viewport, `color_scheme="dark"`, an init `script` run before every
    page's own (e.g. a stand-in for a browser API), or `java_script=False`. A profile
    another test of the module finished with is reused, emptied, with a new page."""
    used: list[tuple[Profile, BrowserContext]] = []
    pages: list[Watched] = []

    def start(viewport: ViewportSize | None = None,
              color_scheme: Literal["light", "dark"] = "light",
              script: str | None = None, java_script: bool = True) -> Watched:
        size = viewport or {"width": 1024, "height": 800}
        profile = (size["width"], size["height"], color_scheme, java_script, script)
        reused = _profiles.take(profile)
        if reused is not None:
            context = reused
            page = context.new_page()
            emptied(context, page, server.base_url)
        else:
            context = _profiles.watch(browser.new_context(
                base_url=server.base_url, viewport=size, color_scheme=color_scheme,
                java_script_enabled=java_script))
            context.grant_permissions(["clipboard-read", "clipboard-write"],
                                      origin=server.base_url)
            context.set_default_timeout(TIMEOUT_MS)
            context.add_init_script(REPORT_CSP_VIOLATIONS)
            if script:
                context.add_init_script(script)
            page = context.new_page()
        used.append((profile, context))
        pages.append(Watched(page, screenshot))
        return pages[-1]

    yield start
    for profile, context in used:
        _profiles.give_back(profile, context)
    # Nothing may go wrong after a page's last check either.
    assert [watched.problems for watched in pages] == [[] for _ in pages]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything under tests/browser drives a browser against a real server."""
    for item in items:
        if "/tests/browser/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.server)
