"""The kit's suites over this tool (`groupkit.testing.ToolSuites`): the contract every tool
keeps, hostile input against every operation, and the privacy scan of what the tool declares
in `hidden`. They need the tool installed (`uv pip install -e .` or `pip install -e .`): two
run real servers, which find the tool by its entry point. With $GROUPKIT_TEST_POSTGRES_URL
set, they run on PostgreSQL."""

from __future__ import annotations

from groupkit.testing import ToolSuites


class TestMyToolSuites(ToolSuites):
    tools = ("mytool",)
