"""A link the organiser reset is an invalid credential like any other: its page answers 404
(never cached) while still saying what happened, and no API operation takes it. Checked for
every tool that declares `Tool.reset_kinds`, through its own reset operation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing._privacy import installed_tools

#: tool -> (create body, claim operation and body, the private read, the reset body)
RESETS: dict[str, tuple[dict[str, Any], tuple[str, dict[str, Any]], str, dict[str, Any]]] = {
    "kringle": ({"names": ["Ann", "Bo", "Cy"]}, ("claim", {"name": "Ann"}), "p/{token}",
                {"name": "Ann"}),
    "fact": ({"title": "Offsite", "names": ["Ann", "Bo", "Cy"]}, ("claim", {"name": "Ann"}),
             "p/{token}", {"name": "Ann"}),
    "coffee": ({"title": "Coffee", "names": ["Ann", "Bo", "Cy"]}, ("claim", {"name": "Ann"}),
               "p/{token}", {"name": "Ann"}),
}


def test_every_tool_with_reset_links_is_covered() -> None:
    assert {name for name, tool in installed_tools().items() if tool.reset_kinds} == \
        set(RESETS)


@pytest.mark.parametrize("tool", sorted(RESETS))
async def test_an_old_link_after_a_reset_is_a_404_that_still_says_so(
        make_app: Callable[..., Any], tool: str) -> None:
    create, (path, body), read, reset = RESETS[tool]
    client = make_app(tools=[tool]).test_client()
    made = await (await client.post(f"/api/{tool}", json=create)).get_json()
    claimed = await client.post(f"/api/{tool}/{path}", json={"slug": made["slug"], **body})
    assert claimed.status_code in (200, 201), await claimed.get_json()
    token = (await claimed.get_json())["token"]
    before = await client.get(f"/p/{token}")
    assert before.status_code == 200
    done = await client.post(f"/api/{tool}/{made['editToken']}/reset", json=reset)
    assert done.status_code == 200, await done.get_json()
    page = await client.get(f"/p/{token}")
    assert page.status_code == 404
    assert page.headers["Cache-Control"] == "no-store"
    text = await page.get_data(as_text=True)
    assert "reset" in text and f"/s/{made['slug']}" in text  # the notice, with the way back
    unknown = await client.get("/p/" + "x" * len(token))
    assert unknown.status_code == 404
    api = await client.get(f"/api/{tool}/" + read.format(token=token))
    assert api.status_code == 404
    assert await api.get_json() == await (await client.get(
        f"/api/{tool}/" + read.format(token="x" * len(token)))).get_json()
