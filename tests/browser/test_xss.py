"""Script injection against every installed tool, in a real browser.

For each payload of the corpus and each tool: create an instance with the payload in every
string of the tool's example (a field that refuses it keeps the example's value), take part
with the payload in every free-text field (claims, signatures, notes, votes, guesses,
wishlists, facts, suggestions...), then open every page of the instance once in headless
Chromium: the public page, the organiser page and each participant page a call handed out.

On every page: no dialog ever opens, nothing reaches the console (no error, no CSP
violation), the DOM holds no event-handler attribute, `javascript:` address, inline script
or frame, and every response carries the Content-Security-Policy header. In the HTML as
served, no payload appears unescaped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from browsing import Watched
from participation import REVEALS, SCENARIOS
from playwright.sync_api import Response

from groupkit._config import Settings
from groupkit._plugins import load_tools
from groupkit.testing import Session, create_instance, sibling_index

pytestmark = [pytest.mark.browser, pytest.mark.server]

INSTALLED = load_tools(Settings()).tools

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


@pytest.fixture(scope="module")
def server(live_server: Callable[..., Any]) -> Any:
    """One development server for the whole corpus; a POST limit far above what the corpus
    sends (some 1,500 participation calls from one address)."""
    return live_server(mode="development", limits={"post_per_hour": 1_000_000})


class Visit:
    """One browser page walked over every page of a tool's instances, recording dialogs and
    responses without the Content-Security-Policy header."""

    def __init__(self, watched: Watched, base_url: str) -> None:
        self.watched, self.page, self.base_url = watched, watched.page, base_url
        self.dialogs: list[str] = []
        self.without_csp: list[str] = []
        self.count = self.dialogs_before = 0
        self.page.on("dialog", lambda dialog: self.dialogs.append(
            f"{dialog.type}: {dialog.message[:80]} on {self.page.url}"))
        self.page.on("response", self._response)

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
        self.page.wait_for_timeout(SETTLE_MS)
        return self.findings()

    def findings(self) -> list[str]:
        """What went wrong since the page began loading (after it settled)."""
        found = [f"DOM: {item}" for item in self.page.evaluate(DOM_PROBLEMS)]
        found += self.watched.problems + self.dialogs[self.dialogs_before:]
        self.watched.problems = []
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


def participant_pages(api: httpx.Client, session: Session) -> list[str]:
    """`/p/{token}` of the first tokens the calls handed out that open a page."""
    pages = []
    for _, token in session.tokens:
        if len(pages) < PARTICIPANT_PAGES and api.get(f"/p/{token}").status_code == 200:
            pages.append(f"/p/{token}")
    return pages


def served_problems(api: httpx.Client, path: str, forbidden: tuple[str, ...],
                    served: list[str]) -> list[str]:
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


@pytest.fixture(scope="module")
def tally() -> Iterator[dict[str, int]]:
    counts = {"payloads": len(PAYLOADS), "instances": 0, "calls": 0, "pages": 0}
    yield counts
    print(f"\nscript injection: {counts}")


@pytest.mark.parametrize("tool_name", sorted(INSTALLED))
def test_payloads_stay_text(tool_name: str, server: Any, api: httpx.Client,
                            open_context: Callable[[], Watched],
                            tally: dict[str, int]) -> None:
    tool = INSTALLED[tool_name]
    problems: dict[str, list[str]] = {}
    opened: list[tuple[str, str]] = []  # (payload name, page path), opened in the browser last
    for name, (payload, forbidden) in PAYLOADS.items():
        fill = xss_fill(payload)
        made = create_instance(api, tool_name, tool.example, fill)
        session = Session(api, made, fill)
        SCENARIOS[tool_name](session)
        if tool_name in REVEALS:
            REVEALS[tool_name](session)
        tally["instances"] += 1
        tally["calls"] += len(session.sent)
        found = [f"{sent.template} answered without a CSP header" for sent in session.sent
                 if "content-security-policy" not in sent.headers]
        if "content-security-policy" not in api.get(f"/api/{tool_name}/{made.slug}").headers:
            found.append("the public read answered without a CSP header")
        pages = [f"/s/{made.slug}", f"/e/{made.edit}", *participant_pages(api, session)]
        served: list[str] = []
        for path in pages:
            found += served_problems(api, path, forbidden, served)
            opened.append((name, path))
        tag = re.search(r"gkx\d\d", payload)
        assert tag and any(tag.group(0) in html for html in served), (
            f"{tool_name}: the {name} payload reached none of the pages, so none was tested")
        problems[name] = found
    visits = [Visit(open_context(), server.base_url) for _ in range(TABS)]
    seen = open_all(visits, [path for _, path in opened])
    for (name, path), found in zip(opened, seen, strict=True):
        problems[name] += [f"{path}: {item}" for item in found]
    tally["pages"] += sum(visit.count for visit in visits)
    problems = {name: found for name, found in problems.items() if found}
    assert problems == {}, (
        f"{tool_name}: injected script was not kept as text: "
        + "; ".join(f"[{name}] {', '.join(found)}" for name, found in problems.items()))


def test_detectors_see_injected_script(server: Any, api: httpx.Client,
                                       open_context: Callable[[], Watched]) -> None:
    """The checks above can fail: a dialog, a handler attribute, a `javascript:` link, an
    inline script and a frame put into a page are each reported, and so is a raw payload in
    served HTML."""
    made = api.post("/api/card", json={"recipient": "Margaret"}).json()
    visit = Visit(open_context(), server.base_url)
    assert visit.open(f"/s/{made['slug']}") == []
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
    assert served_problems(api, f"/s/{made['slug']}", ("Margaret",), served) == [
        f"unescaped 'Margaret' in /s/{made['slug']}"]
