"""Script injection against every installed tool, in a real browser: the kit's
`groupkit_testing.ScriptInjectionSuite` (whose docstring lists the checks; the payload
corpus is its `PAYLOADS`), the one a plugin author runs over their tool. This repository's
tools take part through the scenarios the security suites share; tools that declare a
`Walkthrough` through it."""

from __future__ import annotations

import pytest
from participation import REVEALS
from participation import SCENARIOS

from groupkit_testing import ScriptInjectionSuite

pytestmark = [pytest.mark.browser, pytest.mark.server]


class TestEveryInstalledTool(ScriptInjectionSuite):
    scenarios = SCENARIOS
    reveals = REVEALS
