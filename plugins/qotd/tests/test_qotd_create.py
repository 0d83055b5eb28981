"""Creating a board never fails; teamName is C(60) with non-strings converted to text."""

from __future__ import annotations

import re
from typing import Any

import pytest

TAIL = "[23456789abcdefghjkmnpqrstuvwxyz]{14}"


async def made(api: Any, body: Any) -> dict[str, Any]:
    response = await api.client.post("/api/qotd", json=body)
    payload = await response.get_json()
    assert response.status_code == 201, payload
    assert set(payload) == {"slug", "editToken"}
    return {**payload, "view": await api.read(payload["slug"])}


@pytest.mark.parametrize("body", [{}, [], "text", 5, None, {"unknown": "field"},
                                  {"teamName": ""}, {"teamName": "   \n "}])
async def test_bodies_without_a_team_name(api: Any, body: Any) -> None:
    created = await made(api, body)
    assert created["view"]["teamName"] == ""
    assert created["view"]["heading"] == "Question of the day"
    assert re.fullmatch(rf"question-of-the-day-{TAIL}", created["slug"])


async def test_no_body_and_unreadable_bodies(api: Any) -> None:
    """Each makes a board with the defaults: no team name, the plain heading and slug."""
    responses = [await api.client.post("/api/qotd", data=data,
                                       headers={"Content-Type": "application/json"})
                 for data in (b"", b"{broken", b"\xff\xfe")]
    responses.append(await api.client.post("/api/qotd"))
    for response in responses:
        payload = await response.get_json()
        assert response.status_code == 201, payload
        assert re.fullmatch(rf"question-of-the-day-{TAIL}", payload["slug"])
        view = await api.read(payload["slug"])
        assert (view["teamName"], view["heading"]) == ("", "Question of the day")
        assert view["today"]["qi"] < 10_000


@pytest.mark.parametrize(("sent", "stored"), [
    ("  Platform \n\t team  ", "Platform team"), ("x" * 500, "x" * 60),
    (42, "42"), (4.5, "4.5"), (True, "true"), (False, "false"), (None, "null"),
    ([1, "two", None], "1,two,"), ({"name": "Owls"}, "[object Object]")])
async def test_team_name(api: Any, sent: Any, stored: str) -> None:
    created = await made(api, {"teamName": sent})
    assert created["view"]["teamName"] == stored
    assert created["view"]["heading"] == f"{stored}: question of the day"


async def test_other_fields_are_ignored(api: Any) -> None:
    created = await made(api, {"teamName": "Owls", "question": "Mine?", "ring": [1],
                               "custom": {"1": "x"}})
    assert created["view"]["today"]["qi"] < 10_000
    export = await api.export(created["editToken"])
    assert export["custom"] == [] and len(export["rotation"]) > 365


async def test_slug_words_from_the_team_name(api: Any) -> None:
    created = await made(api, {"teamName": "Platform Owls"})
    assert re.fullmatch(rf"platform-owls-question-of-{TAIL}", created["slug"])


async def test_public_view_shape(api: Any, board: dict[str, str]) -> None:
    view = await api.read(board["slug"])
    assert set(view) == {"teamName", "heading", "today"}
    assert set(view["today"]) == {"day", "dayLabel", "qi", "question", "options", "changesAt"}
    assert set(view["today"]["options"]) == {"a", "b"}
    # Pages load with empty bars: the public read carries no split.
    assert "tally" not in view["today"]
