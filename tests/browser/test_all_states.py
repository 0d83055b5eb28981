"""Every page state of every installed tool, on two phones, light and dark: the kit's
`groupkit.testing.AllStatesSuite` (over `groupkit.allstates`), the one a plugin author runs
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

from groupkit.testing import AllStatesSuite

pytestmark = [pytest.mark.browser, pytest.mark.server]


class TestEveryInstalledTool(AllStatesSuite):
    scenarios = SCENARIOS
    reveals = REVEALS
    screens = Path(__file__).resolve().parents[2] / "artifacts" / "screens"
