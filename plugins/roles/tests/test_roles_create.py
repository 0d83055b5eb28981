"""Creating a game: every field rule and message of the spec, briefs and presets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import groupkit_roles

FEW = "Add at least two roles — one per line."
FEW_ROWS = "Add at least two roles: a name on each row, and how many players get it."
MANY = "That's {n} roles — this tool tops out at 40."
PRESETS = json.loads((Path(groupkit_roles.__file__).parent / "static" / "presets.json")
                     .read_text(encoding="utf-8"))


async def stored(api: Any, body: Any) -> dict[str, Any]:
    made = await api.create(body)
    return dict(await api.export(made["editToken"]))


async def test_created_game_is_stored_as_sent(api: Any) -> None:
    game = await stored(api, {"title": "Werewolf", "note": "Be nice.",
                              "roles": ["Wolf", "Wolf", "Seer"], "briefs": {"Wolf": "Eat."}})
    assert (game["title"], game["heading"], game["note"]) == ("Werewolf", "Werewolf", "Be nice.")
    assert game["roles"] == ["Wolf", "Wolf", "Seer"]
    assert game["briefs"] == {"Wolf": "Eat."}
    assert (game["total"], game["dealt"], game["left"]) == (3, 0, 3)
    assert (game["game"], game["round"], game["preset"], game["players"]) == (1, 1, "", [])


@pytest.mark.parametrize("roles", [
    [], ["Wolf"], ["Wolf", "", "   ", "\n\t"], "Wolf\nSeer", None, {"a": "Wolf", "b": "Seer"},
    [None, 5, True, ["Wolf"], "Seer"], 7])
async def test_fewer_than_two_roles(api: Any, roles: Any) -> None:
    assert await api.refused({"title": "x", "roles": roles}) == FEW


async def test_missing_roles_and_bodies_that_are_not_json(api: Any, client: Any) -> None:
    assert await api.refused({"title": "Game"}) == FEW
    assert await api.refused([["Wolf", "Seer"]]) == FEW
    for raw in (b"", b"{roles: [1, 2]}", b"null", b"[1, 2]", b'"roles"'):
        response = await client.post("/api/roles", data=raw,
                                     headers={"Content-Type": "application/json"})
        assert await api.error(response, 400) == FEW


@pytest.mark.parametrize("count", [41, 42, 100, 500])
async def test_more_than_forty_roles(api: Any, count: int) -> None:
    roles = [f"Role {n}" for n in range(count)]
    assert await api.refused({"roles": roles}) == MANY.format(n=count)


async def test_forty_roles_and_blanks_that_do_not_count(api: Any) -> None:
    game = await stored(api, {"roles": ["Villager"] * 40 + ["", "  "] * 5})
    assert game["roles"] == ["Villager"] * 40
    assert game["setup"] == [{"name": "Villager", "count": 40, "brief": ""}]


async def test_roles_are_cleaned_and_duplicates_kept(api: Any) -> None:
    game = await stored(api, {"roles": ["  Werewolf  ", "Were\t\twolf", "Seer\n of\nstars",
                                        "x" * 200, "Seer of stars"]})
    assert game["roles"] == ["Werewolf", "Were wolf", "Seer of stars", "x" * 80,
                             "Seer of stars"]
    assert [group["count"] for group in game["setup"]] == [1, 1, 2, 1]


async def test_title_and_note_are_trimmed_and_truncated(api: Any) -> None:
    game = await stored(api, {"title": "  Friday   night \n game ",
                              "note": "  Line one\r\n\n  two  ", "roles": ["A", "B"]})
    assert game["title"] == "Friday   night \n game"
    assert game["note"] == "Line one\r\n\n  two"
    game = await stored(api, {"title": "t" * 5000, "note": "n" * 5000, "roles": ["A", "B"]})
    assert (game["title"], game["note"]) == ("t" * 80, "n" * 600)


async def test_absent_title_gets_the_default_heading(api: Any) -> None:
    for title in (None, "", "   ", 12, ["Game"]):
        game = await stored(api, {"title": title, "note": 5, "roles": ["A", "B"]})
        assert (game["title"], game["heading"], game["note"]) == ("", "Secret roles", "")


# --- briefs -------------------------------------------------------------------------------

async def test_brief_keys_must_equal_a_cleaned_role_exactly(api: Any) -> None:
    game = await stored(api, {"roles": ["  Owl   Seer ", "Wolf", "Wolf", "Fox"], "briefs": {
        "Owl Seer": "matched after the role was cleaned",
        " Wolf": "key not cleaned: dropped", "wolf": "other case: dropped",
        "Fox ": "dropped", "Fox": "kept", "Bear": "no such role: dropped"}})
    assert game["briefs"] == {"Owl Seer": "matched after the role was cleaned", "Fox": "kept"}


async def test_briefings_normalise_crlf_trim_and_truncate(api: Any) -> None:
    game = await stored(api, {"roles": ["A", "B", "C", "D"], "briefs": {
        "A": "  One\r\ntwo\r\n\r\n  three  \r\n", "B": "b" * 1000,
        "C": "\r\n" + "c" * 599 + "\r\nmore", "D": " \t\n"}})
    assert game["briefs"]["A"] == "One\ntwo\n\n  three"
    assert game["briefs"]["B"] == "b" * 600
    # Trimmed before it is cut, and not trimmed again: the cut can end on a line break.
    assert game["briefs"]["C"] == "c" * 599 + "\n"
    assert "D" not in game["briefs"]


@pytest.mark.parametrize("briefs", [None, "A: brief", ["A", "brief"], 5, True])
async def test_briefs_that_are_not_an_object_mean_none(api: Any, briefs: Any) -> None:
    game = await stored(api, {"roles": ["A", "B"], "briefs": briefs})
    assert game["briefs"] == {}


async def test_the_editors_rows_create_a_game_as_the_page_sends_them(api: Any) -> None:
    """The create page's editor rows, as the kernel's form script or a plain form post
    sends them: a row is `count` players of its role; blank rows (the spare ones a page
    without JavaScript shows) are dropped; a row's brief is its role's briefing."""
    game = await stored(api, {"title": "Werewolf", "roles": [
        {"name": " Wolf ", "count": 2, "brief": "Eat."}, {"name": "Seer", "count": "x"},
        {"name": "", "count": ""}, {"name": "", "count": 3, "brief": "lost"}]})
    assert game["roles"] == ["Wolf", "Wolf", "Seer"]
    assert game["briefs"] == {"Wolf": "Eat."}
    # Too few: said in the editor's words (rows), where the spec's list hears "one per line".
    assert await api.refused({"roles": [{"name": "Wolf"}, {"name": ""}]}) == FEW_ROWS
    assert await api.refused({"roles": [{"name": " ", "count": 4}]}) == FEW_ROWS
    assert (await stored(api, {"roles": [{"name": "Wolf", "count": 2}]}))["roles"] == [
        "Wolf", "Wolf"]
    assert await api.refused({"roles": ["Wolf"]}) == FEW


async def test_empty_and_non_string_briefings_are_dropped(api: Any) -> None:
    game = await stored(api, {"roles": ["A", "B", "C", "D", "E"], "briefs": {
        "A": "", "B": None, "C": 7, "D": ["x"], "E": "kept"}})
    assert game["briefs"] == {"E": "kept"}


async def test_every_slot_of_a_role_gets_its_briefing(api: Any) -> None:
    made = await api.create({"roles": ["Wolf", "Wolf", "Wolf", "Seer"],
                             "briefs": {"Wolf": "Hunt-at-night"}})
    pages = {}
    for name in ("Ann", "Bo", "Cy", "Di"):
        token = await api.joined(made["slug"], name)
        pages[name] = await api.page(f"/p/{token}")
    roles = await api.roles_by_name(made["editToken"])
    assert sorted(roles.values()) == ["Seer", "Wolf", "Wolf", "Wolf"]
    for name, role in roles.items():
        assert ("Hunt-at-night" in pages[name]) == (role == "Wolf")


# --- presets ------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["werewolf", "mafia", "spy", "mystery", "traitors"])
async def test_a_recognised_preset_is_kept_but_roles_come_from_roles(api: Any,
                                                                     preset: str) -> None:
    game = await stored(api, {"roles": ["Alpha", "Beta"], "preset": preset})
    assert game["preset"] == preset
    assert game["roles"] == ["Alpha", "Beta"]


@pytest.mark.parametrize("preset", ["Werewolf", " werewolf", "werewolf ", "chess", "", None,
                                    5, ["werewolf"], {"name": "werewolf"}])
async def test_any_other_preset_is_ignored(api: Any, preset: Any) -> None:
    game = await stored(api, {"roles": ["Alpha", "Beta"], "preset": preset})
    assert game["preset"] == ""


async def test_preset_never_stands_in_for_roles(api: Any) -> None:
    assert await api.refused({"preset": "werewolf"}) == FEW


def test_there_are_five_presets() -> None:
    assert sorted(PRESETS) == ["mafia", "mystery", "spy", "traitors", "werewolf"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
async def test_each_preset_makes_a_valid_game(api: Any, preset: str) -> None:
    rows = PRESETS[preset]["roles"]
    roles = [row["name"] for row in rows for _ in range(row["count"])]
    briefs = {row["name"]: row["brief"] for row in rows}
    game = await stored(api, {"roles": roles, "briefs": briefs, "preset": preset})
    assert game["roles"] == roles
    assert game["briefs"] == briefs
    assert 2 <= len(roles) <= 40
    assert PRESETS[preset]["label"]
