"""The parts of a public page that a change touched, for the live stream (`groupkit.core._live`).

A page's live regions (`[data-live-region][id]`) and every element with an `id` inside them
form a tree. Between two renders of the page, `changed_parts` walks that tree from the
regions down and keeps the smallest elements whose text differs while everything around them
is the same; the stream sends those, and the page script puts each in place by its id. A
claim on a 240-spot board sends its spot and its group's count, not the board: a change
seen by a hundred open pages costs a hundred small sends, not a hundred pages.

The pages are the kernel's own renders: every user string is escaped, so a `<` can only
start a tag or a comment, and the text of `script`, `style`, `textarea` and `title` holds
none. A page whose ids are not unique, or where an element with an id is left unclosed, is
never cut up: its regions go whole, as the page script would have swapped them.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
import sys
from html import unescape as html_unescape

_TEXT = re.compile(r"<!--(.*?)-->|<(?:script|style|textarea|title)\b[^>]*>(.*?)</(?:script|style|"
                   r"textarea|title)\s*>", re.S | re.I)
#: Where an id may be (after white space; templates write attribute names in lower case):
#: confirmed by reading the tag's attributes in turn. A literal start is searched fast.
_ID_MENTION = re.compile(r"id\s*=")
_START_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")
_SAME_NAME: dict[str, re.Pattern[str]] = {}
#: One attribute: its name, then its value (quoted either way, or bare), if any. Read in
#: turn, so a quoted value's text is never taken for a name.
_ATTRIBUTE = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""")
_BETWEEN_TAGS = re.compile(r">\s+<")
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "param", "source", "track", "wbr"})
_RAW = frozenset({"script", "style", "textarea", "title"})


@dataclasses.dataclass
class _Node:
    start: int
    end: int
    children: list[str]


@dataclasses.dataclass(eq=False)
class Snapshot:
    """One render of a page at `version`, read for its live regions. Compared by identity:
    two renders at one version can differ (a view that depends on the date)."""

    version: int
    html: str
    #: id -> where the element is, and the ids of its nearest elements with one.
    nodes: dict[str, _Node]
    #: The outermost live regions, in page order.
    regions: list[str]
    #: False when an id repeats or a tag does not close: then regions go whole.
    exact: bool

    def outer(self, node_id: str) -> str:
        node = self.nodes[node_id]
        return self.html[node.start:node.end]

    def skeleton(self, node_id: str) -> str:
        """The element's text with each child element that has an id replaced by that id,
        and each run of white space between two tags made one space: a template leaves a
        different number of blank lines around a spot that is open and one that is taken,
        and a page shows both the same."""
        node = self.nodes[node_id]
        pieces, at = [], node.start
        for child in node.children:
            inner = self.nodes[child]
            pieces += [self.html[at:inner.start], f"<\0{child}\0>"]
            at = inner.end
        pieces.append(self.html[at:node.end])
        return _BETWEEN_TAGS.sub("> <", "".join(pieces))


def snapshot(version: int, html: str) -> Snapshot:
    """Read `html` for its live regions and the elements with an id inside them. Only the
    tags that carry an id are read, and for each the tags of its own name up to its end: a
    board's thousands of other tags are never looked at one by one."""
    exact = True
    # Text that holds no element: comments, and what `script`, `style`, `textarea` and
    # `title` hold (their own start tags are read: an id there counts).
    text = [m.span(1) if m.group(1) is not None else m.span(2) for m in _TEXT.finditer(html)]
    # (start, end, id, is a region) of every element with an id, in page order.
    found: list[tuple[int, int, str, bool]] = []
    every_id: set[str] = set()
    at = -1
    for mention in _ID_MENTION.finditer(html):
        if not html[mention.start() - 1].isspace():
            continue  # `data-id=`, `hidden=`
        start = html.rfind("<", 0, mention.start())
        if start <= at or _within(text, mention.start()):
            continue  # a second mention in the same tag, or text
        tag = _START_TAG.match(html, start)
        if tag is None:
            continue
        at = start
        node_id, region = _id_and_region(tag.group(2))
        if node_id is None:
            continue  # ` id=` inside an attribute's value
        if node_id in every_id:
            exact = False  # the page script would find the first of them only
        every_id.add(node_id)
        name = tag.group(1).lower()
        if name in _VOID or tag.group(2).rstrip().endswith("/"):
            found.append((start, tag.end(), node_id, region))
            continue
        end = _end_of(html, name, tag.end())
        if end is None:
            exact = False  # never closed: where it ends is a parser's guess
            continue
        found.append((start, end, node_id, region))
    nodes: dict[str, _Node] = {}
    regions: list[str] = []
    # Parents by containment: the elements open around each one, innermost last.
    open_around: list[tuple[int, str | None, bool]] = []  # (end, id if in a region, region)
    for start, end, node_id, region in found:
        while open_around and open_around[-1][0] <= start:
            open_around.pop()
        if open_around and end > open_around[-1][0]:
            exact = False  # overlaps its parent: not a tree a browser would build alike
        inside = region or any(entry[2] for entry in open_around)
        if inside:
            parent = next((entry[1] for entry in reversed(open_around) if entry[1]), None)
            if parent is not None:
                nodes[parent].children.append(node_id)
            elif region:
                regions.append(node_id)
            nodes[node_id] = _Node(start, end, [])
        open_around.append((end, node_id if inside else None, region or inside))
    return Snapshot(version, html, nodes, regions, exact)


def _end_of(html: str, name: str, at: int) -> int | None:
    """Where the element whose start tag ends at `at` ends, counting nested ones of its name;
    the text of `script`, `style`, `textarea` and `title` holds no tags."""
    pattern = _SAME_NAME.get(name)
    if pattern is None:
        pattern = _SAME_NAME[name] = re.compile(rf"<(/?){re.escape(name)}(?=[\s/>])", re.I)
    if name in _RAW:
        closing = re.compile(rf"</{name}\s*>", re.I).search(html, at)
        return None if closing is None else closing.end()
    depth = 1
    for tag in pattern.finditer(html, at):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            close = html.find(">", tag.end())
            return None if close < 0 else close + 1
    return None


def _within(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether `at` falls in one of `spans` (in page order, none overlapping)."""
    index = bisect.bisect_right(spans, (at, sys.maxsize)) - 1
    return index >= 0 and spans[index][0] <= at < spans[index][1]


def _id_and_region(attributes: str) -> tuple[str | None, bool]:
    node_id, region = None, False
    for name, double, single, bare in _ATTRIBUTE.findall(attributes):
        name = name.lower()
        if name == "id" and node_id is None:
            node_id = html_unescape(double or single or bare)
        elif name == "data-live-region":
            region = True
    return node_id or None, region


def changed_parts(old: Snapshot | None, new: Snapshot) -> list[str]:
    """The outer HTML of the smallest elements of `new`'s live regions that differ from
    `old`, each with an id; every region whole when `old` is None or either page is not
    exact."""
    if old is None or not (old.exact and new.exact):
        return [new.outer(region) for region in new.regions]
    parts: list[str] = []
    for region in new.regions:
        if region not in old.nodes:
            parts.append(new.outer(region))
        else:
            _changed(old, new, region, parts)
    return parts


def _changed(old: Snapshot, new: Snapshot, node_id: str, parts: list[str]) -> None:
    if old.outer(node_id) == new.outer(node_id):
        return
    if old.skeleton(node_id) != new.skeleton(node_id):
        parts.append(new.outer(node_id))
        return
    for child in new.nodes[node_id].children:
        _changed(old, new, child, parts)
