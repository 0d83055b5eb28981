"""Every organiser operation reaches every open page (the kit's `LiveRegionsSuite`)."""

from __future__ import annotations

import pytest
from organiser_steps import KEPT_BY_SCRIPT
from organiser_steps import ORGANISER_STEPS
from participation import SCENARIOS

from groupkit_testing._live_regions import LiveRegionsSuite

pytestmark = pytest.mark.server


class TestEveryOrganiserOperation(LiveRegionsSuite):
    scenarios = SCENARIOS
    organiser_steps = ORGANISER_STEPS
    kept_by_script = KEPT_BY_SCRIPT
