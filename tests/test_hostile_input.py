"""Hostile request bodies against every installed tool's create endpoint and every operation
in the OpenAPI document, on a real server: the kit's suite
(`groupkit_testing.HostileInputSuite`, whose docstring lists the cases) over every installed
tool, each taking part through its scenario here (tests/browser/participation.py) or the
`Walkthrough` it declares. A tool with neither is still checked, from its create alone.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from participation import SCENARIOS

from groupkit_testing import HostileInputSuite
from groupkit_testing._hostile import SENT
from groupkit_testing._hostile import endpoints
from groupkit_testing._privacy import api_document
from groupkit_testing._privacy import installed_tools

pytestmark = pytest.mark.server


@pytest.fixture(scope="module", autouse=True)
def _count() -> Iterator[None]:
    yield
    print(f"\nhostile input: {SENT['requests']} requests judged")


class TestEveryInstalledTool(HostileInputSuite):
    scenarios = SCENARIOS
    #: The issue's examples: each has a required text to compare with invisible-only text.
    text_required = ("card", "giftidea", "plate", "kringle", "baby")

    def test_document_lists_every_operation_served(self,
                                                   hostile_client: httpx.Client) -> None:
        """The operations the suite walks come from the document the server publishes."""
        served = hostile_client.get("/openapi.json").json()
        assert sorted(served["paths"]) == sorted(api_document()["paths"])
        for tool in installed_tools():
            assert any(e.is_create for e in endpoints(tool)), tool
