"""The sign-up helper (`SignUp`, `signup_operations`): claim, release and remove in the
spec's check order with the tool's own messages, kinds of spot, and the board templates
(`groupkit/signup.html`, `spots.groups`, `spots.organised`) with and without the script."""

from __future__ import annotations

import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from groupkit import Count
from groupkit import Instance
from groupkit import Line
from groupkit import Operations
from groupkit import Schema
from groupkit import Tool
from groupkit import WholeNumber
from groupkit import hookimpl
from groupkit.core._errors import ApiError
from groupkit.core._schema import instance_of
from groupkit.core._schema import load
from groupkit.signups import SignUp
from groupkit.signups import group_lists
from groupkit.signups import group_spots
from groupkit.signups import signup_operations
from groupkit.signups import spot_board
from groupkit.web._forms import SPARE
from groupkit.web._forms import decode
from groupkit.web._forms import row_field
from groupkit.web._forms import without_blank_rows
from groupkit_testing import create

BAD_SLOT, NO_NAME, NO_ITEM = "No such spot.", "Your name, please.", "What are you bringing?"
GROUP_TAKEN, EXTRA_TAKEN, NOT_HELD = "Group spot gone.", "Extra spot gone.", "Not yours."


def spots(instance: Instance) -> dict[str, str]:
    """Two kinds of spot: the groups' (`g<n>-<k>`) and one extra spot (`x-1`)."""
    return {**group_spots("groups", "g")(instance), "x-1": "extra"}


BOARD = SignUp(spots=spots, bad_slot=BAD_SLOT, no_name=NO_NAME,
               taken={"": GROUP_TAKEN, "extra": EXTRA_TAKEN}, not_held=NOT_HELD,
               fields={"item": Line(20), "note": Line(30)}, required={"item": NO_ITEM},
               keeps={"": ("item", "note"), "extra": ("item",)}, release="giveBack")
ops = Operations()
signup_operations(ops, BOARD)


class CreateBoard(Schema):
    title = Line(40)

PUBLIC = """{% extends "groupkit/signup.html" %}
{% import "groupkit/_spots.html" as spots %}
{% block details %}<p>Details</p>{% endblock %}
{% block board %}<div id="board">
{% call(spot, group, number) spots.groups(view.groups, "board", "group") %}
{% if spot.taken %}{% call spots.taken(spot.slotId, spot.name, spot.item) %}
{{ spots.mine("board", slug, spot.slotId, "Give it back", "Sure?", path="giveBack") }}
{% endcall %}{% else %}
{% call spots.open(spot.slotId, group.name ~ " " ~ number, "/api/board/claim",
                   {"slug": slug, "slotId": spot.slotId}) %}
<input name="name"><input name="item">
{% endcall %}{% endif %}
{% endcall %}</div>{% endblock %}"""
ORGANISER = """{% extends "groupkit/organiser.html" %}
{% import "groupkit/_spots.html" as spots %}
{% block organiser %}
{% call(spot, group, number) spots.groups(view.groups, "board", "group", "h3") %}
{{ spots.organised(spot, api, "Take {name} off?", spot.item, note=spot.note) }}
{% endcall %}{% endblock %}"""


def view(instance: Instance, organiser: bool) -> dict[str, Any]:
    def details(claim: Any) -> dict[str, Any]:
        return {key: claim.extra.get(key, "") if claim else None for key in ("item", "note")}
    return {"title": instance.title,
            "groups": spot_board(instance, instance.data["groups"], "g", extra=details,
                                 organiser=organiser)}


TEMPLATES = {"create.html": '{% extends "groupkit/create.html" %}', "public.html": PUBLIC,
             "organiser.html": ORGANISER}


@pytest.fixture
def client(make_app: Callable[..., Any], tmp_path: Path) -> Any:
    """An app with only the board tool, its templates written to a temporary folder."""
    (tmp_path / "board").mkdir()
    for name, text in TEMPLATES.items():
        (tmp_path / "board" / name).write_text(text)
    tool = Tool(name="board", title="Board", version="1", plugin_api=(1, 1),
                create_schema=CreateBoard,
                create=lambda instance, data: setattr(instance, "data", {
                    "groups": [{"name": "Mains", "capacity": 2}]}),
                public_view=lambda instance: view(instance, False),
                organiser_view=lambda instance: view(instance, True),
                operations=ops, templates=tmp_path)
    module = types.SimpleNamespace(groupkit_tool=hookimpl(lambda: tool))
    return make_app(tools=["board"], extra_plugins=[module],
                    entry_points=False).test_client()


async def post(client: Any, path: str, body: Any) -> tuple[int, Any]:
    response = await client.post(path, json=body)
    return response.status_code, await response.get_json()


async def test_claim_checks_slot_then_name_then_required_fields(client: Any) -> None:
    slug = (await create(client, "board", {"title": "Lunch"}))["slug"]
    claim = {"slug": slug, "slotId": "g0-1", "name": "Ann", "item": "Pie", "note": "hot"}
    assert await post(client, "/api/board/claim", {**claim, "slotId": "g9-1", "name": ""}) == (
        400, {"error": BAD_SLOT})
    assert await post(client, "/api/board/claim", {**claim, "slotId": 7}) == (
        400, {"error": BAD_SLOT})
    assert await post(client, "/api/board/claim", {**claim, "name": " ", "item": ""}) == (
        400, {"error": NO_NAME})
    assert await post(client, "/api/board/claim", {**claim, "item": ""}) == (
        400, {"error": NO_ITEM})
    status, body = await post(client, "/api/board/claim", claim)
    assert status == 201 and len(body["secret"]) == 16
    assert await post(client, "/api/board/claim", {**claim, "name": "Bo"}) == (
        409, {"error": GROUP_TAKEN})
    status, _ = await post(client, "/api/board/claim", {**claim, "slotId": "x-1"})
    assert status == 201
    assert await post(client, "/api/board/claim", {**claim, "slotId": "x-1"}) == (
        409, {"error": EXTRA_TAKEN})
    board = await (await client.get(f"/api/board/{slug}")).get_json()
    spot = board["groups"][0]["spots"][0]
    assert (spot["name"], spot["item"], spot["note"]) == ("Ann", "Pie", "hot")


async def test_release_needs_the_secret_and_remove_is_the_organisers(client: Any) -> None:
    made = await create(client, "board", {"title": "Lunch"})
    slug, edit = made["slug"], made["editToken"]
    _, body = await post(client, "/api/board/claim", {
        "slug": slug, "slotId": "g0-2", "name": "Ann", "item": "Pie"})
    release = {"slug": slug, "slotId": "g0-2", "secret": "x" * 16}
    assert await post(client, "/api/board/giveBack", release) == (404, {"error": NOT_HELD})
    assert await post(client, "/api/board/giveBack", {**release, "secret": body["secret"]}) \
        == (200, {"ok": True})
    assert await post(client, "/api/board/giveBack", {**release, "secret": body["secret"]}) \
        == (404, {"error": NOT_HELD})
    await post(client, "/api/board/claim", {
        "slug": slug, "slotId": "g0-1", "name": "Bo", "item": "Cake"})
    assert await post(client, f"/api/board/{edit}/remove", {"slotId": "g5-1"}) == (
        400, {"error": BAD_SLOT})
    assert await post(client, f"/api/board/{edit}/remove", {"slotId": "g0-1"}) == (
        200, {"ok": True, "removed": True})
    assert await post(client, f"/api/board/{edit}/remove", {"slotId": "g0-1"}) == (
        200, {"ok": True, "removed": False})


async def test_the_api_document_names_every_message(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    text = str({path: item for path, item in document["paths"].items() if "/board/" in path})
    for message in (BAD_SLOT, NO_NAME, NO_ITEM, GROUP_TAKEN, EXTRA_TAKEN, NOT_HELD):
        assert message in text


FORM = {"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin"}


async def test_without_the_script_a_blank_name_shows_at_its_field(client: Any) -> None:
    slug = (await create(client, "board", {"title": "Lunch"}))["slug"]
    response = await client.post("/api/board/claim", headers=FORM,
                                 data=f"slug={slug}&slotId=g0-1&name=&item=Pie")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/s/{slug}#groupkit-flash"
    text = (await (await client.get(f"/s/{slug}")).get_data()).decode()
    # The spot's disclosure is open, the message sits after the name with the field marked.
    assert '<details class="spot-claim" name="spot-claim" id="claim-g0-1" open="open">' in text
    assert '<details class="spot-claim" name="spot-claim" id="claim-g0-2">' in text
    assert ('<input name="name" value="" aria-invalid="true" aria-describedby="groupkit-flash" '
            'autofocus="autofocus"><p class="error field-error" id="groupkit-flash"') in text
    assert f'data-field-error="name" role="alert">{NO_NAME}</p>' in text
    assert '<input name="item" value="Pie">' in text


async def test_without_the_script_claim_release_and_remove_post_forms(client: Any) -> None:
    made = await create(client, "board", {"title": "Lunch"})
    slug, edit = made["slug"], made["editToken"]
    response = await client.post("/api/board/claim", headers=FORM,
                                 data=f"slug={slug}&slotId=g0-1&name=Ann&item=Pie")
    assert response.status_code == 303
    text = (await (await client.get(f"/s/{slug}")).get_data()).decode()
    assert "Saved." in text and "Your code to change or release this later" in text
    secret = text.split("release this later: <code>")[1][:16]
    assert '<form class="spot-form" method="post" action="/api/board/giveBack"' in text
    organiser = (await (await client.get(f"/e/{edit}")).get_data()).decode()
    assert f'<form class="action-form" method="post" action="/api/board/{edit}/remove">' \
        in organiser
    assert "Take Ann off?" in organiser and '<span class="spot-extra ">Pie</span>' in organiser
    response = await client.post("/api/board/giveBack", headers=FORM,
                                 data=f"slug={slug}&slotId=g0-1&secret={secret}")
    assert response.status_code == 303 and secret not in response.headers["Location"]
    board = await (await client.get(f"/api/board/{slug}")).get_json()
    assert board["groups"][0]["taken"] == 0


async def test_without_the_script_a_lost_race_opens_the_next_free_spot(client: Any) -> None:
    slug = (await create(client, "board", {"title": "Lunch"}))["slug"]
    await post(client, "/api/board/claim", {"slug": slug, "slotId": "g0-1", "name": "Bo",
                                            "item": "Cake"})
    response = await client.post("/api/board/claim", headers=FORM,
                                 data=f"slug={slug}&slotId=g0-1&name=Ann&item=Pie")
    assert response.status_code == 303
    text = (await (await client.get(f"/s/{slug}")).get_data()).decode()
    assert f'role="alert">{GROUP_TAKEN} Bo got there first.</p>' in text
    # The group's next free spot: open, what Ann typed in it, one button to take it.
    assert '<details class="spot-claim" name="spot-claim" id="claim-g0-2" open="open">' in text
    offered = text.split('id="claim-g0-2"')[1].split("</details>")[0]
    assert '<input name="name" value="Ann"><input name="item" value="Pie">' in offered
    assert '<button type="submit" class="primary">Take Mains 2 instead</button>' in offered
    # Nothing left in the group: it says so.
    await post(client, "/api/board/claim", {"slug": slug, "slotId": "g0-2", "name": "Cy",
                                            "item": "Tart"})
    await client.post("/api/board/claim", headers=FORM,
                      data=f"slug={slug}&slotId=g0-2&name=Ann&item=Pie")
    text = (await (await client.get(f"/s/{slug}")).get_data()).decode()
    assert f"{GROUP_TAKEN} Cy got there first.</p>" \
           '<p class="spot-offer">Every spot in Mains is taken now.</p>' in text


GROUPS, _ = group_lists({"name": Line(40, required="Name it."),
                         "capacity": WholeNumber(1, 20, "1 to 20 spots.")},
                        at_least=Count(1, "Add one."), at_most=Count(4, "Four at most."))


class GroupsBody(Schema):
    title = Line(40, required="Title?")
    groups = GROUPS


@pytest.mark.parametrize(("groups", "failures"), [
    ([{"name": "A", "capacity": 1}, {"name": " ", "capacity": 1}],
     (("groups.1.name", "Name it."),)),
    ([{"name": "A", "capacity": 0}], (("groups.0.capacity", "1 to 20 spots."),)),
    ([], (("groups", "Add one."),)),
])
def test_a_groups_own_error_names_its_row(groups: Any, failures: Any) -> None:
    with pytest.raises(ApiError) as refused:
        load(instance_of(GroupsBody), {"title": "", "groups": groups})
    assert refused.value.message == "Title?"
    assert refused.value.errors == (("title", "Title?"), *failures)
    with pytest.raises(ApiError) as refused:
        load(instance_of(GroupsBody), {"groups": groups}, partial=True)
    assert (refused.value.field, refused.value.message) == failures[0]


def test_blank_spare_rows_are_left_out_and_errors_name_the_forms_row() -> None:
    pairs = [("title", ""), (SPARE, "groups"),
             ("groups.0.name", "A"), ("groups.0.capacity:number", "2"),
             ("groups.1.name", " "), ("groups.1.capacity:number", ""),
             ("groups.2.name", ""), ("groups.2.capacity:number", "3"),
             ("other.0.name", ""), ("other.0.capacity:number", "")]
    kept, rows = without_blank_rows(pairs)
    assert decode(kept) == {"title": "", "groups": [{"name": "A", "capacity": 2},
                                                    {"name": "", "capacity": 3}],
                            "other": [{"name": "", "capacity": ""}]}
    assert rows == {"groups": [0, 2]}
    assert row_field("groups.1.name", rows) == "groups.2.name"
    assert row_field("groups.5.name", rows) == "groups.5.name"
    assert row_field("groups", rows) == "groups"
    assert row_field("other.0.name", rows) == "other.0.name"


def test_clearing_an_existing_row_removes_it_whatever_its_index_says() -> None:
    """An edit form's existing row keeps its hidden `was`; cleared, the row is still blank."""
    pairs = [(SPARE, "groups"),
             ("groups.0.name", "A"), ("groups.0.capacity:number", "2"),
             ("groups.0.was:number", "0"),
             ("groups.1.name", ""), ("groups.1.capacity:number", ""),
             ("groups.1.was:number", "1"),
             ("groups.2.name", "C"), ("groups.2.capacity:number", "1"),
             ("groups.2.was:number", "2")]
    kept, rows = without_blank_rows(pairs)
    assert decode(kept) == {"groups": [{"name": "A", "capacity": 2, "was": 0},
                                       {"name": "C", "capacity": 1, "was": 2}]}
    assert rows == {"groups": [0, 2]}
