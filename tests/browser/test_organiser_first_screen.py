"""The organiser page starts with what they came to do: the links to share, then the folded
"Change details" form, within the first screen and a half of a 390x844 phone for every tool
that has one (it sat after the whole board: 1,240 px down on Coffee Roulette, 4,322 on Meal
Train); then the board, then export and delete."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}

POSITIONS_JS = """() => {
  const top = (selector) => {
    const element = document.querySelector(selector);
    return element ? Math.round(element.getBoundingClientRect().top + window.scrollY) : null;
  };
  return {details: top("#edit-heading"), links: top("#organiser-links"),
          danger: top("section.danger")};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_change_details_comes_within_the_first_screen_and_a_half(
        api: httpx.Client, open_context: Any, scheme: str) -> None:
    document = api.get("/openapi.json").json()
    tools = sorted(path.split("/")[2] for path in document["paths"]
                   if path.count("/") == 2 and "post" in document["paths"][path])
    watched = open_context(viewport=PHONE, color_scheme=scheme)
    late: dict[str, Any] = {}
    with_form = 0
    for tool in tools:
        post = document["paths"][f"/api/{tool}"]["post"]
        example = post["requestBody"]["content"]["application/json"]["example"]
        made = api.post(f"/api/{tool}", json=example)
        assert made.status_code == 201, (tool, made.text)
        watched.page.goto(f"/e/{made.json()['editToken']}")
        where = watched.page.evaluate(POSITIONS_JS)
        if where["details"] is None:
            continue  # a tool without a "Change details" form
        with_form += 1
        in_order = where["links"] < where["details"] < where["danger"]
        if not in_order or where["details"] > PHONE["height"] * 1.5:
            late[tool] = where
    assert with_form >= 15
    assert late == {}
