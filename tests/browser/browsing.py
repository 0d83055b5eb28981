"""What browser tests share besides fixtures: launching Chromium, watched pages, reading
credentials out of page addresses. Import it as `from browsing import Watched, code_of`."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import BrowserType
from playwright.sync_api import ConsoleMessage
from playwright.sync_api import Page

from groupkit_testing._browser import CHROMIUM_ARGS
from groupkit_testing._browser import chromium_executable

TIMEOUT_MS = 10_000
SETTLE_MS = 100

def chromium_path() -> str:
    """The kit's choice (`$GROUPKIT_CHROMIUM`, else the headless shell, else Chromium);
    Playwright's own browsers are not used."""
    return chromium_executable() or "/usr/bin/chromium"


def launch(browser_type: BrowserType) -> Browser:
    """Another Chromium, as the kit starts its own (`browser.browser_type`)."""
    return browser_type.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)


class Watched:
    """A page whose console errors, uncaught exceptions and CSP violations are collected;
    `check(name)` screenshots the page and asserts that nothing went wrong on it."""

    def __init__(self, page: Page, screenshot: Callable[[Any, str], Path]) -> None:
        self.page = page
        self.problems: list[str] = []
        self._screenshot = screenshot
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("dialog", lambda dialog: dialog.accept())

    def _console(self, message: ConsoleMessage) -> None:
        source = message.location.get("url", "")
        if message.type == "error" or "Content Security Policy" in message.text:
            self.problems.append(f"console {message.type}: {message.text} ({source})")

    def check(self, name: str, not_found: str = "") -> None:
        """`not_found`: a link this page expects to answer 404 (one the organiser reset,
        whose page still says so); the browser reports each load of it as a console error,
        which is then expected, and at least one must have happened."""
        self.page.wait_for_load_state("load")
        self.page.wait_for_timeout(SETTLE_MS)  # messages logged just after `load`
        if not_found:
            loads = [problem for problem in self.problems if "status of 404" in problem
                     and f"{not_found})" in problem]
            assert loads, f"{name}: {not_found} did not answer 404"
            self.problems = [problem for problem in self.problems if problem not in loads]
        self._check(name)

    def _check(self, name: str) -> None:
        self.page.wait_for_load_state("load")
        self.page.wait_for_timeout(SETTLE_MS)  # messages logged just after `load`
        self._screenshot(self.page, name)
        problems, self.problems = self.problems, []
        assert problems == [], f"{name} ({self.page.url}): {problems}"


#: What makes a browser profile: viewport, colour scheme, JavaScript on, init script.
Profile = tuple[int, int, str, bool, str | None]


class Profiles:
    """Browser profiles a test of the module has finished with, by what they were opened
    with, for the next test to reuse (`open_context`): a fresh profile costs Chromium a new
    renderer and a cold cache, every page's scripts compiled again (about a third of a page
    load's CPU). One a test closed itself is never reused."""

    def __init__(self) -> None:
        self.idle: dict[Profile, list[BrowserContext]] = {}
        self.closed: set[BrowserContext] = set()

    def watch(self, context: BrowserContext) -> BrowserContext:
        context.on("close", lambda closed: self.closed.add(closed))
        return context

    def take(self, profile: Profile) -> BrowserContext | None:
        idle = self.idle.get(profile)
        return idle.pop() if idle else None

    def give_back(self, profile: Profile, context: BrowserContext) -> None:
        """Its pages closed, the profile waits for the next test."""
        if context in self.closed:
            return
        for page in context.pages:
            page.close()
        self.idle.setdefault(profile, []).append(context)

    def close(self) -> None:
        for contexts in self.idle.values():
            for context in contexts:
                context.close()
        self.idle.clear()


def emptied(context: BrowserContext, page: Page, origin: str) -> None:
    """Everything `origin` stored in the profile gone, before its new `page` opens anything:
    cookies, local storage, IndexedDB, caches and service workers. (Session storage
    belongs to the page, which is new.)"""
    devtools = context.new_cdp_session(page)
    devtools.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    devtools.detach()
    context.clear_cookies()


def code_of(url: str, prefix: str) -> str:
    """The credential in a page address: `code_of(page.url, "e")`."""
    match = re.search(rf"/{prefix}/([^/?#]+)", url)
    assert match, url
    return match.group(1)


#: An init script that lets a test wait for the live update itself rather than sleep: every
#: version the page's event stream delivers (`version` events, and `parts` events whose data
#: starts with the version) goes into `window.heardVersions`, recorded before the page's own
#: handler runs on it; and each time the page re-reads itself (a fetch of its own address)
#: `sessionStorage.pageReads` grows, which outlives a navigation away.
HEARD_SCRIPT = """(() => {
  const Real = window.EventSource;
  if (!Real) return;
  window.heardVersions = [];
  const heard = (event) => window.heardVersions.push(Number(String(event.data).split("\\n")[0]));
  window.EventSource = class extends Real {
    constructor(url, options) {
      super(url, options);
      this.addEventListener("version", heard);
      this.addEventListener("parts", heard);
    }
  };
  const realFetch = window.fetch;
  window.fetch = function (input, init) {
    if (String(input) === window.location.href) {
      const reads = Number(sessionStorage.getItem("pageReads") || 0);
      sessionStorage.setItem("pageReads", String(reads + 1));
    }
    return realFetch.apply(this, arguments);
  };
})();"""


def heard_version(page: Page, version: int) -> None:
    """Wait until the page's event stream has delivered `version` (or a later one), and so
    the page's handler has run on it (given HEARD_SCRIPT)."""
    page.wait_for_function(
        "(version) => (window.heardVersions || []).some((heard) => heard >= version)",
        arg=version, timeout=TIMEOUT_MS)


def page_version(page: Page) -> int:
    """The instance version the page was rendered at."""
    return int(page.evaluate("document.body.dataset.liveVersion"))


def page_reads(page: Page) -> int:
    """How often pages of this tab re-read themselves (given HEARD_SCRIPT)."""
    return int(page.evaluate("Number(sessionStorage.getItem('pageReads') || 0)"))


def fits(page: Page) -> bool:
    """Whether the page fits its viewport's width (nothing scrolls sideways)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def on_a_phone(watched: Watched, scheme: Any, path: str) -> Page:
    """The watched page at 390x844 in `scheme` ("light" or "dark"), opened at `path`."""
    page = watched.page
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(color_scheme=scheme)
    page.goto(path)
    return page
