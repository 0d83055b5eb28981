"""The contribution form where people look, on a phone (390x844), light and dark: Recipe
Collection's "Add your recipe", Group Card's "Sign the card" and Gift Idea Board's "Suggest
an idea" come right under the page's title, open, before what the group has added (the
book, the messages, the ideas), however long that grows; with and without JavaScript."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Literal

import httpx
import pytest
from browsing import Watched
from playwright.sync_api import expect

from groupkit.core._config import Settings
from groupkit.ops._plugins import load_tools

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}
Scheme = Literal["light", "dark"]

METHOD = "\n".join(f"Step {n}: stir, taste, stir again until it looks right." for n in range(12))

#: tool: (the contribution's heading, its first field, the content's first item, two
#: contributions as the API takes them).
CASES: dict[str, tuple[str, str, str, list[dict[str, Any]]]] = {
    "recipe": ("Add your recipe", "#cook", ".recipe-contents", [
        {"cook": cook, "dish": dish, "ingredients": "1 cup flour\n2 lemons\n3 eggs",
         "method": METHOD} for cook, dish in (("Ann", "Lemon slice"), ("Bo", "Pavlova"))]),
    "card": ("Sign the card", "#message", ".card-message", [
        {"name": name, "message": "Thanks for everything — we'll miss the Friday cakes, "
                                  "the terrible puns and the plant you kept alive."}
        for name in ("Ann", "Bo")]),
    "giftidea": ("Suggest an idea", "#idea", ".giftidea-idea", [
        {"idea": idea} for idea in ("Hiking socks", "Camp coffee kit")]),
}
ADD = {"recipe": "/api/recipe/add", "card": "/api/card/sign",
       "giftidea": "/api/giftidea/suggest"}


@pytest.mark.parametrize("java_script", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("tool", list(CASES))
def test_the_contribution_form_comes_before_the_content(
        api: httpx.Client, open_context: Callable[..., Watched], tool: str, scheme: Scheme,
        java_script: bool) -> None:
    heading, first_field, content, added = CASES[tool]
    example = load_tools(Settings(), (), True).tools[tool].example
    made = api.post(f"/api/{tool}", json=dict(example)).raise_for_status().json()
    for body in added:
        api.post(ADD[tool], json={"slug": made["slug"], **body}).raise_for_status()
    watched = open_context(viewport=PHONE, color_scheme=scheme, java_script=java_script)
    page = watched.page
    page.goto(f"/s/{made['slug']}")
    title = page.get_by_role("heading", name=heading, exact=True)
    field = page.locator(first_field)
    expect(title).to_be_visible()
    expect(field).to_be_visible()  # open: nothing to unfold first
    title_box, field_box = title.bounding_box(), field.bounding_box()
    first_item = page.locator(content).first.bounding_box()
    h1 = page.locator("h1").bounding_box()
    assert title_box and field_box and first_item and h1
    assert h1["y"] < title_box["y"]  # the page says what it is first
    assert title_box["y"] + title_box["height"] <= PHONE["height"]  # on the first screen
    submit = page.locator(f"form[action='{ADD[tool]}'] button[type=submit]").bounding_box()
    assert submit and submit["y"] + submit["height"] < first_item["y"], (submit, first_item)
    watched.check(f"contribution-first-{tool}-{scheme}-{'js' if java_script else 'nojs'}")
