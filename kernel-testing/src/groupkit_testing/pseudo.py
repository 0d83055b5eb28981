"""The pseudo-language check of the plugin author's kit: every page state of a tool rendered
in a made-up language whose every word is the English one with its letters accented and
wrapped in `⟦…⟧`, so a word of plain English left on a page is a string that escaped
translation (not marked, or shown without `_()`/`|translate`/`words()`).

`compile_pseudo` builds that language's catalogs from the templates (`locale/<domain>.pot`)
of the kernel and of each installed tool, into a folder a server is given in
`$GROUPKIT_LOCALE_PATH`; `TextChecker` reads a page's visible text (text nodes,
placeholders, labels, titles, alternative text, button values, link-preview text) and
reports each English word that is neither inside a marker nor text people typed (every
string of the instance's public read and of its organiser's export):

    folder = compile_pseudo(tmp_path / "pseudo")
    server = live_server(env={LOCALE_PATH: str(folder)})
    ...
    findings = walk_tool(page, client, tool, screens, checker=TextChecker(client))

The language is Amharic (`am`): a real code no groupkit catalog ships, which both Babel and
Chromium's `Intl` format in its own script, so its dates and numbers hold no Latin word
either, written by the server or by a page script.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from playwright.sync_api import Page

from groupkit.core._i18n import DOMAIN
from groupkit.core._i18n import KERNEL_LOCALE
from groupkit.core._i18n import LOCALE_PATH
from groupkit.core._tool import Tool
from groupkit_testing.allstates import Finding

#: The made-up language's code (see the module's docstring).
LANGUAGE = "am"
OPEN, CLOSE = "⟦", "⟧"
_ACCENTED = dict(zip(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒĝĥíĵķĺɱñóƥʠŕšŧúʋŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓƤꝖŔŠŦÚƲŴẊÝŽ", strict=True))
#: What a translation keeps as it is: placeholders (`{name}`, `%(name)s`, `%s`, `%%`),
#: HTML tags and entities.
KEPT = re.compile(r"\{[^{}]*\}|%\(\w+\)[sdif]|%[sdif%]|<[^>]*>|&#?\w+;")


def pseudo(text: str) -> str:
    """`text` in the made-up language: its letters accented, its placeholders, tags and
    entities kept, the whole between markers."""
    out, at = [], 0
    for kept in KEPT.finditer(text):
        out.append("".join(_ACCENTED.get(c, c) for c in text[at:kept.start()]))
        out.append(kept.group(0))
        at = kept.end()
    out.append("".join(_ACCENTED.get(c, c) for c in text[at:]))
    return OPEN + "".join(out) + CLOSE


def templates(tools: Iterable[Tool]) -> Iterator[tuple[str, Path]]:
    """(domain, its `.pot`) of the kernel and of each tool's package that has one."""
    yield DOMAIN, KERNEL_LOCALE / f"{DOMAIN}.pot"
    seen = set()
    for tool in tools:
        if tool.templates is None:
            continue
        package = tool.templates.parent
        pot = package / "locale" / f"{package.name}.pot"
        if package.name not in seen and pot.is_file():
            seen.add(package.name)
            yield package.name, pot


def compile_pseudo(folder: Path, tools: Iterable[Tool] | None = None,
                   language: str = LANGUAGE) -> Path:
    """The made-up language's catalog of every domain (`tools`: default every installed
    tool), compiled into `folder/<language>/LC_MESSAGES/`: give `folder` to a server in
    `$GROUPKIT_LOCALE_PATH`."""
    if tools is None:
        from groupkit_testing._privacy import installed_tools
        tools = installed_tools().values()
    target = folder / language / "LC_MESSAGES"
    target.mkdir(parents=True, exist_ok=True)
    for domain, pot in templates(tools):
        with pot.open("rb") as handle:
            template = read_po(handle)
        catalog = Catalog(locale=language, domain=domain)
        for entry in template:
            if not entry.id:
                continue
            said: Any = (tuple(pseudo(str(form)) for form in entry.id)
                         if isinstance(entry.id, (list, tuple)) else pseudo(entry.id))
            catalog.add(entry.id, said, flags=entry.flags, context=entry.context)
        with (target / f"{domain}.mo").open("wb") as out:
            write_mo(out, catalog)
    return folder


#: Every text a reader sees or hears: text nodes (outside scripts and styles, and outside
#: an element whose `lang` is not the page's), and the attributes that are read out or
#: shown.
VISIBLE_TEXT_JS = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, noscript')) continue;
    // Words marked as another language's (the switcher's language names) are that one's.
    const marked = parent.closest('[lang]');
    if (marked && marked.lang !== document.documentElement.lang) continue;
    const text = node.textContent.trim();
    // A value shown as it is (a time zone's name in a list of them) is not a word.
    if (parent.tagName === 'OPTION' && parent.getAttribute('value') === text) continue;
    if (text) found.push([parent.tagName.toLowerCase(), text]);
  }
  const attributes = ['placeholder', 'aria-label', 'title', 'alt', 'aria-description'];
  for (const el of document.querySelectorAll('*')) {
    const marked = el.closest('[lang]');
    if (marked && marked.lang !== document.documentElement.lang) continue;
    for (const name of attributes) {
      const value = (el.getAttribute(name) || '').trim();
      if (value) found.push([el.tagName.toLowerCase() + '[' + name + ']', value]);
    }
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (el.tagName === 'INPUT' && ['submit', 'button', 'reset'].includes(type) && el.value) {
      found.push(['input[value]', el.value]);
    }
  }
  for (const meta of document.querySelectorAll(
      'meta[name=description], meta[property="og:title"], meta[property="og:description"]')) {
    found.push(['meta[' + (meta.getAttribute('name') || meta.getAttribute('property')) + ']',
                meta.getAttribute('content') || '']);
  }
  return found;
}"""

#: A Latin word of two letters or more: what no text of the made-up language holds.
WORD = re.compile(r"[A-Za-z]{2,}")
#: Addresses (links, email, a bare domain), time zones' names (`Europe/Paris`) and
#: currency symbols (`US$`): never words.
ADDRESS = re.compile(r"(?:https?://|mailto:|/[sepn]/)\S*|\b[\w.+-]+@[\w-]+\.[\w.]+"
                     r"|\b(?:[a-z0-9-]+\.)+[a-z]{2,}\b|\b[A-Z][A-Za-z_-]*(?:/[A-Za-z_+-]+)+"
                     r"|\b[A-Z]{1,3}\$")
#: Names that are the same in every language (this service's, chat services', the time
#: zone's), not words to translate.
SAME_EVERYWHERE = frozenset({"groupkit", "Slack", "Microsoft Teams", "Discord", "Mattermost",
                             "UTC"})


def strings_in(value: Any) -> Iterator[str]:
    """Every string in a JSON value, keys left out."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


class TextChecker:
    """A checker for `walk_tool` and `walk_home` (in place of the layout `Checker`): the
    page's visible text in the made-up language, each word of English outside what people
    typed reported as a finding. Typed is every string `client` sent in a JSON body (the
    create and every step of participation) and every string of the instance's public
    read and organiser's export (what the tool made of it); `same_everywhere`, names.

    Words inside a marker count too: a translation's value that is English (a word shown
    through a `%(name)s` without its own translation) escaped as much as a bare one."""

    def __init__(self, client: httpx.Client | None = None,
                 same_everywhere: Iterable[str] = SAME_EVERYWHERE) -> None:
        self.client = client
        self.same = sorted(same_everywhere, key=len, reverse=True)
        self.typed: set[str] = set()
        self.instance: tuple[str, str, str] | None = None
        if client is not None:
            client.event_hooks["request"].append(self._note_sent)

    def _note_sent(self, request: httpx.Request) -> None:
        if request.headers.get("content-type", "").startswith("application/json"):
            try:
                body = json.loads(request.content or b"null")
            except ValueError:
                return
            self.typed.update(text.strip() for text in strings_in(body) if text.strip())

    def watch(self, tool: str, slug: str, edit: str) -> None:
        """The instance whose typed text is left out (its public read and export, read
        again at every check: participation adds names)."""
        self.instance = (tool, slug, edit)

    def _learn(self) -> None:
        if self.client is None or self.instance is None:
            return
        tool, slug, edit = self.instance
        for response in (self.client.get(f"/api/{tool}/{slug}"),
                         self.client.post(f"/api/{tool}/{edit}/export")):
            if response.status_code == 200:
                self.typed.update(text.strip() for text in strings_in(response.json())
                                  if text.strip())

    def escapes(self, text: str) -> list[str]:
        """The English words of `text` outside what people typed and addresses."""
        for same in self.same:
            text = text.replace(same, " ")
        text = ADDRESS.sub(" ", text)
        if self.typed:
            # Typed text as whole words: a name "Al" leaves the "Al" in "Always" alone.
            typed = "|".join(re.escape(t) for t in sorted(self.typed, key=len, reverse=True))
            text = re.sub(f"(?<![A-Za-z])(?:{typed})(?![A-Za-z])", " ", text)
        return WORD.findall(text)

    def check(self, page: Page, state: str) -> list[Finding]:
        page.wait_for_load_state("load")
        self._learn()
        found = []
        for where, text in page.evaluate(VISIBLE_TEXT_JS):
            words = self.escapes(text)
            if words:
                found.append(Finding(state, page.url.split("/", 3)[-1][:40], "untranslated",
                                     f"{where}: {text[:120]!r}"))
        return found


__all__ = [
    "LANGUAGE",
    "LOCALE_PATH",
    "TextChecker",
    "compile_pseudo",
    "pseudo",
]
