"""Creating a pulse: every field rule of the spec, and no create ever refused."""

from __future__ import annotations

from typing import Any

import pytest

DEFAULT_QUESTION = "How was your week?"


async def test_empty_body_is_a_pulse_with_the_defaults(api: Any) -> None:
    made = await api.create({})
    view = await api.read(made["slug"])
    assert (view["team"], view["question"], view["askWords"]) == ("", DEFAULT_QUESTION, True)
    assert view["heading"] == "Weekly pulse"
    assert view["title"] == ""


@pytest.mark.parametrize("raw", [b"", b"not json", b"[1, 2]", b"null", b'"text"'])
async def test_unreadable_or_non_object_body_still_creates(client: Any, raw: bytes,
                                                           api: Any) -> None:
    response = await client.post("/api/pulse", data=raw,
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 201
    view = await api.read((await response.get_json())["slug"])
    assert (view["team"], view["question"], view["askWords"]) == ("", DEFAULT_QUESTION, True)


async def test_team_is_c60(api: Any) -> None:
    made = await api.create({"team": "  Platform \n\t team  "})
    view = await api.read(made["slug"])
    assert view["team"] == view["heading"] == view["title"] == "Platform team"
    assert made["slug"].startswith("platform-team-")
    long = await api.read((await api.create({"team": "t" * 5000}))["slug"])
    assert long["team"] == "t" * 60


@pytest.mark.parametrize("team", [None, 42, True, ["Ops"], {"name": "Ops"}])
async def test_non_string_team_reads_as_empty(api: Any, team: Any) -> None:
    view = await api.read((await api.create({"team": team}))["slug"])
    assert view["team"] == ""
    assert view["heading"] == "Weekly pulse"


async def test_question_is_t120_keeping_inner_whitespace(api: Any) -> None:
    made = await api.create({"question": "  How did\n  the sprint   go?  "})
    assert (await api.read(made["slug"]))["question"] == "How did\n  the sprint   go?"
    cut = await api.read((await api.create({"question": " " + "q" * 500}))["slug"])
    assert cut["question"] == "q" * 120


@pytest.mark.parametrize("question", ["", "   ", "\n\t", None, 7, ["How?"]])
async def test_empty_question_gets_the_default(api: Any, question: Any) -> None:
    view = await api.read((await api.create({"question": question}))["slug"])
    assert view["question"] == DEFAULT_QUESTION


@pytest.mark.parametrize(("sent", "expected"), [
    (False, False), (True, True), (None, True), (0, True), ("", True), ("false", True),
    ("no", True), ([], True), ({}, True)])
async def test_only_an_explicit_false_turns_words_off(api: Any, sent: Any,
                                                      expected: bool) -> None:
    view = await api.read((await api.create({"askWords": sent}))["slug"])
    assert view["askWords"] is expected


async def test_missing_ask_words_means_words_are_asked(api: Any) -> None:
    view = await api.read((await api.create({"team": "Ops"}))["slug"])
    assert view["askWords"] is True


async def test_unknown_fields_are_ignored(api: Any) -> None:
    made = await api.create({"team": "Ops", "weeks": 99, "responses": [1, 2, 3]})
    view = await api.read(made["slug"])
    assert view["team"] == "Ops"
    assert [entry["responses"] for entry in view["weeks"]] == [0]


async def test_openapi_documents_the_designed_paths(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    assert "post" in document["paths"]["/api/pulse/respond"]
    assert "post" in document["paths"]["/api/pulse/{editToken}/details"]
    assert "stored apart" in document["paths"]["/api/pulse/respond"]["post"]["description"]
