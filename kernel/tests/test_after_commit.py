"""`AfterCommit(fn)`: a write's reply computed after its COMMIT, in a read transaction of its
own, from the committed state, with the operation's status; a write that fails never calls
it. Derived results computed there never hold the write lock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tiny_tool import tiny_plugin

from groupkit import AfterCommit
from groupkit import ApiError
from groupkit import Call
from groupkit import Instance
from groupkit import Line
from groupkit import Operations
from groupkit import Schema
from groupkit_testing import create

ops = Operations()
#: What happened, in order: "held" when a write let go of the write lock, "reply" when a
#: deferred reply was computed.
EVENTS: list[str] = []


class _Body(Schema):
    word = Line(20)


@ops.public("add", body=_Body, status=201)
def add(call: Call) -> AfterCommit:
    """Append a word; the reply counts the words as committed. "boom" is refused."""
    call.instance.data = {"words": [*call.instance.data["words"], call.data["word"]]}
    call.instance.save(only=[Instance.data])
    if call.data["word"] == "boom":
        raise ApiError(409, "no")
    instance_id, word = call.instance.id, call.data["word"]

    def reply() -> dict[str, Any]:
        EVENTS.append("reply")
        stored = Instance.get_by_id(instance_id)
        return {"added": word, "words": len(stored.data["words"]), "version": stored.version}
    return AfterCommit(reply)


def _plugin(templates: Path) -> object:
    return tiny_plugin("later", ops, templates, {"words": []})


async def test_the_reply_is_computed_after_the_commit(make_app: Any, tmp_path: Path) -> None:
    app = make_app(tools=["later"], entry_points=False, extra_plugins=[_plugin(tmp_path)])
    app.config["GROUPKIT_STORAGE"].lock_observer = lambda seconds: EVENTS.append("held")
    client = app.test_client()
    slug = (await create(client, "later", {}))["slug"]
    EVENTS.clear()

    response = await client.post("/api/later/add", json={"slug": slug, "word": "soup"})
    assert response.status_code == 201
    assert await response.get_json() == {"added": "soup", "words": 1, "version": 1}
    assert EVENTS == ["held", "reply"]  # the write had let go of the lock
    assert response.headers["Cache-Control"] == "no-store"

    EVENTS.clear()
    refused = await client.post("/api/later/add", json={"slug": slug, "word": "boom"})
    assert refused.status_code == 409
    assert EVENTS == ["held"]  # nothing to answer but the refusal
    read = await (await client.get(f"/api/later/{slug}")).get_json()
    assert read == {"words": ["soup"]}
