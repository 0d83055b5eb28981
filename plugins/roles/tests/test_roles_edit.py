"""The organiser's edit of a Secret Role Dealer game: title, note and roles change with the
create rules; roles are dealt only to who has joined, every player keeps a role still on
the list (renamed included), and taking away a held role asks first; the edit form and its
answers never say who holds what."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit_testing import edit

ROLES = ["Zebra-Spy", "Zebra-Spy", "Owl-Seer", "Lamb-Villager", "Lamb-Villager",
         "Lamb-Villager"]
CHANGES_HELD = ("This takes away the role {count} who joined already hold{s}: they'll be "
                "dealt a new one from the roles left. Go ahead?")


async def state(api: Any, made: dict[str, str]) -> dict[str, Any]:
    exported = await api.export(made["editToken"])
    return {**exported, "title": (await api.public(made["slug"]))["title"]}


@pytest.mark.parametrize(("field", "sent", "stored"), [
    ("title", " Werewolf  night ", "Werewolf  night"), ("title", "", ""),
    ("note", "Phones away.\r\nNo peeking.", "Phones away.\r\nNo peeking."),
])
async def test_title_and_note_change_alone(api: Any, client: Any, game: dict[str, str],
                                          field: str, sent: str, stored: str) -> None:
    await api.joined(game["slug"], "Ann")
    before = await state(api, game)
    assert await edit(client, "roles", game["editToken"], {field: sent}) == (
        200, {"ok": True, "changed": [field]})
    after = await state(api, game)
    assert after[field] == stored
    keep = {k: v for k, v in after.items() if k not in (field, "heading")}
    assert keep == {k: v for k, v in before.items() if k not in (field, "heading")}


@pytest.mark.parametrize(("roles", "message"), [
    (["Seer", " "], "Add at least two roles — one per line."),
    (["Villager"] * 41, "That's 41 roles — this tool tops out at 40."),
])
async def test_roles_follow_the_create_rules(api: Any, client: Any, game: dict[str, str],
                                             roles: list[str], message: str) -> None:
    before = await state(api, game)
    assert await edit(client, "roles", game["editToken"], {"roles": roles}) == (
        400, {"error": message, "field": "roles"})
    assert await state(api, game) == before


async def test_fewer_roles_than_players_is_the_specs_400(api: Any, client: Any,
                                                         game: dict[str, str]) -> None:
    for name in ("Ann", "Bo", "Cy"):
        await api.joined(game["slug"], name)
    assert await edit(client, "roles", game["editToken"], {"roles": ["Seer", "Spy"]}) == (
        400, {"error": "3 people have already joined — give at least 3 roles, or reset "
                       "someone first.", "field": "roles"})


async def test_players_keep_every_role_still_on_the_list(api: Any, client: Any,
                                                         game: dict[str, str]) -> None:
    tokens = {name: await api.joined(game["slug"], name) for name in ("Ann", "Bo", "Cy")}
    held = await api.roles_by_name(game["editToken"])
    before = await api.held(game["slug"], tokens["Ann"])
    new = [*ROLES, "Fox-Hunter", "Lamb-Villager"]
    assert await edit(client, "roles", game["editToken"], {
        "roles": new, "briefs": {"Fox-Hunter": "Hunt."}}) == (
        200, {"ok": True, "changed": ["briefs", "roles"]})
    assert await api.roles_by_name(game["editToken"]) == held
    assert (await api.held(game["slug"], tokens["Ann"]))["round"] == before["round"]
    view = await api.public(game["slug"])
    assert (view["total"], view["dealt"], view["left"]) == (8, 3, 5)
    assert (await api.export(game["editToken"]))["briefs"] == {"Fox-Hunter": "Hunt."}


async def test_taking_a_held_role_asks_and_deals_only_those_players(
        api: Any, client: Any) -> None:
    made = await api.create({"roles": ["Spy", "Seer", "Villager", "Villager"]})
    for name in ("Ann", "Bo", "Cy", "Di"):
        await api.joined(made["slug"], name)
    held = await api.roles_by_name(made["editToken"])
    spy = next(name for name, role in held.items() if role == "Spy")
    new = ["Wolf", "Seer", "Villager", "Villager"]
    before = await state(api, made)
    assert await edit(client, "roles", made["editToken"], {"roles": new}) == (409, {
        "error": CHANGES_HELD.format(count="1 player", s="s"), "field": "roles",
        "confirm": True})
    assert await state(api, made) == before
    assert (await edit(client, "roles", made["editToken"],
                       {"roles": new, "confirm": True}))[0] == 200
    after = await api.roles_by_name(made["editToken"])
    assert after == {**held, spy: "Wolf"}
    assert (await state(api, made))["round"] == before["round"] + 1
    looked = {player["name"]: player["looked"] for player in
              (await api.export(made["editToken"]))["players"]}
    assert looked[spy] is None


async def test_two_players_losing_roles_are_counted_never_named(api: Any,
                                                                client: Any) -> None:
    made = await api.create({"roles": ["Spy", "Spy", "Villager"]})
    for name in ("Ann", "Bo", "Cy"):
        await api.joined(made["slug"], name)
    status, body = await edit(client, "roles", made["editToken"], {
        "roles": ["Seer", "Seer", "Villager"]})
    assert (status, body["error"]) == (409, CHANGES_HELD.format(count="2 players", s=""))
    assert not {"Ann", "Bo", "Cy", "Spy"} & set(re.findall(r"[\w-]+", body["error"]))


async def test_the_editors_rows_rename_a_role_for_its_holders(api: Any, client: Any) -> None:
    made = await api.create({"roles": ["Werwolf", "Villager", "Villager"],
                             "briefs": {"Werwolf": "Bite."}})
    for name in ("Ann", "Bo", "Cy"):
        await api.joined(made["slug"], name)
    held = await api.roles_by_name(made["editToken"])
    rows = [{"name": "Werewolf", "count": "1", "brief": "Bite at night.", "was": "Werwolf"},
            {"name": "Villager", "count": "2", "brief": "", "was": "Villager"},
            {"name": "Seer", "count": "x", "brief": ""}]
    status, body = await edit(client, "roles", made["editToken"], {"roles": rows})
    assert status == 200, body
    renamed = {name: "Werewolf" if role == "Werwolf" else role for name, role in held.items()}
    assert await api.roles_by_name(made["editToken"]) == renamed
    exported = await api.export(made["editToken"])
    assert exported["roles"] == ["Werewolf", "Villager", "Villager", "Seer"]
    assert exported["briefs"] == {"Werewolf": "Bite at night."}


async def test_the_form_is_prefilled_and_hides_who_holds_what(api: Any, client: Any,
                                                              game: dict[str, str]) -> None:
    for name in ("Ann", "Bo"):
        await api.joined(game["slug"], name)

    async def form() -> str:
        html = await api.page(f"/e/{game['editToken']}")
        found = html[html.index('class="edit-details"'):]
        # The redeal moves the version the form says it shows: not who holds what.
        return re.sub(r'(data-edit-version=|name="groupkit-version" value=)"\d+"', "",
                      found[:found.index("</section>")])

    shown = await form()
    assert f'data-api="/api/roles/{game["editToken"]}/edit"' in shown
    assert 'value="Games night"' in shown and ">Eyes shut when told.</textarea>" in shown
    rows = shown[:shown.index("<template")]
    assert re.findall(r'data-key="count"[^>]*value="(\d+)"', rows) == ["2", "1", "3"]
    assert "Ann" not in shown and "Bo" not in shown
    await api.done(game["editToken"], "redeal")  # whoever holds what, the form is the same
    assert await form() == shown
    page = await api.page("/new/roles")
    assert 'data-key="was"' not in page and 'id="edit-' not in page


async def test_an_edit_reaches_open_pages(api: Any, client: Any, game: dict[str, str]) -> None:
    token = await api.joined(game["slug"], "Ann")
    pages = [f"/s/{game['slug']}", f"/e/{game['editToken']}", f"/p/{token}"]

    def version(html: str) -> int:
        return int(re.search(r'data-live-version="(\d+)"', html).group(1))  # type: ignore[union-attr]

    before = [version(await api.page(path)) for path in pages]
    assert (await edit(client, "roles", game["editToken"], {
        "title": "Werewolf night", "note": "Phones away."}))[0] == 200
    for path, was in zip(pages, before, strict=True):
        html = await api.page(path)
        assert version(html) > was and "Werewolf night" in html
    assert '<div id="roles-from-organiser"><h2>From the organiser</h2>\n<p class="roles-note">' \
           "Phones away.</p></div>" in await api.page(pages[2])


async def test_the_form_sent_back_unchanged_changes_nothing(api: Any, client: Any,
                                                            game: dict[str, str]) -> None:
    """What the page's form posts when the organiser saves without changing anything."""
    for name in ("Ann", "Bo", "Cy"):
        await api.joined(game["slug"], name)
    before = await state(api, game)
    rows = [{"name": group["name"], "count": str(group["count"]), "brief": group["brief"],
             "was": group["name"]} for group in before["setup"]]
    assert await edit(client, "roles", game["editToken"], {
        "title": "Games night", "note": "Eyes shut when told.", "roles": rows}) == (
        200, {"ok": True, "changed": ["briefs", "note", "roles", "title"]})
    assert await state(api, game) == before
