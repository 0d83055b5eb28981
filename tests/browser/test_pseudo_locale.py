"""Every word on every page is translated: each page state of every installed tool (and its
create form without JavaScript, and the home page) in a made-up language built from every
domain's catalog template, where a word of English is a string that escaped translation
(`groupkit_testing.PseudoLocaleSuite`)."""

from __future__ import annotations

import pytest
from participation import REVEALS
from participation import SCENARIOS

from groupkit_testing import PseudoLocaleSuite

pytestmark = [pytest.mark.browser, pytest.mark.server]


class TestEveryWordIsTranslated(PseudoLocaleSuite):
    scenarios = SCENARIOS
    reveals = REVEALS
