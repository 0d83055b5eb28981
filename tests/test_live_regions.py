"""Every page a group can change while it is open updates in place: the organiser's page of a
tool whose public or participant operations write has a live region (`data-live-region`), so
the organiser sees a claim, a vote or a message arrive without reloading
(docs/how-to/live-updates.md). Tools whose pages change only through the organiser's own posts
(a redraw, which reloads the page) need none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing._privacy import installed_tools

#: Tools whose group can change what their organiser page shows.
CHANGED_BY_THE_GROUP = sorted(
    name for name, tool in installed_tools().items()
    if any(op.writes and op.kind in ("public", "participant") and op.changes
           for op in tool.operations.operations))


def test_the_rule_covers_the_boards() -> None:
    assert {"plate", "hens", "meal", "roster", "card", "poll"} <= set(CHANGED_BY_THE_GROUP)


@pytest.mark.parametrize("name", CHANGED_BY_THE_GROUP)
async def test_the_organiser_page_updates_live(name: str,
                                               make_app: Callable[..., Any]) -> None:
    tool = installed_tools()[name]
    client = make_app(tools=[name]).test_client()
    made = await (await client.post(f"/api/{name}", json=dict(tool.example))).get_json()
    page = await client.get(f"/e/{made['editToken']}")
    assert page.status_code == 200
    assert "data-live-region" in (await page.get_data()).decode(), (
        f"{name}'s organiser page has no live region: it goes stale as people take part")
