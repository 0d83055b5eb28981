"""Creating a wall: team C(60), intro T(300), and no create ever refused."""

from __future__ import annotations

from typing import Any

import pytest


async def test_empty_body_is_a_wall(api: Any) -> None:
    view = await api.read((await api.create({}))["slug"])
    assert (view["team"], view["intro"], view["heading"], view["title"]) == (
        "", "", "Kudos wall", "")
    assert (view["notes"], view["archive"]) == ([], [])
    assert (view["thisWeek"], view["label"]) == ("2026-11-16", "Week of 16 Nov 2026")
    assert "older" not in view


async def test_team_and_intro_are_cleaned(api: Any) -> None:
    made = await api.create({"team": "  Support \n desk ",
                             "intro": "  Thanks where\n  it's due.  "})
    view = await api.read(made["slug"])
    assert (view["team"], view["heading"], view["title"]) == ("Support desk",) * 3
    assert view["intro"] == "Thanks where\n  it's due."
    assert made["slug"].startswith("support-desk-")
    long = await api.read((await api.create({"team": "t" * 900, "intro": "i" * 900}))["slug"])
    assert (long["team"], long["intro"]) == ("t" * 60, "i" * 300)


@pytest.mark.parametrize("value", [None, 3, False, ["x"], {"a": "b"}])
async def test_non_strings_read_as_empty(api: Any, value: Any) -> None:
    view = await api.read((await api.create({"team": value, "intro": value}))["slug"])
    assert (view["team"], view["intro"]) == ("", "")


@pytest.mark.parametrize("raw", [b"", b"{", b"[1]", b"true"])
async def test_unreadable_body_still_creates(client: Any, api: Any, raw: bytes) -> None:
    """An empty wall with the defaults, as for `{}`."""
    response = await client.post("/api/kudos", data=raw,
                                 headers={"Content-Type": "application/json"})
    payload = await response.get_json()
    assert response.status_code == 201, payload
    view = await api.read(payload["slug"])
    assert (view["team"], view["intro"], view["heading"], view["title"]) == (
        "", "", "Kudos wall", "")
    assert (view["notes"], view["archive"]) == ([], [])


async def test_openapi_documents_the_designed_paths(client: Any) -> None:
    paths = (await (await client.get("/openapi.json")).get_json())["paths"]
    for path in ("/api/kudos/note", "/api/kudos/n/{token}/remove",
                 "/api/kudos/{editToken}/remove"):
        assert "post" in paths[path], path
