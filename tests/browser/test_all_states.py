"""Every page state of every installed tool, on two phones, light and dark, in English, German
and Spanish (axe-core in English: the same markup): the kit's
`groupkit_testing.AllStatesSuite` (over `groupkit_testing.allstates`), the one a plugin author runs
over their tool. Create, public, the printable share sheet, organiser, private, after
participation, after the reveal, deleted; and the home page. No horizontal overflow, no tap
target under 24x24 CSS px, nothing axe-core objects to; a full-page screenshot of each state
and view in artifacts/screens/.

Tools that declare a `Walkthrough` (third-party plugins such as Find a Date) are walked with
it; this repository's tools with the participation the security suites already use."""

from __future__ import annotations

from pathlib import Path

import pytest
from participation import REVEALS
from participation import SCENARIOS
from playwright.sync_api import Browser

from groupkit_testing import AllStatesSuite
from groupkit_testing.allstates import Checker

pytestmark = [pytest.mark.browser, pytest.mark.server]


class TestEveryInstalledTool(AllStatesSuite):
    scenarios = SCENARIOS
    reveals = REVEALS
    screens = Path(__file__).resolve().parents[2] / "artifacts" / "screens"
    #: German's longer words are the likeliest to overflow a phone; Spanish's too.
    languages = ("en", "de", "es")


FAULTY = """<!doctype html><html lang="en"><head><title>Faulty</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>Faulty</h1><p id="faint" style="color:#999;background:#aaa">Hard to read</p>
<img id="bare" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>"""


def test_the_checker_names_each_node_axe_objects_to(browser: Browser, tmp_path: Path) -> None:
    """What axe-core finds is reported with the node it is about: low contrast in every
    view (the colour-only runs included), the missing alt text in each size's full run."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content(FAULTY)
        found = Checker(tmp_path).check(page, "faulty")
    finally:
        context.close()
    views = ["320x640-light", "320x640-dark", "390x844-light", "390x844-dark"]
    assert sorted(f.view for f in found if f.kind == "axe color-contrast"
                  and "#faint" in f.detail) == sorted(views)
    assert sorted(f.view for f in found if f.kind == "axe image-alt"
                  and "#bare" in f.detail) == ["320x640-light", "390x844-light"]
    assert all(f.state == "faulty" for f in found)
    assert (tmp_path / "faulty-390x844-dark.png").stat().st_size > 0


LONG = """<!doctype html><html lang="en"><head><title>Long</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>:root { color-scheme: light dark; } p { padding: 1rem; }
@media (prefers-color-scheme: dark) { body { background: #123; color: #eee; } }</style></head>
<body><main><h1>Long</h1>""" + "".join(
    f'<p style="background:hsl({i * 13 % 360} 60% 50%)">Row {i}</p>' for i in range(60)) + """
<input value="typed"></main></body></html>"""


def test_the_checkers_screenshots_hold_playwrights_full_page_pixels(browser: Browser) -> None:
    """The faster full-page PNG (`_full_page_png`) decodes to the very pixels of Playwright's
    `screenshot(full_page=True)`, on a page four screens tall, light and dark, with and
    without touch emulation."""
    from io import BytesIO

    from PIL import Image

    from groupkit_testing.allstates import _full_page_png

    for touch in (False, True):
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=touch)
        try:
            page = context.new_page()
            page.set_content(LONG)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                ours = Image.open(BytesIO(_full_page_png(page))).convert("RGB")
                theirs = Image.open(BytesIO(page.screenshot(full_page=True))).convert("RGB")
                assert ours.size == theirs.size and ours.size[1] > 4 * 844, (
                    ours.size, theirs.size)
                assert ours.tobytes() == theirs.tobytes(), (scheme, touch)
        finally:
            context.close()
