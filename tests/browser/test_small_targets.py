"""No tap target under 24x24 CSS px, counted strictly (no exception for a checkbox's label
or an inline link), on the pages where people tick boxes and follow the organiser's links:
radios and checkboxes in Group Vote, Question of the Day, Scrum Poker, Tournament Bracket,
Weekly Pulse and Kris Kringle, the organiser page's running links, and the Pixel Gift
Registry's van (one link as big as the picture, not 126 parts mostly under a fingertip)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from groupkit.core._config import Settings
from groupkit.ops._plugins import load_tools

pytestmark = [pytest.mark.browser, pytest.mark.server]

#: Every control a person taps, with its size on the page.
UNDERSIZED_JS = """() => [...document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary')]
  .map((e) => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width > 0 && r.height > 0 && (r.width < 24 || r.height < 24))
  .map(([e, r]) => `${e.tagName.toLowerCase()}[${e.type || ''}] ${Math.round(r.width)}x`
       + `${Math.round(r.height)} ${(e.textContent || e.name || '').trim().slice(0, 30)}`)"""

TOOLS = ("poll", "qotd", "poker", "bracket", "pulse", "kringle", "registry")


def test_boxes_and_running_links_are_big_enough_to_tap(api: httpx.Client,
                                                       open_context: Any) -> None:
    examples = {name: tool.example for name, tool in load_tools(Settings(), (), True).tools
                .items() if name in TOOLS}
    watched = open_context(viewport={"width": 390, "height": 844})
    undersized: dict[str, list[str]] = {}
    for name in TOOLS:
        made = api.post(f"/api/{name}", json=dict(examples[name]))
        assert made.status_code == 201, made.text
        for path in (f"/new/{name}", f"/s/{made.json()['slug']}",
                     f"/e/{made.json()['editToken']}"):
            watched.page.goto(path)
            found = watched.page.evaluate(UNDERSIZED_JS)
            if found:
                undersized[path.split("/")[1] + "/" + name] = found
    assert undersized == {}
