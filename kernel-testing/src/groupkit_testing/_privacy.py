"""The kit's privacy scanner: what anyone can read of one tool's instance, and the checks
that keep private values off it.

`Look(client, tool)` creates an instance with a random marker in every text field, takes part
through the tool's `Walkthrough` (or the scenario given), reads every surface (public page,
link preview, public JSON, read operations, the live stream's first event, share sheet; the
organiser's page, export and reads; every participant's page) and collects findings:
`leaks` (a value where it must not be) and `controls` (a value that never reached the place
that shows it, so a check would pass vacuously). `scan_declared(look, server_log)` runs the
generic scan for what the tool declares in `Tool.hidden`.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import html.parser
import json
import re
import secrets
import string
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

import httpx

from groupkit.core._tool import Hidden
from groupkit.core._tool import Tool
from groupkit_testing._participation import Sent
from groupkit_testing._participation import Session
from groupkit_testing._participation import create_instance


@functools.cache
def installed_tools() -> Mapping[str, Tool]:
    """Every installed tool (entry points), as a server with the default config serves."""
    from groupkit.core._config import Settings
    from groupkit.ops._plugins import load_tools

    return load_tools(Settings()).tools


@functools.cache
def api_document() -> dict[str, Any]:
    """The OpenAPI document of `installed_tools()`: the operations the suites walk."""
    from groupkit.core._openapi import openapi_document

    return openapi_document(installed_tools())


def walkthrough_of(tool: str) -> Callable[[Session], None] | None:
    """The participation a tool declares (`Walkthrough.take_part`), or None."""
    walkthrough = installed_tools()[tool].walkthrough
    return walkthrough.take_part if walkthrough is not None else None


class Markers:
    """label -> a random lower-case marker, letters only (digits would meet scores, prices and
    version numbers) and short enough for the tightest field (a BSB: 10 characters)."""

    def __init__(self) -> None:
        self.by_label: dict[str, str] = {}

    def __call__(self, label: str) -> str:
        if label not in self.by_label:
            self.by_label[label] = "qz" + "".join(
                secrets.choice(string.ascii_lowercase) for _ in range(7))
        return self.by_label[label]


@dataclasses.dataclass
class Surface:
    """One thing someone can read: its name and its text."""

    name: str
    text: str

    def has(self, value: str) -> bool:
        return value.lower() in self.text.lower()


class _Meta(html.parser.HTMLParser):
    """The link-preview part of a page: `<title>` and every `<meta>`."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "meta":
            self.parts.append(" ".join(f"{key}={value}" for key, value in attrs))
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.parts.append(data)


def preview_of(page: str) -> str:
    parser = _Meta()
    parser.feed(page)
    return "\n".join(parser.parts)


def masked(text: str) -> str:
    """Versions, counts and times move on between two reads; nothing else may."""
    return re.sub(r"\d+", "0", text)


class Look:
    """What one tool's scenario needs: a client, markers, the readers, and the findings."""

    def __init__(self, client: httpx.Client, tool: str,
                 scenario: Callable[[Session], None] | None = None) -> None:
        self.client, self.tool = client, tool
        #: The participation `session()` runs: given, else the tool's `Walkthrough`.
        self.scenario = scenario if scenario is not None else walkthrough_of(tool)
        self.mark = Markers()
        self.leaks: list[str] = []
        self.controls: list[str] = []
        self.read_count = 0

    # creating and taking part -------------------------------------------------------------

    def session(self, example: dict[str, Any] | None = None, keep: tuple[str, ...] = (),
                participate: bool = True) -> Session:
        body = dict(example if example is not None else installed_tools()[self.tool].example)
        made = create_instance(self.client, self.tool, body, self.mark, keep)
        session = Session(self.client, made, self.mark)
        if participate and self.scenario is not None:
            self.scenario(session)
        return session

    # reading ------------------------------------------------------------------------------

    def _get(self, path: str, name: str) -> Surface:
        response = self.client.get(path)
        self.read_count += 1
        return Surface(f"{name} ({response.status_code})", response.text)

    def _reads(self, prefix: str, values: dict[str, str], needs: str = "") -> list[str]:
        """GET operations of this tool whose path starts with `prefix` (and holds the
        placeholder `needs`), filled in."""
        found = []
        for template, operations in api_document()["paths"].items():
            if "get" not in operations or not template.startswith(prefix) \
                    or template.endswith("/events") or needs not in template:
                continue
            missing = set(re.findall(r"\{(\w+)\}", template)) - set(values)
            assert not missing, f"{self.tool}: the scenario gives no {missing} for {template}"
            found.append(template.format(**values))
        return found

    def first_event(self, slug: str) -> Surface:
        with self.client.stream("GET", f"/api/{self.tool}/{slug}/events",
                                timeout=10.0) as response:
            text = ""
            for chunk in response.iter_text():
                text += chunk
                if re.search(r"data:[^\n]*\n\n", text):
                    break
        self.read_count += 1
        return Surface("live stream's first event", text)

    def public(self, s: Session) -> list[Surface]:
        """Everything anyone with the share link can read."""
        page = self._get(f"/s/{s.slug}", "public page")
        assert page.name.endswith("(200)"), page
        surfaces = [page, Surface("link preview", preview_of(page.text)),
                    self._get(f"/api/{self.tool}/{s.slug}", "public read")]
        values = {"slug": s.slug, **s.params}
        surfaces += [self._get(path, f"read {path}")
                     for path in self._reads(f"/api/{self.tool}/{{slug}}/", values)]
        surfaces.append(self.first_event(s.slug))
        surfaces += self.share_sheet(s)
        return surfaces

    def share_sheet(self, s: Session) -> list[Surface]:
        """The printable share sheet and what its QR code says when read back."""
        sheet = self._get(f"/s/{s.slug}/sheet", "share sheet")
        qr = self._get(f"/s/{s.slug}/qr.svg", "share QR code")
        assert sheet.name.endswith("(200)") and qr.name.endswith("(200)"), (sheet, qr)
        return [sheet, qr, *self.decoded_qr(s, qr.text)]

    def decoded_qr(self, s: Session, svg: str) -> list[Surface]:
        """What the share QR code says when read back; a suite with a QR reader overrides
        this (the kit has none: the sheet and the SVG itself are scanned)."""
        return []

    def organiser(self, s: Session) -> list[Surface]:
        """The organiser's page, export and read operations."""
        surfaces = [self._get(f"/e/{s.edit}", "organiser page")]
        export = self.client.post(f"/api/{self.tool}/{s.edit}/export")
        self.read_count += 1
        surfaces.append(Surface("organiser export", export.text))
        surfaces += [self._get(path, f"organiser read {path}")
                     for path in self._reads(f"/api/{self.tool}/{{editToken}}/",
                                             {"editToken": s.edit, **s.params})]
        return surfaces

    def participants(self, s: Session) -> dict[str, list[Surface]]:
        """token -> that participant's private page (and its JSON), for every token that
        opens one."""
        pages = {}
        for _, token in s.tokens:
            page = self._get(f"/p/{token}", "a participant's page")
            if not page.name.endswith("(200)"):
                continue
            surfaces = [page]
            surfaces += [self._get(path, "participant read") for path in self._reads(
                f"/api/{self.tool}/", {"token": token}, needs="{token}")]
            pages[token] = surfaces
        return pages

    def snapshot(self, surfaces: list[Surface]) -> dict[str, str]:
        return {surface.name: masked(surface.text) for surface in surfaces}

    # judging ------------------------------------------------------------------------------

    def absent(self, values: dict[str, str], surfaces: list[Surface], why: str) -> None:
        for label, value in values.items():
            for surface in surfaces:
                if value and surface.has(value):
                    self.leaks.append(f"{why}: {label} {value!r} is on the {surface.name}")

    def present(self, value: str, surfaces: list[Surface], what: str) -> None:
        if not any(surface.has(value) for surface in surfaces):
            self.controls.append(f"{what} ({value!r}) reached none of "
                                 f"{[surface.name for surface in surfaces]}")

    def same(self, before: dict[str, str], after: dict[str, str], why: str) -> None:
        for name, text in before.items():
            if after.get(name) != text:
                diff = [line for line in difflib.unified_diff(
                    text.splitlines(), after.get(name, "").splitlines(), lineterm="", n=0)
                    if line[:1] in "+-" and line[:3] not in ("+++", "---")]
                self.leaks.append(f"{why}: the {name} changed: {diff[:4]}")

    def common(self, s: Session, pages: dict[str, list[Surface]] | None = None,
               public: list[Surface] | None = None) -> None:
        """What no tool may show: the edit token anywhere but the organiser's page, a
        participant token or a claim secret on the public side or on anyone else's page."""
        public = public if public is not None else self.public(s)
        pages = pages if pages is not None else self.participants(s)
        everyone = [surface for surfaces in pages.values() for surface in surfaces]
        self.absent({"the editToken": s.edit}, public + everyone, "edit token")
        tokens = {f"participant token {index}": token
                  for index, (_, token) in enumerate(s.tokens)}
        self.absent(tokens, public, "participant token")
        claim_secrets = {f"claim secret {index}": secret
                         for index, secret in enumerate(s.secrets)}
        self.absent(claim_secrets, public + everyone, "claim secret")
        for owner, surfaces in pages.items():
            others = {label: token for label, token in tokens.items() if token != owner}
            self.absent(others, surfaces, "another participant's token")

    def report(self) -> str:
        return f"{self.tool}: " + "; ".join(self.controls + self.leaks)




# --- the generic scan of declared hidden values -----------------------------------------------

#: The report for a tool that declares nothing (`Tool.hidden` left at None).
UNDECLARED = ("{tool} declares no hidden values: declare what it keeps off the public side "
              "in its Tool, e.g. `hidden=(Hidden(\"message\", operation=\"claim\", "
              "shown_to=(\"organiser\",)),)`, or `hidden=()` when nothing but its links is "
              "private (docs/how-to/test-kit.md, \"Hidden values\")")


def _leaves(value: Any, at: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    """(key path, string) of every string in a body; list positions leave no key."""
    if isinstance(value, str):
        yield at, value
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, at)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*at, str(key)))


def _operation_of(tool: str, sent: Sent) -> str:
    """An operation's path as the tool declares it: "claim", "details", "p/{token}/x"."""
    return sent.template.removeprefix(f"/api/{tool}/").removeprefix("{editToken}/")


def hidden_values(look: Look, s: Session, hidden: Hidden
                  ) -> list[tuple[str, str, Sent | None]]:
    """(label, marker, the call that sent it, None for the create) of every marker the
    scenario wrote into a declared hidden field."""
    labels = {value: label for label, value in look.mark.by_label.items()}
    want = tuple(hidden.field.split("."))
    bodies: list[tuple[Any, Sent | None]] = []
    if hidden.operation == "create":
        bodies.append((s.made.body, None))
    bodies += [(sent.body, sent) for sent in s.sent
               if _operation_of(look.tool, sent) == hidden.operation]
    return [(labels[text], text, sent) for body, sent in bodies
            for at, text in _leaves(body) if at[:len(want)] == want and text in labels]


def scan_declared(look: Look, log: Callable[[], str] = lambda: "") -> None:
    """The generic privacy check any tool gets from its declaration: every marker written
    into a `Hidden` field reaches the places it is `shown_to` and no other, nor the public
    side or `log()` (the server's log); the links are checked as `Look.common` does. A tool
    that declares nothing is reported in `look.controls`, with what to declare."""
    tool = installed_tools()[look.tool]
    if tool.hidden is None:
        look.controls.append(UNDECLARED.format(tool=look.tool))
        return
    s = look.session()
    public = look.public(s)
    pages = look.participants(s)
    places = {"organiser": look.organiser(s),
              "participant": [surface for surfaces in pages.values() for surface in surfaces]}
    logged = [Surface("server log", log())]
    for hidden in tool.hidden:
        found = hidden_values(look, s, hidden)
        where = f"{hidden.operation} {hidden.field}"
        if not found:
            look.controls.append(
                f"nothing was written into the hidden {where}: the create example (for "
                f"\"create\") or the walkthrough must send text there (`p.text(...)`)")
        for label, value, sent in found:
            reply = [Surface("reply", json.dumps(sent.reply))] if sent is not None else []
            shown = [surface for place in hidden.shown_to
                     for surface in (reply if place == "reply" else places[place])]
            look.present(value, shown, f"{label} on the {' or '.join(hidden.shown_to)} side")
            kept_from = [surface for place, surfaces in places.items()
                         if place not in hidden.shown_to for surface in surfaces]
            look.absent({label: value}, public + kept_from + logged, f"hidden {where}")
    look.common(s, pages, public)
