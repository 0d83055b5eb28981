"""The kit's suites over this tool (`groupkit_testing.ToolSuites`): the contract every tool
keeps, hostile input against every operation, and the privacy scan of what the tool declares
in `hidden`. They need the tool installed (`uv pip install -e .` or `pip install -e .`): two
run real servers, which find the tool by its entry point. With $GROUPKIT_TEST_POSTGRES_URL
set, they run on PostgreSQL.

The browser suites (`groupkit_testing.BrowserSuites`: every page state on two phones, light
and dark, and script injection in Chromium) run over the tool the same way, through its
`walkthrough`; they need `pip install groupkit-testing[browser]` and a Chromium, and take about a
minute, so add them where you have both:

    class TestMyToolInTheBrowser(BrowserSuites):
        tools = ("mytool",)
"""

from __future__ import annotations

from groupkit_testing import ToolSuites


class TestMyToolSuites(ToolSuites):
    tools = ("mytool",)
