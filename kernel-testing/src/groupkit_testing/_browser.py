"""The kit's browser suites, for any plugin author to run over their own tool (they need
Playwright, `axe-playwright-python` and a Chromium: `pip install groupkit-testing[browser]`):

    from groupkit_testing import BrowserSuites

    class TestKaraokeInTheBrowser(BrowserSuites):
        tools = ("karaoke",)

`AllStatesSuite` visits every page state of each tool on two phones, light and dark
(`groupkit_testing.allstates`); `ScriptInjectionSuite` puts a corpus of script payloads into every
text of the tool's `example` and `walkthrough` and opens every page in Chromium. Both take
part through what the tool declares (`Tool.walkthrough`, else the suite's `scenarios`); a
tool that declares neither fails with what to declare, as the privacy suite does for
`hidden=None`. Without Playwright or a Chromium they skip on a laptop and fail under
$GROUPKIT_REQUIRE_EXTERNAL=1, like every external skip of the kit.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar

import httpx
import pytest

from groupkit.core._tool import Tool
from groupkit_testing._external import external_missing
from groupkit_testing._participation import Made
from groupkit_testing._participation import Session
from groupkit_testing._participation import create_instance
from groupkit_testing._participation import sibling_index
from groupkit_testing._privacy import installed_tools
from groupkit_testing._suites import KitSuite
from groupkit_testing._suites import Scenario

if TYPE_CHECKING:
    from playwright.sync_api import Browser
    from playwright.sync_api import BrowserContext
    from playwright.sync_api import Page
    from playwright.sync_api import Response

    from groupkit_testing.allstates import ApiParticipation
    from groupkit_testing.allstates import Checker
    from groupkit_testing.allstates import Finding
    from groupkit_testing.allstates import Step

#: The report for a tool that declares no participation (no `walkthrough`, no scenario).
UNDECLARED_WALKTHROUGH = (
    "{tool} declares no walkthrough: declare how an instance of its example is taken part "
    "in, in its Tool, e.g. `walkthrough=Walkthrough(take_part=take_part)` with "
    "`def take_part(api: Participation) -> None: api.public(\"claim\", {{...}})` "
    "(`Walkthrough(take_part=lambda api: None)` when there is nothing to take part in), or "
    "name it in the suite's `scenarios`")

CHROMIUM_ENV = "GROUPKIT_CHROMIUM"
#: The last switch keeps a tab's renderer across same-site navigations instead of starting
#: a new document host (and browsing instance) for each: a page load cost Chromium 87 ms of
#: CPU instead of 121, the script-injection suite 12 % less. What a page does is the same.
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run",
                 "--disable-features=RenderDocument,ProactivelySwapBrowsingInstance"]
TIMEOUT_MS = 15_000

#: Runs before any page script (init scripts are not subject to the page's CSP).
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error("CSP violation: " + event.violatedDirective + " blocked " + event.blockedURI);
});
"""


def chromium_executable() -> str | None:
    """$GROUPKIT_CHROMIUM, else the system's Chromium, else None (Playwright's own). The
    headless shell comes first: it loads a page for about half the CPU of the full browser
    in headless mode, and the browser suites are bound by Chromium's CPU."""
    chosen = os.environ.get(CHROMIUM_ENV)
    if chosen:
        return chosen
    for name in ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def usable_chromium() -> str | None:
    """`chromium_executable()` when it can be run (None: Playwright's own); a named one
    that cannot is skipped on a laptop and a failure in CI (`external_missing`)."""
    executable = chromium_executable()
    if executable is not None and not (os.path.isfile(executable)
                                       and os.access(executable, os.X_OK)):
        external_missing(f"Chromium at {executable}")
    return executable


def declared_steps(tool: Tool, scenarios: Mapping[str, Scenario],
                   reveals: Mapping[str, Scenario]
                   ) -> tuple[Scenario | None, Scenario | None]:
    """(take_part, reveal) of a tool: its `Walkthrough`, else the suite's scenarios; a tool
    with neither fails the test with what to declare (never a KeyError)."""
    walkthrough = tool.walkthrough
    if walkthrough is not None:
        return walkthrough.take_part, walkthrough.reveal
    if tool.name in scenarios:
        return scenarios[tool.name], reveals.get(tool.name)
    pytest.fail(UNDECLARED_WALKTHROUGH.format(tool=tool.name), pytrace=False)


class BrowserKit(KitSuite):
    """What the browser suites share: a development server, a Chromium, and how each tool
    takes part (`scenarios` and `reveals` for tools that declare no `Walkthrough`)."""

    #: tool -> the organiser's step that shows what participation kept back, for tools that
    #: declare no `Walkthrough` (those that do name it in `Walkthrough.reveal`).
    reveals: ClassVar[Mapping[str, Scenario]] = {}

    @classmethod
    def steps(cls, tool: str) -> tuple[Scenario | None, Scenario | None]:
        """(take_part, reveal) of an installed tool; fails naming what to declare."""
        return declared_steps(installed_tools()[tool], cls.scenarios, cls.reveals)

    @classmethod
    def walk_steps(cls, tool: str) -> tuple[Step | None, Step | None]:
        """(take_part, reveal) for `walk_tool`: (None, None) where the tool's own
        `Walkthrough` drives it, else the suite's scenarios as walkthrough steps."""
        found = installed_tools()[tool]
        take_part, reveal = cls.steps(tool)
        if found.walkthrough is not None:
            return None, None
        return (session_step(found, take_part) if take_part else None,
                session_step(found, reveal) if reveal else None)

    @pytest.fixture(scope="class")
    @classmethod
    def browser_server(cls, live_server: Callable[..., Any]) -> Any:
        """One development server for the class (no reachable POST limit)."""
        return live_server(mode="development", limits={"post_per_hour": 1_000_000})


@pytest.fixture(scope="module")
def kit_chromium() -> Iterator[Browser]:
    """One headless Chromium for the test module, driven by Playwright ($GROUPKIT_CHROMIUM,
    the system's, or Playwright's own); skipped on a laptop without one, a failure in CI.
    The kit's browser suites open fresh contexts of it; a browser test of your own may too.
    Playwright drives one synchronous driver per thread, and while it runs, asyncio cannot
    run another event loop in that thread: so the driver stops at the end of each module,
    before any async test of another module runs."""
    try:
        from playwright.sync_api import Error
        from playwright.sync_api import sync_playwright
    except ImportError:
        external_missing("Playwright (pip install groupkit-testing[browser])")
    executable = usable_chromium()
    with sync_playwright() as driver:
        try:
            browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        except Error as error:
            external_missing(f"Chromium ({str(error).splitlines()[0]})")
        yield browser
        browser.close()


# --- every page state ------------------------------------------------------------------------

def readable(label: str) -> str:
    """Example text for a free-text field of a scenario: its name, numbered among siblings."""
    field = label.split(".")[1] if "." in label else label
    index = sibling_index(label)
    text = {"name": "Priya", "voterName": "Sam", "guesser": "Jo", "sender": "Ann",
            "recipient": "Bo", "cook": "Nan", "suggestedBy": "Lee"}.get(field, field.title())
    return f"{text} {index}" if index else text


def session_step(tool: Tool, scenario: Scenario) -> Step:
    """A scenario written for the kit's `Session` run as a walkthrough step over
    `ApiParticipation`, the tokens it was handed passed on."""
    def step(api: ApiParticipation) -> None:
        made = Made(tool.name, api.slug, api.edit, dict(tool.example))
        session = Session(api.client, made, readable)
        scenario(session)
        api.tokens += [token for _, token in session.tokens]
    return step


def summary(found: list[Finding]) -> str:
    """One line per state and kind of problem, with the views and the first few details."""
    grouped: dict[tuple[str, str], list[Finding]] = {}
    for finding in found:
        grouped.setdefault((finding.state, finding.kind), []).append(finding)
    return "\n".join(
        f"{state}: {kind} in {', '.join(sorted({f.view for f in items}))}: "
        f"{'; '.join(sorted({f.detail for f in items})[:4])}"
        for (state, kind), items in grouped.items())


class AllStatesSuite(BrowserKit):
    """Every page state of each tool (`groupkit_testing.allstates.walk_tool`: create, public, share
    sheet, organiser, private, after participation, after the reveal, deleted) and the home
    page, at 320x640 and 390x844, light and dark: no horizontal overflow, no tap target
    under 24x24 CSS px, nothing axe-core objects to; screenshots and a findings file per
    tool in `screens`. Each of `languages` is walked as a reader who chose it (the language
    cookie): English with axe-core, another language (the same markup, longer words) with
    the layout checks, its screenshots in `screens/<language>/`."""

    #: Where the screenshots and `<tool>-findings.txt` go.
    screens: ClassVar[Path] = Path("artifacts") / "screens"
    #: The languages each state is checked in (`"en"` first: the one axe-core runs in).
    languages: ClassVar[Sequence[str]] = ("en",)

    @pytest.fixture(scope="class")
    @classmethod
    def allstates_tab(cls, kit_chromium: Browser, browser_server: Any
                      ) -> Iterator[dict[str, Page]]:
        """One page per language for every state of every tool the class checks (one
        browser context each, with the language cookie); an uncaught script error on any of
        them fails the class's last test."""
        from groupkit.core._i18n import COOKIE
        from groupkit_testing.allstates import preload_axe

        contexts: list[BrowserContext] = []
        pages: dict[str, Page] = {}
        errors: list[str] = []
        for language in cls.languages:
            context = kit_chromium.new_context(base_url=browser_server.base_url)
            context.set_default_timeout(TIMEOUT_MS)
            if language == "en":
                preload_axe(context)
            else:
                context.add_cookies([{"name": COOKIE, "value": language,
                                      "url": browser_server.base_url}])
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            contexts.append(context)
            pages[language] = page
        yield pages
        for context in contexts:
            context.close()
        assert errors == []

    @pytest.fixture(scope="class")
    @classmethod
    def allstates_checker(cls) -> dict[str, Checker]:
        """The views every state is checked in, per language (axe-core, injected once per
        page load, in English only)."""
        from groupkit_testing.allstates import Checker

        return {language: Checker(cls.screens if language == "en" else cls.screens / language,
                                  axe=language == "en") for language in cls.languages}

    def test_every_state_fits_a_phone_and_passes_axe(
            self, kit_tool: str, browser_server: Any, allstates_tab: dict[str, Page],
            allstates_checker: dict[str, Checker]) -> None:
        from groupkit_testing.allstates import walk_tool

        tool = installed_tools()[kit_tool]
        steps = self.walk_steps(kit_tool)  # a tool that declares none fails here, by name
        found: list[Finding] = []
        with browser_server.client() as client:
            for language, checker in allstates_checker.items():
                found += in_language(language, walk_tool(
                    allstates_tab[language], client, tool, checker.screens, *steps, checker))
        report = self.screens / f"{kit_tool}-findings.txt"
        report.write_text("".join(f"{finding}\n" for finding in found), encoding="utf-8")
        assert not found, summary(found)

    def test_the_home_page_fits_a_phone_and_passes_axe(
            self, browser_server: Any, allstates_tab: dict[str, Page],
            allstates_checker: dict[str, Checker]) -> None:
        from groupkit_testing.allstates import walk_home

        found: list[Finding] = []
        for language, checker in allstates_checker.items():
            found += in_language(language, walk_home(allstates_tab[language],
                                                     checker.screens, checker))
        (self.screens / "home-findings.txt").write_text(
            "".join(f"{f}\n" for f in found), encoding="utf-8")
        assert not found, summary(found)


def in_language(language: str, found: list[Finding]) -> list[Finding]:
    """Findings of a walk in `language`, their states named with it (English's as they are)."""
    if language == "en":
        return found
    return [dataclasses.replace(finding, state=f"{finding.state} [{language}]")
            for finding in found]


# --- every word translated ---------------------------------------------------------------------

class PseudoLocaleSuite(BrowserKit):
    """Every page state of each tool (as `AllStatesSuite` walks them, JavaScript on) and
    its create form without JavaScript, and the home page, in a made-up language
    (`groupkit_testing.pseudo`) whose catalogs are built from every domain's `.pot`: a word
    of English on a page that is not text people typed escaped translation. One phone view,
    no layout checks (the all-states suite makes those)."""

    @pytest.fixture(scope="class")
    @classmethod
    def pseudo_server(cls, live_server: Callable[..., Any],
                      tmp_path_factory: pytest.TempPathFactory) -> Any:
        """A development server that offers the made-up language besides the shipped ones."""
        from groupkit_testing.pseudo import LOCALE_PATH
        from groupkit_testing.pseudo import compile_pseudo

        folder = compile_pseudo(tmp_path_factory.mktemp("pseudo"))
        return live_server(mode="development", limits={"post_per_hour": 1_000_000},
                           env={LOCALE_PATH: str(folder)})

    @pytest.fixture(scope="class")
    @classmethod
    def pseudo_tabs(cls, kit_chromium: Browser, pseudo_server: Any
                    ) -> Iterator[tuple[Page, Page]]:
        """(a page with JavaScript, one without), both reading the made-up language (its
        cookie, as the switcher sets it); an uncaught script error fails the class."""
        from groupkit.core._i18n import COOKIE
        from groupkit_testing.pseudo import LANGUAGE

        pages, contexts, errors = [], [], []
        for script in (True, False):
            context = kit_chromium.new_context(base_url=pseudo_server.base_url,
                                               viewport={"width": 390, "height": 844},
                                               java_script_enabled=script)
            context.set_default_timeout(TIMEOUT_MS)
            context.add_cookies([{"name": COOKIE, "value": LANGUAGE,
                                  "url": pseudo_server.base_url}])
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            contexts.append(context)
            pages.append(page)
        yield pages[0], pages[1]
        for context in contexts:
            context.close()
        assert errors == []

    def test_every_word_of_every_state_is_translated(
            self, kit_tool: str, pseudo_server: Any, pseudo_tabs: tuple[Page, Page]) -> None:
        from groupkit_testing.allstates import walk_tool
        from groupkit_testing.pseudo import TextChecker

        tool = installed_tools()[kit_tool]
        steps = self.walk_steps(kit_tool)
        with pseudo_server.client() as client:
            checker = TextChecker(client)
            found = walk_tool(pseudo_tabs[0], client, tool, Path("."), *steps, checker)
            pseudo_tabs[1].goto(f"/new/{kit_tool}")
            found += checker.check(pseudo_tabs[1], f"{kit_tool}-create-without-javascript")
        assert not found, f"{kit_tool}: words that escaped translation:\n" + "\n".join(
            str(finding) for finding in found)

    def test_every_word_of_the_home_page_is_translated(
            self, pseudo_tabs: tuple[Page, Page]) -> None:
        from groupkit_testing.allstates import walk_home
        from groupkit_testing.pseudo import TextChecker

        found = walk_home(pseudo_tabs[0], Path("."), TextChecker())
        assert not found, "words that escaped translation:\n" + "\n".join(map(str, found))


# --- script injection ------------------------------------------------------------------------

#: name -> (payload, raw strings that may never appear in the HTML as served). Each payload
#: carries its own `gkxNN` tag so anything that fires can be traced to it.
PAYLOADS: dict[str, tuple[str, tuple[str, ...]]] = {
    "script": ('<script>alert("gkx01")</script>', ('<script>alert("gkx01")',)),
    "img-onerror": ('<img src=x onerror=alert("gkx02")>', ("<img src=x onerror",)),
    "svg-onload": ('<svg onload=alert("gkx03")>', ("<svg onload",)),
    "javascript-url": ('javascript:alert("gkx04")', ()),
    "double-quote": ('"><script>alert("gkx05")</script>', ('"><script>alert("gkx05")',)),
    "single-quote": ("' onmouseover='alert(\"gkx06\")' x='", ("' onmouseover='alert",)),
    "textarea": ('</textarea><script>alert("gkx07")</script>',
                 ('</textarea><script>alert("gkx07")',)),
    "template": ("gkx08{{7*7}}${7*7}#{7*7}<%= 7*7 %>", ("gkx0849", "<%= 7*7 %>")),
    "rtl-override": ("\u202egkx09<b>evil</b>\u202c", ("<b>evil</b>",)),
    "lookalike": ("\uff1cscript\uff1ealert(\"gkx10\")\uff1c/script\uff1e",
                  ('<script>alert("gkx10")',)),
    "long-10k": ('<script>alert("gkx11")</script>' + "A" * 10240, ('<script>alert("gkx11")',)),
    "script-close": ('</script><script>alert("gkx12")</script>',
                     ('</script><script>alert("gkx12")',)),
    "comment": ('--><script>alert("gkx13")</script><!--', ('--><script>alert("gkx13")',)),
    "iframe": ('<iframe srcdoc="gkx14<script>alert(14)</script>">', ("<iframe srcdoc",)),
    "details": ('<details open ontoggle=alert("gkx15")>', ("<details open ontoggle",)),
    "style-close": ('</style><script>alert("gkx16")</script>',
                    ('</style><script>alert("gkx16")',)),
    "entities": ('&lt;img src=x onerror=alert("gkx17")&gt;', ('&lt;img src=x onerror',)),
    "backtick": ('`${alert("gkx18")}`', ()),
    "json-break": ('"}]</script><script>alert("gkx19")</script>',
                   ('</script><script>alert("gkx19")',)),
    "anchor": ("<a href=\"javascript:alert('gkx20')\">gkx20</a>", ("<a href=\"javascript",)),
}

#: Anywhere on any page, in any attribute that navigates or loads.
JAVASCRIPT_URL = re.compile(
    r"""(?:href|src|action|formaction|data)\s*=\s*["']?[\s\x00-\x1f]*javascript:""", re.I)

SETTLE_MS = 75  # plugin scripts fill some parts after `load` (a tally fetched, a list drawn)

DOM_PROBLEMS = """() => {
  const found = [];
  const loads = ["href", "src", "action", "formaction", "xlink:href", "data", "poster"];
  for (const el of document.querySelectorAll("*")) {
    const tag = el.tagName.toLowerCase();
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on")) found.push(`${tag}[${name}]`);
      if (name === "srcdoc") found.push(`${tag}[srcdoc]`);
      if (loads.includes(name)) {
        const value = attr.value.replace(/[\\u0000-\\u0020]/g, "").toLowerCase();
        if (value.startsWith("javascript:") || value.startsWith("vbscript:")
            || value.startsWith("data:text/html")) {
          found.push(`${tag}[${name}=${attr.value.slice(0, 60)}]`);
        }
      }
    }
    if (tag === "script") {
      const type = (el.getAttribute("type") || "").toLowerCase();
      const data = type === "application/json" || type === "application/ld+json";
      if (!data && !(el.getAttribute("src") || "").startsWith("/static/")) {
        found.push("script without a /static/ src");
      }
    }
    if (["iframe", "frame", "frameset", "object", "embed", "base", "applet"].includes(tag)) {
      found.push(tag);
    }
    if (tag === "meta" && el.getAttribute("http-equiv")) found.push("meta[http-equiv]");
  }
  return found;
}"""


def xss_fill(payload: str) -> Callable[[str], str]:
    """The payload for every field; siblings get a distinct prefix (names must differ), and
    link fields get it inside an http address (a bare one is dropped or refused), except the
    `javascript:` payloads, which are sent as they are."""
    def fill(label: str) -> str:
        index = sibling_index(label)
        text = f"{index}{payload}" if index else payload
        last = label.rsplit(".", 2)
        is_link = "url" in last or "link" in last
        if is_link and not payload.startswith("javascript:"):
            return "https://example.com/?q=" + text
        return text
    return fill


class Visit:
    """One browser page walked over every page of a tool's instances, recording console
    errors, uncaught exceptions, CSP violations, dialogs and responses without the
    Content-Security-Policy header."""

    def __init__(self, page: Page, base_url: str) -> None:
        self.page, self.base_url = page, base_url
        self.problems: list[str] = []
        self.dialogs: list[str] = []
        self.without_csp: list[str] = []
        self.count = self.dialogs_before = 0
        page.on("console", lambda message: self.problems.append(
            f"console {message.type}: {message.text} ({message.location.get('url', '')})")
            if message.type == "error" or "Content Security Policy" in message.text
            else None)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("dialog", self._dialog)
        page.on("response", self._response)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message[:80]} on {self.page.url}")
        dialog.accept()

    def _response(self, response: Response) -> None:
        if response.url.startswith(self.base_url) and \
                "content-security-policy" not in response.headers:
            self.without_csp.append(response.url)

    def open(self, path: str) -> list[str]:
        """Everything wrong on one page: console problems, dialogs and DOM findings."""
        self.start(path)
        self.page.wait_for_load_state("load")
        return self.inspect()

    def start(self, path: str) -> None:
        """Begin loading `path`, returning once the response arrives (see `open_all`)."""
        self.dialogs_before = len(self.dialogs)
        self.page.goto(path, wait_until="commit")
        self.count += 1

    def inspect(self) -> list[str]:
        """What went wrong on the page being loaded, once it settled."""
        self.page.wait_for_timeout(SETTLE_MS)
        return self.findings()

    def findings(self) -> list[str]:
        """What went wrong since the page began loading (after it settled)."""
        found = [f"DOM: {item}" for item in self.page.evaluate(DOM_PROBLEMS)]
        found += self.problems + self.dialogs[self.dialogs_before:]
        self.problems = []
        self.dialogs_before = len(self.dialogs)
        found += [f"no CSP header on {url}" for url in self.without_csp]
        self.without_csp.clear()
        return found


#: Pages loaded side by side, one per tab, sharing one settle: a page load is mostly waiting.
TABS = 4


def open_all(visits: list[Visit], paths: list[str]) -> list[list[str]]:
    """Everything wrong on each of `paths`, opened `len(visits)` at a time in separate tabs
    (each its own browser profile), with one settle per batch instead of one per page."""
    found: list[list[str]] = []
    for first in range(0, len(paths), len(visits)):
        batch = list(zip(visits, paths[first:first + len(visits)], strict=False))
        for visit, path in batch:
            visit.start(path)
        for visit, _ in batch:
            visit.page.wait_for_load_state("load")
        batch[0][0].page.wait_for_timeout(SETTLE_MS)
        found += [visit.findings() for visit, _ in batch]
    return found


#: Participant pages opened per instance: they are one template filled for different people.
PARTICIPANT_PAGES = 2


def participant_pages(api: httpx.Client, session: Session) -> dict[str, httpx.Response]:
    """`/p/{token}` of the first tokens the calls handed out that open a page, each with
    its answer (the page as served, judged without asking the server for it again)."""
    pages: dict[str, httpx.Response] = {}
    for _, token in session.tokens:
        if len(pages) < PARTICIPANT_PAGES:
            response = api.get(f"/p/{token}")
            if response.status_code == 200:
                pages[f"/p/{token}"] = response
    return pages


def served_problems(api: httpx.Client, path: str, forbidden: tuple[str, ...],
                    served: list[str], response: httpx.Response | None = None) -> list[str]:
    """What is wrong with `path` as served (its text appended to `served`): not a 200, no
    CSP header, a raw `forbidden` string or a `javascript:` address in the HTML. `response`:
    its answer, when one was already fetched."""
    if response is None:
        response = api.get(path)
    served.append(response.text)
    found = []
    if response.status_code != 200:
        found.append(f"{path} answered {response.status_code}")
    if "content-security-policy" not in response.headers:
        found.append(f"{path} has no Content-Security-Policy header")
    html = response.text.lower()
    found += [f"unescaped {raw!r} in {path}" for raw in forbidden if raw.lower() in html]
    found += [f"javascript: address in {path}: {match.group(0)!r}"
              for match in JAVASCRIPT_URL.finditer(response.text)]
    return found


class ScriptInjectionSuite(BrowserKit):
    """Script injection in a real browser. For each payload of the corpus (`PAYLOADS`):
    create an instance with the payload in every string of the tool's `example` (a field
    that refuses it keeps the example's value), take part with the payload in every
    free-text field of the participation, then open every page of the instance (public,
    organiser, the first participant pages) in headless Chromium, `TABS` at a time.

    On every page: no dialog ever opens, nothing reaches the console (no error, no CSP
    violation), the DOM holds no event-handler attribute, `javascript:` address, inline
    script or frame, and every response carries the Content-Security-Policy header. In the
    HTML as served, no payload appears unescaped, and each payload reached some page."""

    @pytest.fixture
    def injection_tabs(self, kit_chromium: Browser, browser_server: Any
                       ) -> Iterator[list[Visit]]:
        """`TABS` fresh browser profiles on the server; nothing may go wrong after a page's
        last check either."""
        contexts: list[BrowserContext] = []
        visits: list[Visit] = []
        for _ in range(TABS):
            context = kit_chromium.new_context(base_url=browser_server.base_url,
                                               viewport={"width": 1024, "height": 800})
            context.set_default_timeout(TIMEOUT_MS)
            context.add_init_script(REPORT_CSP_VIOLATIONS)
            contexts.append(context)
            visits.append(Visit(context.new_page(), browser_server.base_url))
        yield visits
        for context in contexts:
            context.close()
        assert [visit.problems for visit in visits] == [[] for _ in visits]

    def test_payloads_stay_text(self, kit_tool: str, browser_server: Any,
                                injection_tabs: list[Visit]) -> None:
        tool = installed_tools()[kit_tool]
        take_part, reveal = self.steps(kit_tool)
        with browser_server.client() as api:
            problems, opened = injected_pages(api, tool, take_part, reveal)
        seen = open_all(injection_tabs, [path for _, path in opened])
        for (name, path), found in zip(opened, seen, strict=True):
            problems[name] += [f"{path}: {item}" for item in found]
        problems = {name: found for name, found in problems.items() if found}
        assert problems == {}, (
            f"{kit_tool}: injected script was not kept as text: "
            + "; ".join(f"[{name}] {', '.join(found)}" for name, found in problems.items()))

    def test_detectors_see_injected_script(self, browser_server: Any,
                                           injection_tabs: list[Visit]) -> None:
        """The checks above can fail: a dialog, a handler attribute, a `javascript:` link, an
        inline script and a frame put into a page are each reported, and so is a raw string
        in served HTML."""
        tool = installed_tools()[self.suite_tools()[0]]
        visit = injection_tabs[0]
        with browser_server.client() as api:
            made = api.post(f"/api/{tool.name}", json=dict(tool.example)).json()
            path = f"/s/{made['slug']}"
            assert visit.open(path) == []
            visit.page.evaluate("""() => {
                document.body.insertAdjacentHTML("beforeend",
                    '<img alt="" data-x onerror="1"><a href=" javascript:void(0)">x</a>' +
                    '<iframe></iframe>');
                const script = document.createElement("script");
                document.body.appendChild(script);
                setTimeout(() => alert("gkx00"), 0);
            }""")
            found = " ".join(visit.inspect())
            for expected in ("img[onerror]", "a[href= javascript:void(0)]", "iframe",
                             "script without a /static/ src", "alert: gkx00"):
                assert expected in found, (expected, found)
            served: list[str] = []
            assert served_problems(api, path, ("<body",), served) == [
                f"unescaped '<body' in {path}"]


def injected_pages(api: httpx.Client, tool: Tool, take_part: Scenario | None,
                   reveal: Scenario | None
                   ) -> tuple[dict[str, list[str]], list[tuple[str, str]]]:
    """Every payload through create and participation: (payload name -> what was wrong
    with the answers and the HTML as served, [(payload name, page path)] to open)."""
    problems: dict[str, list[str]] = {}
    opened: list[tuple[str, str]] = []
    for name, (payload, forbidden) in PAYLOADS.items():
        fill = xss_fill(payload)
        made = create_instance(api, tool.name, tool.example, fill)
        session = Session(api, made, fill)
        if take_part is not None:
            take_part(session)
        if reveal is not None:
            reveal(session)
        found = [f"{sent.template} answered without a CSP header" for sent in session.sent
                 if "content-security-policy" not in sent.headers]
        if "content-security-policy" not in api.get(f"/api/{tool.name}/{made.slug}").headers:
            found.append("the public read answered without a CSP header")
        fetched = participant_pages(api, session)
        pages = [f"/s/{made.slug}", f"/e/{made.edit}", *fetched]
        served: list[str] = []
        for path in pages:
            found += served_problems(api, path, forbidden, served, fetched.get(path))
            opened.append((name, path))
        tag = re.search(r"gkx\d\d", payload)
        assert tag and any(tag.group(0) in html for html in served), (
            f"{tool.name}: the {name} payload reached none of the pages, so none was tested")
        problems[name] = found
    return problems, opened


class BrowserSuites(AllStatesSuite, ScriptInjectionSuite):
    """Both browser suites (every page state, script injection) over `tools`, on one
    server and one Chromium."""
