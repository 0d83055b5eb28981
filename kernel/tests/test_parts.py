"""The changed parts of a page's live regions, as the live stream sends them."""

from __future__ import annotations

import re

from groupkit.core._parts import changed_parts
from groupkit.core._parts import snapshot

PAGE = """<!doctype html><html><head><title>Lunch <b></title>
<script type="application/json" id="data">{"a": "<li id=\\"s-1\\">"}</script></head>
<body><div id="lunch-heading" data-live-region><h1>Lunch</h1><p>{taken} of 3 taken</p></div>
<p title="not an id=s-2 here" class="x">Tap Claim on an open spot.</p>
<div id="board" data-live-region><section class="card"><h2 id="mains">Mains
<span class="count">{taken} of 3 taken</span></h2>
<ul class="slots">{spots}</ul></section>
<section class="card"><h2 id="sides">Sides</h2><ul><li id="s-9">Open</li></ul></section></div>
<form><textarea name="t"><li id="s-1"></textarea><input name="n"></form>
<svg><path id="icon" d="M0 0"/></svg>
</body></html>"""

OPEN = ('<li class="spot-open" id="{slot}"><details id="claim-{slot}"><summary>Claim</summary>'
        '<form><input name="name"><button>Claim</button></form></details></li>')
#: After blank lines, as a template's macros leave them: the parts leave the old ones.
TAKEN = '\n\n<li class="taken" id="{slot}"><strong>{name}</strong> <span>{dish}</span></li>'


def page(claims: dict[str, tuple[str, str]]) -> str:
    spots = "\n".join(
        TAKEN.format(slot=slot, name=claims[slot][0], dish=claims[slot][1]) if slot in claims
        else OPEN.format(slot=slot) for slot in ("s-1", "s-2", "s-3"))
    return PAGE.replace("{taken}", str(len(claims))).replace("{spots}", spots)


def apply(html: str, parts: list[str]) -> str:
    """What the page script does with `parts`: each put in place of the element with its
    id."""
    for part in parts:
        part_id = re.match(r'<[a-z0-9]+[^>]*?\sid="([^"]+)"', part)
        assert part_id, part
        node = snapshot(0, html).nodes[part_id.group(1)]
        html = html[:node.start] + part + html[node.end:]
    return html


def regions(html: str) -> list[str]:
    shot = snapshot(0, html)
    return [shot.outer(region) for region in shot.regions]


def shown(html: str) -> list[str]:
    """The regions as a page shows them: white space between tags is one space."""
    return [re.sub(r">\s+<", "> <", region) for region in regions(html)]


def test_a_claim_sends_its_spot_and_the_counts_and_nothing_else() -> None:
    before = snapshot(1, page({}))
    after = snapshot(2, page({"s-2": ("Ann &lt;b&gt;", "Soup")}))
    assert before.regions == after.regions == ["lunch-heading", "board"]
    assert before.exact and after.exact
    assert changed_parts(before, after) == [
        after.outer("lunch-heading"),
        '<h2 id="mains">Mains\n<span class="count">1 of 3 taken</span></h2>',
        '<li class="taken" id="s-2"><strong>Ann &lt;b&gt;</strong> <span>Soup</span></li>']


def test_without_an_earlier_page_every_region_goes_whole() -> None:
    after = snapshot(2, page({"s-1": ("Bo", "Tea")}))
    assert changed_parts(None, after) == regions(after.html)
    assert changed_parts(after, after) == []


def test_applying_the_parts_gives_the_new_regions() -> None:
    """From any board to any other, by the changed parts alone (but for the white space
    between tags, which a page shows the same)."""
    boards = [{}, {"s-1": ("Ann", "Soup")}, {"s-1": ("Ann", "Soup"), "s-3": ("Bo", "Pie")},
              {"s-3": ("Bo", "Pie")}, {"s-1": ("Cy", "Soup")},
              {"s-1": ("Ann", "Soup"), "s-2": ("Bo", "Pie"), "s-3": ("Cy", "Tea")}]
    for old in boards:
        for new in boards:
            before, after = snapshot(1, page(old)), snapshot(2, page(new))
            patched = apply(before.html, changed_parts(before, after))
            assert shown(patched) == shown(after.html), (old, new)


def test_text_that_looks_like_a_tag_or_an_id_is_not_one() -> None:
    """Quoted attribute values, `script`, `textarea` and `title` hold text: the ids there
    are not elements, and the page stays exact."""
    shot = snapshot(1, page({}))
    assert shot.exact
    assert "data" not in shot.nodes  # outside the regions: not a part
    assert shot.outer("s-1").startswith('<li class="spot-open" id="s-1">')
    assert sorted(shot.nodes) == sorted(["lunch-heading", "board", "mains", "sides", "s-9",
                                         "s-1", "s-2", "s-3", "claim-s-1", "claim-s-2",
                                         "claim-s-3"])


def test_a_page_with_a_repeated_id_or_an_unclosed_element_goes_whole() -> None:
    """The page script finds an id's first element only, and an element left open ends
    where a parser guesses: neither page is cut up."""
    repeated = page({}).replace('<h2 id="sides">', '<h2 id="mains">')
    unclosed = page({}).replace('<li id="s-9">Open</li>', '<li id="s-9">Open')
    for html in (repeated, unclosed):
        after = snapshot(2, html.replace("0 of 3", "1 of 3"))
        assert not after.exact
        assert changed_parts(snapshot(1, html), after) == regions(after.html)
