"""The all-states browser check of the plugin author's kit: every page state of a tool
(create, public, its printable share sheet, organiser, private, after participation, after
the reveal, deleted), and the home page (`walk_home`), at
320x640 and 390x844, light and dark, with no horizontal overflow, every tap target at least
24x24 CSS px (WCAG 2.2 2.5.8, with its spacing and inline exceptions), nothing axe-core
objects to, and a full-page screenshot of each.

Needs Playwright, `axe-playwright-python` and httpx (`pip install groupkit-testing[browser]`) and a
Chromium. The states come from the tool's `example` and its `Walkthrough`:

    from groupkit_testing.allstates import walk_tool
    findings = walk_tool(page, client, tool, screens=Path("artifacts/screens"))
    assert findings == []

Each page is loaded once and checked in all four views (the viewport and the colour scheme
change in place), so a tool costs about ten page loads.
"""

from __future__ import annotations

import base64
import dataclasses
import math
import re
import weakref
from collections.abc import Callable
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from typing import Protocol

import httpx
from axe_playwright_python.base import AxeResults
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext
from playwright.sync_api import CDPSession
from playwright.sync_api import Page

from groupkit.core._tool import Tool

#: (width, height) of the phones every state is checked on.
SIZES: tuple[tuple[int, int], ...] = ((320, 640), (390, 844))
SCHEMES: tuple[str, ...] = ("light", "dark")
#: Plugin scripts fill some parts after `load` (a tally fetched, a list drawn).
SETTLE_MS = 60
MIN_TARGET = 24
#: axe-core's rules whose result a colour scheme can change. A scheme changes colours only
#: (the kit's and plugins' `prefers-color-scheme` blocks set colours, nothing else), so in
#: the second and later schemes of a size only these run: the structural rules would see
#: the same document they passed moments before in the first scheme.
COLOUR_RULES: tuple[str, ...] = ("color-contrast", "link-in-text-block")

#: Targets smaller than 24x24 CSS px that no WCAG 2.5.8 exception covers. A checkbox or radio
#: counts with its label (a tap on the label is a tap on it); a link inside a sentence is
#: exempt (inline), and so is a target whose `data-equivalent` names the id of an element on
#: the page that does the same with a full-size control (equivalent); an undersized target
#: passes when a 24 px circle on its centre touches no
#: other target and no other undersized target's circle (spacing).
SMALL_TARGETS_JS = """(min) => {
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, '
    + '[role=button], [role=link], [role=checkbox], [role=radio], [tabindex]:not([tabindex="-1"])';
  const shown = (el) => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 1 && r.height > 1 && s.visibility !== 'hidden'
      && !el.closest('[hidden], [inert]') && s.pointerEvents !== 'none';
  };
  const boxOf = (el) => {
    let r = el.getBoundingClientRect();
    let box = {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
    if ((el.type === 'checkbox' || el.type === 'radio') && el.labels) {
      for (const label of el.labels) {
        const l = label.getBoundingClientRect();
        if (l.width < 1) continue;
        box = {left: Math.min(box.left, l.left), top: Math.min(box.top, l.top),
               right: Math.max(box.right, l.right), bottom: Math.max(box.bottom, l.bottom)};
      }
    }
    return box;
  };
  const inline = (el) => {
    if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
    const block = el.parentElement;
    return block && block.textContent.trim().length > el.textContent.trim().length;
  };
  const targets = [...document.querySelectorAll(selector)].filter(shown)
    .map((el) => ({el, box: boxOf(el)}));
  const equivalent = (el) => el.dataset && el.dataset.equivalent
    && document.getElementById(el.dataset.equivalent) !== null;
  const small = targets.filter(({el, box}) => !inline(el) && !equivalent(el)
    && (box.right - box.left < min - 0.5 || box.bottom - box.top < min - 0.5));
  const centre = (b) => [(b.left + b.right) / 2, (b.top + b.bottom) / 2];
  const distance = ([x, y], b) => Math.hypot(Math.max(b.left - x, 0, x - b.right),
                                            Math.max(b.top - y, 0, y - b.bottom));
  const name = (el) => {
    const text = (el.getAttribute('aria-label') || el.textContent || el.value || '').trim();
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
      + (el.className && typeof el.className === 'string'
         ? '.' + el.className.trim().split(/\\s+/).join('.') : '')
      + (text ? ' "' + text.slice(0, 30) + '"' : '');
  };
  const found = [];
  for (const target of small) {
    const c = centre(target.box);
    const crowded = targets.some((other) => other !== target
        && !other.el.contains(target.el) && !target.el.contains(other.el)
        && distance(c, other.box) < min / 2)
      || small.some((other) => other !== target
        && Math.hypot(...centre(other.box).map((v, i) => v - c[i])) < min);
    if (crowded) {
      const b = target.box;
      const size = `${Math.round(b.right - b.left)}x${Math.round(b.bottom - b.top)}`;
      found.push(`${name(target.el)} ${size}`);
    }
  }
  return found;
}"""

OVERFLOW_JS = """() => {
  const width = window.innerWidth;
  if (document.documentElement.scrollWidth <= width) return null;
  const wide = [...document.body.querySelectorAll('*')].filter((el) =>
    el.getBoundingClientRect().right > width + 0.5 && getComputedStyle(el).position !== 'fixed')
    .slice(-3).map((el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
      + (typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : ''));
  return `${document.documentElement.scrollWidth} px wide (${wide.join(', ')})`;
}"""

FRAME_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


@dataclasses.dataclass
class Finding:
    """One thing wrong with one page state in one view."""

    state: str
    view: str
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"{self.state} @ {self.view}: {self.kind}: {self.detail}"


class _Axe(Axe):
    """axe-playwright-python, injecting axe-core once per page load rather than per run
    (none at all in a page whose context carries it, `preload_axe`)."""

    def run(self, page: Page, context: Any = None, options: Any = None) -> Any:
        if not page.evaluate("typeof window.axe !== 'undefined'"):
            page.evaluate(self.axe_script)
        args = self._format_script_args(context=context, options=options or {
            "resultTypes": ["violations"]})
        return AxeResults(page.evaluate(f"axe.run({args}).then(results => results)"))


def preload_axe(context: BrowserContext) -> None:
    """axe-core in every page the context opens, from the page's start: the checker then
    sends none of it per page load (half a megabyte of script through the driver cost a
    page load nearly its own CPU again); it is defined before the page's scripts run, which
    never name it."""
    context.add_init_script(_Axe().axe_script)


def _full_page_png(page: Page) -> bytes:
    """`page.screenshot(full_page=True)`'s pixels, encoded for speed: in Chromium, through
    DevTools' `optimizeForSpeed` (a faster, larger PNG); elsewhere, and on a touch-emulating
    page (which Playwright captures with touch emulation turned off for the moment),
    Playwright's own."""
    browser = page.context.browser
    if browser is None or browser.browser_type.name != "chromium" or \
            page.evaluate("navigator.maxTouchPoints > 0"):
        return page.screenshot(full_page=True)
    session = _SESSIONS.get(page)
    if session is None:
        session = _SESSIONS[page] = page.context.new_cdp_session(page)
    size = session.send("Page.getLayoutMetrics")["cssContentSize"]
    shot = session.send("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True, "optimizeForSpeed": True,
        "clip": {"x": 0, "y": 0, "width": math.ceil(size["width"]),
                 "height": math.ceil(size["height"]), "scale": 1}})
    return base64.b64decode(shot["data"])


#: One DevTools session per page the checker screenshots.
_SESSIONS: weakref.WeakKeyDictionary[Page, CDPSession] = weakref.WeakKeyDictionary()


class Checker:
    """Checks the page loaded in a Playwright page in every view and saves screenshots."""

    def __init__(self, screens: Path, sizes: Iterable[tuple[int, int]] = SIZES,
                 schemes: Iterable[str] = SCHEMES, axe: bool = True) -> None:
        self.screens = screens
        self.sizes, self.schemes = tuple(sizes), tuple(schemes)
        #: Whether axe-core runs (a page in another language is the same markup: the layout
        #: checks are the ones its longer words can fail).
        self.axe: _Axe | None = _Axe() if axe else None
        screens.mkdir(parents=True, exist_ok=True)
        #: The document each state was checked on (`page.content()`) -> (that state, its
        #: findings).
        self.checked: dict[str, tuple[str, list[Finding]]] = {}

    def check(self, page: Page, state: str) -> list[Finding]:
        """The findings on the page in every view. A document identical to one checked
        before, markup and all (every tool's page after its delete is the same "not here"
        page), gets that check's findings and screenshots without checking it again; only
        a document that stayed the same through all four views of its check is reused."""
        page.wait_for_load_state("load")
        page.wait_for_timeout(SETTLE_MS)
        document = page.content()
        if document in self.checked:
            earlier, findings = self.checked[document]
            for view in self.views():
                (self.screens / f"{state}-{view}.png").write_bytes(
                    (self.screens / f"{earlier}-{view}.png").read_bytes())
            return [dataclasses.replace(finding, state=state) for finding in findings]
        found = self._check(page, state)
        if page.content() == document:
            self.checked[document] = (state, found)
        return found

    def watch(self, tool: str, slug: str, edit: str) -> None:
        """Nothing to note: a layout looks the same whoever typed what."""

    def views(self) -> list[str]:
        return [f"{width}x{height}-{scheme}" for width, height in self.sizes
                for scheme in self.schemes]

    def _check(self, page: Page, state: str) -> list[Finding]:
        found: list[Finding] = []
        for width, height in self.sizes:
            page.set_viewport_size({"width": width, "height": height})
            for index, scheme in enumerate(self.schemes):
                page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
                page.evaluate(FRAME_JS)
                found += self._check_view(page, state, f"{width}x{height}-{scheme}",
                                          colours_only=index > 0)
        return found

    def _check_view(self, page: Page, state: str, view: str,
                    colours_only: bool = False) -> list[Finding]:
        found: list[Finding] = []
        overflow = page.evaluate(OVERFLOW_JS)
        if overflow:
            found.append(Finding(state, view, "horizontal overflow", overflow))
        for target in page.evaluate(SMALL_TARGETS_JS, MIN_TARGET):
            found.append(Finding(state, view, "tap target under 24x24", target))
        options: dict[str, Any] = {"resultTypes": ["violations"]}
        if colours_only:
            options["runOnly"] = {"type": "rule", "values": list(COLOUR_RULES)}
        violations = self.axe.run(page, options=options).response["violations"] \
            if self.axe is not None else []
        for violation in violations:
            nodes = "; ".join(" ".join(node["target"]) if isinstance(node["target"], list)
                              else str(node["target"]) for node in violation["nodes"][:4])
            found.append(Finding(state, view, f"axe {violation['id']}",
                                 f"{violation['impact']}: {nodes}"))
        path = self.screens / f"{state}-{view}.png"
        path.write_bytes(_full_page_png(page))
        page.evaluate("window.scrollTo(0, 0)")
        return found


class StateCheck(Protocol):
    """What `walk_tool` checks each page state with: the layout `Checker`, or another
    check of the page (`groupkit_testing.pseudo.TextChecker`)."""

    def watch(self, tool: str, slug: str, edit: str) -> None:
        """The instance whose states are about to be checked."""

    def check(self, page: Page, state: str) -> list[Finding]:
        """The findings on the page loaded."""
        ...


class ApiParticipation:
    """A `Participation` over HTTP (httpx), noting every participant token it is handed."""

    def __init__(self, client: httpx.Client, tool: str, slug: str, edit_token: str) -> None:
        self.client, self.tool, self.slug, self.edit = client, tool, slug, edit_token
        self.tokens: list[str] = []

    def _call(self, method: str, path: str, body: Any) -> Any:
        response = self.client.request(method, f"/api/{self.tool}/{path}", json=body)
        assert response.status_code < 300, (
            f"{self.tool}: {method} {path} with {body!r} answered {response.status_code} "
            f"{response.text[:300]}")
        if "json" not in response.headers.get("content-type", ""):
            return None
        reply = response.json()
        if isinstance(reply, dict) and isinstance(reply.get("token"), str):
            self.tokens.append(reply["token"])
        return reply

    def public(self, path: str, body: dict[str, Any]) -> Any:
        return self._call("POST", path, {"slug": self.slug, **body})

    def organiser(self, path: str, body: Any = None) -> Any:
        return self._call("POST", f"{self.edit}/{path}", body)

    def participant(self, path: str, token: str, body: Any = None) -> Any:
        return self._call("POST", path.format(token=token), body)

    def read(self) -> Any:
        return self._call("GET", self.slug, None)

    def get(self, path: str, **params: str) -> Any:
        return self._call("GET", f"{self.slug}/{path.format(**params)}", None)

    def text(self, label: str, example: str) -> str:
        return example


#: One step of a walkthrough run over HTTP (a suite with its own participation driver adds
#: the tokens it was handed to `ApiParticipation.tokens`).
Step = Callable[[ApiParticipation], None]


PRIVATE_LINK = re.compile(r"/p/([A-Za-z0-9_-]{16,})")


def private_page(client: httpx.Client, tokens: Iterable[str], edit: str) -> str | None:
    """`/p/{token}` of the first token handed out that opens a page, else of the first
    private link the organiser page lists (a tool that deals personal links)."""
    listed = PRIVATE_LINK.findall(client.get(f"/e/{edit}").text)
    for token in [*tokens, *listed]:
        if client.get(f"/p/{token}").status_code == 200:
            return f"/p/{token}"
    return None


def walk_tool(page: Page, client: httpx.Client, tool: Tool, screens: Path,
              take_part: Step | None = None, reveal: Step | None = None,
              checker: StateCheck | None = None) -> list[Finding]:
    """Every page state of one instance of `tool.example`, checked in every view.

    `take_part` and `reveal` default to the tool's `Walkthrough`. A tool with a private page
    whose participation hands out no token that opens one is itself a finding."""
    checker = checker or Checker(screens)
    walkthrough = tool.walkthrough
    take_part = take_part or (walkthrough.take_part if walkthrough else None)
    reveal = reveal or (walkthrough.reveal if walkthrough else None)
    name = tool.name
    found: list[Finding] = []

    def visit(path: str, state: str, status: int = 200) -> None:
        response = page.goto(path)
        answered = response.status if response is not None else 0
        if answered != status:
            found.append(Finding(f"{name}-{state}", "-", "status",
                                 f"{path} answered {answered}, not {status}"))
        found.extend(checker.check(page, f"{name}-{state}"))

    made = client.post(f"/api/{name}", json=dict(tool.example))
    assert made.status_code == 201, (name, made.text)
    slug, edit = made.json()["slug"], made.json()["editToken"]
    checker.watch(name, slug, edit)
    visit(f"/new/{name}", "create")
    visit(f"/s/{slug}", "public")
    visit(f"/s/{slug}/sheet", "share-sheet")
    visit(f"/e/{edit}", "organiser")
    api = ApiParticipation(client, name, slug, edit)
    private = None
    if take_part is not None:
        take_part(api)
        visit(f"/s/{slug}", "public-after-participation")
        visit(f"/e/{edit}", "organiser-after-participation")
        private = private_page(client, api.tokens, edit)
        if private:
            visit(private, "private")
    if tool.participant_view is not None and private is None:
        found.append(Finding(f"{name}-private", "-", "no private page",
                             "the walkthrough hands out no token that opens /p/{token}"))
    if reveal is not None:
        reveal(api)
        visit(f"/s/{slug}", "public-after-reveal")
        visit(f"/e/{edit}", "organiser-after-reveal")
        if private:
            visit(private, "private-after-reveal")
    deleted = client.post(f"/api/{name}/{edit}/delete")
    assert deleted.status_code < 300, (name, deleted.text)
    visit(f"/s/{slug}", "deleted", status=404)
    return found


def walk_home(page: Page, screens: Path, checker: StateCheck | None = None) -> list[Finding]:
    """The home page (every installed tool, grouped by occasion), checked in every view as
    a tool's states are: the page every visitor without a link starts on."""
    checker = checker or Checker(screens)
    response = page.goto("/")
    found = [] if response is not None and response.status == 200 else [
        Finding("home", "-", "status", "/ did not answer 200")]
    return found + checker.check(page, "home")

__all__ = [
    "ApiParticipation",
    "Checker",
    "Finding",
    "StateCheck",
    "private_page",
    "walk_home",
    "walk_tool",
]
