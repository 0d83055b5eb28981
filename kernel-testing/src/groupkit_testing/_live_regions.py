"""The kit's live-regions suite: every organiser operation reaches every open page.

    class TestKaraokeLive(LiveRegionsSuite):
        tools = ("karaoke",)
        organiser_steps = {"karaoke": {"remove": OrganiserStep(
            act=lambda s: s.organiser("remove", {"id": s.read()["songs"][0]["id"]}))}}

An open page changes only inside its live regions (`[data-live-region][id]`, see
docs/how-to/live-updates.md): a public page puts in place the parts its event stream pushes,
the other pages read themselves again and swap their regions; anything else stays as it was
until a reload. So for each organiser operation of a tool (each write operation of kind
"organiser" that changes something, and the kernel's edit of each editable field), on an
instance of its `example` that people took part in (its `Walkthrough`, else the suite's
`scenarios`), the suite reads the public page, the organiser page and a participant page
before and after the operation, and asserts:

- outside its live regions each page is the same (`outside_regions`: each outermost region
  blanked to its id). Not compared: the `<head>` but its `<title>` (link-preview tags are
  read fresh by whoever unfurls the link; no open page shows them), the body's
  `data-live-version` (the page script keeps the version it saw itself) and white space
  between two tags. The `<title>` may differ where the page carries its title in a live region,
  `#groupkit-title` (written by `groupkit/base.html`), which `pages.js` copies to the tab
  after each swap; it must then say what `<title>` says. On the organiser page, the parts
  of the kernel's own frame in `PENDING_KERNEL_FRAME` are read as regions until
  `groupkit/organiser.html` makes them so.
- the parts the public page's event stream sends for the change, put in place by id in the
  page before, give the regions of the page after: nothing is left without a place;
- ids are unique and every element with one is closed (else the page script finds the
  first of an id only, and the stream sends every region whole);
- time-based state (an element with a date or moment in an attribute, `<time datetime>`,
  `data-starts`; or a countdown: an attribute named for one, `data-poll-countdown`,
  `data-poll-closes`) is inside a region, so a swap replaces it; a countdown's region holds
  no form field (a visitor typing in a region holds the whole region still, and the count
  would run on after the poll closed); and each page script that reads such an attribute
  listens for `groupkit:live`, the event `groupkit.js` sends after each swap, so it reads
  the new element again.

Not covered: the kernel's delete (the page says in place that it is gone: its own test) and
export (it changes nothing). A participant page the operation closes (a removed person's
link answers 404) is left to the page script, which reloads it. A page whose own script
follows the event stream instead of `groupkit.js` names what that script keeps up to date
in the suite's `kept_by_script`. What the page script cannot show here (a visitor typing in
a region holds it still) is the browser suites' to check.

Operations with no body and edits whose new value can be made from the example (a text
with a word added, a flipped yes/no, the last name of a list renamed, the first text of a
list of objects) need nothing declared; the others get an `OrganiserStep` in the suite's
`organiser_steps`, keyed by what they exercise (`"close"`, `"edit.closesAt"`; a second
case of one operation adds words: `"edit.question emptied"`). A tool that gains an organiser
operation or an editable field with no case fails `test_every_organiser_operation_has_a_case`,
naming what to declare.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import re
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from html import unescape
from typing import Any
from typing import ClassVar

import httpx
import pytest

from groupkit.core._parts import _ATTRIBUTE
from groupkit.core._parts import _START_TAG
from groupkit.core._parts import _TEXT
from groupkit.core._parts import _end_of
from groupkit.core._parts import _id_and_region
from groupkit.core._parts import _within
from groupkit.core._parts import changed_parts
from groupkit.core._parts import snapshot
from groupkit.core._tool import Tool
from groupkit_testing._hostile import KEEP_ALIVE
from groupkit_testing._hostile import plain
from groupkit_testing._participation import Made
from groupkit_testing._participation import Session
from groupkit_testing._privacy import installed_tools
from groupkit_testing._suites import KitSuite
from groupkit_testing._suites import Scenario

PUBLIC, ORGANISER, PARTICIPANT = "public page", "organiser page", "participant page"
#: Where a page carries its title in a live region, for `pages.js` to copy to the tab.
TITLE_ID = "groupkit-title"
#: The event the page script sends after each swap, and a script's listening for it.
LIVE_EVENT = "groupkit:live"
_LISTENS = re.compile(r"""addEventListener\(\s*["']groupkit:live["']""")
#: A date or a moment, the whole of an attribute's value (`2026-03-14`, `2026-03-14T09:00Z`).
MOMENT = re.compile(r"\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?"
                    r"(?:Z|[+-]\d\d:?\d\d)?)?")
#: An attribute named for a countdown: a script counts down to it, or into it.
COUNTDOWN = re.compile(r"countdown|deadline|closes|expires")
#: Elements whose attributes are a form's, not script state (a date field's value and bounds).
FORM_ELEMENTS = frozenset({"input", "select", "option", "textarea", "button", "form"})
#: A field a visitor can be busy in (`groupkit.js` holds a region with one still).
FIELD = re.compile(r"<(?:select|textarea)\b|<input\b(?![^>]*\btype=\"?hidden\b)", re.I)
_TITLE = re.compile(r"<title\b[^>]*>(.*?)</title\s*>", re.S | re.I)
_BODY = re.compile(r"<body\b.*</body\s*>", re.S | re.I)
_LIVE_VERSION = re.compile(r"\sdata-live-version=\"[^\"]*\"")
_BETWEEN_TAGS = re.compile(r">\s+<")
_SCRIPT = re.compile(r"<script\b[^>]*\bsrc=\"([^\"]+)\"", re.I)
_PRIVATE_LINK = re.compile(r"/p/([A-Za-z0-9_-]{16,})")
#: Kernel operations of every tool this suite leaves to their own tests.
KERNEL_OWN = ("delete", "export")
#: Parts of the kernel's organiser page (`groupkit/organiser.html`) that organiser operations
#: change and that are not live regions yet: (what, the start tag that begins it). The suite
#: reads them as live regions until organiser.html makes each one (the heading after a title
#: edit; the share button's title; the "Change details" form's values, which a second tab
#: would send back over the edit), then they leave this list.
PENDING_KERNEL_FRAME: tuple[tuple[str, re.Pattern[str]], ...] = ()


@dataclasses.dataclass(frozen=True)
class OrganiserStep:
    """One case of the live-regions suite: `act` makes the organiser's operation (through the
    kit's `Session`: `s.organiser("close")`); `prepare`, if given, runs before the pages
    are read (connect a chat before its test post)."""

    act: Scenario
    prepare: Scenario | None = None


@dataclasses.dataclass(frozen=True)
class LiveCase:
    """One (tool, case) the suite runs: the label's first word names what it exercises."""

    tool: str
    label: str

    @property
    def exercises(self) -> str:
        return self.label.split()[0]

    def __str__(self) -> str:
        return f"{self.tool}:{self.label.replace(' ', '-')}"


# --- what a page shows outside its live regions ----------------------------------------------

@dataclasses.dataclass(frozen=True)
class Region:
    """A live region of a page: its id and where it is in the page's text."""

    id: str
    start: int
    end: int


def start_tags(html: str) -> Iterator[re.Match[str]]:
    """Each start tag of the page (a match of its name and attributes), but those in
    comments and in the text of `script`, `style`, `textarea` and `title`."""
    text = [m.span(1) if m.group(1) is not None else m.span(2) for m in _TEXT.finditer(html)]
    return (tag for tag in _START_TAG.finditer(html) if not _within(text, tag.start()))


def regions_of(html: str) -> list[Region]:
    """Every element with `data-live-region` and an id (nested ones too), in page order."""
    found = []
    for tag in start_tags(html):
        if "data-live-region" not in tag.group(2):
            continue
        node_id, region = _id_and_region(tag.group(2))
        if not (region and node_id):
            continue
        end = _end_of(html, tag.group(1).lower(), tag.end())
        found.append(Region(node_id, tag.start(), end if end is not None else len(html)))
    return found


def kept_regions(html: str, kept: Sequence[str]) -> list[Region]:
    """The elements of ids `kept` (a page script keeps them up to date itself), as regions."""
    found = []
    for node_id in kept:
        tag = re.search(rf"<([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*\sid=\"{re.escape(node_id)}\"", html)
        if tag is not None:
            end = _end_of(html, tag.group(1).lower(), html.index(">", tag.end()) + 1)
            found.append(Region(f"(kept by a script) {node_id}", tag.start(), end or len(html)))
    return found


def pending_frame(html: str) -> list[Region]:
    """Where the organiser page holds the parts of `PENDING_KERNEL_FRAME` that are not in a
    live region, read as regions named for what they are."""
    regions = regions_of(html)
    found = []
    for what, start in PENDING_KERNEL_FRAME:
        tag = start.search(html)
        if tag is None or any(r.start <= tag.start() < r.end for r in regions):
            continue
        end = _end_of(html, tag.group(1).lower(), tag.end())
        found.append(Region(f"(pending) {what}", tag.start(), end or len(html)))
    return found


def outside_regions(html: str, organiser: bool = False, kept: Sequence[str] = ()) -> str:
    """The page's body with what each outermost live region holds blanked to its id, the
    body's `data-live-version` dropped and white space between two tags made one space:
    what an open page shows until a reload. On the organiser page, the parts of the
    kernel's frame in `PENDING_KERNEL_FRAME` are blanked too, and on any page the elements
    of the ids in `kept`."""
    body = _BODY.search(html)
    text = body.group(0) if body else html
    pieces, at = [], 0
    regions = (regions_of(text) + (pending_frame(text) if organiser else [])
               + kept_regions(text, kept))
    for region in sorted(regions, key=lambda region: region.start):
        if region.start < at:
            continue  # inside a region already blanked
        pieces += [text[at:region.start], f"<[live region #{region.id}]>"]
        at = region.end
    pieces.append(text[at:])
    return _BETWEEN_TAGS.sub("> <", _LIVE_VERSION.sub("", "".join(pieces), count=1))


def title_of(html: str) -> str:
    found = _TITLE.search(html)
    return " ".join(unescape(found.group(1)).split()) if found else ""


def carried_title(html: str) -> str | None:
    """The text of the page's `#groupkit-title` live region, or None if it has none."""
    for region in regions_of(html):
        if region.id == TITLE_ID:
            inner = re.sub(r"^<[^>]*>|</[^>]*>$", "", html[region.start:region.end])
            return " ".join(unescape(inner).split())
    return None


def _lines(text: str) -> list[str]:
    return [line for line in re.split(r"(?=<)", text) if line.strip()]


def difference(before: str, after: str, limit: int = 24) -> str:
    """The first lines that differ, as a unified diff cut at each tag."""
    lines = list(difflib.unified_diff(_lines(before), _lines(after), "before", "after", n=1,
                                      lineterm=""))
    shown = [line[:200] for line in lines[2:limit + 2]]
    return "\n".join(shown) + (f"\n... ({len(lines) - limit - 2} more lines)"
                               if len(lines) > limit + 2 else "")


def stale_outside(page: str, before: str, after: str, kept: Sequence[str] = ()) -> list[str]:
    """What changed on `page` outside its live regions and the elements its script keeps up
    to date (`kept`), and the title, where neither a live region carries it nor the
    page's script keeps it."""
    problems = []
    organiser = page == ORGANISER
    outside = outside_regions(before, organiser, kept), outside_regions(after, organiser, kept)
    if outside[0] != outside[1]:
        problems.append(f"{page} changed outside its live regions (an open page keeps this "
                        f"until a reload):\n{difference(*outside)}")
    titles = title_of(before), title_of(after)
    for html, title in ((before, titles[0]), (after, titles[1])):
        carried = carried_title(html)
        if carried is not None and carried != title:
            problems.append(f"{page}: #{TITLE_ID} says {carried!r}, <title> {title!r}")
    if titles[0] != titles[1] and carried_title(after) is None and not kept:
        problems.append(f"{page}: <title> went from {titles[0]!r} to {titles[1]!r} and no "
                        f"live region #{TITLE_ID} carries it to the open tab")
    return problems


def _normal(text: str) -> str:
    return _BETWEEN_TAGS.sub("> <", text)


def unplaced_parts(before: str, after: str) -> list[str]:
    """The public page's live update, as the stream sends it and the page script places
    it: each changed part goes in place of the element of its id in the page before; the
    regions must then read as the page after's."""
    old, new = snapshot(0, before), snapshot(1, after)
    problems, edits = [], []
    for part in changed_parts(old, new):
        tag = _START_TAG.match(part)
        part_id = _id_and_region(tag.group(2))[0] if tag else None
        node = old.nodes.get(part_id) if part_id else None
        if node is None:
            problems.append(f"the stream sent a part with no place on the open public page: "
                            f"{part[:160]}")
            continue
        edits.append((node.start, node.end, part))
    placed, at = [], 0
    for start, end, part in sorted(edits):
        if start < at:
            problems.append(f"the stream sent parts inside one another: {part[:120]}")
            continue
        placed += [before[at:start], part]
        at = end
    placed.append(before[at:])
    shown = snapshot(2, "".join(placed))
    for region in new.regions:
        if region in shown.nodes and _normal(shown.outer(region)) != _normal(new.outer(region)):
            problems.append(f"the open public page's #{region} after the stream's parts is not "
                            f"the page's:\n{difference(shown.outer(region), new.outer(region))}")
    return problems


# --- time-based state ------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class TimeState:
    """An element whose attribute holds a date or moment, or names a countdown."""

    tag: str
    attribute: str
    at: int

    @property
    def countdown(self) -> bool:
        return bool(COUNTDOWN.search(self.attribute))


def time_states(html: str) -> list[TimeState]:
    """The page's elements with time-based state (see `TimeState`)."""
    found = []
    for tag in start_tags(html):
        name = tag.group(1).lower()
        if name in FORM_ELEMENTS:
            continue
        for attribute, double, single, bare in _ATTRIBUTE.findall(tag.group(2)):
            value = double or single or bare
            if COUNTDOWN.search(attribute) or MOMENT.fullmatch(value.strip()):
                found.append(TimeState(name, attribute.lower(), tag.start()))
    return found


def stale_time_state(page: str, html: str) -> list[str]:
    """Time-based state outside a live region, or a countdown in a region with a field."""
    regions = regions_of(html)
    problems = []
    for state in time_states(html):
        around = [region for region in regions if region.start <= state.at < region.end]
        where = f"{page}: <{state.tag} {state.attribute}> (at {html[state.at:state.at + 90]!r})"
        if not around:
            problems.append(f"{where} is outside every live region: a change leaves it as "
                            f"it was, and a script goes on reading it")
        elif state.countdown:
            nearest = around[-1]
            if FIELD.search(html, nearest.start, nearest.end):
                problems.append(f"{where} shares live region #{nearest.id} with a form "
                                f"field: while someone types there, the region (and the "
                                f"count) is held as it was")
    return problems


def scripts_of(html: str) -> list[str]:
    """The `src` of each script the page loads."""
    return _SCRIPT.findall(html)


def dataset_name(attribute: str) -> str:
    """`data-poll-closes` -> `pollCloses`, as a script reads it from `dataset`."""
    return re.sub(r"-([a-z])", lambda m: m.group(1).upper(), attribute.removeprefix("data-"))


def deaf_scripts(page: str, html: str, scripts: Mapping[str, str]) -> list[str]:
    """Page scripts that read a time-based attribute of the page and do not listen for
    `groupkit:live`."""
    names = {state.attribute for state in time_states(html)}
    problems = []
    for src in scripts_of(html):
        source = scripts.get(src, "")
        if _LISTENS.search(source):
            continue
        read = sorted(name for name in names if name in source
                      or (name.startswith("data-") and f"dataset.{dataset_name(name)}" in source))
        if read:
            problems.append(f"{page}: {src} reads {', '.join(read)} but does not listen for "
                            f"\"{LIVE_EVENT}\": after a swap it holds the old element's state")
    return problems


def live_problems(page: str, before: str, after: str, scripts: Mapping[str, str] | None = None,
                  kept: Sequence[str] = ()) -> list[str]:
    """Everything an open `page` (`PUBLIC`, `ORGANISER` or `PARTICIPANT`) would get wrong
    when the instance goes from its render `before` to `after`: see the module. `scripts`:
    the text of the page's scripts by their `src`; `kept`: ids its script keeps itself."""
    problems = stale_outside(page, before, after, kept)
    problems += [f"{page}: an id repeats or an element with an id is left unclosed ({when}): "
                 f"the page script finds the first element of an id only, and the stream "
                 f"sends every region whole" for when, html in (("before", before),
                                                               ("after", after))
                 if not snapshot(0, html).exact]
    if page == PUBLIC:
        problems += unplaced_parts(before, after)
    for html in (before, after):
        problems += stale_time_state(page, html)
        problems += deaf_scripts(page, html, scripts or {})
    return list(dict.fromkeys(problems))


# --- the cases ---------------------------------------------------------------------------------

def required(tool: Tool) -> list[str]:
    """What the suite must exercise for `tool`: each organiser write operation that changes
    something, and the edit of each editable field (`edit.<field>`)."""
    ops = [op.path for op in tool.operations.operations
           if op.kind == "organiser" and op.writes and op.changes and op.path not in KERNEL_OWN]
    fields = [f"edit.{field}" for field in tool.edit.fields] if tool.edit else []
    return list(dict.fromkeys([*ops, *fields]))


def changed(value: Any) -> Any:
    """A changed value of the same shape, or None: a text with a word added (an empty one
    filled), a date a day later, a flipped yes/no, a list's last text or its first object
    changed, an object's first text changed."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, str):
        if MOMENT.fullmatch(value) and len(value) == 10:
            return (dt.date.fromisoformat(value) + dt.timedelta(days=1)).isoformat()
        return f"{value} (changed)" if value else "Changed"
    if isinstance(value, list) and value:
        if all(isinstance(item, str) for item in value):
            return [*value[:-1], changed(value[-1])]
        first = changed(value[0])
        return None if first is None else [first, *value[1:]]
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str):
                return {**value, key: changed(item)}
    return None


def generic_steps(tool: Tool) -> dict[str, OrganiserStep]:
    """The cases that need nothing declared: each organiser operation that takes no body,
    and the edit of each field whose value in the example `changed` can change."""
    steps: dict[str, OrganiserStep] = {}
    bodiless = {op.path for op in tool.operations.operations
                if op.kind == "organiser" and op.body is None}
    for label in required(tool):
        if label in bodiless:
            steps[label] = OrganiserStep(act=call_step(label))
        elif label.startswith("edit."):
            field = label.removeprefix("edit.")
            if field in tool.example and changed(tool.example[field]) is not None:
                steps[label] = OrganiserStep(act=edit_step(field))
    return steps


def call_step(path: str) -> Scenario:
    """The organiser's operation `path`, with no body."""
    return lambda s: s.organiser(path)


def edit_step(field: str) -> Scenario:
    """The organiser's edit of `field` to `changed` of what the instance was created with,
    confirmed (a change that redraws asks first)."""
    return lambda s: s.organiser("edit", {field: changed(s.made.body[field]), "confirm": True})


def exercised(session: Session, since: int, tool: Tool) -> set[str]:
    """What the organiser calls made since `since` exercised (as `required` names it)."""
    prefix = f"/api/{tool.name}/{{editToken}}/"
    found = set()
    for sent in session.sent[since:]:
        if not sent.template.startswith(prefix):
            continue
        path = sent.template.removeprefix(prefix)
        if path == "edit" and isinstance(sent.body, dict):
            found |= {f"edit.{key}" for key in sent.body if key != "confirm"}
        else:
            found.add(path)
    return found


def pages_of(client: httpx.Client, session: Session) -> dict[str, str]:
    """The pages an instance's people have open: public, organiser and, where the tool has
    one, the first participant page a token handed out (or one the organiser lists) opens."""
    pages = {PUBLIC: f"/s/{session.slug}", ORGANISER: f"/e/{session.edit}"}
    listed = _PRIVATE_LINK.findall(client.get(pages[ORGANISER]).text)
    for token in [*(token for _, token in session.tokens), *listed]:
        if client.get(f"/p/{token}").status_code == 200:
            pages[PARTICIPANT] = f"/p/{token}"
            break
    return pages


class LiveRegionsSuite(KitSuite):
    """Every organiser operation of each tool reaches every open page (see the module):
    one test per (tool, case), on a real server, and one per tool that every organiser
    operation and editable field has a case."""

    #: tool -> {label: OrganiserStep or a plain act}: the cases that need a body the suite
    #: cannot make (a label's first word is what it exercises: `"removeOption"`,
    #: `"edit.closesAt"`).
    organiser_steps: ClassVar[Mapping[str, Mapping[str, OrganiserStep | Scenario]]] = {}
    #: tool -> ids of the elements its page script keeps up to date itself, and the tab's
    #: title with them, following the event stream on a page without live regions (a
    #: player's page that must explain a dead link, where groupkit.js would reload it).
    kept_by_script: ClassVar[Mapping[str, Sequence[str]]] = {}

    @classmethod
    def cases(cls, tool: str) -> dict[str, OrganiserStep]:
        """The tool's cases: declared ones, then the suite's own under the labels they leave
        free (a declared "edit.question emptied" adds to the suite's "edit.question")."""
        declared = {label: step if isinstance(step, OrganiserStep) else OrganiserStep(step)
                    for label, step in cls.organiser_steps.get(tool, {}).items()}
        generic = generic_steps(installed_tools()[tool])
        return {**declared, **{label: step for label, step in generic.items()
                               if label not in declared}}

    @classmethod
    def suite_cases(cls) -> list[LiveCase]:
        return [LiveCase(tool, label) for tool in cls.suite_tools() for label in cls.cases(tool)]

    @pytest.fixture(scope="class")
    @classmethod
    def live_regions_client(cls, live_server: Callable[..., Any]) -> Iterator[httpx.Client]:
        """A client of one development server for the class (no reachable POST limit)."""
        server = live_server(limits={"post_per_hour": 10_000_000})
        with server.client(limits=KEEP_ALIVE) as client:
            yield client

    def test_every_organiser_operation_has_a_case(self, kit_tool: str) -> None:
        """Each organiser operation and editable field of the tool has a case (declared or
        made by the suite), and each declared case names one it has. The cases are the
        parameters of the next test (`tool:label`): the list of what is covered."""
        tool = installed_tools()[kit_tool]
        needed = required(tool)
        labels = {label.split()[0] for label in self.cases(kit_tool)}
        missing = [label for label in needed if label not in labels]
        unknown = sorted(labels - set(needed))
        assert not missing, (
            f"{kit_tool}: no case for {missing}: declare each in the suite's "
            f"`organiser_steps`, e.g. {{{kit_tool!r}: {{{missing[0]!r}: OrganiserStep("
            f"act=lambda s: s.organiser(\"{missing[0].replace('edit.', 'edit')}\", "
            f"{{...}}))}}}}")
        assert not unknown, f"{kit_tool}: `organiser_steps` names {unknown}, which it has not"

    def test_the_operation_reaches_every_open_page(self, kit_case: LiveCase,
                                                   live_regions_client: httpx.Client) -> None:
        """The case's operation, on an instance of the example people took part in, leaves
        nothing stale on the public, organiser and participant pages (`live_problems`)."""
        client, tool = live_regions_client, installed_tools()[kit_case.tool]
        step = self.cases(kit_case.tool)[kit_case.label]
        take_part = self.scenario(kit_case.tool)
        if take_part is None:
            pytest.fail(f"{kit_case.tool} declares no walkthrough: declare one (or name its "
                        f"participation in the suite's `scenarios`)", pytrace=False)
        created = client.post(f"/api/{kit_case.tool}", json=dict(tool.example))
        assert created.status_code == 201, (kit_case, created.text)
        made = Made(kit_case.tool, created.json()["slug"], created.json()["editToken"],
                    dict(tool.example))
        session = Session(client, made, plain)
        take_part(session)
        if step.prepare is not None:
            step.prepare(session)
        pages = pages_of(client, session)
        before = {page: client.get(path).text for page, path in pages.items()}
        again = {page: client.get(path).text for page, path in pages.items()}
        unsteady = [page for page in pages if before[page] != again[page]]
        assert not unsteady, (f"{kit_case}: {unsteady} differ between two reads with no "
                              f"change between: a page must be a function of the instance")
        since = len(session.sent)
        try:
            step.act(session)
        except AssertionError as refused:
            raise AssertionError(f"{kit_case}: {refused}\n(a value the suite made itself was "
                                 f"refused: declare the case in `organiser_steps`)") from None
        done = exercised(session, since, tool)
        assert kit_case.exercises in done, (
            f"{kit_case}: the case made {sorted(done) or 'no organiser call'}, not "
            f"{kit_case.exercises}")
        problems: list[str] = []
        scripts: dict[str, str] = {}
        for page, path in pages.items():
            response = client.get(path)
            if response.status_code == 404 and page == PARTICIPANT:
                continue  # the operation closed this link: the page script reloads it
            assert response.status_code == 200, (kit_case, path, response.status_code)
            for src in {*scripts_of(before[page]), *scripts_of(response.text)} - set(scripts):
                scripts[src] = client.get(src).text
            problems += live_problems(page, before[page], response.text, scripts,
                                      self.kept_by_script.get(kit_case.tool, ()))
        assert not problems, f"{kit_case}:\n" + "\n".join(problems)
