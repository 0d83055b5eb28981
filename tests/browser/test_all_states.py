"""Every page state of every installed tool, on two phones, light and dark (the kit's
`groupkit.allstates`): create, public, the printable share sheet, organiser, private, after
participation, after the reveal, deleted; and the home page. No horizontal overflow, no tap
target under 24x24 CSS px, nothing axe-core objects to; a full-page screenshot of each state
and view in artifacts/screens/.

Tools that declare a `Walkthrough` (third-party plugins such as Find a Date) are walked with
it; this repository's tools with the participation the security suites already use."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from participation import REVEALS, SCENARIOS
from playwright.sync_api import Browser, Page

from groupkit._config import Settings
from groupkit._plugins import load_tools
from groupkit.allstates import ApiParticipation, Checker, Finding, Step, walk_home, walk_tool
from groupkit.testing import Made, Session, sibling_index

pytestmark = [pytest.mark.browser, pytest.mark.server]

INSTALLED = load_tools(Settings()).tools
SCREENS = Path(__file__).resolve().parents[2] / "artifacts" / "screens"


def readable(label: str) -> str:
    """Example text for a free-text field: its name, numbered among siblings."""
    field = label.split(".")[1]
    index = sibling_index(label)
    text = {"name": "Priya", "voterName": "Sam", "guesser": "Jo", "sender": "Ann",
            "recipient": "Bo", "cook": "Nan", "suggestedBy": "Lee"}.get(field, field.title())
    return f"{text} {index}" if index else text


def session_step(tool: str, scenario: Callable[[Session], None]) -> Step:
    """A repository scenario run as a walkthrough step, its tokens handed on."""
    def step(api: ApiParticipation) -> None:
        made = Made(tool, api.slug, api.edit, dict(INSTALLED[tool].example))
        session = Session(api.client, made, readable)
        scenario(session)
        api.tokens += [token for _, token in session.tokens]
    return step


@pytest.fixture(scope="module")
def server(live_server: Callable[..., Any]) -> Any:
    return live_server(mode="development", limits={"post_per_hour": 1_000_000})


@pytest.fixture(scope="module")
def tab(browser: Browser, server: Any) -> Iterator[Page]:
    """One page for every state of every tool this process checks."""
    context = browser.new_context(base_url=server.base_url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []


@pytest.fixture(scope="module")
def checker() -> Checker:
    return Checker(SCREENS)


@pytest.mark.parametrize("tool", sorted(INSTALLED))
def test_every_state_fits_a_phone_and_passes_axe(tool: str, server: Any, tab: Page,
                                                 checker: Checker) -> None:
    declared = INSTALLED[tool].walkthrough
    take_part = reveal = None
    if declared is None:
        take_part = session_step(tool, SCENARIOS[tool]) if tool in SCENARIOS else None
        reveal = session_step(tool, REVEALS[tool]) if tool in REVEALS else None
    with server.client() as client:
        found = walk_tool(tab, client, INSTALLED[tool], SCREENS, take_part, reveal, checker)
    report = SCREENS / f"{tool}-findings.txt"
    report.write_text("".join(f"{finding}\n" for finding in found), encoding="utf-8")
    assert not found, summary(found)


def test_the_home_page_fits_a_phone_and_passes_axe(server: Any, tab: Page,
                                                   checker: Checker) -> None:
    found = walk_home(tab, SCREENS, checker)
    (SCREENS / "home-findings.txt").write_text("".join(f"{f}\n" for f in found),
                                               encoding="utf-8")
    assert not found, summary(found)


def summary(found: list[Finding]) -> str:
    """One line per state and kind of problem, with the views and the first few details."""
    grouped: dict[tuple[str, str], list[Finding]] = {}
    for finding in found:
        grouped.setdefault((finding.state, finding.kind), []).append(finding)
    return "\n".join(
        f"{state}: {kind} in {', '.join(sorted({f.view for f in items}))}: "
        f"{'; '.join(sorted({f.detail for f in items})[:4])}"
        for (state, kind), items in grouped.items())
