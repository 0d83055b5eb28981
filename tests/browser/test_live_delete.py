"""The organiser's own delete, racing a live re-read: the group changes just before the
delete, the page re-reads itself and the re-read finds the board gone (404). The page must
follow the delete to the home page, not reload itself onto "Nothing here"."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsing import Watched
from playwright.sync_api import Route

pytestmark = [pytest.mark.browser, pytest.mark.server]

HENS = Path(__file__).parents[2] / "plugins/hens/src/groupkit_hens/tool.toml"


def test_a_reread_that_finds_the_board_deleted_leaves_the_page_to_the_delete(
        server: Any, api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    made = api.post("/api/hens", json=tomllib.loads(HENS.read_text("utf-8"))["example"])
    slug, edit = made.json()["slug"], made.json()["editToken"]
    organiser = open_context()
    page = organiser.page
    held: dict[str, Route] = {}
    page.route(f"**/api/hens/{edit}/delete", lambda route: held.setdefault("delete", route))
    page.route(f"**/e/{edit}", lambda route: route.continue_()
               if route.request.is_navigation_request() else held.setdefault("reread", route))
    page.goto(f"/e/{edit}")
    page.wait_for_function("() => document.readyState === 'complete'")
    page.wait_for_timeout(300)  # the event stream is open
    page.evaluate("window.stillHere = true")

    page.get_by_role("button", name="Delete permanently").click()
    api.post("/api/hens/claim", json={"slug": slug, "slotId": "c0-1",
                                      "name": "Ann"}).raise_for_status()
    for _ in range(50):  # the claim's live event makes the page re-read itself
        if "reread" in held and "delete" in held:
            break
        page.wait_for_timeout(100)
    assert set(held) == {"delete", "reread"}
    deleted = held["delete"].fetch()  # the delete reaches the server while its answer waits
    assert deleted.status == 200
    held["reread"].continue_()  # so the re-read finds nothing there
    page.wait_for_timeout(700)
    assert page.evaluate("window.stillHere === true"), "the page reloaded onto the 404"
    held["delete"].fulfill(response=deleted)
    page.wait_for_url(f"{server.base_url}/")
    page.wait_for_timeout(500)
    assert page.url == f"{server.base_url}/"
    organiser.problems = [problem for problem in organiser.problems
                          if f"/e/{edit}" not in problem]  # the re-read's own 404
