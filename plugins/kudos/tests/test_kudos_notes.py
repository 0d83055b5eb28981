"""Notes: the three required fields with the spec's messages in order, the poster's token that
removes their note, the organiser removing any note, and what the wall shows."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from groupkit_kudos.models import KudosNote

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
NOT_FOUND = "Nothing here — check the link you were given."
NO_RECIPIENT = "Who's it for?"
NO_MESSAGE = "Add a line about what they did."
NO_SENDER = "Put your name on it — an anonymous thank-you isn't worth much."
EMPTY = ["", "   ", "\n\t ", None, 0, False, ["Priya"], {"name": "Priya"}]


async def test_a_note_returns_its_token_and_id(api: Any, wall: dict[str, str]) -> None:
    response = await api.post(wall["slug"])
    assert response.status_code == 201
    payload = await response.get_json()
    assert set(payload) == {"token", "id"}
    assert re.fullmatch(rf"[{ALPHABET}]{{22}}", payload["token"])
    view = await api.read(wall["slug"])
    assert view["notes"] == [{"id": payload["id"], "recipient": "Priya",
                              "message": "Fixed the build.", "sender": "Sam",
                              "postedAt": "2026-11-18T02:00:00+00:00", "day": "Wed 18 Nov"}]


async def test_fields_are_cleaned(api: Any, wall: dict[str, str]) -> None:
    await api.posted(wall["slug"], "  Priya \n S. ", "  Stayed late.\r\n\r\n  Thanks!  ",
                     "\tSam  Lee ")
    await api.posted(wall["slug"], "r" * 200, "m" * 2000, "s" * 200)
    first, second = reversed((await api.read(wall["slug"]))["notes"])
    assert (first["recipient"], first["message"], first["sender"]) == (
        "Priya S.", "Stayed late.\n\n  Thanks!", "Sam Lee")
    assert (second["recipient"], second["message"], second["sender"]) == (
        "r" * 60, "m" * 500, "s" * 60)


@pytest.mark.parametrize("value", EMPTY)
async def test_no_recipient(api: Any, wall: dict[str, str], value: Any) -> None:
    response = await api.post(wall["slug"], recipient=value)
    assert await api.error_of(response, 400) == NO_RECIPIENT


@pytest.mark.parametrize("value", EMPTY)
async def test_no_message(api: Any, wall: dict[str, str], value: Any) -> None:
    response = await api.post(wall["slug"], message=value)
    assert await api.error_of(response, 400) == NO_MESSAGE


@pytest.mark.parametrize("value", EMPTY)
async def test_no_sender(api: Any, wall: dict[str, str], value: Any) -> None:
    response = await api.post(wall["slug"], sender=value)
    assert await api.error_of(response, 400) == NO_SENDER


@pytest.mark.parametrize(("body", "message"), [
    ({}, NO_RECIPIENT),
    ({"message": "m", "sender": "s"}, NO_RECIPIENT),
    ({"recipient": "r"}, NO_MESSAGE),
    ({"recipient": "r", "sender": "s"}, NO_MESSAGE),
    ({"recipient": "r", "message": "m"}, NO_SENDER)])
async def test_checks_run_recipient_message_sender(client: Any, api: Any,
                                                   wall: dict[str, str], body: dict[str, Any],
                                                   message: str) -> None:
    response = await client.post("/api/kudos/note", json={"slug": wall["slug"], **body})
    assert await api.error_of(response, 400) == message
    assert KudosNote.select().count() == 0


async def test_unknown_slug_is_404_before_any_field(client: Any, api: Any) -> None:
    for body in ({}, {"slug": "nope-abcdefghjkmnpq"}, {"slug": 12}):
        response = await client.post("/api/kudos/note", json=body)
        assert await api.error_of(response, 404) == NOT_FOUND
    garbage = await client.post("/api/kudos/note", data=b"{{",
                                headers={"Content-Type": "application/json"})
    assert await api.error_of(garbage, 404) == NOT_FOUND


async def test_newest_note_first(api: Any, wall: dict[str, str], clock: Any) -> None:
    for name in ("Ann", "Bo", "Cy"):
        await api.posted(wall["slug"], recipient=name)
        clock.advance(minutes=5)
    assert [n["recipient"] for n in (await api.read(wall["slug"]))["notes"]] == [
        "Cy", "Bo", "Ann"]


# --- the poster removes their own note ----------------------------------------------------

async def test_the_poster_removes_their_note(api: Any, wall: dict[str, str]) -> None:
    mine = await api.posted(wall["slug"], recipient="Ann")
    theirs = await api.posted(wall["slug"], recipient="Bo")
    response = await api.remove_own(mine["token"])
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True}
    assert [n["id"] for n in (await api.read(wall["slug"]))["notes"]] == [theirs["id"]]
    assert await api.error_of(await api.remove_own(mine["token"]), 404) == NOT_FOUND


@pytest.mark.parametrize("token", ["a" * 22, "x", "a" * 26])
async def test_an_unknown_token_removes_nothing(api: Any, wall: dict[str, str],
                                                token: str) -> None:
    await api.posted(wall["slug"])
    assert await api.error_of(await api.remove_own(token), 404) == NOT_FOUND
    assert len((await api.read(wall["slug"]))["notes"]) == 1


async def test_slug_and_edit_token_are_not_note_tokens(api: Any, wall: dict[str, str]) -> None:
    await api.posted(wall["slug"])
    for token in (wall["slug"], wall["editToken"]):
        assert (await api.remove_own(token)).status_code == 404
    assert len((await api.read(wall["slug"]))["notes"]) == 1


# --- the organiser removes any note ---------------------------------------------------------

async def test_the_organiser_removes_any_note(api: Any, wall: dict[str, str]) -> None:
    note = await api.posted(wall["slug"])
    response = await api.remove(wall["editToken"], str(note["id"]))
    assert await response.get_json() == {"ok": True, "removed": True}
    assert (await api.read(wall["slug"]))["notes"] == []
    # The poster's token died with the note.
    assert (await api.remove_own(note["token"])).status_code == 404
    again = await api.remove(wall["editToken"], note["id"])
    assert await again.get_json() == {"ok": True, "removed": False}


@pytest.mark.parametrize("note_id", [
    None, "", "abc", 10_000, -1, 0, 1.5, 10**30, "9" * 40, [1], {"id": 1}])
async def test_removing_no_such_note(api: Any, wall: dict[str, str], note_id: Any) -> None:
    await api.posted(wall["slug"])
    response = await api.remove(wall["editToken"], note_id)
    assert await response.get_json() == {"ok": True, "removed": False}
    assert len((await api.read(wall["slug"]))["notes"]) == 1


async def test_another_walls_note_is_out_of_reach(api: Any, wall: dict[str, str]) -> None:
    other = await api.create({"team": "Other"})
    note = await api.posted(other["slug"])
    response = await api.remove(wall["editToken"], note["id"])
    assert (await response.get_json())["removed"] is False
    assert len((await api.read(other["slug"]))["notes"]) == 1


async def test_remove_needs_the_edit_token(api: Any, wall: dict[str, str]) -> None:
    note = await api.posted(wall["slug"])
    for token in ("c" * 26, wall["slug"]):
        assert (await api.remove(token, note["id"])).status_code == 404


# --- tokens stay with the poster --------------------------------------------------------------

async def test_tokens_never_appear_on_any_page_or_read(api: Any, wall: dict[str, str]) -> None:
    note = await api.posted(wall["slug"])
    places = [json.dumps(await api.read(wall["slug"])), json.dumps(await api.export(
        wall["editToken"])), await api.text(f"/s/{wall['slug']}"),
        await api.text(f"/e/{wall['editToken']}")]
    for place in places:
        assert note["token"] not in place


async def test_delete_takes_notes_and_tokens(client: Any, api: Any,
                                             wall: dict[str, str]) -> None:
    note = await api.posted(wall["slug"])
    assert (await client.post(f"/api/kudos/{wall['editToken']}/delete")).status_code == 200
    assert KudosNote.select().count() == 0
    assert (await api.remove_own(note["token"])).status_code == 404
