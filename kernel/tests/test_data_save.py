"""An operation's save of its instance's `data` is written by the version bump's own UPDATE:
what the operation saved is stored (once, with the bump), an operation that fails stores
nothing, and one that changes nothing the group sees (`changes=False`) still saves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tiny_tool import tiny_plugin

from groupkit import ApiError
from groupkit import Call
from groupkit import Instance
from groupkit import Line
from groupkit import Operations
from groupkit import Schema
from groupkit_testing import create

ops = Operations()


class _Body(Schema):
    word = Line(20)


@ops.public("add", body=_Body)
def add(call: Call) -> dict[str, Any]:
    """Append a word; "boom" is appended, saved, then refused."""
    words = [*call.instance.data["words"], call.data["word"]]
    call.instance.data = {"words": words}
    call.instance.save(only=[Instance.data])
    if call.data["word"] == "boom":
        raise ApiError(409, "no")
    return {"ok": True}


@ops.public("note", body=_Body, changes=False)
def note(call: Call) -> dict[str, Any]:
    """Append a word without telling open pages."""
    call.instance.data = {"words": [*call.instance.data["words"], call.data["word"]]}
    call.instance.save(only=[Instance.data])
    return {"ok": True}


def _plugin(templates: Path) -> object:
    return tiny_plugin("words", ops, templates, {"words": []})


def _stored(slug: str) -> tuple[list[str], int]:
    """The row as stored (read on a connection of the test's own)."""
    row = Instance.get(Instance.slug == slug)
    return row.data["words"], row.version


async def test_a_saved_data_change_is_stored_with_the_version_bump(
        make_app: Any, tmp_path: Path) -> None:
    app = make_app(tools=["words"], entry_points=False, extra_plugins=[_plugin(tmp_path)])
    client = app.test_client()
    slug = (await create(client, "words", {}))["slug"]
    assert _stored(slug) == ([], 0)

    for word in ("soup", "salad"):
        response = await client.post("/api/words/add", json={"slug": slug, "word": word})
        assert response.status_code == 200
    assert _stored(slug) == (["soup", "salad"], 2)

    # Saved, then refused: the transaction stores neither the words nor a new version.
    response = await client.post("/api/words/add", json={"slug": slug, "word": "boom"})
    assert response.status_code == 409
    assert _stored(slug) == (["soup", "salad"], 2)

    # An operation that does not change the instance for the group still saves its data.
    response = await client.post("/api/words/note", json={"slug": slug, "word": "bread"})
    assert response.status_code == 200
    assert _stored(slug) == (["soup", "salad", "bread"], 2)
    assert (await (await client.get(f"/api/words/{slug}")).get_json())["words"] == [
        "soup", "salad", "bread"]
