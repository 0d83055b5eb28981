"""Entries with their removal tokens, and the shared reply schemas."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from test_storage import _with_tables

import demo_plugin
from groupkit import PARTICIPANT_TOKEN_LENGTH
from groupkit import ApiError
from groupkit import Credential
from groupkit import Instance
from groupkit import checked_in_order
from groupkit import find_token
from groupkit import issue_token
from groupkit.blocks._webhooks import ChatPost
from groupkit.core._storage import Storage
from groupkit.entries import OK_REPLY
from groupkit.entries import Entries
from groupkit.entries import claim_once
from groupkit.entries import entries_schema
from groupkit.entries import ok_reply
from groupkit.entries import token_reply

GONE = "That note isn't here any more."
NOTES = Entries(demo_plugin.Note, "note", GONE, code="id")


@pytest.fixture
def storage(database_url: str) -> Any:
    opened = _with_tables(database_url)
    yield opened
    opened.close()


def _instance(slug: str) -> Instance:
    return Instance.create(tool="demo", slug=slug, edit_digest=slug)


def _status(call: Any) -> tuple[int, str] | None:
    try:
        call()
    except ApiError as error:
        return error.status, error.message
    return None


def test_room_find_and_remove(storage: Storage) -> None:
    def work() -> dict[str, Any]:
        board, other = _instance("entries-board"), _instance("entries-other")
        first = demo_plugin.Note.create(instance=board, text="one")
        token = issue_token(board, "note", str(first.id), keep_plain=True)
        hidden = demo_plugin.Note.create(instance=board, text="two")
        issue_token(board, "note", str(hidden.id))
        elsewhere = demo_plugin.Note.create(instance=other, text="three")
        own = Credential.get(Credential.ref == str(first.id))
        found = {
            "room": _status(lambda: NOTES.make_room(board, 3, "Full.")),
            "full": _status(lambda: NOTES.make_room(board, 2, "Full.")),
            "find": NOTES.find(board, first.id).text,
            "other instance": _status(lambda: NOTES.find(board, elsewhere.id)),
            "by token": NOTES.find_by_token(board, token).text,
            "bad token": _status(lambda: NOTES.find_by_token(board, "x" * 22)),
            "own": NOTES.find_own(board, own).text,
            "no credential": _status(lambda: NOTES.find_own(board, None)),
            "plain": NOTES.plain_tokens(board),
        }
        NOTES.remove(board, first)
        found["after remove"] = (_status(lambda: NOTES.find(board, first.id)),
                                 find_token(board, "note", token))
        found["remove code"] = (NOTES.remove_code(board, hidden.id),
                                NOTES.remove_code(board, hidden.id),
                                NOTES.remove_code(board, None),
                                NOTES.remove_code(board, elsewhere.id))
        found["left"] = (demo_plugin.Note.select().count(),
                         Credential.select().where(Credential.instance == board).count())
        found["token"] = token
        return found

    found = storage.run_sync(work)
    assert found["room"] is None
    assert found["full"] == (409, "Full.")
    assert found["find"] == "one" and found["by token"] == "one" and found["own"] == "one"
    assert found["other instance"] == found["bad token"] == (404, GONE)
    assert found["no credential"] == (404, GONE)
    assert list(found["plain"].values()) == [found["token"]]  # only the one kept readable
    assert found["after remove"] == ((404, GONE), None)
    assert found["remove code"] == (True, False, False, False)
    assert found["left"] == (1, 0)


def test_missing_defaults_to_the_kernels_not_found(storage: Storage) -> None:
    def work() -> tuple[int, str] | None:
        board = _instance("entries-default")
        return _status(lambda: Entries(demo_plugin.Note, "note", code="id").find(board, 1))

    assert storage.run_sync(work) == (404, "Nothing here — check the link you were given.")


def test_reply_schemas() -> None:
    assert OK_REPLY == {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    token = {"type": "string", "minLength": PARTICIPANT_TOKEN_LENGTH,
             "maxLength": PARTICIPANT_TOKEN_LENGTH, "description": "opens /p/{token}"}
    assert token_reply("opens /p/{token}") == {"type": "object", "properties": {
        "token": token}}
    assert token_reply("opens /p/{token}", "the id") == {"type": "object", "properties": {
        "token": token, "id": {"type": "string", "description": "the id"}}}
    assert token_reply("opens /p/{token}", id_type="integer") == {
        "type": "object", "properties": {"token": token, "id": {"type": "integer"}}}
    assert ok_reply(removed="false when gone") == {"type": "object", "properties": {
        "ok": {"type": "boolean"},
        "removed": {"type": "boolean", "description": "false when gone"}}}


def test_a_listing_view_names_its_limit_and_order() -> None:
    item = {"type": "object", "properties": {"id": {"type": "string"}}}
    assert entries_schema("ideas", item, limit="most ideas a board holds",
                          order="most votes first") == {
        "limit": {"type": "integer", "description": "most ideas a board holds"},
        "ideas": {"type": "array", "description": "most votes first", "items": item}}


def test_an_error_text_lists_the_checks_in_order() -> None:
    assert checked_in_order(("name empty", "Add a name."), ("board full", "It's full.")) == (
        "Checked in this order: name empty: `Add a name.`; board full: `It's full.`")
    # A bare condition (its message given elsewhere) and a closing sentence.
    assert checked_in_order("unknown slug", ("not a day", "No such day."),
                            then="The note is cut silently.") == (
        "Checked in this order: unknown slug; not a day: `No such day.`. "
        "The note is cut silently.")
    assert checked_in_order(("only", "One.")) == "Checked in this order: only: `One.`"


def test_numeric_codes_refuse_what_names_no_number(storage: Storage) -> None:
    def work() -> tuple[Any, ...]:
        board = _instance("entries-numeric")
        note = demo_plugin.Note.create(instance=board, text="one")
        return (NOTES.find(board, str(note.id)).text,
                _status(lambda: NOTES.find(board, "abc")),
                _status(lambda: NOTES.find(board, "1; DROP")),
                NOTES.remove_code(board, "x"), NOTES.remove_code(board, str(note.id)))

    assert storage.run_sync(work) == ("one", (404, GONE), (404, GONE), False, True)


def test_claim_once_lets_one_claimer_win(storage: Storage) -> None:
    first = dt.datetime(2026, 11, 23, 6, 43, tzinfo=dt.UTC)

    def work() -> tuple[Any, ...]:
        board = _instance("entries-claim")
        # A chat post's `finished` is a time that is null until set: it stands in for a name.
        post = ChatPost.create(instance=board, key="k", text="t")
        claim_once(post, ChatPost.finished, first, "Taken.")
        second = _status(lambda: claim_once(post, ChatPost.finished,
                                            first + dt.timedelta(hours=1), "Taken."))
        return ChatPost.get_by_id(post.id).finished, second

    assert storage.run_sync(work) == (first, (409, "Taken."))
