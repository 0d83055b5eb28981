"""What every installed tool must do, checked the moment a tool is installed."""

from __future__ import annotations

import importlib.metadata
from typing import Any

import peewee as pw
import pytest

from groupkit._config import Settings
from groupkit._credentials import ALPHABET
from groupkit._plugins import load_tools
from groupkit._slots import SlotClaim
from groupkit._storage import Credential, Instance
from groupkit.testing import create

INSTALLED = load_tools(Settings()).tools
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


@pytest.fixture(params=sorted(INSTALLED))
def tool_name(request: Any) -> str:
    return str(request.param)


def test_declaration(tool_name: str) -> None:
    tool = INSTALLED[tool_name]
    assert tool.example, "declare a valid example create body"
    assert tool.summary and tool.title
    distribution = importlib.metadata.version(f"groupkit-{tool_name}")
    assert tool.version == distribution
    assert all(isinstance(k, str) and isinstance(v, int) for k, v in tool.limits.items())
    for model in tool.models:
        field = model._meta.fields.get("instance")
        assert isinstance(field, pw.ForeignKeyField) and field.on_delete == "CASCADE"


async def test_lifecycle(tool_name: str, make_app: Any) -> None:
    tool = INSTALLED[tool_name]
    app = make_app(tools=[tool_name])
    client = app.test_client()
    made = await create(client, tool_name, dict(tool.example))
    slug, edit = made["slug"], made["editToken"]
    assert len(edit) == 26 and set(edit) <= set(ALPHABET)
    assert len(slug.rsplit("-", 1)[1]) == 14

    read = await client.get(f"/api/{tool_name}/{slug}")
    assert read.status_code == 200 and isinstance(await read.get_json(), dict)
    for path in (f"/s/{slug}", f"/e/{edit}", f"/new/{tool_name}"):
        page = await client.get(path)
        assert page.status_code == 200, path
        assert page.headers["Referrer-Policy"] == "same-origin"
    assert (await client.post(f"/api/{tool_name}/{edit}/export")).status_code == 200

    document = await (await client.get("/openapi.json")).get_json()
    base = f"/api/{tool_name}"
    for path in (base, f"{base}/{{slug}}", f"{base}/{{editToken}}/delete",
                 f"{base}/{{editToken}}/export"):
        assert path in document["paths"]

    instance_id = Instance.get(Instance.slug == slug).id
    assert (await client.post(f"/api/{tool_name}/{edit}/delete")).status_code == 200
    for model in (*tool.models, Credential, SlotClaim):
        assert model.select().where(model.instance == instance_id).count() == 0
    # The spec words some tools' public-link 404 itself (e.g. the registry's "not found").
    public_404 = {"error": tool.not_found} if tool.not_found else NOT_FOUND
    assert await (await client.get(f"/api/{tool_name}/{slug}")).get_json() == public_404
    assert await (await client.post(f"/api/{tool_name}/{edit}/export")).get_json() == NOT_FOUND
    for path in (f"/s/{slug}", f"/e/{edit}"):
        assert (await client.get(path)).status_code == 404
