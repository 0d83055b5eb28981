"""The tool's behaviour through its JSON API and pages, against a real database."""

from __future__ import annotations

from typing import Any

import groupkit_mytool.api as api
from groupkit_testing import create

NOT_FOUND = {"error": "Nothing here — check the link you were given."}


async def test_create_needs_a_title(client: Any) -> None:
    response = await client.post("/api/mytool", json={"prompt": "Hi"})
    assert response.status_code == 400
    assert await response.get_json() == {"error": "Give your board a title."}


async def test_notes_are_added_shown_and_removed(client: Any) -> None:
    board = await create(client, "mytool", {"title": "Shout-outs", "prompt": "Who helped?"})
    added = await client.post("/api/mytool/add", json={
        "slug": board["slug"], "name": "Ann", "text": "<b>Bo</b> fixed the printer"})
    assert added.status_code == 201
    public = await (await client.get(f"/api/mytool/{board['slug']}")).get_json()
    assert public["entries"] == [{"name": "Ann", "text": "<b>Bo</b> fixed the printer"}]
    page = await (await client.get(f"/s/{board['slug']}")).get_data(as_text=True)
    assert "&lt;b&gt;Bo&lt;/b&gt;" in page and "<b>Bo</b>" not in page
    note_id = (await added.get_json())["id"]
    removed = await client.post(f"/api/mytool/{board['editToken']}/remove",
                                json={"id": note_id})
    assert removed.status_code == 200
    again = await client.post(f"/api/mytool/{board['editToken']}/remove", json={"id": note_id})
    assert again.status_code == 404 and await again.get_json() == NOT_FOUND


async def test_messages_come_in_field_order(client: Any) -> None:
    board = await create(client, "mytool", {"title": "Shout-outs"})
    response = await client.post("/api/mytool/add", json={"slug": board["slug"]})
    assert await response.get_json() == {"error": "Add your name."}
    response = await client.post("/api/mytool/add", json={"slug": board["slug"], "name": "A"})
    assert await response.get_json() == {"error": "Write something first."}


async def test_the_board_holds_at_most_max_entries(client: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(api, "MAX_ENTRIES", 2)
    board = await create(client, "mytool", {"title": "Tiny"})
    body = {"slug": board["slug"], "name": "A", "text": "hi"}
    for _ in range(2):
        assert (await client.post("/api/mytool/add", json=body)).status_code == 201
    full = await client.post("/api/mytool/add", json=body)
    assert full.status_code == 409 and await full.get_json() == {"error": api.FULL}


async def test_unknown_links_are_the_kernels_404(client: Any) -> None:
    response = await client.post("/api/mytool/add", json={"slug": "nope-aaaaaaaaaaaaaa",
                                                          "name": "A", "text": "b"})
    assert response.status_code == 404 and await response.get_json() == NOT_FOUND
