"""The organiser's edit (`Tool.edit`): partial bodies checked with the create rules, errors
that name their field, reconciliation 409s, confirmation, the form and the OpenAPI entry."""

from __future__ import annotations

import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from groupkit import Call
from groupkit import Count
from groupkit import Edit
from groupkit import Instance
from groupkit import Line
from groupkit import Schema
from groupkit import StringList
from groupkit import Tool
from groupkit import conflict
from groupkit import hookimpl
from groupkit.signups import claim_slot
from groupkit.signups import claims_by_slot
from groupkit.signups import regroup_slots
from groupkit.signups import slot_ids
from groupkit.signups import spot_board
from groupkit_testing import create

HELD = "{name} is held."
SHRUNK = "{name} has {taken}."


class CreateEditable(Schema):
    title = Line(40, required="Name it.")
    names = StringList(20, at_least=Count(1, "Add a name."), distinct='"{name}" twice.')
    note = Line(60)


def current(instance: Instance) -> dict[str, Any]:
    return {"title": instance.title, "names": instance.data["names"],
            "note": instance.data["note"]}


def apply(call: Call) -> dict[str, Any] | None:
    """Dropping a name that voted is refused; a new note asks for confirmation first."""
    if "names" in call.data:
        gone = set(call.instance.data["names"]) - set(call.data["names"])
        if gone & set(call.instance.data.get("voted", [])):
            raise conflict("Someone who voted would go.", "names")
    if "note" in call.data and not call.confirmed:
        raise conflict("That starts again — sure?", "note", confirm=True)
    return call.data


def plugin(templates: Path) -> types.ModuleType:
    module = types.ModuleType("editable_plugin")

    def groupkit_tool() -> Tool:
        return Tool(name="editable", title="Editable", version="1",
                    create_schema=CreateEditable,
                    create=lambda instance, data: setattr(instance, "data", {
                        "names": data["names"], "note": data["note"], "voted": ["Ann"]}),
                    public_view=lambda instance: {"title": instance.title,
                                                  "names": instance.data["names"]},
                    organiser_view=lambda instance: dict(instance.data),
                    templates=templates,
                    edit=Edit(fields=("title", "names", "note"), current=current, apply=apply,
                              errors={409: "Someone who voted would go."}),
                    plugin_api=(1, 1))

    module.groupkit_tool = hookimpl(groupkit_tool)  # type: ignore[attr-defined]
    return module


@pytest.fixture
def client(make_app: Callable[..., Any], tmp_path: Path) -> Any:
    folder = tmp_path / "editable"
    folder.mkdir()
    (folder / "create.html").write_text(
        '{% extends "groupkit/create.html" %}{% block fields %}'
        '{% include "editable/_fields.html" %}{% endblock %}')
    (folder / "public.html").write_text('{% extends "groupkit/public.html" %}')
    (folder / "organiser.html").write_text('{% extends "groupkit/organiser.html" %}')
    (folder / "_fields.html").write_text(
        '<div><label for="{{ prefix }}title">Title</label><input id="{{ prefix }}title" '
        'name="title" value="{{ values.title|default("") }}"></div>'
        '<textarea name="names" data-lines>{{ values.names|default([])|join("\\n") }}'
        '</textarea>')
    app = make_app(tools=["editable"], extra_plugins=[plugin(tmp_path)], entry_points=False)
    return app.test_client()


BODY = {"title": "Lunch", "names": ["Ann", "Bo"], "note": "hi"}


async def edit(client: Any, token: str, body: Any) -> tuple[int, Any]:
    response = await client.post(f"/api/editable/{token}/edit", json=body)
    return response.status_code, await response.get_json()


async def test_only_the_fields_sent_change(client: Any) -> None:
    made = await create(client, "editable", BODY)
    assert await edit(client, made["editToken"], {"title": "  Long   lunch "}) == (
        200, {"ok": True, "changed": ["title"]})
    view = await (await client.get(f"/api/editable/{made['slug']}")).get_json()
    assert view == {"title": "Long lunch", "names": ["Ann", "Bo"]}


async def test_create_rules_and_messages_with_the_field_named(client: Any) -> None:
    made = await create(client, "editable", BODY)
    assert await edit(client, made["editToken"], {"names": ["Cy", "Cy"], "title": ""}) == (
        400, {"error": "Name it.", "field": "title"})
    assert await edit(client, made["editToken"], {"names": ["Cy", "Cy"]}) == (
        400, {"error": '"Cy" twice.', "field": "names"})
    # Every other operation's error body stays exactly the spec's {"error"}.
    response = await client.post("/api/editable", json={"names": ["x"]})
    assert await response.get_json() == {"error": "Name it."}


async def test_a_change_that_loses_participation_is_a_409(client: Any) -> None:
    made = await create(client, "editable", BODY)
    assert await edit(client, made["editToken"], {"names": ["Bo"], "title": "X"}) == (
        409, {"error": "Someone who voted would go.", "field": "names"})
    view = await (await client.get(f"/api/editable/{made['slug']}")).get_json()
    assert view == {"title": "Lunch", "names": ["Ann", "Bo"]}


async def test_a_confirmable_change_needs_confirm_true(client: Any) -> None:
    made = await create(client, "editable", BODY)
    assert await edit(client, made["editToken"], {"note": "new"}) == (
        409, {"error": "That starts again — sure?", "field": "note", "confirm": True})
    assert await edit(client, made["editToken"], {"note": "new", "confirm": "yes"}) == (
        409, {"error": "That starts again — sure?", "field": "note", "confirm": True})
    assert await edit(client, made["editToken"], {"note": "new", "confirm": True}) == (
        200, {"ok": True, "changed": ["note"]})


async def test_unknown_links_and_bodies(client: Any) -> None:
    made = await create(client, "editable", BODY)
    assert (await edit(client, "x" * 26, {"title": "A"}))[0] == 404
    for body in (None, [], "text", 3):
        assert await edit(client, made["editToken"], body) == (200, {"ok": True, "changed": []})


async def test_the_organiser_page_has_the_prefilled_form(client: Any) -> None:
    made = await create(client, "editable", {**BODY, "title": "<b>Lunch</b>"})
    html = await (await client.get(f"/e/{made['editToken']}")).get_data(as_text=True)
    assert f'data-api="/api/editable/{made["editToken"]}/edit"' in html
    assert 'id="edit-title" name="title" value="&lt;b&gt;Lunch&lt;/b&gt;"' in html
    assert "Ann\nBo</textarea>" in html
    page = await (await client.get("/new/editable")).get_data(as_text=True)
    assert 'id="title" name="title" value=""' in page and "Change details" not in page


async def test_openapi_documents_the_edit(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    operation = document["paths"]["/api/editable/{editToken}/edit"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"title", "names", "note", "confirm"}
    assert "required" not in body
    for status in ("400", "409"):
        schema = operation["responses"][status]["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/FieldError"}
    assert document["components"]["schemas"]["FieldError"]["required"] == ["error"]
    assert "/api/editable/{editToken}/delete" in document["paths"]


async def test_regroup_slots_keeps_claims_and_refuses_losing_one(
        make_app: Callable[..., Any]) -> None:
    make_app(tools=[], entry_points=False)
    instance = Instance.create(tool="x", slug="x-1", edit_digest="d", title="")
    old = [{"name": "A", "capacity": 3}, {"name": "B", "capacity": 2}]
    claim_slot(instance, "a0-3", "Ann", {}, "taken")
    claim_slot(instance, "a1-1", "Bo", {}, "taken")
    with pytest.raises(Exception) as refused:
        regroup_slots(instance, old, [{"name": "A", "capacity": 3}], "a",
                      removed=HELD, shrunk=SHRUNK, field="groups")
    assert refused.value.body() == {"error": "B is held.", "field": "groups"}  # type: ignore[attr-defined]
    with pytest.raises(Exception) as shrunk:
        regroup_slots(instance, old, [{"name": "A", "capacity": 0, "was": 0},
                                      {"name": "B", "capacity": 2, "was": 1}], "a",
                      removed=HELD, shrunk=SHRUNK, field="groups")
    assert shrunk.value.body()["error"] == "A has 1."  # type: ignore[attr-defined]
    groups = regroup_slots(instance, old, [{"name": "New", "capacity": 1, "was": None},
                                           {"name": "Bee", "capacity": 2, "was": 1},
                                           {"name": "A", "capacity": 1, "was": 0}], "a",
                           removed=HELD, shrunk=SHRUNK, field="groups")
    # Slot ids stay with their group: a moved group keeps its number, a new one takes a
    # number no group had; a claim beyond the new size moves to the first free spot.
    assert groups == [{"name": "New", "capacity": 1, "slotNumber": 3},
                      {"name": "Bee", "capacity": 2}, {"name": "A", "capacity": 1, "slotNumber": 0}]
    assert slot_ids(groups, "a") == ["a3-1", "a1-1", "a1-2", "a0-1"]
    assert {slot: claim.name for slot, claim in claims_by_slot(instance).items()} == {
        "a1-1": "Bo", "a0-1": "Ann"}
    board = spot_board(instance, groups, "a")
    assert [(group["name"], "slotNumber" in group) for group in board] == [
        ("New", False), ("Bee", False), ("A", False)]
    assert board[2]["spots"][0]["name"] == "Ann"
