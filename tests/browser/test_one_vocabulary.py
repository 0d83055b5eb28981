"""One wording across the four sign-up boards (Bring a Plate, Hens & Shower, Volunteer
Roster, Meal Train), on a phone, light and dark: the holder of a spot gives it back with
"Give my spot back", asked the same question first; where the spot has a date, the
calendar subscription is "Add to my calendar (stays up to date)" and a one-off file, if
offered, is named as one. The words come from the kernel's `spots.mine`, not each tool."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from boards import open_spot
from browsing import Watched
from browsing import on_a_phone

from groupkit_testing import installed_tools

pytestmark = [pytest.mark.browser, pytest.mark.server]

#: tool: (a spot's id, the claim form's extra fields, whether its spots have a date)
BOARDS = {"plate": ("c0-1", {"dish": "Salad"}, False), "hens": ("c0-1", {}, True),
          "roster": ("s0-1", {}, True), "meal": ("d0-1", {"dish": "Soup"}, True)}
RELEASE = "Give my spot back"
ASKED = "Give this spot back so someone else can take it?"
SUBSCRIBE = "Add to my calendar (stays up to date)"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_board_words_a_held_spot_the_same_way(
        scheme: str, api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    seen: dict[str, Any] = {}
    for tool, (slot, extra, dated) in BOARDS.items():
        slug = api.post(f"/api/{tool}", json=dict(installed_tools()[tool].example)).json()[
            "slug"]
        holder = open_context()
        page = on_a_phone(holder, scheme, f"/s/{slug}")
        form = open_spot(page, slot)
        form.locator("input[name='name']").fill("Priya")
        for name, value in extra.items():
            form.locator(f"input[name='{name}']").fill(value)
        with page.expect_navigation():
            form.locator("button[type='submit']").click()
        mine = page.locator(f"[data-secret-key$=':{slot}']:visible")
        seen[tool] = {
            "release": mine.locator("xpath=self::button[@data-confirm]").all_inner_texts(),
            "asked": [b.get_attribute("data-confirm") for b in
                      mine.locator("xpath=self::button[@data-confirm]").all()],
            "subscribe": mine.locator("xpath=self::button[@data-show-link]").all_inner_texts(),
        }
        assert seen[tool]["release"] == [RELEASE], (tool, seen[tool])
        assert seen[tool]["asked"] == [ASKED], (tool, seen[tool])
        assert seen[tool]["subscribe"] == ([SUBSCRIBE] if dated else []), (tool, seen[tool])
        files = page.locator("a.one-off:visible, a[data-calendar]:visible").all_inner_texts()
        assert all("calendar file (.ics)" in text.lower() for text in files), (tool, files)
        holder.check(f"vocabulary-{tool}-{scheme}")
