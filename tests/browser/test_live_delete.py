"""The organiser's own post, racing a live change: the group changes while the page's post
is on its way. The page reads the change once the post has its answer: at once when the
answer keeps it there, never when the answer sends it elsewhere. Read meanwhile, the change
could find the board gone (the organiser's own delete, a 404 in the console), and a page
that reloaded then would land on "Nothing here" instead of following the delete home."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsing import Watched
from playwright.sync_api import Route
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

HENS = Path(__file__).parents[2] / "plugins/hens/src/groupkit_hens/tool.toml"


def test_a_change_during_the_pages_own_post_is_read_after_its_answer(
        server: Any, api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    made = api.post("/api/hens", json=tomllib.loads(HENS.read_text("utf-8"))["example"])
    slug, edit = made.json()["slug"], made.json()["editToken"]
    organiser = open_context()
    page = organiser.page
    held: list[Route] = []
    rereads: list[str] = []
    page.route(f"**/api/hens/{edit}/delete", lambda route: held.append(route))
    page.on("request", lambda request: rereads.append(request.url)
            if request.url.endswith(f"/e/{edit}") and not request.is_navigation_request()
            else None)
    page.goto(f"/e/{edit}")
    page.wait_for_function("() => document.readyState === 'complete'")
    page.wait_for_timeout(300)  # the event stream is open
    page.evaluate("window.stillHere = true")

    def claim_while_deleting(name: str, slot: str) -> None:
        before = len(rereads)
        page.get_by_role("button", name="Delete permanently").click()
        for _ in range(50):
            if held:
                break
            page.wait_for_timeout(50)
        assert len(held) == 1
        api.post("/api/hens/claim", json={"slug": slug, "slotId": slot,
                                          "name": name}).raise_for_status()
        page.wait_for_timeout(1000)  # the claim's live event has come
        assert len(rereads) == before, "the page re-read itself while its post was on its way"

    # A refused delete keeps the page here: the change is read as soon as it is answered.
    claim_while_deleting("Ann", "c0-1")
    held.pop().fulfill(status=409, content_type="application/json",
                       body=json.dumps({"error": "Try again."}))
    expect(page.locator("main")).to_contain_text("Ann")
    assert len(rereads) == 1
    assert page.evaluate("window.stillHere === true")
    organiser.problems = [problem for problem in organiser.problems
                          if "status of 409" not in problem]  # the refusal, as meant

    # A delete that goes ahead: the page follows it home and never reads the change.
    claim_while_deleting("Bo", "c0-2")
    held.pop().continue_()
    page.wait_for_url(f"{server.base_url}/")
    page.wait_for_timeout(500)
    assert page.url == f"{server.base_url}/"
    assert len(rereads) == 1
    assert api.get(f"/api/hens/{slug}").status_code == 404
