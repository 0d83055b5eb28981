"""The browser profiles `open_context` hands out: one a test finished with is reused by the
next test that asks for the same kind, and nothing a site stored in it survives."""

from __future__ import annotations

from typing import Any

from browsing import Profiles
from browsing import emptied
from playwright.sync_api import Browser

STORED = """async () => {
  localStorage.setItem("mine", "1");
  document.cookie = "mine=1; max-age=3600";
  await new Promise((done) => { indexedDB.open("mine").onsuccess = done; });
}"""
LEFT = """async () => [localStorage.getItem("mine"), document.cookie,
  (await indexedDB.databases()).map((found) => found.name)]"""


def test_a_reused_profile_keeps_nothing_a_site_stored(browser: Browser, server: Any) -> None:
    profiles, profile = Profiles(), (390, 844, "light", True, None)
    try:
        context = profiles.watch(browser.new_context(base_url=server.base_url))
        page = context.new_page()
        page.goto("/")
        page.evaluate(STORED)
        assert page.evaluate(LEFT) == ["1", "mine=1", ["mine"]]
        profiles.give_back(profile, context)
        assert context.pages == []

        again = profiles.take(profile)
        assert again is context and profiles.take(profile) is None
        page = again.new_page()
        emptied(again, page, server.base_url)
        page.goto("/")
        assert page.evaluate(LEFT) == [None, "", []]
    finally:
        profiles.close()


def test_a_profile_the_test_closed_is_never_handed_out(browser: Browser) -> None:
    profiles, profile = Profiles(), (390, 844, "dark", False, None)
    context = profiles.watch(browser.new_context())
    context.close()
    profiles.give_back(profile, context)
    assert profiles.take(profile) is None
