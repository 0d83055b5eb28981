"""The kit's browser suites (`groupkit_testing.AllStatesSuite`, `ScriptInjectionSuite`,
`BrowserSuites`) over a tool from outside the repository: one registered through pluggy
here, and contrib/example-plugin, installed by its entry point. A tool that declares how it
is taken part in (`Tool.walkthrough`) is walked with its own steps; one that declares
nothing is reported by name with what to declare, never a KeyError; a Chromium that is not
there skips on a laptop and fails under $GROUPKIT_REQUIRE_EXTERNAL=1."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import Any
from typing import ClassVar

import pytest

import demo_plugin
from groupkit import Participation
from groupkit import Tool
from groupkit import Walkthrough
from groupkit import hookimpl
from groupkit.core._config import Settings
from groupkit.ops._plugins import load_tools
from groupkit_testing import AllStatesSuite
from groupkit_testing import BrowserSuites
from groupkit_testing import ScriptInjectionSuite
from groupkit_testing import _browser as kit_browser

pytest_plugins = ("pytester",)


def take_part(api: Participation) -> None:
    api.public("sign", {"name": api.text("sign.name", "Ann")})


def reveal(api: Participation) -> None:
    api.organiser("close")


def outside_tool(walkthrough: Walkthrough | None) -> Tool:
    """The demo tool as a plugin registered through pluggy, with `walkthrough`."""
    @hookimpl
    def groupkit_tool() -> Tool:
        return dataclasses.replace(demo_plugin.groupkit_tool(), walkthrough=walkthrough)

    plugin = types.SimpleNamespace(groupkit_tool=groupkit_tool, __name__="outside")
    return load_tools(Settings(), [plugin], entry_points=False).tools["demo"]


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> dict[str, Tool]:
    """The tools the browser suites see: the outside ones put in here."""
    tools: dict[str, Tool] = {}
    monkeypatch.setattr(kit_browser, "installed_tools", lambda: tools)
    return tools


def suite_calls() -> list[Any]:
    """Each per-tool browser test, called as pytest would once its fixtures are up."""
    unused: Any = None
    return [
        pytest.param(lambda tool: AllStatesSuite().test_every_state_fits_a_phone_and_passes_axe(
            tool, unused, unused, unused), id="all-states"),
        pytest.param(lambda tool: ScriptInjectionSuite().test_payloads_stay_text(
            tool, unused, []), id="script-injection")]


@pytest.mark.parametrize("run", suite_calls())
def test_a_tool_without_a_walkthrough_is_reported_by_name(
        run: Any, installed: dict[str, Tool]) -> None:
    installed["demo"] = outside_tool(None)
    with pytest.raises(pytest.fail.Exception) as failed:
        run("demo")
    message = str(failed.value)
    assert message == kit_browser.UNDECLARED_WALKTHROUGH.format(tool="demo")
    assert message.startswith("demo declares no walkthrough: declare")
    assert "walkthrough=Walkthrough(take_part=take_part)" in message


def test_the_suites_take_part_through_what_the_tool_declares(
        installed: dict[str, Tool]) -> None:
    installed["demo"] = outside_tool(Walkthrough(take_part, reveal))
    for suite in (AllStatesSuite, ScriptInjectionSuite, BrowserSuites):
        assert suite.steps("demo") == (take_part, reveal)

    class Scenarios(BrowserSuites):
        scenarios: ClassVar[Mapping[str, Any]] = {"demo": take_part}

    installed["demo"] = outside_tool(None)
    assert Scenarios.steps("demo") == (take_part, None)


def test_the_repository_runs_them_over_the_example_plugin() -> None:
    """contrib/example-plugin, installed by its entry point, is one of the tools the
    repository's browser suites run over, with the walkthrough it declares."""
    finddate = kit_browser.installed_tools()["finddate"]
    assert finddate.walkthrough is not None
    assert "finddate" in BrowserSuites.suite_tools()
    assert BrowserSuites.steps("finddate") == (finddate.walkthrough.take_part,
                                               finddate.walkthrough.reveal)


def test_a_missing_chromium_skips_on_a_laptop_and_fails_in_ci(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv(kit_browser.CHROMIUM_ENV, str(tmp_path / "no-chromium"))
    monkeypatch.delenv("GROUPKIT_REQUIRE_EXTERNAL", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"Chromium at .*no-chromium"):
        kit_browser.usable_chromium()
    monkeypatch.setenv("GROUPKIT_REQUIRE_EXTERNAL", "1")
    with pytest.raises(pytest.fail.Exception, match=r"Chromium at .*no-chromium.* required"):
        kit_browser.usable_chromium()
    monkeypatch.setenv(kit_browser.CHROMIUM_ENV, "/bin/sh")
    assert kit_browser.usable_chromium() == "/bin/sh"


def test_the_headless_shell_is_chosen_before_the_full_browser(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """Without $GROUPKIT_CHROMIUM, the system's headless shell (half the CPU per page)
    comes before its full Chromium, which is used when the shell is missing."""
    monkeypatch.delenv(kit_browser.CHROMIUM_ENV, raising=False)
    for name in ("chromium", "chromium-headless-shell"):
        program = tmp_path / name
        program.write_text("#!/bin/sh\n")
        program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert kit_browser.chromium_executable() == str(tmp_path / "chromium-headless-shell")
    (tmp_path / "chromium-headless-shell").unlink()
    assert kit_browser.chromium_executable() == str(tmp_path / "chromium")


A_BROWSER_MODULE = '''
def test_a_page(kit_chromium):
    page = kit_chromium.new_page()
    page.set_content("<p>Hello</p>")
    assert page.text_content("p") == "Hello"
'''

AN_ASYNCIO_MODULE = '''
import asyncio

def test_an_event_loop_runs():
    asyncio.run(asyncio.sleep(0))
'''


@pytest.mark.browser
def test_an_event_loop_runs_after_a_browser_module_in_the_same_process(
        pytester: pytest.Pytester) -> None:
    """While Playwright's synchronous driver runs, no asyncio loop can run in its thread, so
    `kit_chromium` stops at the end of its module: the next module's tests, async ones
    included, still run their event loops (a Chromium kept for the session failed them)."""
    kit_browser.usable_chromium()  # skipped on a laptop without one, a failure in CI
    pytester.makepyfile(test_a_browser=A_BROWSER_MODULE, test_b_asyncio=AN_ASYNCIO_MODULE)
    result = pytester.runpytest_subprocess("-p", "no:xdist", "-p", "no:randomly",
                                           "-o", "addopts=")
    result.assert_outcomes(passed=2)
