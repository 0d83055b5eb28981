"""Phone layout, item by item, on a 390x844 phone and where it matters a 320x640 one, light
and dark: Kris Kringle's buttons never wrap mid-word ("Rese/t"), Team Picker shows every
member of a big team (nothing scrolled away in a three-line box), Weekly Pulse's score
buttons carry their words and not bare numbers, and every part of the registry van, most of
them smaller than a fingertip in the picture, can be tapped at full size in the build sheet
and claimed from there. Each check measures the page as laid out; every state is
screenshotted."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from typing import Literal

import httpx
import pytest
from browsing import Watched
from playwright.sync_api import Browser
from playwright.sync_api import Locator
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

SCHEMES = ["light", "dark"]
SIZES = [(320, 640), (390, 844)]
MIN_TARGET = 24  # WCAG 2.2 2.5.8, CSS px

# For every visible button: how many line boxes its text takes (the distinct tops of the
# text's client rects), and its box.
BUTTON_LINES = """(buttons) => buttons.filter((b) => b.getClientRects().length).map((b) => {
  const range = document.createRange();
  range.selectNodeContents(b);
  const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
    .map((r) => Math.round(r.top)));
  const box = b.getBoundingClientRect();
  return {text: b.textContent.trim(), lines: tops.size, left: box.left, right: box.right,
          width: box.width, height: box.height};
})"""

# An element is shown in full when no ancestor that clips (overflow other than visible)
# cuts any of it off, and it is neither hidden nor empty.
CLIPPED = """(element) => {
  const box = element.getBoundingClientRect();
  if (!box.width || !box.height || getComputedStyle(element).visibility !== 'visible')
    return 'not shown';
  for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
    const style = getComputedStyle(up);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const frame = up.getBoundingClientRect();
    if (box.left < frame.left - .5 || box.right > frame.right + .5
        || box.top < frame.top - .5 || box.bottom > frame.bottom + .5)
      return 'clipped by ' + up.tagName.toLowerCase() + '.' + up.className;
  }
  return null;
}"""


def no_sideways_scroll(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def one_line_buttons(page: Page, scope: str, width: int) -> list[dict[str, Any]]:
    """Every visible button in `scope`: its text on one line, at least 24x24, on screen."""
    buttons = page.locator(f"{scope} button").evaluate_all(BUTTON_LINES)
    assert buttons
    for button in buttons:
        assert button["lines"] == 1, button
        assert button["width"] >= MIN_TARGET and button["height"] >= MIN_TARGET, button
        assert button["left"] >= 0 and button["right"] <= width, button
    return buttons


# --- Kris Kringle: Reset never wraps to "Rese/t" --------------------------------------------

LONG_NAMES = ["Maximiliana Wolfeschlegelsteinhausen",  # names are at most 40 characters
              "Christopher Alexander Montgomery-Smythe", "Bartholomew Featherstonehaugh",
              "Annabelle Oyelaran-Castellanos", "Jo Li"]


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width,height", SIZES)
def test_kringle_buttons_stay_on_one_line_beside_long_names(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: str, width: int,
        height: int) -> None:
    """The organiser's table with long names, everyone claimed (each row has its Reset),
    and the same draw with personal links (Reset and Copy on every row): each button reads
    on one line, is a full-size target and stays on screen."""
    claimed = api.post("/api/kringle", json={"title": "Office Kris Kringle",
                                             "names": LONG_NAMES}).raise_for_status().json()
    for name in LONG_NAMES:
        api.post("/api/kringle/claim",
                 json={"slug": claimed["slug"], "name": name}).raise_for_status()
    personal = api.post("/api/kringle", json={"names": LONG_NAMES, "personalLinks": True})\
        .raise_for_status().json()
    watched = open_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    page = watched.page
    for label, made in (("claimed", claimed), ("links", personal)):
        page.goto(f"/e/{made['editToken']}")
        resets = page.locator("table.kringle-status").get_by_role("button", name="Reset")
        expect(resets).to_have_count(len(LONG_NAMES))
        watched.check(f"phone-kringle-{label}-{width}x{height}-{scheme}")
        no_sideways_scroll(page, width)
        buttons = one_line_buttons(page, "main", width)
        assert [b["text"] for b in buttons].count("Reset") == len(LONG_NAMES)
        # The names wrap instead, inside their cells.
        cells = page.locator("table.kringle-status tbody td:first-child")
        assert sorted(cells.all_inner_texts()) == sorted(LONG_NAMES)
        assert cells.evaluate_all(
            "(cells) => Math.max(...cells.map((c) => c.getBoundingClientRect().height))") > 30


# --- Team Picker: a fourth (and tenth) member is never hidden -------------------------------

TEAMS = [{"title": "Three", "members": ["Ann", "Bo", "Cy"]},
         {"title": "Four", "members": ["Di Dunlop", "Ed Ekins", "Flo Fry", "Gus Grant"]},
         {"title": "Six", "members": ["Hal", "Ivy", "Jo", "Kit", "Lu", "Mo"]},
         {"title": "Ten", "members": [f"Player {n} with a longer name" for n in range(1, 11)]}]

# A textarea shows every line it holds: nothing scrolled out of its box.
TEXTAREA_FITS = """(areas) => areas.map((area) => ({
  lines: area.value.split('\\n').length,
  scroll: area.scrollHeight, client: area.clientHeight}))"""


def every_member_shown(page: Page, scope: str) -> None:
    cards = page.locator(f"{scope} .teams-card")
    expect(cards).to_have_count(len(TEAMS))
    for card, team in zip(cards.all(), TEAMS, strict=True):
        members = card.locator(".teams-members li")
        expect(members).to_have_text(team["members"])
        for member in members.all():
            expect(member).to_be_visible()
            assert member.evaluate(CLIPPED) is None, member.inner_text()


def textareas_fit(page: Page, areas: Locator, sizes: list[int]) -> None:
    fits = areas.evaluate_all(TEXTAREA_FITS)
    assert sorted(fit["lines"] for fit in fits) == sorted(sizes)
    for fit in fits:
        assert fit["scroll"] <= fit["client"] + 1, fit


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width,height", SIZES)
def test_teams_show_every_member_of_a_big_team(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: str, width: int,
        height: int) -> None:
    """Teams of 3, 4, 6 and 10: the share page's and the organiser's cards list everyone,
    nothing clipped, and the organiser's "Change details" boxes and the create page's
    shuffled boxes grow to show every name instead of scrolling some away."""
    made = api.post("/api/teams", json={"title": "Friday futsal", "teams": TEAMS})\
        .raise_for_status().json()
    watched = open_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    page = watched.page
    page.goto(f"/s/{made['slug']}")
    every_member_shown(page, "main")
    no_sideways_scroll(page, width)
    watched.check(f"phone-teams-public-{width}x{height}-{scheme}")

    page.goto(f"/e/{made['editToken']}")
    every_member_shown(page, "main")
    page.get_by_text("Change details").click()
    areas = page.locator("[data-list='teams'] [data-key='members']")
    expect(areas).to_have_count(len(TEAMS))
    textareas_fit(page, areas, [len(team["members"]) for team in TEAMS])
    no_sideways_scroll(page, width)
    watched.check(f"phone-teams-organiser-edit-{width}x{height}-{scheme}")

    # Shuffled on the create page: 17 names into 3 teams, six in the biggest.
    page.goto("/new/teams")
    page.fill("#teams-names", "\n".join(f"Name {n}" for n in range(1, 18)))
    page.fill("#teams-count", "3")
    page.get_by_role("button", name="Shuffle into teams").click()
    areas = page.locator("[data-list='teams'] [data-key='members']")
    expect(areas).to_have_count(3)
    textareas_fit(page, areas, [5, 6, 6])
    no_sideways_scroll(page, width)
    watched.check(f"phone-teams-create-shuffled-{width}x{height}-{scheme}")


# --- Weekly Pulse: score buttons say what they mean ------------------------------------------

WORDS = {1: "Rough", 2: "Meh", 3: "Okay", 4: "Good", 5: "Great"}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width,height", SIZES)
def test_pulse_score_buttons_carry_their_words(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: str, width: int,
        height: int) -> None:
    """Each of the five buttons shows its number and its word, whole and on screen, and a
    screen reader hears both; the five sit in one row of full-size targets."""
    made = api.post("/api/pulse", json={"team": "Platform team"}).raise_for_status().json()
    watched = open_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    page = watched.page
    page.goto(f"/s/{made['slug']}")
    options = page.locator(".pulse-options label.pulse-option")
    expect(options).to_have_count(5)
    tops = set()
    for score, option in enumerate(options.all(), start=1):
        expect(page.get_by_role("radio", name=f"{score} {WORDS[score]}", exact=True))\
            .to_have_count(1)
        word = option.locator(".pulse-word")
        expect(word).to_have_text(WORDS[score])
        expect(word).to_be_visible()
        assert word.evaluate(CLIPPED) is None
        # The word fits inside its button, on one line.
        fits = word.evaluate("""(word) => {
          const box = word.getBoundingClientRect(), button = word.parentElement
            .getBoundingClientRect(), range = document.createRange();
          range.selectNodeContents(word);
          return {inside: box.left >= button.left && box.right <= button.right,
                  lines: range.getClientRects().length}}""")
        assert fits == {"inside": True, "lines": 1}, (score, fits)
        box = option.bounding_box()
        assert box and box["width"] >= MIN_TARGET and box["height"] >= MIN_TARGET
        tops.add(round(box["y"]))
    assert len(tops) == 1
    no_sideways_scroll(page, width)
    # The "this week" tag beside the week's heading stays in one piece.
    assert page.locator(".pulse-current .pulse-tag").evaluate(
        "(tag) => tag.getClientRects().length") == 1
    page.get_by_role("radio", name="2 Meh").check(force=True)
    watched.check(f"phone-pulse-public-{width}x{height}-{scheme}")
    with page.expect_navigation():
        page.get_by_role("button", name="Check in").click()
    expect(page.locator(".pulse-current")).to_contain_text("1 response")


# --- Wedding Registry: no tap target in the van under 24 px; a tap on a small part opens
# its row of the build sheet --------------------------------------------------------------

# For each part of the picture: its size on screen, the id of the row that does the same
# with a full-size control, and a point inside it (the middle of its largest pixel).
PART_BOXES = """(parts) => parts.map((part) => {
  const box = part.getBoundingClientRect();
  const pixel = [...part.querySelectorAll('rect')].map((r) => r.getBoundingClientRect())
    .sort((a, b) => b.width * b.height - a.width * a.height)[0];
  return {id: part.dataset.part, width: box.width, height: box.height,
          equivalent: part.dataset.equivalent || null,
          x: pixel.left + pixel.width / 2, y: pixel.top + pixel.height / 2};
})"""

# Every control a person taps in the picture's frame, with its size on the page.
FRAME_TARGETS = """(frame) => [...frame.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]')]
  .map((e) => { const r = e.getBoundingClientRect(); return {width: r.width,
    height: r.height, what: e.outerHTML.slice(0, 60)}; })"""

# One row of the build sheet as a finger meets it: the section's summary that opens it, the
# row, and its Build link, a button to the eye (none once the part is built).
SHEET_ROW = """(row) => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width,
            height: r.height}; };
  const button = row.querySelector('a.button');
  return {summary: box(row.closest('details').querySelector('summary')), row: box(row),
          button: button && box(button), text: row.textContent.replace(/\\s+/g, ' ').trim()};
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width,height", SIZES)
def test_registry_van_has_no_small_target_and_a_small_part_opens_its_row(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: str, width: int,
        height: int) -> None:
    """Most parts of the van are smaller than a fingertip on a phone. The picture is one
    link as big as the van, so nothing in it is a target under 24x24 px; a tap on a small
    part opens its row of the build sheet (its section unfolded, the row in view and
    outlined, its Build button focused and at least 24x24 px, or who built it), and the
    part is built from there. A part big enough to aim at is picked in place."""
    made = api.post("/api/registry", json={"coupleNames": "Mia & Sam"})\
        .raise_for_status().json()
    slug = made["slug"]
    parts = api.get(f"/api/registry/{slug}").raise_for_status().json()["parts"]
    assert len(parts) == 126
    names = {part["id"]: part["name"] for part in parts}
    built = {part["id"] for part in parts[::9]}
    for part_id in sorted(built):
        api.post("/api/registry/claim", json={"slug": slug, "partId": part_id,
                                              "name": "Cousin Vi"}).raise_for_status()
    watched = open_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    page = watched.page
    page.goto(f"/s/{slug}")
    no_sideways_scroll(page, width)
    targets = page.locator(".van-frame").evaluate(FRAME_TARGETS)
    assert [t for t in targets if t["width"] < MIN_TARGET or t["height"] < MIN_TARGET] == []
    assert len(targets) == 1 and targets[0]["width"] >= width - 10  # the van, edge to edge
    boxes = page.locator(".van .part").evaluate_all(PART_BOXES)
    assert len(boxes) == 126
    assert all(box["equivalent"] == f"sheet-{box['id']}" for box in boxes)
    small = [b for b in boxes if b["width"] < MIN_TARGET or b["height"] < MIN_TARGET]
    print(f"registry {width}x{height}: {len(small)} of 126 van parts under 24 px")
    assert small  # the picture alone is not enough on a phone: that is what the rows are for
    watched.check(f"phone-registry-public-{width}x{height}-{scheme}")

    # Right under the picture, a full-size link leads to the build sheet.
    to_sheet = page.get_by_role("link", name="Every part is in the build sheet")
    link_box = to_sheet.bounding_box()
    van_box = page.locator(".van").bounding_box()
    assert link_box and van_box and link_box["height"] >= MIN_TARGET
    assert 0 <= link_box["y"] - (van_box["y"] + van_box["height"]) < 100

    def tap(box: dict[str, Any]) -> dict[str, Any]:
        """A tap on the part's own pixels; its row, as the finger then finds it."""
        page.evaluate("window.scrollTo(0, 0)")  # the picture where it was measured
        page.mouse.click(box["x"], box["y"])
        row = page.locator(f"#sheet-{box['id']}")
        expect(row).to_be_in_viewport()
        expect(row).to_have_class(re.compile(r"\bvan-pointed\b"))
        shown: dict[str, Any] = row.evaluate(SHEET_ROW)
        assert names[box["id"]] in shown["text"]
        assert shown["summary"]["height"] >= MIN_TARGET
        assert shown["row"]["left"] >= 0 and shown["row"]["right"] <= width, shown
        return shown

    # A small part somebody built: its row says who.
    built_small = min((b for b in small if b["id"] in built),
                      key=lambda b: b["width"] * b["height"])
    shown = tap(built_small)
    assert shown["button"] is None and "Built by Cousin Vi" in shown["text"], shown
    expect(page.locator(f"#sheet-{built_small['id']}")).to_be_focused()

    # The smallest open part: its row's Build button, full size and focused.
    smallest = min((b for b in small if b["id"] not in built),
                   key=lambda b: b["width"] * b["height"])
    name = names[smallest["id"]]
    shown = tap(smallest)
    button = shown["button"]
    assert button and button["width"] >= MIN_TARGET and button["height"] >= MIN_TARGET, shown
    assert button["top"] >= 0 and button["bottom"] <= height and button["right"] <= width
    expect(page.locator(".van-pointed")).to_have_count(1)  # only the row last tapped
    build = page.locator(f"#sheet-{smallest['id']}").get_by_role("link",
                                                                   name=f"Build the {name}")
    expect(build).to_be_focused()
    no_sideways_scroll(page, width)
    watched.check(f"phone-registry-part-row-{width}x{height}-{scheme}")
    build.click()
    expect(page.locator("#registry-picked")).to_contain_text(name)
    assert page.input_value("#partId") == smallest["id"]
    expect(page.locator("#claim-name")).to_be_focused()
    page.fill("#claim-name", "Aunty Jo")
    page.get_by_role("button", name="Build it").click()
    expect(page.locator("#registry-thanks")).to_contain_text(f"You're building the {name}")
    expect(page.locator(f".van .part[data-part='{smallest['id']}']"))\
        .to_have_class(re.compile(r"\bbuilt\b"), timeout=3000)
    expect(page.locator(f"#sheet-{smallest['id']}")).to_contain_text("Built by Aunty Jo")
    watched.check(f"phone-registry-claimed-from-sheet-{width}x{height}-{scheme}")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_registry_organisers_van_taps_open_the_claim(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: str) -> None:
    """The organiser's van is one link to the claims too: no target in it under 24 px, and
    a tap on a small built part brings its claim into view, its first button focused."""
    made = api.post("/api/registry", json={"coupleNames": "Mia & Sam"})\
        .raise_for_status().json()
    parts = api.get(f"/api/registry/{made['slug']}").raise_for_status().json()["parts"]
    for part in parts[::9]:
        api.post("/api/registry/claim", json={"slug": made["slug"], "partId": part["id"],
                                              "name": "Cousin Vi"}).raise_for_status()
    watched = open_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    page = watched.page
    page.goto(f"/e/{made['editToken']}")
    targets = page.locator(".van-frame").evaluate(FRAME_TARGETS)
    assert [t for t in targets if t["width"] < MIN_TARGET or t["height"] < MIN_TARGET] == []
    page.locator(".van").scroll_into_view_if_needed()
    boxes = page.locator(".van .part[data-equivalent]").evaluate_all(PART_BOXES)
    assert len(boxes) == len(parts[::9])
    smallest = min(boxes, key=lambda b: b["width"] * b["height"])
    assert smallest["width"] < MIN_TARGET or smallest["height"] < MIN_TARGET
    page.mouse.click(smallest["x"], smallest["y"])
    row = page.locator(f"#row-{smallest['id']}")
    expect(row).to_be_in_viewport()
    expect(row).to_have_class(re.compile(r"\bvan-pointed\b"))
    expect(row.get_by_role("button", name="Mark paid")).to_be_focused()
    watched.check(f"phone-registry-organiser-claim-{scheme}")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_registry_build_sheet_without_javascript(
        api: httpx.Client, browser: Browser, server: Any, screenshot: Callable[[Any, str], Any],
        scheme: Literal["light", "dark"]) -> None:
    """With script off, a Build button in the sheet still works: it opens the claim form with
    that part chosen, and the claim goes through (the receipt comes back in the flash)."""
    made = api.post("/api/registry", json={"coupleNames": "Mia & Sam"})\
        .raise_for_status().json()
    part = api.get(f"/api/registry/{made['slug']}").raise_for_status().json()["parts"][40]
    context = browser.new_context(base_url=server.base_url, java_script_enabled=False,
                                  viewport={"width": 390, "height": 844}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(f"/s/{made['slug']}")
        page.get_by_role("link", name="Every part is in the build sheet").click()
        page.locator(f"#sheet-{part['id']}").locator("xpath=ancestor::details/summary").click()
        build = page.get_by_role("link", name=f"Build the {part['name']}")
        box = build.bounding_box()
        assert box and box["width"] >= MIN_TARGET and box["height"] >= MIN_TARGET
        build.click()
        page.wait_for_url(f"**?part={part['id']}#claim")
        assert page.input_value("#partId") == part["id"]
        expect(page.locator("#claim")).to_be_in_viewport()
        screenshot(page, f"phone-registry-nojs-picked-{scheme}")
        page.fill("#claim-name", "Aunty Jo")
        page.get_by_role("button", name="Build it").click()
        expect(page.locator("#groupkit-flash")).to_contain_text(
            f"You're building the {part['name']}")
        expect(page.locator(f"#sheet-{part['id']}")).to_contain_text("Built by Aunty Jo")
        screenshot(page, f"phone-registry-nojs-claimed-{scheme}")
    finally:
        context.close()
