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
from browsing import HEARD_SCRIPT
from browsing import Watched
from browsing import heard_version
from browsing import page_reads
from browsing import page_version
from playwright.sync_api import Route
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

HENS = Path(__file__).parents[2] / "plugins/hens/src/groupkit_hens/tool.toml"


def test_a_change_during_the_pages_own_post_is_read_after_its_answer(
        server: Any, api: httpx.Client, open_context: Callable[..., Watched]) -> None:
    made = api.post("/api/hens", json=tomllib.loads(HENS.read_text("utf-8"))["example"])
    slug, edit = made.json()["slug"], made.json()["editToken"]
    organiser = open_context(script=HEARD_SCRIPT)
    page = organiser.page
    held: list[Route] = []
    page.route(f"**/api/hens/{edit}/delete", lambda route: held.append(route))
    page.goto(f"/e/{edit}")
    version = page_version(page)
    heard_version(page, version)  # the event stream is open: it sends the version first
    page.evaluate("window.stillHere = true")

    def claim_while_deleting(name: str, slot: str) -> None:
        nonlocal version
        before = page_reads(page)
        with page.expect_request(f"**/api/hens/{edit}/delete"):
            page.get_by_role("button", name="Delete permanently").click()
        assert len(held) == 1
        api.post("/api/hens/claim", json={"slug": slug, "slotId": slot,
                                          "name": name}).raise_for_status()
        version += 1
        heard_version(page, version)  # the claim's live event came and the page handled it
        assert page_reads(page) == before, \
            "the page re-read itself while its post was on its way"

    # A refused delete keeps the page here: the change is read as soon as it is answered.
    claim_while_deleting("Ann", "c0-1")
    held.pop().fulfill(status=409, content_type="application/json",
                       body=json.dumps({"error": "Try again."}))
    expect(page.locator("main")).to_contain_text("Ann")
    assert page_reads(page) == 1
    assert page.evaluate("window.stillHere === true")
    organiser.problems = [problem for problem in organiser.problems
                          if "status of 409" not in problem]  # the refusal, as meant

    # A delete that goes ahead: the page follows it home and never reads the change (a
    # re-read would come from the organiser page, before the home page has loaded).
    claim_while_deleting("Bo", "c0-2")
    held.pop().continue_()
    page.wait_for_url(f"{server.base_url}/")
    assert page_reads(page) == 1
    assert api.get(f"/api/hens/{slug}").status_code == 404
