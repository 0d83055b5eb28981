"""Where the spec words a 404 for one tool or operation, that wording is used, and still
for every kind of bad link alike (unknown, malformed, wrong tool, deleted)."""

from __future__ import annotations

from typing import Any

import demo_plugin
from groupkit_testing import create

KERNEL_404 = {"error": "Nothing here — check the link you were given."}


async def test_an_operation_words_its_own_404_for_every_bad_link(make_app: Any) -> None:
    app = make_app(tools=["demo", "sweeps"], extra_plugins=[demo_plugin])
    client = app.test_client()
    made = await create(client, "demo", {"title": "Door", "names": ["A"]})
    sweep = await create(client, "sweeps", {"outcomes": ["A", "B"], "names": ["X", "Y"]})
    ok = await client.post("/api/demo/knock", json={"slug": made["slug"]})
    assert await ok.get_json() == {"raw": {"slug": made["slug"]}}
    await client.post(f"/api/demo/{made['editToken']}/delete")
    for slug in ("nope-aaaaaaaaaaaaaa", "x", None, sweep["slug"], made["slug"]):
        response = await client.post("/api/demo/knock", json={"slug": slug})
        assert response.status_code == 404
        assert await response.get_json() == {"error": "Nobody home."}
    other = await client.post("/api/demo/note", json={"slug": made["slug"], "text": "hi"})
    assert await other.get_json() == KERNEL_404


async def test_a_tool_words_its_public_link_404s(make_app: Any) -> None:
    app = make_app(tools=["demo"], extra_plugins=[demo_plugin])
    app.config["GROUPKIT_TOOLS"]["demo"].not_found = "not found"
    client = app.test_client()
    made = await create(client, "demo", {"title": "Door", "names": ["A"]})
    for path in ("/api/demo/nope-aaaaaaaaaaaaaa", "/api/demo/garbage",
                 "/api/demo/nope-aaaaaaaaaaaaaa/events", "/api/demo/nope-aaaaaaaaaaaaaa/count"):
        response = await client.get(path)
        assert (response.status_code, await response.get_json()) == (404, {"error": "not found"})
    note = await client.post("/api/demo/note", json={"slug": "nope-aaaaaaaaaaaaaa", "text": "x"})
    assert await note.get_json() == {"error": "not found"}
    organiser = await client.post("/api/demo/" + "a" * 26 + "/rotate", json={"text": "x"})
    assert await organiser.get_json() == KERNEL_404
    assert (await client.get(f"/api/demo/{made['slug']}")).status_code == 200


async def test_a_null_body_reaches_the_operation_as_null(client: Any) -> None:
    made = await create(client, "demo", {"title": "Door", "names": ["A"]})
    response = await client.post("/api/demo/knock", json={"slug": made["slug"]})
    assert (await response.get_json())["raw"] == {"slug": made["slug"]}
    # A JSON null carries no slug, so it is the operation's 404 before any handler runs.
    response = await client.post("/api/demo/knock", data=b"null",
                                 headers={"Content-Type": "application/json"})
    assert await response.get_json() == {"error": "Nobody home."}
