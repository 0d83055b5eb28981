"""Edits that never undo each other (groupkit.core._edits): an edit based on an older
version applies the fields nobody changed since and refuses, naming both values, a field
someone else changed meanwhile; an edit that says nothing of its base behaves as before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.fixture
def client(make_app: Callable[..., Any]) -> Any:
    return make_app().test_client()


async def make_card(client: Any) -> tuple[str, str]:
    made = await (await client.post("/api/card", json={
        "recipient": "Margret", "title": "Farewell", "note": "Sign by Friday"})).get_json()
    return made["slug"], made["editToken"]


async def edit(client: Any, token: str, body: dict[str, Any],
               base: int | str | None = None, tool: str = "card") -> Any:
    headers = {} if base is None else {"If-Match": f'"{base}"' if isinstance(base, int)
                                       else base}
    return await client.post(f"/api/{tool}/{token}/edit", json=body, headers=headers)


async def version_of(client: Any, token: str, tool: str = "card") -> int:
    exported = await client.post(f"/api/{tool}/{token}/export")
    return int(exported.headers["ETag"].strip('"'))


async def test_two_tabs_editing_different_fields_merge(client: Any) -> None:
    slug, token = await make_card(client)
    base = await version_of(client, token)
    first = await edit(client, token, {"recipient": "Margaret"}, base)
    assert first.status_code == 200
    assert first.headers["ETag"] == f'"{base + 1}"'
    second = await edit(client, token, {"title": "Farewell, Margaret"}, base)
    assert second.status_code == 200, await second.get_json()
    shown = await (await client.get(f"/api/card/{slug}")).get_json()
    assert shown["recipient"] == "Margaret"
    assert shown["title"] == "Farewell, Margaret"


async def test_the_same_field_changed_meanwhile_is_a_conflict_with_both_values(
        client: Any) -> None:
    slug, token = await make_card(client)
    base = await version_of(client, token)
    assert (await edit(client, token, {"recipient": "Margaret"}, base)).status_code == 200
    late = await edit(client, token, {"recipient": "Marg", "note": "By Monday"}, base)
    assert late.status_code == 409
    body = await late.get_json()
    assert body["field"] == "recipient"
    assert body["error"] == (
        "Someone else saved a change while you were editing — recipient is now “Margaret” "
        "(yours: “Marg”). Keep theirs, or send yours again to replace it.")
    assert body["conflicts"] == [{
        "field": "recipient", "theirs": "Margaret", "yours": "Marg",
        "text": "Changed by someone else to “Margaret”; yours is “Marg”."}]
    assert body["version"] == base + 1  # the refused edit made no version
    shown = await (await client.get(f"/api/card/{slug}")).get_json()
    assert shown["recipient"] == "Margaret"  # nothing applied, not even the note
    assert shown.get("note") != "By Monday"
    again = await edit(client, token, {"recipient": "Marg", "note": "By Monday"},
                       body["version"])
    assert again.status_code == 200
    shown = await (await client.get(f"/api/card/{slug}")).get_json()
    assert shown["recipient"] == "Marg"


async def test_the_same_change_made_twice_is_no_conflict(client: Any) -> None:
    _, token = await make_card(client)
    base = await version_of(client, token)
    assert (await edit(client, token, {"recipient": "Margaret"}, base)).status_code == 200
    assert (await edit(client, token, {"recipient": "Margaret"}, base)).status_code == 200


async def test_without_a_base_every_field_applies_as_before(client: Any) -> None:
    slug, token = await make_card(client)
    assert (await edit(client, token, {"recipient": "Margaret"})).status_code == 200
    answer = await edit(client, token, {"recipient": "Marg"})
    assert answer.status_code == 200
    assert (await answer.get_json())["changed"] == ["recipient"]
    shown = await (await client.get(f"/api/card/{slug}")).get_json()
    assert shown["recipient"] == "Marg"


@pytest.mark.parametrize("header", ['W/"3"', "3", '"3"'])
async def test_if_match_forms(client: Any, header: str) -> None:
    _, token = await make_card(client)
    assert (await edit(client, token, {"note": "x"}, header)).status_code == 200


@pytest.mark.parametrize("header", ["*", '"seven"', '"-1"', '"1", "2"'])
async def test_a_bad_if_match_is_a_400_after_the_404(client: Any, header: str) -> None:
    _, token = await make_card(client)
    answer = await edit(client, token, {"note": "x"}, header)
    assert answer.status_code == 400
    assert (await answer.get_json())["error"].startswith("If-Match takes the version")
    wrong = await edit(client, "x" * len(token), {"note": "x"}, header)
    assert wrong.status_code == 404


# --- every tool's edit ---------------------------------------------------------------------

from groupkit_testing._privacy import installed_tools  # noqa: E402

EDITABLE = sorted(name for name, tool in installed_tools().items() if tool.edit is not None)


def changed(value: Any, mark: str) -> Any:
    """A value like `value` with one text in it changed (None when it holds no text)."""
    if isinstance(value, str):
        return f"{value} {mark}".strip()
    if isinstance(value, list) and value:
        first = changed(value[0], mark)
        return None if first is None else [first, *value[1:]]
    if isinstance(value, dict):  # a row: its longest text (a name, not an id)
        texts = [key for key, inner in value.items() if isinstance(inner, str) and inner]
        if texts:
            key = max(texts, key=lambda k: len(value[k]))
            return {**value, key: f"{value[key]} {mark}"}
    return None


async def current_values(app: Any, tool: str, slug: str) -> dict[str, Any]:
    from groupkit import Instance
    storage = app.config["GROUPKIT_STORAGE"]

    def read() -> dict[str, Any]:
        instance = Instance.get(Instance.slug == slug)
        return dict(installed_tools()[tool].edit.current(instance))
    return dict(await storage.read(read))


async def changeable(client: Any, app: Any, tool: str) -> list[str]:
    """The edit fields whose text the tool takes changed, found by trying each on an
    instance of its own."""
    found = []
    for field in installed_tools()[tool].edit.fields:
        slug, token = await example(client, tool)
        now = (await current_values(app, tool, slug)).get(field)
        second = changed(now, "B")
        if second is None:
            continue
        tried = await edit(client, token, {field: second}, tool=tool)
        if tried.status_code == 200 and (await current_values(app, tool, slug))[field] != now:
            found.append(field)  # else refused, or taken as the same (a deck's name, say)
    return found


async def example(client: Any, tool: str) -> tuple[str, str]:
    made = await (await client.post(f"/api/{tool}",
                                    json=dict(installed_tools()[tool].example))).get_json()
    return made["slug"], made["editToken"]


@pytest.mark.parametrize("tool", EDITABLE)
async def test_every_tools_edit_checks_the_version(make_app: Callable[..., Any],
                                                   tool: str) -> None:
    app = make_app(tools=[tool])
    client = app.test_client()
    fields = await changeable(client, app, tool)
    assert fields, f"{tool}: no edit field took a changed text; give the test a value"
    for field in fields:
        slug, token = await example(client, tool)
        now = await current_values(app, tool, slug)
        first, second = changed(now[field], "A"), changed(now[field], "B")
        base = await version_of(client, token, tool)
        assert (await edit(client, token, {field: first}, base, tool)).status_code == 200
        kept = (await current_values(app, tool, slug))[field]
        late = await edit(client, token, {field: second}, base, tool)
        assert late.status_code == 409, (tool, field, await late.get_json())
        body = await late.get_json()
        assert [c["field"] for c in body["conflicts"]] == [field]
        assert body["conflicts"][0]["theirs"] == kept
        assert (await current_values(app, tool, slug))[field] == kept
        same = await edit(client, token, {field: first}, base, tool)
        assert same.status_code == 200, (tool, field, await same.get_json())
        again = await edit(client, token, {field: second}, body["version"], tool)
        assert again.status_code == 200, (tool, field, await again.get_json())
        mine = (await current_values(app, tool, slug))[field]
        assert mine != kept
        others = [other for other in fields if other != field]
        if others:  # a stale edit of another field merges, and leaves this one as it is
            stale = await edit(client, token, {others[0]: changed(now[others[0]], "C")},
                               base, tool)
            assert stale.status_code == 200, (tool, field, await stale.get_json())
            assert (await current_values(app, tool, slug))[field] == mine


async def test_a_participants_change_to_an_edit_field_counts(client: Any) -> None:
    """A suggestion adds a poll option: an organiser's edit of the options based on the page
    before it is a conflict, never the suggestion silently dropped."""
    made = await (await client.post("/api/poll", json={
        "question": "Lunch?", "options": ["Thai", "Pub"], "allowSuggestions": True})).get_json()
    token = made["editToken"]
    base = await version_of(client, token, "poll")
    voted = await client.post("/api/poll/vote", json={
        "slug": made["slug"], "choices": [], "suggestion": "Picnic"})
    assert voted.status_code == 201, await voted.get_json()
    late = await edit(client, token, {"options": ["Thai", "Pub bistro"]}, base, "poll")
    assert late.status_code == 409
    conflict = (await late.get_json())["conflicts"][0]
    assert conflict["field"] == "options"
    assert [option["text"] for option in conflict["theirs"]] == ["Thai", "Pub", "Picnic"]
    question = await edit(client, token, {"question": "Lunch on Friday?"}, base, "poll")
    assert question.status_code == 200


# --- the organiser page's form, without the script -----------------------------------------

from urllib.parse import urlencode  # noqa: E402

from lxml import html as lxml_html  # noqa: E402

FORM = {"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin"}


async def edit_form(client: Any, token: str) -> tuple[Any, list[tuple[str, str]]]:
    """The organiser page's edit form and the pairs a browser posts from it unchanged."""
    page = lxml_html.document_fromstring(await (await client.get(f"/e/{token}")).get_data(
        as_text=True))
    form = page.get_element_by_id("edit-form")
    return form, [(name, value.replace("\n", "\r\n")) for name, value in form.form_values()]


def typed(pairs: list[tuple[str, str]], **changes: str) -> list[tuple[str, str]]:
    return [(name, changes.get(name, value)) for name, value in pairs]


async def post_form(client: Any, token: str, tool: str, pairs: list[tuple[str, str]]
                    ) -> Any:
    """Post as a browser without the script does, then read the page it lands on."""
    posted = await client.post(f"/api/{tool}/{token}/edit", data=urlencode(pairs),
                               headers={**FORM, "Referer": f"http://localhost/e/{token}"})
    assert posted.status_code == 303
    landed = await client.get(posted.headers["Location"].split("#")[0])
    return lxml_html.document_fromstring(await landed.get_data(as_text=True))


async def test_a_stale_form_without_the_script_changes_only_what_was_typed(client: Any
                                                                           ) -> None:
    slug, token = await make_card(client)
    _, stale = await edit_form(client, token)  # tab 2 opened
    assert (await edit(client, token, {"recipient": "Margaret"})).status_code == 200  # tab 1
    page = await post_form(client, token, "card", typed(stale, title="Farewell, Margaret"))
    assert "Saved." in page.text_content()
    shown = await (await client.get(f"/api/card/{slug}")).get_json()
    assert (shown["recipient"], shown["title"]) == ("Margaret", "Farewell, Margaret")


async def test_a_conflict_without_the_script_offers_the_choice_at_the_field(client: Any
                                                                            ) -> None:
    slug, token = await make_card(client)
    _, stale = await edit_form(client, token)
    assert (await edit(client, token, {"recipient": "Margaret", "note": "Friday!"})
            ).status_code == 200
    page = await post_form(client, token, "card",
                           typed(stale, recipient="Marg", title="Farewell, Marg"))
    form = page.get_element_by_id("edit-form")
    box = form.xpath('.//*[@data-conflict="recipient"]')[0]
    assert box.text_content().startswith("Changed by someone else to “Margaret”; yours is “Marg”.")
    assert [(b.get("name"), b.get("value"), b.text) for b in box.iter("button")] == [
        ("groupkit-theirs", "recipient", "Keep theirs"), ("groupkit-mine", "recipient",
                                                          "Use mine")]
    fields = dict(form.form_values())
    # what the person changed is back in the form; the rest shows the values saved since
    assert (fields["recipient"], fields["title"], fields["note"]) == (
        "Marg", "Farewell, Marg", "Friday!")
    nothing = await (await client.get(f"/api/card/{slug}")).get_json()
    assert (nothing["recipient"], nothing["title"]) == ("Margaret", "Farewell")
    # one tap: keep theirs, and the title (not in conflict) goes through
    again = [(n, v.replace("\n", "\r\n")) for n, v in form.form_values()]
    page = await post_form(client, token, "card", [*again, ("groupkit-theirs", "recipient")])
    shown = await (await client.get(f"/api/card/{slug}")).get_json()
    assert (shown["recipient"], shown["title"], shown["note"]) == (
        "Margaret", "Farewell, Marg", "Friday!")


async def test_use_mine_without_the_script(client: Any) -> None:
    slug, token = await make_card(client)
    _, stale = await edit_form(client, token)
    assert (await edit(client, token, {"recipient": "Margaret"})).status_code == 200
    page = await post_form(client, token, "card", typed(stale, recipient="Marg"))
    form = page.get_element_by_id("edit-form")
    again = [(n, v.replace("\n", "\r\n")) for n, v in form.form_values()]
    await post_form(client, token, "card", [*again, ("groupkit-mine", "recipient")])
    assert (await (await client.get(f"/api/card/{slug}")).get_json())["recipient"] == "Marg"


async def test_after_another_error_the_form_keeps_its_base(client: Any) -> None:
    """A 400 puts back everything typed, and the version the form was based on: saving
    again still changes only what the person typed."""
    slug, token = await make_card(client)
    _, stale = await edit_form(client, token)
    assert (await edit(client, token, {"note": "Friday!"})).status_code == 200
    page = await post_form(client, token, "card", typed(stale, recipient=" ", title="Bye"))
    form = page.get_element_by_id("edit-form")
    assert form.xpath('.//*[@aria-invalid="true"]')[0].get("name") == "recipient"
    again = typed([(n, v.replace("\n", "\r\n")) for n, v in form.form_values()],
                  recipient="Margaret")
    await post_form(client, token, "card", again)
    shown = await (await client.get(f"/api/card/{slug}")).get_json()
    assert (shown["recipient"], shown["title"], shown["note"]) == ("Margaret", "Bye", "Friday!")


async def test_a_stale_board_form_keeps_the_category_added_meanwhile(make_app: Any) -> None:
    client = make_app(tools=["plate"]).test_client()
    made = await (await client.post("/api/plate", json={
        "title": "Picnic", "categories": [{"name": "Mains", "capacity": 2}]})).get_json()
    token = made["editToken"]
    _, stale = await edit_form(client, token)
    added = await edit(client, token, {"categories": [
        {"name": "Mains", "capacity": 2, "was": 0}, {"name": "Snacks", "capacity": 3}]},
        tool="plate")
    assert added.status_code == 200, await added.get_json()
    await post_form(client, token, "plate", typed(stale, title="Picnic at noon"))
    board = await (await client.get(f"/api/plate/{made['slug']}")).get_json()
    assert board["title"] == "Picnic at noon"
    assert [c["name"] for c in board["categories"]] == ["Mains", "Snacks"]


async def test_a_pages_script_is_told_the_conflict_in_its_readers_language(
        make_app: Callable[..., Any], tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The API's conflict is the English; a page's script (`X-Groupkit-Errors: all`) is also
    told the message and each field's line as its reader sees them (`shown`)."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    from groupkit.core import _edits as edits
    from groupkit.core import _i18n as i18n

    catalog = Catalog(locale="de", domain="groupkit")
    catalog.add(edits.CONFLICT, "Jemand war schneller — {changes}.")
    catalog.add(edits.FIELD_NOW, "{field} ist jetzt {theirs} (deins: {mine})")
    catalog.add(edits.CHANGED, "Jetzt {theirs}; deins: {mine}.")
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "groupkit.mo").open("wb") as out:
        write_mo(out, catalog)
    monkeypatch.setattr(i18n, "KERNEL_LOCALE", tmp_path)
    client = make_app().test_client()
    _, token = await make_card(client)
    base = await version_of(client, token)
    assert (await edit(client, token, {"recipient": "Margaret"}, base)).status_code == 200
    late = await client.post(f"/api/card/{token}/edit", json={"recipient": "Marg"}, headers={
        "If-Match": f'"{base}"', "X-Groupkit-Errors": "all", "Accept-Language": "de"})
    body = await late.get_json()
    assert body["error"] == (
        "Someone else saved a change while you were editing — recipient is now “Margaret” "
        "(yours: “Marg”). Keep theirs, or send yours again to replace it.")
    assert body["shown"] == "Jemand war schneller — recipient ist jetzt “Margaret” (deins: “Marg”)."
    assert body["conflicts"][0]["text"] == "Changed by someone else to “Margaret”; yours is “Marg”."
    assert body["conflicts"][0]["shown"] == "Jetzt “Margaret”; deins: “Marg”."


def test_a_conflicts_empty_and_yes_no_values_are_said_in_the_readers_language() -> None:
    from groupkit.core import _edits as edits
    from groupkit.core import _i18n as i18n

    said = edits.EditConflict(3, [("note", "", "Bring cake"), ("open", True, False)])
    assert said.message == ("Someone else saved a change while you were editing — note is "
                            "now empty (yours: “Bring cake”); open is now yes (yours: no). "
                            "Keep theirs, or send yours again to replace them.")
    with i18n.speaking(i18n.Catalogs.of([]), "de"):
        german = i18n.translated(said.message)
    assert "leer" in german and "ja" in german and "nein" in german, german
